import { LineChartOutlined, SyncOutlined } from '@ant-design/icons';
import { DASHBOARD_TOP_BY, DASHBOARD_TOP_RANGES, formatMetric, type Dashboard, type DashboardTop } from '@ads/contracts';
import { Alert, Button, Card, Col, Flex, Row, Segmented, Select, Skeleton, Tabs, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatRelative } from '@/lib/format';
import { hasPath, useViewer } from '@/lib/permissions';
import { useSettings } from '@/stores/settings-store';
import { useDashboard } from '../api/use-dashboard';
import { DashboardAlerts } from './dashboard-alerts';
import { KpiCards } from './kpi-cards';
import { TopTable } from './top-table';

// ECharts is large: the chart loads after the figures, not with them.
const TrendChart = lazy(() => import('./trend-chart'));

type TopRange = (typeof DASHBOARD_TOP_RANGES)[number];
type TopBy = (typeof DASHBOARD_TOP_BY)[number];

/** Where the dashboard's rows open: the regular report screens, or the /admin advertising screens. */
const SCREENS = {
  regular: { report: '/advertising/user', campaigns: '/advertising/campaign', adsets: '/advertising/group' },
  admin: { report: '/admin/advertising/campaign', campaigns: '/admin/advertising/campaign', details: '/admin/advertising/details' },
} as const;

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/**
 * The delivery dashboard of both landing pages: today's and yesterday's figures, the 30-day trend,
 * the top dramas (or products) and campaigns of a range, and alerts. /index shows the caller's
 * data scope, /admin/index the company; organic orders (no ad) show apart on company-wide views.
 * Every figure is the report's: a top drama opens 广告数据 filtered to it, a campaign its ad sets
 * (or 系列详情 in the admin area).
 */
export function DeliveryDashboard({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation('home');
  const { t: tc } = useTranslation();
  const viewer = useViewer();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const [topRange, setTopRange] = useState<TopRange>('last7');
  const [topBy, setTopBy] = useState<TopBy>('spend');
  const dashboard = useDashboard({ top_range: topRange, top_by: topBy });
  const data: Dashboard | undefined = dashboard.data;
  const loading = dashboard.isPending;
  const range = data?.top_range;

  const reportPath = admin ? SCREENS.admin.report : SCREENS.regular.report;
  const catalogLink = (key: 'drama_id' | 'product_id') => (row: DashboardTop) => {
    const path = admin ? SCREENS.admin.campaigns : SCREENS.regular.campaigns;
    if (row.id === null || !range || !hasPath(viewer, path)) return undefined;
    return `${path}?${query({ [key]: row.id, date_from: range.date_from, date_to: range.date_to })}`;
  };
  const campaignLink = (row: DashboardTop) => {
    if (row.id === null || !range) return undefined;
    if (admin) return hasPath(viewer, SCREENS.admin.details) ? `${SCREENS.admin.details}?${query({ id: row.id })}` : undefined;
    if (!hasPath(viewer, SCREENS.regular.adsets)) return undefined;
    return `${SCREENS.regular.adsets}?${query({ campaign_id: row.id, campaign_name: row.name, date_from: range.date_from, date_to: range.date_to })}`;
  };
  const byId = (row: DashboardTop) => (row.id === null ? '-' : `#${row.id}`);

  const controls = (
    <Flex gap={8} wrap align="center">
      <Segmented<TopBy> size="small" value={topBy} onChange={setTopBy} options={DASHBOARD_TOP_BY.map((b) => ({ value: b, label: t(`delivery.by.${b}`) }))} />
      <Select<TopRange> size="small" value={topRange} onChange={setTopRange} style={{ width: 110 }} options={DASHBOARD_TOP_RANGES.map((r) => ({ value: r, label: t(`delivery.range.${r}`) }))} aria-label={t('delivery.rangeLabel')} />
    </Flex>
  );
  const catalogTabs = [
    { key: 'dramas', label: t('delivery.topDramas'), rows: data?.top_dramas ?? [], link: catalogLink('drama_id') },
    ...(data?.top_products.length ? [{ key: 'products', label: t('delivery.topProducts'), rows: data.top_products, link: catalogLink('product_id') }] : []),
  ];

  return (
    <Flex vertical gap={16} data-testid="delivery-dashboard">
      <Flex justify="space-between" align="baseline" wrap gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          <LineChartOutlined /> {admin || data?.company ? t('delivery.companyTitle') : t('delivery.title')}
        </Typography.Title>
        <Flex gap={12} align="center" wrap>
          {data?.as_of && (
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              <Tooltip title={formatDateTime(data.as_of)}>{t('delivery.asOf', { time: formatRelative(data.as_of) })}</Tooltip> · {t('delivery.zone', { zone: data.report_timezone })}
            </Typography.Text>
          )}
          <Button size="small" icon={<SyncOutlined spin={dashboard.isFetching} />} onClick={() => void dashboard.refetch()} aria-label={t('delivery.refresh')} />
          {hasPath(viewer, reportPath) && <Link to={reportPath}>{t('delivery.open')}</Link>}
        </Flex>
      </Flex>
      {dashboard.isError && !data && <Alert type="warning" showIcon title={t('loadFailed')} action={<Button size="small" onClick={() => void dashboard.refetch()}>{tc('states.retry')}</Button>} />}
      {data?.pending && <Alert type="info" showIcon title={t('delivery.pending')} />}
      <KpiCards today={data?.days.today} yesterday={data?.days.yesterday} loading={loading} />
      {data?.company && (
        <Typography.Text type="secondary" data-testid="organic-line">
          {t('delivery.organic', {
            today: formatMetric('revenue', data.days.today.organic_revenue, lang),
            todayOrders: data.days.today.organic_orders ?? 0,
            yesterday: formatMetric('revenue', data.days.yesterday.organic_revenue, lang),
            yesterdayOrders: data.days.yesterday.organic_orders ?? 0,
          })}
        </Typography.Text>
      )}
      {/* Charts, tables and lists render with the first answer: a light first render sends the request sooner. */}
      {!data && loading && <Skeleton active paragraph={{ rows: 6 }} />}
      {data && (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={16}>
              <Card size="small" title={t('delivery.trend')} style={{ height: '100%' }} data-testid="dashboard-trend">
                <Suspense fallback={<Skeleton active />}>
                  <TrendChart trend={data.trend} company={data.company} />
                </Suspense>
              </Card>
            </Col>
            <Col xs={24} xl={8}>
              <DashboardAlerts data={data} />
            </Col>
          </Row>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <Typography.Text type="secondary">{range && t('delivery.topNote', { from: range.date_from, to: range.date_to })}</Typography.Text>
            {controls}
          </Flex>
          {/* Side by side only where both tables have room for their names. */}
          <Row gutter={[16, 16]}>
            <Col xs={24} xxl={12}>
              <Card size="small" styles={{ body: { paddingTop: 0 } }} style={{ height: '100%' }}>
                <Tabs
                  size="small"
                  items={catalogTabs.map((c) => ({
                    key: c.key,
                    label: c.label,
                    children: <TopTable rows={c.rows} loading={dashboard.isFetching} linkOf={c.link} fallbackName={byId} testId={`top-${c.key}`} />,
                  }))}
                />
              </Card>
            </Col>
            <Col xs={24} xxl={12}>
              <Card size="small" title={t('delivery.topCampaigns')} style={{ height: '100%' }}>
                <TopTable rows={data.top_campaigns} loading={dashboard.isFetching} linkOf={campaignLink} fallbackName={byId} testId="top-campaigns" />
              </Card>
            </Col>
          </Row>
        </>
      )}
    </Flex>
  );
}
