import { FIRING_EXPORT_COLUMNS, pageBodySchema, RULE_EVALUATION_STATUSES, ruleLevelSchema, ruleOutcomeSchema, RULE_OUTCOMES, type RuleEvaluation, type RuleFiring } from '@ads/contracts';
import { Flex, Form, Input, Segmented, Select, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DateRangeField, ExportButton, exportBody, FilterBar, ListTable, urlBoolean, urlInt, useListQuery, type ListColumn } from '@/components/list-kit';
import { formatDateTime } from '@/lib/format';
import { useSettings } from '@/stores/settings-store';
import { useEvaluations, useExportFirings, useFirings } from '../api/use-rules';
import { OutcomeTag } from './outcome-tag';
import { changeText } from './rule-format';
import { RuleSelect } from './rule-select';
import { RuleValues } from './rule-values';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const historyQuerySchema = pageBodySchema.extend({
  view: z.literal('history').optional(),
  show: z.enum(['firings', 'evaluations']).default('firings'),
  rule_id: urlInt.optional(),
  outcome: ruleOutcomeSchema.optional(),
  level: ruleLevelSchema.optional(),
  keyword: z.string().trim().max(100).optional(),
  time_from: day.optional(),
  time_to: day.optional(),
  trigger: z.enum(['schedule', 'manual', 'revive']).optional(),
  status: z.enum(RULE_EVALUATION_STATUSES).optional(),
  with_firings: urlBoolean.optional(),
});
type HistoryQuery = z.output<typeof historyQuerySchema>;
const FILTER_KEYS = ['rule_id', 'outcome', 'level', 'keyword', 'time_from', 'time_to', 'trigger', 'status', 'with_firings'] as const;
type Filters = Partial<Pick<HistoryQuery, (typeof FILTER_KEYS)[number]>> & { range?: [string, string] };

const EVAL_COLOR: Record<string, string> = { ok: 'green', partial: 'gold', failed: 'red', running: 'blue', skipped: 'default' };

/**
 * 历史: every firing with the figures that triggered it (filters, paging, export), and every
 * evaluation with its counts.
 */
export function HistoryTab() {
  const { t } = useTranslation('rules');
  const lang = useSettings((s) => (s.locale === 'en' ? 'en' : 'zh'));
  const list = useListQuery(historyQuerySchema, { filterKeys: FILTER_KEYS });
  const q = list.query;
  const firingsView = q.show === 'firings';
  const { view: _v, show: _s, trigger, status, with_firings, ...firingBody } = q;
  const { outcome: _o, level: _l, keyword: _k, ...evalRest } = firingBody;
  const firings = useFirings(firingBody, firingsView);
  const evaluations = useEvaluations({ ...evalRest, trigger, status, with_firings }, !firingsView);
  const exporter = useExportFirings();

  const firingColumns: ListColumn<RuleFiring>[] = [
    { key: 'created_at', title: t('history.columns.time'), width: 140, fixed: 'left', render: (_, f) => formatDateTime(f.created_at) },
    { key: 'rule', title: t('history.columns.rule'), width: 180, render: (_, f) => <Typography.Text ellipsis={{ tooltip: f.rule.name }}>{f.rule.name}</Typography.Text> },
    {
      key: 'object',
      title: t('history.columns.object'),
      width: 200,
      render: (_, f) => (
        <Flex vertical>
          <Typography.Text ellipsis={{ tooltip: f.object.name }}>{f.object.name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`level.${f.level}`)} · {f.object.platform_id}
          </Typography.Text>
        </Flex>
      ),
    },
    { key: 'ad_account', title: t('history.columns.account'), width: 150, render: (_, f) => f.ad_account.name },
    { key: 'action', title: t('history.columns.action'), width: 100, render: (_, f) => t(`action.${f.action}`) },
    { key: 'outcome', title: t('history.columns.outcome'), width: 120, render: (_, f) => <OutcomeTag outcome={f.outcome} /> },
    { key: 'values', title: t('history.columns.values'), width: 300, render: (_, f) => <RuleValues values={f.values} lang={lang} /> },
    { key: 'change', title: t('history.columns.change'), width: 170, render: (_, f) => changeText(f.before, f.after) },
    { key: 'error', title: t('history.columns.error'), width: 200, render: (_, f) => (f.error ? <Typography.Text type="danger">{f.error}</Typography.Text> : '') },
  ];

  const evalColumns: ListColumn<RuleEvaluation>[] = [
    { key: 'started_at', title: t('history.columns.started'), width: 150, fixed: 'left', render: (_, e) => formatDateTime(e.started_at) },
    { key: 'rule', title: t('history.columns.rule'), width: 200, render: (_, e) => e.rule.name },
    { key: 'trigger', title: t('history.columns.trigger'), width: 90, render: (_, e) => t(`trigger.${e.trigger}`) },
    { key: 'status', title: t('history.columns.status'), width: 100, render: (_, e) => <Tag color={EVAL_COLOR[e.status]}>{t(`evalStatus.${e.status}`)}</Tag> },
    { key: 'counts', title: t('history.columns.counts'), width: 260, render: (_, e) => `${e.objects_checked} / ${e.matched} / ${e.acted} / ${e.failed} / ${e.skipped} / ${e.revived}` },
    { key: 'data_as_of', title: t('history.columns.dataAsOf'), width: 140, render: (_, e) => formatDateTime(e.data_as_of) },
    {
      key: 'error',
      title: t('history.columns.error'),
      width: 200,
      render: (_, e) => (
        <Flex vertical gap={2}>
          {e.error && <Typography.Text type="danger">{e.error}</Typography.Text>}
          {e.acted + e.failed + e.revived > 0 && (
            <Typography.Link onClick={() => list.set({ view: 'history', show: 'firings', rule_id: e.rule.id })}>{t('history.viewFirings')}</Typography.Link>
          )}
        </Flex>
      ),
    },
  ];

  const toForm = (v: Filters) => ({ ...v, range: v.time_from ? [v.time_from, v.time_to ?? v.time_from] : undefined });
  const fromForm = (v: Filters): Filters => {
    const { range, ...rest } = v;
    const out: Filters = { ...rest, keyword: rest.keyword?.trim() || undefined, time_from: range?.[0], time_to: range?.[1] };
    for (const k of Object.keys(out) as (keyof Filters)[]) if (out[k] === undefined || out[k] === null || out[k] === false) delete out[k];
    return out;
  };

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" gap={12} wrap>
        <Segmented
          value={q.show}
          onChange={(show) => list.set({ view: 'history', show: show as HistoryQuery['show'], rule_id: q.rule_id })}
          options={[
            { value: 'firings', label: t('history.firings') },
            { value: 'evaluations', label: t('history.evaluations') },
          ]}
        />
        {firingsView && <ExportButton exporter={exporter} body={{ ...exportBody(firingBody), columns: [...FIRING_EXPORT_COLUMNS] }} filename={`${t('history.exportFile')}-${dayjs().format('YYYY-MM-DD')}.xlsx`} />}
      </Flex>
      <FilterBar<Filters> value={list.filters} onChange={list.setFilters} onReset={list.reset} applyOnChange={['rule_id', 'outcome', 'level', 'range', 'trigger', 'status']} normalize={fromForm} toForm={toForm} label="history-filters">
        <Form.Item name="rule_id" label={t('history.rule')}>
          <RuleSelect />
        </Form.Item>
        {firingsView ? (
          <>
            <Form.Item name="outcome" label={t('history.outcome')}>
              <Select allowClear placeholder={t('all')} style={{ width: 150 }} options={RULE_OUTCOMES.filter((o) => o !== 'would_act').map((o) => ({ value: o, label: t(`outcome.${o}`) }))} />
            </Form.Item>
            <Form.Item name="level" label={t('history.level')}>
              <Select allowClear placeholder={t('all')} style={{ width: 120 }} options={ruleLevelSchema.options.map((l) => ({ value: l, label: t(`level.${l}`) }))} />
            </Form.Item>
            <Form.Item name="keyword" label={t('history.keyword')}>
              <Input allowClear style={{ width: 180 }} />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item name="trigger" label={t('history.trigger')}>
              <Select allowClear placeholder={t('all')} style={{ width: 120 }} options={(['schedule', 'manual', 'revive'] as const).map((k) => ({ value: k, label: t(`trigger.${k}`) }))} />
            </Form.Item>
            <Form.Item name="status" label={t('history.evalStatus')}>
              <Select allowClear placeholder={t('all')} style={{ width: 120 }} options={RULE_EVALUATION_STATUSES.map((k) => ({ value: k, label: t(`evalStatus.${k}`) }))} />
            </Form.Item>
          </>
        )}
        <Form.Item name="range" label={t('history.range')}>
          <DateRangeField />
        </Form.Item>
      </FilterBar>
      {firingsView ? (
        <ListTable<RuleFiring, NonNullable<typeof firings.data>> key="firings" list={list} result={firings} rowKey="id" columns={firingColumns} empty={{ text: t('history.emptyFirings') }} />
      ) : (
        <ListTable<RuleEvaluation, NonNullable<typeof evaluations.data>> key="evaluations" list={list} result={evaluations} rowKey="id" columns={evalColumns} empty={{ text: t('history.emptyEvaluations') }} />
      )}
    </Flex>
  );
}
