import { AD_OPERATION_EXPORT_COLUMNS, adOperationsBodySchema, endpoints, type AdOperation } from '@ads/contracts';
import { DatePicker, Flex, Form, Input, Segmented, Select, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { AdAccountSelect } from '@/components/ad-account-select';
import { ColumnChooser, ExportButton, exportBody, FilterBar, ListTable, shownColumnKeys, urlInt, useColumnPrefs, useListQuery, useRangePresets, type ListColumn } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { UserPicker } from '@/components/user-picker';
import { useRouteTitle } from '@/components/use-route-title';
import { formatDateTime } from '@/lib/format';
import { canCall, useViewer } from '@/lib/permissions';
import '@/locales/ad-data-namespace';
import { useExportAdOperations } from '../api/use-ad-data-mutations';
import { useAdOperations } from '../api/use-ad-queries';
import { describeChange } from './op-format';

export type LogKind = 'all' | 'close' | 'remove';

const LOG_PATHS: Record<LogKind, string> = { all: '/advertising/copy-log', close: '/advertising/close-log', remove: '/advertising/remove-log' };
const ACTIONS = ['activate', 'pause', 'budget', 'bid', 'rename', 'copy', 'delete', 'create'] as const;
const ACTOR_TYPES = ['user', 'rule', 'start_task', 'system'] as const;
const RESULTS = ['ok', 'failed', 'pending'] as const;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const logQuerySchema = z.object({
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(500)).default(20),
  time_from: day.optional(),
  time_to: day.optional(),
  operator_id: urlInt.optional(),
  // The contract's own enums (importing a contract value also applies its zod settings before this schema is built).
  actor_type: adOperationsBodySchema.shape.actor_type,
  action: adOperationsBodySchema.shape.action,
  ad_account_id: urlInt.optional(),
  result: adOperationsBodySchema.shape.result,
  keyword: z.string().max(100).optional(),
});
type LogQuery = z.output<typeof logQuerySchema>;
const FILTER_KEYS = ['time_from', 'time_to', 'operator_id', 'actor_type', 'action', 'ad_account_id', 'result', 'keyword'] as const;
type FilterValues = Partial<Pick<LogQuery, (typeof FILTER_KEYS)[number]>>;
type FormValues = Omit<FilterValues, 'time_from' | 'time_to'> & { range?: [dayjs.Dayjs, dayjs.Dayjs] | null };

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * 系统日志 / 关闭日志 / 删除日志: the append-only operation log (all acts, copies first; pauses;
 * deletes), filtered by time, who, action, ad account and result, and exported as shown.
 */
export function OperationLogScreen({ log }: { log: LogKind }) {
  const { t } = useTranslation('adData');
  const title = useRouteTitle(LOG_PATHS[log]);
  const navigate = useNavigate();
  const viewer = useViewer();
  const presets = useRangePresets();
  const list = useListQuery(logQuerySchema, { filterKeys: FILTER_KEYS });
  const body = { ...list.query, log };
  const ops = useAdOperations(body);
  const exporter = useExportAdOperations();
  const canListAccounts = canCall(viewer, endpoints.adAccounts.list);
  // One choice of columns for the three logs (they are one table with three filters).
  const columnPrefs = useColumnPrefs('ad-operations');

  const columns = useMemo<ListColumn<AdOperation>[]>(
    () => [
      { key: 'time', title: t('logs.columns.time'), width: 150, render: (_, o) => formatDateTime(o.created_at) },
      {
        key: 'by',
        title: t('logs.columns.by'),
        width: 120,
        render: (_, o) => (o.actor ? o.actor.name : o.actor_type === 'rule' ? t('logs.rule', { id: o.rule_id }) : o.actor_type === 'start_task' ? t('logs.startTask', { id: o.start_task_id }) : t('logs.system')),
      },
      { key: 'action', title: t('logs.columns.action'), width: 100, render: (_, o) => ((ACTIONS as readonly string[]).includes(o.action) ? t(`logs.actions.${o.action as (typeof ACTIONS)[number]}`) : o.action) },
      {
        key: 'object',
        title: t('logs.columns.object'),
        locked: true,
        width: 220,
        render: (_, o) => (
          <Flex vertical>
            <span>
              <Tag>{t(`levels.${o.level}`)}</Tag>
              {o.object_name}
            </span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {o.object_platform_id}
            </Typography.Text>
          </Flex>
        ),
      },
      { key: 'account', title: t('logs.columns.adAccount'), width: 150, render: (_, o) => <Typography.Text ellipsis={{ tooltip: o.ad_account.platform_id }}>{o.ad_account.name}</Typography.Text> },
      {
        key: 'change',
        title: t('logs.columns.change'),
        width: 260,
        render: (_, o) => (
          <Flex vertical>
            {describeChange(asRecord(o.before), asRecord(o.after), t).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </Flex>
        ),
      },
      {
        key: 'result',
        title: t('logs.columns.result'),
        width: 220,
        render: (_, o) => (
          <Flex vertical gap={2}>
            <Tag color={o.result === 'ok' ? 'success' : o.result === 'failed' ? 'error' : 'processing'} style={{ alignSelf: 'flex-start' }}>
              {t(`logs.results.${o.result}`)}
            </Tag>
            {o.error && <Typography.Text type="danger">{o.error}</Typography.Text>}
          </Flex>
        ),
      },
    ],
    [t],
  );

  return (
    <PageShell
      title={title}
      extra={
        <>
          <ColumnChooser columns={columns} prefs={columnPrefs} />
          <ExportButton exporter={exporter} body={{ ...exportBody(list.query), log, columns: shownColumnKeys(columns, columnPrefs.hidden, AD_OPERATION_EXPORT_COLUMNS) }} filename={`${t('logs.exportFile')}-${log}.xlsx`} />
        </>
      }
    >
      <Segmented<LogKind> value={log} onChange={(k) => void navigate(LOG_PATHS[k])} options={(['all', 'close', 'remove'] as const).map((k) => ({ value: k, label: t(`logs.tabs.${k}`) }))} style={{ alignSelf: 'flex-start' }} />
      <FilterBar<FormValues>
        value={list.filters as FormValues}
        toForm={(v) => {
          const f = v as FilterValues;
          return { ...f, time_from: undefined, time_to: undefined, range: f.time_from && f.time_to ? [dayjs(f.time_from), dayjs(f.time_to)] : undefined };
        }}
        normalize={(v) => {
          const { range, keyword, ...rest } = v;
          const out: Record<string, unknown> = { ...rest, ...(keyword?.trim() && { keyword: keyword.trim() }) };
          if (range?.[0] && range[1]) Object.assign(out, { time_from: range[0].format('YYYY-MM-DD'), time_to: range[1].format('YYYY-MM-DD') });
          for (const k of Object.keys(out)) if (out[k] === undefined || out[k] === null) delete out[k];
          return out as FormValues;
        }}
        onChange={(v) => list.setFilters(v as FilterValues)}
        onReset={list.reset}
        applyOnChange={['range', 'operator_id', 'actor_type', 'action', 'ad_account_id', 'result']}
      >
        <Form.Item name="range" label={t('logs.filters.time')}>
          <DatePicker.RangePicker presets={presets} />
        </Form.Item>
        <Form.Item name="operator_id" label={t('logs.filters.operator')}>
          <UserPicker placeholder={t('filters.all')} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="actor_type" label={t('logs.filters.actorType')}>
          <Select allowClear placeholder={t('filters.all')} style={{ width: 110 }} options={ACTOR_TYPES.map((a) => ({ value: a, label: t(`logs.actorTypes.${a}`) }))} />
        </Form.Item>
        {log === 'all' && (
          <Form.Item name="action" label={t('logs.filters.action')}>
            <Select allowClear placeholder={t('filters.all')} style={{ width: 120 }} options={ACTIONS.map((a) => ({ value: a, label: t(`logs.actions.${a}`) }))} />
          </Form.Item>
        )}
        {canListAccounts && (
          <Form.Item name="ad_account_id" label={t('logs.filters.adAccount')}>
            <AdAccountSelect placeholder={t('filters.all')} style={{ width: 180 }} />
          </Form.Item>
        )}
        <Form.Item name="result" label={t('logs.filters.result')}>
          <Select allowClear placeholder={t('filters.all')} style={{ width: 100 }} options={RESULTS.map((r) => ({ value: r, label: t(`logs.results.${r}`) }))} />
        </Form.Item>
        <Form.Item name="keyword" label={t('logs.filters.keyword')}>
          <Input allowClear placeholder={t('logs.filters.keywordPlaceholder')} style={{ width: 180 }} maxLength={100} />
        </Form.Item>
      </FilterBar>
      <ListTable<AdOperation, { list: AdOperation[]; total: number }> list={list} result={ops} columns={columns} hidden={columnPrefs.hidden} rowKey="id" empty={{ text: t(`logs.empty.${log}`) }} />
    </PageShell>
  );
}
