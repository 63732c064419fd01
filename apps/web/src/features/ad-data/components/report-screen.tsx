import { DollarOutlined, SyncOutlined } from '@ant-design/icons';
import { endpoints, IS_ADMIN_MANAGER, METRIC_KEYS, type AdReportRow } from '@ads/contracts';
import { App, Breadcrumb, Button, Card, Drawer, Flex, Switch, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateRangeField, defaultHiddenMetrics, ExportButton, todayIn, useColumnPrefs, useListQuery, useReportTimezone } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { routeTitle, useRouteTitle } from '@/components/use-route-title';
import { formatDateTime, formatRelative } from '@/lib/format';
import { canCall, useViewer } from '@/lib/permissions';
import '@/locales/ad-data-namespace';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useSettings } from '@/stores/settings-store';
import { useExportAdReport, useSyncAdAccounts } from '../api/use-ad-data-mutations';
import { adReportQuerySchema, REPORT_FILTER_KEYS, reportBody, useAdReport, type AdReportQuery } from '../api/use-ad-report';
import { FxRatesDrawer } from './fx-rates-drawer';
import { LazyHourlyChart } from './hourly-chart-lazy';
import { useLocalList } from './local-list';
import { ReportFilters } from './report-filters';
import { breadcrumbs, carried, parentsOf, REPORT_SCREENS, reportUrl, type ReportScreenConfig } from './report-levels';
import { ReportTable } from './report-table';

/** Auto-refresh period: the sync brings new figures every 15 minutes; a 5-minute poll shows them soon after. */
const LIVE_MS = 5 * 60_000;
const ACCOUNT_HIDDEN = ['bid'];
const AD_HIDDEN = defaultHiddenMetrics(METRIC_KEYS);

/** The ads of one ad set in a drawer: the same columns, range and operations. */
function AdsDrawer({ adset, query, range, onClose }: { adset: AdReportRow | null; query: AdReportQuery; range: [string, string]; onClose: () => void }) {
  const { t } = useTranslation('adData');
  const list = useLocalList();
  const chooser = useColumnPrefs('ad-report.ad', AD_HIDDEN);
  // Only the columns shown are computed (the server sums their facts alone).
  const body = { ...reportBody('ad', { ...list.query, ...carried(query), adset_id: adset?.id } as AdReportQuery, range), columns: METRIC_KEYS.filter((k) => !chooser.hidden.includes(k)) };
  const ads = useAdReport(body, { enabled: adset !== null });
  const focusReturn = useDrawerFocusReturn(adset !== null);
  return (
    <Drawer open={adset !== null} onClose={onClose} size="90%" title={t('ads.title', { name: adset?.name ?? '' })} destroyOnHidden {...focusReturn}>
      <ReportTable level="ad" list={list} result={ads} compare={Boolean(query.compare)} chooser={chooser} renderName={(r) => r.name} hideAccount empty={t('empty.ad')} />
    </Drawer>
  );
}

/**
 * The one report screen of every level (广告数据 optimizer → ad account → campaign → ad set → ads,
 * and the /admin campaign, ad set and ad lists): range and comparison, filters, sort and page in
 * the URL; registry metrics with a totals row equal to the rows; column sets; export of exactly
 * what is shown; data-as-of, auto-refresh and sync now; the hourly chart of a row; operations.
 */
export function ReportScreen({ config }: { config: ReportScreenConfig }) {
  const { t } = useTranslation('adData');
  const { message } = App.useApp();
  const { level, path, admin } = config;
  const title = useRouteTitle(path);
  const locale = useSettings((s) => s.locale);
  const viewer = useViewer();
  const zone = useReportTimezone();
  const list = useListQuery(adReportQuerySchema, { filterKeys: REPORT_FILTER_KEYS });
  const q = list.query;
  const today = todayIn(zone);
  const range: [string, string] = [q.date_from ?? today, q.date_to ?? q.date_from ?? today];
  const [live, setLive] = useState(false);
  const chooser = useColumnPrefs(`ad-report.${level}`, useMemo(() => [...defaultHiddenMetrics(METRIC_KEYS), ...ACCOUNT_HIDDEN], []));
  const shownMetrics = METRIC_KEYS.filter((k) => !chooser.hidden.includes(k));
  // Only the columns shown are computed (the server sums their facts alone); the export writes the same.
  const body = { ...reportBody(level, q, range), columns: shownMetrics };
  const report = useAdReport(body, { refetchInterval: live ? LIVE_MS : false });
  const exporter = useExportAdReport();
  const sync = useSyncAdAccounts();
  const [adset, setAdset] = useState<AdReportRow | null>(null);
  const [allHourly, setAllHourly] = useState(false);
  const [fxOpen, setFxOpen] = useState(false);
  const data = report.data;
  const canPickCatalog = canCall(viewer, endpoints.dramas.list);
  const accountFromParent = q.account_name !== undefined;

  const renderName = useCallback(
    (row: AdReportRow) => {
      const keep = { ...carried(q), ...parentsOf(q) };
      const name = row.name || (row.id === 0 ? t('unassigned') : `#${row.id}`);
      if (level === 'optimizer') return <Link to={reportUrl(REPORT_SCREENS.account.path, { ...keep, owner_user_id: row.id, owner_name: row.id === 0 ? t('unassigned') : row.name })}>{name}</Link>;
      if (level === 'account') return <Link to={reportUrl(REPORT_SCREENS.campaign.path, { ...keep, ad_account_ids: [row.id], account_name: row.name })}>{name}</Link>;
      if (level === 'campaign' && admin) return <Link to={`/admin/advertising/details?id=${row.id}`}>{name}</Link>;
      if (level === 'campaign') return <Link to={reportUrl(REPORT_SCREENS.adset.path, { ...keep, campaign_id: row.id, campaign_name: row.name })}>{name}</Link>;
      if (level === 'adset')
        return (
          <Typography.Link onClick={() => setAdset(row)} aria-label={t('ads.open', { name: row.name })}>
            {name}
          </Typography.Link>
        );
      return name;
    },
    [q, level, admin, t],
  );

  // "Sync now" for the accounts in view: the chosen or drilled accounts, else those of the rows (all in scope at the optimizer level).
  const accountsInView = (): number[] | undefined => {
    if (q.ad_account_ids?.length) return q.ad_account_ids;
    if (level === 'optimizer' || !data) return undefined;
    if (level === 'account') return data.list.map((r) => r.id);
    return [...new Set(data.list.map((r) => r.ad_account?.id).filter((id): id is number => id !== undefined))];
  };
  const handleSync = async () => {
    try {
      const answer = await sync.mutateAsync(accountsInView());
      message.success(t('sync.started', { count: answer.ad_accounts }));
    } catch {
      // Said by the request layer.
    }
  };

  const { page: _p, page_size: _s, ...exportRest } = body;
  const crumbs = admin ? null : breadcrumbs(path, q, routeTitle(REPORT_SCREENS.optimizer.path, locale), title, t('unassigned'));
  const asOf = data?.as_of;

  return (
    <PageShell
      title={title}
      extra={
        <>
          {isManagerLike(viewer.is_admin) && level === 'optimizer' && (
            <Button icon={<DollarOutlined />} onClick={() => setFxOpen(true)}>
              {t('fx.open')}
            </Button>
          )}
          <ExportButton exporter={exporter} body={exportRest} filename={`${t('export.file', { level: t(`levels.${level}`) })}-${range[0]}_${range[1]}.xlsx`} />
        </>
      }
    >
      {crumbs && crumbs.length > 1 && (
        <Breadcrumb data-testid="report-breadcrumbs" items={crumbs.map((c) => ({ key: c.to ?? c.title, title: c.to ? <Link to={c.to}>{c.title}</Link> : c.title }))} />
      )}
      <Card size="small">
        <Flex gap={16} align="center" wrap justify="space-between">
          <Flex gap={16} align="center" wrap>
            <DateRangeField required value={range} onChange={(r) => r && list.patch({ date_from: r[0], date_to: r[1], page: 1 })} />
            <Flex gap={6} align="center">
              <Switch size="small" checked={Boolean(q.compare)} onChange={(on) => list.patch({ compare: on || undefined })} aria-label={t('toolbar.compare')} />
              <span>{t('toolbar.compare')}</span>
            </Flex>
            {q.compare && data?.previous_range && (
              <Typography.Text type="secondary" data-testid="previous-range">
                {t('toolbar.previousRange', { from: data.previous_range.date_from, to: data.previous_range.date_to })}
              </Typography.Text>
            )}
          </Flex>
          <Flex gap={12} align="center" wrap>
            <Tooltip title={asOf ? formatDateTime(asOf) : undefined}>
              <Typography.Text type="secondary" data-testid="as-of">
                {asOf ? t('toolbar.asOf', { time: formatDateTime(asOf), ago: formatRelative(asOf) }) : t('toolbar.neverSynced')}
              </Typography.Text>
            </Tooltip>
            <Flex gap={6} align="center">
              <Switch size="small" checked={live} onChange={setLive} aria-label={t('toolbar.live')} />
              <Tooltip title={t('toolbar.liveHelp')}>
                <span>{t('toolbar.live')}</span>
              </Tooltip>
            </Flex>
            {!admin && (
              <Button size="small" icon={<SyncOutlined />} loading={sync.isPending} onClick={() => void handleSync()}>
                {t('toolbar.syncNow')}
              </Button>
            )}
            <Button size="small" onClick={() => setAllHourly(true)}>
              {t('toolbar.hourlyAll')}
            </Button>
          </Flex>
        </Flex>
      </Card>
      <Card size="small">
        <ReportFilters level={level} value={list.filters} onChange={list.setFilters} onReset={list.reset} canPickCatalog={canPickCatalog} accountFromParent={accountFromParent} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <ReportTable level={level} list={list} result={report} compare={Boolean(q.compare)} chooser={chooser} renderName={renderName} hideAccount={accountFromParent} empty={t(`empty.${level}`)} />
      </Card>
      <AdsDrawer adset={adset} query={q} range={range} onClose={() => setAdset(null)} />
      <LazyHourlyChart target={allHourly ? { level, id: undefined, name: t('toolbar.everything') } : null} onClose={() => setAllHourly(false)} />
      <FxRatesDrawer open={fxOpen} onClose={() => setFxOpen(false)} />
    </PageShell>
  );
}

const isManagerLike = (isAdmin: number) => isAdmin === IS_ADMIN_MANAGER;
