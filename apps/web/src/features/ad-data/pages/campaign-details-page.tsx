import { formatMetric, metrics, type AdOperation, type AdReportBody, type AdReportRow } from '@ads/contracts';
import { useQueries } from '@tanstack/react-query';
import { Card, Descriptions, Empty, Flex, Result, Skeleton, Table, Tag, Tree, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { todayIn, useReportTimezone } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { formatDateTime } from '@/lib/format';
import '@/locales/ad-data-namespace';
import { useSettings } from '@/stores/settings-store';
import { useAdOperations } from '../api/use-ad-queries';
import { adReportQuery, useAdReport } from '../api/use-ad-report';
import { echarts } from '../components/echarts';
import { budgetText, describeChange, minorMoney } from '../components/op-format';
import { AdStatusTag } from '../components/status-tag';

const DAYS = 14;
const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** /admin/advertising/details 系列详情: one campaign's structure, settings, last 14 days and operation log. */
export default function CampaignDetailsPage() {
  const { t } = useTranslation('adData');
  const title = useRouteTitle('/admin/advertising/details');
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const zone = useReportTimezone();
  const today = todayIn(zone);
  const from = dayjs(today).subtract(DAYS - 1, 'day').format('YYYY-MM-DD');
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const isDark = useSettings((s) => s.isDark);
  const { token } = theme.useToken();
  const [logPage, setLogPage] = useState(1);

  const base = { page: 1, date_from: from, date_to: today, status: 'all' as const };
  const campaign = useAdReport({ ...base, level: 'campaign', page_size: 20, keyword: String(id) }, { enabled: valid });
  const row = campaign.data?.list.find((r) => r.id === id);
  const adsets = useAdReport({ ...base, level: 'adset', page_size: 500, campaign_id: id, sort_field: 'spend', sort_order: 'descend' }, { enabled: valid });
  // Report rows do not name their parent: the ads are read per ad set.
  const adsBySet = useQueries({
    queries: (adsets.data?.list ?? []).map((s) => {
      const body: AdReportBody = { ...base, level: 'ad', page_size: 200, adset_id: s.id, sort_field: 'spend', sort_order: 'descend' };
      return adReportQuery(body);
    }),
  });
  const days = Array.from({ length: DAYS }, (_, i) => dayjs(from).add(i, 'day').format('YYYY-MM-DD'));
  // One small query per day: the report answers totals over a range, and this page wants them day by day.
  const daily = useQueries({
    queries: days.map((d) => {
      const body: AdReportBody = { level: 'ad', page: 1, page_size: 1, date_from: d, date_to: d, campaign_id: id, status: 'all' };
      return { ...adReportQuery(body), enabled: valid };
    }),
  });
  const log = useAdOperations({ log: 'all', page: logPage, page_size: 10, campaign_id: id }, { enabled: valid });

  if (!valid)
    return (
      <PageShell title={title}>
        <Result status="info" title={t('details.pick')} extra={<Link to="/admin/advertising/campaign">{t('details.back')}</Link>} />
      </PageShell>
    );
  if (campaign.isPending) return <Skeleton active />;
  if (!row)
    return (
      <PageShell title={title}>
        <Result status="warning" title={t('details.notFound')} extra={<Link to="/admin/advertising/campaign">{t('details.back')}</Link>} />
      </PageShell>
    );

  const spendOf = (r: AdReportRow) => formatMetric('spend', r.metrics.spend ?? null, lang);
  const treeData = [
    {
      key: `c${row.id}`,
      title: (
        <span>
          <span>{row.name}</span> <AdStatusTag status={row.effective_status} deleted={row.deleted} /> {spendOf(row)}
        </span>
      ),
      children: (adsets.data?.list ?? []).map((s, i) => ({
        key: `s${s.id}`,
        title: (
          <span>
            <Tag>{t('levels.adset')}</Tag>
            <span>{s.name}</span> <AdStatusTag status={s.effective_status} deleted={s.deleted} /> {spendOf(s)}
          </span>
        ),
        children: (adsBySet[i]?.data?.list ?? []).map((a) => ({
            key: `a${a.id}`,
            isLeaf: true,
            title: (
              <span>
                <Tag>{t('levels.ad')}</Tag>
                <span>{a.name}</span> <AdStatusTag status={a.effective_status} deleted={a.deleted} /> {spendOf(a)}
              </span>
            ),
          })),
      })),
    },
  ];
  const points = daily.map((d) => d.data?.totals);
  const option = {
    backgroundColor: 'transparent',
    color: [token.colorPrimary, token.colorWarning],
    tooltip: { trigger: 'axis' },
    legend: { data: [t('hourly.series.spend'), metrics.purchases.title[lang]], bottom: 0, textStyle: { color: token.colorText } },
    grid: { left: 56, right: 48, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: days.map((d) => d.slice(5)), axisLabel: { color: token.colorTextSecondary } },
    yAxis: [
      { type: 'value', axisLabel: { color: token.colorTextSecondary }, splitLine: { lineStyle: { color: token.colorBorderSecondary } } },
      { type: 'value', axisLabel: { color: token.colorTextSecondary }, splitLine: { show: false } },
    ],
    series: [
      { name: t('hourly.series.spend'), type: 'bar', data: points.map((p) => p?.spend ?? null) },
      { name: metrics.purchases.title[lang], type: 'line', yAxisIndex: 1, data: points.map((p) => p?.purchases ?? null) },
    ],
  };

  return (
    <PageShell title={`${title}：${row.name}`} extra={<Link to="/admin/advertising/campaign">{t('details.back')}</Link>}>
      <Card size="small" title={t('details.settings')}>
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} items={[
          { key: 'pid', label: t('details.platformId'), children: row.platform_id ?? '-' },
          { key: 'status', label: t('fields.status'), children: <AdStatusTag status={row.effective_status} deleted={row.deleted} /> },
          { key: 'account', label: t('details.account'), children: row.ad_account ? `${row.ad_account.name} (${row.ad_account.currency}, ${row.ad_account.timezone_name})` : '-' },
          { key: 'owner', label: t('details.createdBy'), children: row.owner?.name ?? t('unassigned') },
          { key: 'budgetLevel', label: t('details.budgetLevel'), children: row.budget_level ? t(`details.budgetLevels.${row.budget_level}`) : '-' },
          { key: 'budget', label: t('fields.budget'), children: budgetText(row, t) },
          { key: 'bid', label: t('fields.bid'), children: minorMoney(row.bid_amount_minor, row.currency) },
          { key: 'spend', label: `${t('hourly.series.spend')} (${from} ~ ${today})`, children: spendOf(row) },
          { key: 'purchases', label: metrics.purchases.title[lang], children: formatMetric('purchases', row.metrics.purchases ?? null, lang) },
        ]} />
      </Card>
      <Flex gap={16} wrap>
        <Card size="small" title={t('details.tree')} style={{ flex: '1 1 420px' }}>
          {/* Re-mounted as ad sets and their ads arrive, so everything shows expanded. */}
          {adsets.isPending ? <Skeleton active /> : <Tree key={adsBySet.map((q) => q.data?.list.length ?? -1).join(',')} treeData={treeData} defaultExpandAll selectable={false} />}
        </Card>
        <Card size="small" title={t('details.daily')} style={{ flex: '1 1 520px' }}>
          {daily.every((d) => d.isPending) ? <Skeleton active /> : <ReactEChartsCore echarts={echarts} option={option} theme={isDark ? 'dark' : undefined} opts={{ renderer: 'svg' }} style={{ height: 300 }} notMerge />}
        </Card>
      </Flex>
      <Card size="small" title={t('details.log')}>
        <Table<AdOperation>
          size="small"
          rowKey="id"
          loading={log.isFetching}
          dataSource={log.data?.list}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('logs.empty.all')} /> }}
          pagination={{ current: logPage, pageSize: 10, total: log.data?.total ?? 0, onChange: setLogPage, showSizeChanger: false }}
          columns={[
            { key: 'time', title: t('logs.columns.time'), width: 150, render: (_, o) => formatDateTime(o.created_at) },
            { key: 'by', title: t('logs.columns.by'), width: 110, render: (_, o) => o.actor?.name ?? t(`logs.actorTypes.${o.actor_type}`) },
            { key: 'action', title: t('logs.columns.action'), width: 100, render: (_, o) => t(`logs.actions.${o.action as 'pause'}`, { defaultValue: o.action }) },
            { key: 'object', title: t('logs.columns.object'), render: (_, o) => `${t(`levels.${o.level}`)} · ${o.object_name}` },
            { key: 'change', title: t('logs.columns.change'), render: (_, o) => describeChange(asRecord(o.before), asRecord(o.after), t).join('; ') },
            { key: 'result', title: t('logs.columns.result'), width: 200, render: (_, o) => <Typography.Text type={o.result === 'failed' ? 'danger' : undefined}>{t(`logs.results.${o.result}`)}{o.error ? `: ${o.error}` : ''}</Typography.Text> },
          ]}
        />
      </Card>
    </PageShell>
  );
}

