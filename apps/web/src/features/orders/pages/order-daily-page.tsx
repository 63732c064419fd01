import { orderDailyBodySchema, orderCohortBodySchema, ORDER_DAILY_EXPORT_COLUMNS, type OrderDailyResult, type OrderDailyRow, type OrderSplit } from '@ads/contracts';
import { Alert, Button, Card, Flex, Segmented, Skeleton, Tabs, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeField, ExportButton, ListTable, presetRange, shownColumnKeys, useListQuery, useReportTimezone } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import '@/locales/orders-namespace';
import { useSettings } from '@/stores/settings-store';
import { useOrderCohort } from '../api/use-order-cohort';
import { useOrderDaily } from '../api/use-order-daily';
import { DAILY_FILTER_KEYS, orderDailyQuerySchema } from '../api/use-order-daily-query';
import { useExportOrderCohort, useExportOrderDaily } from '../api/use-order-exports';
import { ALL_AGES, CohortTable, KEY_AGES } from '../components/cohort-table';
import { dailyColumns } from '../components/daily-columns';
import { DailyFilters } from '../components/daily-filters';

// ECharts is large: it loads with this screen's chart, not with the app.
const DailyChart = lazy(() => import('../components/daily-chart'));

const SPLITS: OrderSplit[] = ['none', 'site', 'drama', 'product', 'country'];
const rowKey = (r: OrderDailyRow) => `${r.day}|${r.key?.id ?? r.key?.code ?? ''}`;

/**
 * /admin/order/daily 订单分析: per report day the orders, revenue, refunds, payers, new payers and
 * ARPPU, split by site, drama, product or country, as a chart and a table with totals; and the
 * cohort triangle (revenue or ROI of each acquisition day at D0…D30, unfinished days shown as not
 * matured). Range, split, filters, sort, page and tab live in the URL.
 */
export default function OrderDailyPage() {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation();
  const title = useRouteTitle('/admin/order/daily');
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const zone = useReportTimezone();
  const list = useListQuery(orderDailyQuerySchema, { filterKeys: DAILY_FILTER_KEYS });
  const q = list.query;
  const last30 = presetRange('last30', zone);
  const range: [string, string] = [q.date_from ?? last30[0], q.date_to ?? q.date_from ?? last30[1]];
  const view = q.view ?? 'daily';
  const split = q.split ?? 'none';
  const metric = q.metric ?? 'revenue';
  const ages = q.ages === 'all' ? ALL_AGES : KEY_AGES;
  const filters = { site_id: q.site_id, drama_id: q.drama_id, product_id: q.product_id, country: q.country, attributed: q.attributed };

  const dailyBody = orderDailyBodySchema.parse({ page: q.page, page_size: q.page_size, sort_field: q.sort_field, sort_order: q.sort_order, date_from: range[0], date_to: range[1], split, ...filters });
  const cohortBody = orderCohortBodySchema.parse({ date_from: range[0], date_to: range[1], ...filters, ...(metric === 'roi' && { metric, attributed: undefined }) });
  const daily = useOrderDaily(dailyBody, { enabled: view === 'daily' });
  const cohort = useOrderCohort(cohortBody, { enabled: view === 'cohort' });
  const exportDaily = useExportOrderDaily();
  const exportCohort = useExportOrderCohort();
  const data = daily.data;

  const columns = useMemo(() => dailyColumns({ t, lang, split, totals: data?.totals ?? null }), [t, lang, split, data]);
  const { page: _p, page_size: _s, ...dailyExport } = dailyBody;

  const exporter =
    view === 'daily' ? (
      <ExportButton exporter={exportDaily} body={{ ...dailyExport, columns: shownColumnKeys(columns, [], ORDER_DAILY_EXPORT_COLUMNS) }} filename={`${t('daily.exportFile')}-${range[0]}_${range[1]}.xlsx`} />
    ) : (
      <ExportButton exporter={exportCohort} body={{ ...cohortBody, ages: [...ages] }} filename={`${t('cohort.exportFile')}-${range[0]}_${range[1]}.xlsx`} />
    );

  return (
    <PageShell title={title} extra={exporter}>
      <Card size="small">
        <Flex gap={16} align="center" wrap>
          <DateRangeField required value={range} onChange={(r) => r && list.patch({ date_from: r[0], date_to: r[1], page: 1 })} />
          {view === 'daily' && (
            <Flex gap={8} align="center">
              <Typography.Text>{t('daily.split')}</Typography.Text>
              <Segmented<OrderSplit> size="small" value={split} onChange={(s) => list.patch({ split: s === 'none' ? undefined : s, page: 1, sort_field: q.sort_field === 'key' ? undefined : q.sort_field })} options={SPLITS.map((s) => ({ value: s, label: t(`daily.splits.${s}`) }))} />
            </Flex>
          )}
        </Flex>
      </Card>
      <Card size="small">
        <DailyFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} attributionFixed={view === 'cohort' && metric === 'roi'} />
      </Card>
      <Tabs
        activeKey={view}
        onChange={(k) => list.patch({ view: k === 'daily' ? undefined : (k as 'cohort') })}
        items={[
          {
            key: 'daily',
            label: t('daily.tabs.daily'),
            children: (
              <Flex vertical gap={16}>
                <Card size="small" title={t('daily.chart.title')}>
                  {daily.isError && !data ? (
                    <Alert
                      type="warning"
                      showIcon
                      title={tc('states.loadFailed')}
                      action={
                        <Button size="small" loading={daily.isFetching} onClick={() => void daily.refetch()}>
                          {tc('states.retry')}
                        </Button>
                      }
                    />
                  ) : data ? (
                    <Suspense fallback={<Skeleton active />}>
                      <div data-testid="daily-chart" aria-label={t('daily.chart.title')}>
                        <DailyChart data={data} split={split} />
                      </div>
                    </Suspense>
                  ) : (
                    <Skeleton active />
                  )}
                </Card>
                <Card size="small" styles={{ body: { padding: 0 } }}>
                  <ListTable<OrderDailyRow, OrderDailyResult> list={list} result={daily} columns={columns} rowKey={rowKey} empty={{ text: t('daily.empty') }} sticky />
                </Card>
              </Flex>
            ),
          },
          {
            key: 'cohort',
            label: t('daily.tabs.cohort'),
            children: (
              <Flex vertical gap={12}>
                <Flex gap={16} align="center" wrap justify="space-between">
                  <Flex gap={12} align="center" wrap>
                    <Segmented<'revenue' | 'roi'> value={metric} onChange={(m) => list.patch({ metric: m === 'revenue' ? undefined : m })} options={(['revenue', 'roi'] as const).map((m) => ({ value: m, label: t(`cohort.metric.${m}`) }))} />
                    <Segmented<'key' | 'all'> value={q.ages ?? 'key'} onChange={(a) => list.patch({ ages: a === 'key' ? undefined : a })} options={(['key', 'all'] as const).map((a) => ({ value: a, label: t(`cohort.ages.${a}`) }))} />
                  </Flex>
                  <Typography.Text type="secondary" style={{ maxWidth: 720 }}>
                    {metric === 'roi' ? t('cohort.roiHelp') : t('cohort.help')}
                  </Typography.Text>
                </Flex>
                {metric === 'roi' && cohort.data && !cohort.data.spend_available && <Alert type="info" showIcon title={t('cohort.noSpend')} />}
                <Card size="small" styles={{ body: { padding: 0 } }}>
                  <CohortTable result={cohort} ages={ages} filtered={list.hasFilters} />
                </Card>
              </Flex>
            ),
          },
        ]}
      />
    </PageShell>
  );
}
