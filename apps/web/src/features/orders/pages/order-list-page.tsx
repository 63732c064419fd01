import { ORDER_EXPORT_COLUMNS, type OrderListResult, type OrderRow } from '@ads/contracts';
import { Alert, Card, Flex, Statistic, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, DateRangeField, ExportButton, ListTable, presetRange, shownColumnKeys, useColumnPrefs, useListQuery, useReportTimezone } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { formatMoney } from '@/lib/format';
import '@/locales/orders-namespace';
import { useSettings } from '@/stores/settings-store';
import { useExportOrders } from '../api/use-order-exports';
import { looksUp, ORDER_FILTER_KEYS, orderListBody, orderListQuerySchema, useOrders } from '../api/use-orders';
import { countText, usdText } from '../components/format';
import { OrderDetailDrawer } from '../components/order-detail-drawer';
import { orderColumns, ORDER_HIDDEN_COLUMNS } from '../components/order-columns';
import { OrderFilters } from '../components/order-filters';

/** The totals of every matching order above the table, with each currency when they are mixed. */
function Totals({ summary, lang }: { summary: OrderListResult['summary']; lang: 'zh' | 'en' }) {
  const { t } = useTranslation('orders');
  return (
    <Flex vertical gap={8} data-testid="order-totals">
      <Flex gap={32} wrap>
        <Statistic title={t('list.summary.orders')} value={countText(summary.orders, lang)} />
        <Statistic title={t('list.summary.paidUsd')} value={usdText(summary.paid_usd, lang)} />
        <Statistic title={t('list.summary.refundedUsd')} value={usdText(summary.refunded_usd, lang)} />
        <Statistic title={t('list.summary.usdAmount')} value={usdText(summary.usd_amount, lang)} />
        <Statistic title={t('list.summary.newPayers')} value={countText(summary.new_payers, lang)} />
      </Flex>
      {summary.currencies.length > 1 && (
        <Flex gap={6} wrap align="center" data-testid="currency-totals">
          <Typography.Text type="secondary">{t('list.summary.currencies')}</Typography.Text>
          {summary.currencies.map((c) => (
            <Tag key={c.currency}>
              {t('list.summary.currencyLine', { currency: c.currency, amount: formatMoney(Number(c.amount), c.currency), count: c.orders, refunded: formatMoney(Number(c.refunded_amount), c.currency) })}
            </Tag>
          ))}
        </Flex>
      )}
      {summary.without_rate > 0 && <Alert type="warning" showIcon title={t('list.summary.withoutRate', { count: summary.without_rate })} />}
    </Flex>
  );
}

/**
 * /admin/order/list 订单列表: every order of the company (the super admin's), filtered, sorted and
 * paged in the URL, with totals of every matching order (USD, and per currency), the shown
 * columns exported, and an order's detail in a drawer (its attribution and raw events).
 */
export default function OrderListPage() {
  const { t } = useTranslation('orders');
  const title = useRouteTitle('/admin/order/list');
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const zone = useReportTimezone();
  const list = useListQuery(orderListQuerySchema, { filterKeys: ORDER_FILTER_KEYS });
  const q = list.query;
  const last7 = presetRange('last7', zone);
  const range: [string, string] = [q.paid_from ?? last7[0], q.paid_to ?? q.paid_from ?? last7[1]];
  const lookup = looksUp(q);
  const body = orderListBody(q, range);
  const orders = useOrders(body);
  const chooser = useColumnPrefs('/admin/order/list', ORDER_HIDDEN_COLUMNS);
  const exporter = useExportOrders();
  const data = orders.data;
  const open = (o: Pick<OrderRow, 'id'>) => list.patch({ order: o.id });

  // Labels only: the totals row's nodes come with the data below.
  const choosable = useMemo(() => orderColumns({ t, lang, summary: null, onOpen: () => undefined }), [t, lang]);
  const columns = useMemo(() => orderColumns({ t, lang, summary: data?.summary ?? null, onOpen: open }), [t, lang, data]); // eslint-disable-line react-hooks/exhaustive-deps
  const { page: _p, page_size: _s, ...exportRest } = body;

  return (
    <PageShell
      title={title}
      extra={
        <>
          <ColumnChooser columns={choosable} prefs={chooser} />
          <ExportButton exporter={exporter} body={{ ...exportRest, columns: shownColumnKeys(choosable, chooser.hidden, ORDER_EXPORT_COLUMNS) }} filename={`${t('list.exportFile')}-${lookup ? dayjs().format('YYYY-MM-DD') : `${range[0]}_${range[1]}`}.xlsx`} />
        </>
      }
    >
      <Card size="small">
        <Flex gap={12} align="center" wrap>
          <Typography.Text>{t('filters.range')}</Typography.Text>
          <Tooltip title={lookup ? t('filters.rangeIgnored') : undefined}>
            <div style={lookup ? { opacity: 0.5, pointerEvents: 'none' } : undefined} aria-disabled={lookup}>
              <DateRangeField required value={range} onChange={(r) => r && list.patch({ paid_from: r[0], paid_to: r[1], page: 1 })} />
            </div>
          </Tooltip>
          {lookup && <Typography.Text type="secondary">{t('filters.rangeIgnored')}</Typography.Text>}
        </Flex>
      </Card>
      <Card size="small">
        <OrderFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} />
      </Card>
      {data && data.total > 0 && (
        <Card size="small">
          <Totals summary={data.summary} lang={lang} />
        </Card>
      )}
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <ListTable<OrderRow, OrderListResult> list={list} result={orders} columns={columns} hidden={chooser.hidden} rowKey="id" empty={{ text: t('list.empty') }} sticky />
      </Card>
      <OrderDetailDrawer id={q.order} onClose={() => list.patch({ order: undefined })} onOpen={(id) => list.patch({ order: id })} />
    </PageShell>
  );
}
