import { CheckCircleTwoTone, CloseCircleTwoTone, CopyOutlined, DeleteOutlined, DollarOutlined, EditOutlined, LineChartOutlined, MoreOutlined, PauseCircleOutlined, PlayCircleOutlined, RiseOutlined } from '@ant-design/icons';
import { IS_ADMIN_SUPER, METRIC_KEYS, type AdLevel, type AdReportResult, type AdReportRow, type ReportLevel } from '@ads/contracts';
import { Button, Dropdown, Flex, Switch, Tooltip, Typography, theme } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable, metricColumns, SelectionBar, useRowSelection, type ColumnPrefsState, type ListColumn, type ListResult, type ListView, type MetricRow } from '@/components/list-kit';
import { useViewer } from '@/lib/permissions';
import { useSettings } from '@/stores/settings-store';
import type { AdOpResult } from '../api/use-ad-data-mutations';
import { CopyModal, type CopyRequest } from './copy-modal';
import { LazyHourlyChart } from './hourly-chart-lazy';
import { budgetHolder, budgetText, minorMoney } from './op-format';
import { OpModal, type ApplyAction, type OpRequest } from './op-modal';
import { AdStatusTag } from './status-tag';

const OBJECT_LEVELS: readonly ReportLevel[] = ['campaign', 'adset', 'ad'];
const rowId = (r: AdReportRow) => r.id;

interface Props {
  level: ReportLevel;
  list: ListView;
  result: ListResult<AdReportResult>;
  compare: boolean;
  /** Column choice (saved per user and level). */
  chooser: ColumnPrefsState;
  /** The name cell: a drill-down link, or a button that opens the ads. */
  renderName: (row: AdReportRow) => ReactNode;
  /** The ad account column is left out when every row is of one account (a drill-down parent). */
  hideAccount?: boolean;
  empty: ReactNode;
}

/**
 * A report table of any level: registry metrics with totals and comparison, and for campaigns,
 * ad sets and ads the operations, one row (switch, menu) or the selected rows at once, each
 * row showing its last result. The super admin may only switch objects on and off (the server
 * refuses the rest).
 */
export function ReportTable({ level, list, result, compare, chooser, renderName, hideAccount, empty }: Props) {
  const { t } = useTranslation('adData');
  const { t: tc } = useTranslation();
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const viewer = useViewer();
  const { token } = theme.useToken();
  const isObject = OBJECT_LEVELS.includes(level);
  const statusOnly = viewer.is_admin === IS_ADMIN_SUPER;
  const objectLevel = level as AdLevel;
  const selection = useRowSelection<AdReportRow>(rowId);
  const [op, setOp] = useState<OpRequest | null>(null);
  const [copy, setCopy] = useState<CopyRequest | null>(null);
  const [hourly, setHourly] = useState<AdReportRow | null>(null);
  const [lastResults, setLastResults] = useState<ReadonlyMap<number, AdOpResult>>(new Map());
  const data = result.data;

  const startOp = (action: ApplyAction, rows: AdReportRow[]) => setOp({ action, level: objectLevel, rows });
  const remember = (results: AdOpResult[]) => {
    setLastResults((prev) => {
      const next = new Map(prev);
      for (const r of results) next.set(r.id, r);
      return next;
    });
  };

  const columns = useMemo(() => {
    const summary = data ? { metrics: data.totals, previous: data.previous_totals ?? undefined } : null;
    const cols: ListColumn<AdReportRow>[] = [
      {
        key: 'name',
        title: t(`levels.${level}`),
        label: t(`levels.${level}`),
        locked: true,
        sortable: true,
        fixed: 'left',
        width: 260,
        render: (_, row) => {
          const last = lastResults.get(row.id);
          return (
            <Flex vertical gap={2} style={{ minWidth: 0 }}>
              <Flex gap={6} align="center">
                {last && (
                  <Tooltip title={last.result === 'ok' ? t('result.ok') : (last.error ?? t('result.failed'))}>
                    {last.result === 'ok' ? <CheckCircleTwoTone twoToneColor={token.colorSuccess} aria-label={t('result.ok')} /> : <CloseCircleTwoTone twoToneColor={token.colorError} aria-label={t('result.failed')} data-testid="row-failed" />}
                  </Tooltip>
                )}
                <Typography.Text ellipsis={{ tooltip: row.name }} style={{ maxWidth: 220 }}>
                  {renderName(row)}
                </Typography.Text>
              </Flex>
              {row.platform_id && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: row.platform_id }}>
                  {row.platform_id}
                </Typography.Text>
              )}
              {last?.result === 'failed' && last.error && (
                <Typography.Text type="danger" style={{ fontSize: 12 }}>
                  {last.error}
                </Typography.Text>
              )}
            </Flex>
          );
        },
      },
    ];
    if (isObject) {
      cols.push({ key: 'status', title: t('fields.status'), width: 110, render: (_, r) => <AdStatusTag status={r.effective_status} deleted={r.deleted} /> });
      if (!hideAccount) cols.push({ key: 'ad_account', title: t('fields.adAccount'), width: 160, render: (_, r) => <Typography.Text ellipsis={{ tooltip: r.ad_account?.name }}>{r.ad_account?.name ?? '-'}</Typography.Text> });
      cols.push({ key: 'owner', title: t('fields.owner'), width: 130, render: (_, r) => r.owner?.name ?? t('unassigned') });
    }
    if (level === 'campaign' || level === 'adset')
      cols.push({
        key: 'budget',
        title: t('fields.budget'),
        width: 150,
        render: (_, r) => {
          const holder = budgetHolder(level, r);
          if (holder !== 'self') return <Typography.Text type="secondary">{t(holder === 'campaign' ? 'budget.byCampaign' : 'budget.byAdsets')}</Typography.Text>;
          return budgetText(r, t);
        },
      });
    if (level === 'campaign' || level === 'adset') cols.push({ key: 'bid', title: t('fields.bid'), width: 110, align: 'right', render: (_, r) => minorMoney(r.bid_amount_minor, r.currency) });
    if (level === 'account') cols.push({ key: 'currency', title: t('fields.currency'), width: 90, render: (_, r) => r.ad_account?.currency ?? r.currency ?? '-' });
    // Report rows carry `previous: null` when not comparing; the kit's cells read undefined.
    for (const c of metricColumns<MetricRow>(METRIC_KEYS, { lang, compare, summary, notMatured: data?.not_matured ?? [], notMaturedText: tc('table.notMatured') })) {
      const cell = c.render;
      cols.push({ ...c, render: (v: unknown, r: AdReportRow, i: number) => cell?.(v, { metrics: r.metrics, previous: r.previous ?? undefined }, i) } as ListColumn<AdReportRow>);
    }
    cols.push({
      key: 'actions',
      title: tc('table.actions'),
      locked: true,
      fixed: 'right',
      width: isObject ? (statusOnly ? 110 : 140) : 90,
      render: (_, row) => (
        <Flex gap={6} align="center">
          <Tooltip title={t('actions.hourly')}>
            <Button size="small" type="text" icon={<LineChartOutlined />} aria-label={t('actions.hourlyOf', { name: row.name })} onClick={() => setHourly(row)} />
          </Tooltip>
          {isObject && !row.deleted && (
            <Switch
              size="small"
              checked={row.status === 'ACTIVE'}
              aria-label={t('actions.toggleOf', { name: row.name })}
              onChange={(on) => startOp(on ? 'activate' : 'pause', [row])}
            />
          )}
          {isObject && !row.deleted && !statusOnly && (
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  ...(level !== 'ad' ? [{ key: 'budget', icon: <DollarOutlined />, label: t('actions.budget'), disabled: budgetHolder(level, row) !== 'self' }] : []),
                  ...(level !== 'ad' ? [{ key: 'bid', icon: <RiseOutlined />, label: t('actions.bid') }] : []),
                  { key: 'rename', icon: <EditOutlined />, label: t('actions.rename') },
                  { key: 'copy', icon: <CopyOutlined />, label: t('actions.copy') },
                  { type: 'divider' as const },
                  { key: 'delete', icon: <DeleteOutlined />, label: t('actions.delete'), danger: true },
                ],
                onClick: ({ key }) => (key === 'copy' ? setCopy({ level: objectLevel, rows: [row] }) : startOp(key as ApplyAction, [row])),
              }}
            >
              <Button size="small" type="text" icon={<MoreOutlined />} aria-label={t('actions.moreOf', { name: row.name })} />
            </Dropdown>
          )}
        </Flex>
      ),
    });
    return cols;
    // startOp only sets state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, level, lang, compare, lastResults, isObject, statusOnly, hideAccount, renderName, t, tc, token]);

  const rows = selection.rows;
  return (
    <>
      {isObject && (
        <SelectionBar count={selection.count} onClear={selection.clear}>
          <Button size="small" icon={<PlayCircleOutlined />} onClick={() => startOp('activate', rows)}>
            {t('actions.activate')}
          </Button>
          <Button size="small" icon={<PauseCircleOutlined />} onClick={() => startOp('pause', rows)}>
            {t('actions.pause')}
          </Button>
          {!statusOnly && level !== 'ad' && (
            <Button size="small" icon={<DollarOutlined />} onClick={() => startOp('budget', rows)}>
              {t('actions.budget')}
            </Button>
          )}
          {!statusOnly && level !== 'ad' && (
            <Button size="small" icon={<RiseOutlined />} onClick={() => startOp('bid', rows)}>
              {t('actions.bid')}
            </Button>
          )}
          {!statusOnly && (
            <Button size="small" icon={<CopyOutlined />} onClick={() => setCopy({ level: objectLevel, rows })}>
              {t('actions.copy')}
            </Button>
          )}
          {!statusOnly && (
            <Button size="small" danger icon={<DeleteOutlined />} onClick={() => startOp('delete', rows)}>
              {t('actions.delete')}
            </Button>
          )}
        </SelectionBar>
      )}
      <ListTable<AdReportRow, AdReportResult>
        list={list}
        result={result}
        columns={columns}
        chooser={chooser}
        rowKey="id"
        empty={{ text: empty }}
        selection={isObject ? { ...selection.tableSelection, disabled: (r) => r.deleted, label: (r) => t('actions.select', { name: r.name }) } : undefined}
        sticky
      />
      <OpModal request={op} onClose={() => setOp(null)} onDone={remember} />
      <CopyModal request={copy} onClose={() => setCopy(null)} onDone={remember} />
      <LazyHourlyChart target={hourly && { level, id: hourly.id, name: hourly.name }} onClose={() => setHourly(null)} />
    </>
  );
}
