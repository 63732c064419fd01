import { AD_CONVERSION_EVENTS, adOperationSchema, adReportRowSchema, METRIC_KEYS, metricChange, metricValue, taskSchema, type AdCopyAccount, type AdOperation, type AdReportRow, type FactSums, type ReportLevel } from '@ads/contracts';
import type { Handlers, RequestOf, ResponseOf } from './mock-api';

/** One row of a mock report: what the row shows besides metrics, its level, parents and fact sums (USD in cents). */
export interface MockReportRow {
  level: ReportLevel;
  row: Partial<AdReportRow> & { id: number; name: string };
  facts: FactSums;
  /** The previous period's sums (comparison). */
  previous?: FactSums;
  parents?: { owner_user_id?: number; ad_account_id?: number; campaign_id?: number; adset_id?: number };
}

type Metrics = Record<string, number | null>;
const metricsOf = (facts: FactSums): Metrics => Object.fromEntries(METRIC_KEYS.map((k) => [k, metricValue(k, facts)]));
const add = (a: FactSums, b: FactSums): FactSums => {
  const out: FactSums = { ...a };
  for (const [k, v] of Object.entries(b) as [keyof FactSums, number][]) out[k] = (out[k] ?? 0) + v;
  return out;
};

/** A full report row (contract-valid) from a few fields. */
export function buildReportRow(r: Partial<AdReportRow> & { id: number; name: string }): AdReportRow {
  return adReportRowSchema.parse({
    platform_id: null,
    ad_account: null,
    owner: null,
    status: null,
    effective_status: null,
    deleted: false,
    budget_level: null,
    daily_budget_minor: null,
    lifetime_budget_minor: null,
    bid_amount_minor: null,
    currency: null,
    drama_id: null,
    product_id: null,
    metrics: {},
    previous: null,
    change: null,
    ...r,
  });
}

export function buildOperation(o: Partial<AdOperation> & { id: number; action: string; object_name: string }): AdOperation {
  return adOperationSchema.parse({
    batch_id: `b${o.id}`,
    actor_type: 'user',
    actor: { id: 1, name: 'Manager', account: 'manager' },
    rule_id: null,
    start_task_id: null,
    level: 'ad',
    object_id: 1,
    object_platform_id: '120000000001',
    ad_account: { id: 1, name: 'US Drama 01', platform_id: 'act_111' },
    before: {},
    after: {},
    result: 'ok',
    error: null,
    created_at: '2026-11-24T03:00:00.000Z',
    finished_at: '2026-11-24T03:00:01.000Z',
    ...o,
  });
}

interface Options {
  rows: MockReportRow[];
  operations?: AdOperation[];
  /** Ids whose platform call fails, with the reason the server gives. */
  failing?: Record<number, string>;
  /** Dry-run refusals (the ad set's four budget changes of the hour), by id. */
  refusing?: Record<number, string>;
  /** Ad sets' budget changes of the last hour, by id (default: none used). */
  budgetChanges?: Record<number, { used: number; next_change_at?: string | null; frees_at?: string | null }>;
  /** Ad accounts a copy may go to (the viewer's scope), with the pixels each may use. */
  copyAccounts?: (AdCopyAccount & { pixels?: { platform_id: string; name: string }[] })[];
}

/** The batch of the mock's copy into another account (a uuid, as the log filter takes). */
export const COPY_BATCH = '00000000-0000-4000-8000-0000000000c2';

/** Units per USD the mock converts copies with. */
const MOCK_RATES: Record<string, number> = { USD: 1, JPY: 150, EUR: 0.92 };
const decimals = (currency: string) => (currency === 'JPY' ? 0 : 2);

/**
 * A small in-memory ad-data server for screen tests: reports group the given rows by level and
 * parents, metrics come from the registry over their fact sums, totals are the sums of every
 * matching row (so they equal the rows), comparison answers the previous sums; operations
 * change statuses and fail for the ids told to.
 */
export function adDataBackend({ rows, operations = [], failing = {}, refusing = {}, budgetChanges = {}, copyAccounts = [] }: Options) {
  const state = { rows: rows.map((r) => ({ ...r, row: { ...r.row } })), operations: [...operations] };

  const list = (b: RequestOf<'/ad-reports/list'>): ResponseOf<'/ad-reports/list'> => {
    let matching = state.rows.filter((r) => r.level === b.level);
    const p = (r: MockReportRow) => r.parents ?? {};
    if (b.owner_user_id !== undefined) matching = matching.filter((r) => p(r).owner_user_id === b.owner_user_id);
    if (b.ad_account_ids) matching = matching.filter((r) => b.ad_account_ids!.includes(b.level === 'account' ? r.row.id : (p(r).ad_account_id ?? -1)));
    if (b.campaign_id !== undefined) matching = matching.filter((r) => p(r).campaign_id === b.campaign_id);
    if (b.adset_id !== undefined) matching = matching.filter((r) => p(r).adset_id === b.adset_id);
    if (b.keyword) matching = matching.filter((r) => r.row.name.includes(b.keyword!) || String(r.row.id) === b.keyword);
    if (b.platform) matching = matching.filter((r) => (r.row as { platform?: string }).platform === undefined || (r.row as { platform?: string }).platform === b.platform);
    const shaped = matching.map((r) => {
      const m = metricsOf(r.facts);
      const prev = b.compare ? metricsOf(r.previous ?? {}) : null;
      return buildReportRow({ ...r.row, metrics: m, previous: prev, change: prev ? Object.fromEntries(METRIC_KEYS.map((k) => [k, metricChange(m[k] ?? null, prev[k] ?? null)])) : null });
    });
    if (b.sort_field) {
      const f = b.sort_field;
      const dir = b.sort_order === 'ascend' ? 1 : -1;
      shaped.sort((x, y) => (f === 'name' ? x.name.localeCompare(y.name) : ((x.metrics[f] ?? -Infinity) - (y.metrics[f] ?? -Infinity))) * dir);
    }
    const totals = matching.reduce<FactSums>((s, r) => add(s, r.facts), {});
    const prevTotals = matching.reduce<FactSums>((s, r) => add(s, r.previous ?? {}), {});
    return {
      list: shaped.slice((b.page - 1) * b.page_size, b.page * b.page_size),
      total: shaped.length,
      totals: metricsOf(totals),
      previous_totals: b.compare ? metricsOf(prevTotals) : null,
      previous_range: b.compare ? { date_from: '2026-11-17', date_to: '2026-11-23' } : null,
      as_of: '2026-11-24T03:45:00.000Z',
      report_timezone: 'Asia/Shanghai',
    };
  };

  const find = (id: number) => state.rows.find((r) => r.row.id === id && r.level !== 'optimizer' && r.level !== 'account');

  const apply = (b: RequestOf<'/ad-ops/apply'>): ResponseOf<'/ad-ops/apply'> => ({
    batch_id: 'batch-1',
    results: b.ids.map((id, i) => {
      const r = find(id);
      const row = r?.row ?? { id, name: `#${id}` };
      const currency = row.currency ?? 'USD';
      const before: Record<string, unknown> = b.action === 'pause' || b.action === 'activate' || b.action === 'delete' ? { status: row.status ?? 'ACTIVE' } : b.action === 'rename' ? { name: row.name } : b.action === 'budget' ? { daily_budget_minor: row.daily_budget_minor ?? null, currency } : { bid_amount_minor: row.bid_amount_minor ?? null, currency };
      const minor = (v: number | undefined) => (v === undefined ? null : Math.round(v * (currency === 'JPY' ? 1 : 100)));
      const after: Record<string, unknown> = b.action === 'pause' ? { status: 'PAUSED' } : b.action === 'activate' ? { status: 'ACTIVE' } : b.action === 'delete' ? { status: 'DELETED' } : b.action === 'rename' ? { name: b.name } : b.action === 'budget' ? { daily_budget_minor: minor(b.daily_budget), currency } : { bid_amount_minor: minor(b.bid_amount), currency };
      const base = { id, platform_id: row.platform_id ?? String(id), name: row.name, ad_account_id: r?.parents?.ad_account_id ?? 1, before, after, warnings: [] as string[] };
      if (refusing[id]) return { ...base, result: 'failed' as const, error: refusing[id]!, operation_id: b.dry_run ? null : 900 + i };
      if (b.dry_run) return { ...base, result: 'preview' as const, error: null, operation_id: null };
      if (failing[id]) return { ...base, result: 'failed' as const, error: failing[id]!, operation_id: 900 + i };
      if (r && (b.action === 'pause' || b.action === 'activate')) r.row.status = b.action === 'pause' ? 'PAUSED' : 'ACTIVE';
      return { ...base, result: 'ok' as const, error: null, operation_id: 900 + i };
    }),
  });

  const handlers: Handlers = {
    '/ad-reports/list': list,
    '/ad-reports/export': () => 'xlsx',
    '/ad-reports/hourly': (b) => ({
      day: b.day,
      previous_day: '2026-11-23',
      series: Array.from({ length: 24 }, (_, hour) => ({ hour, spend: hour < 12 ? 10 : 0, impressions: 1000, clicks: 10, previous_spend: 8, previous_impressions: 900, previous_clicks: 9 })),
    }),
    '/ad-reports/sync': (b) => ({ task_ids: [41], ad_accounts: b.ad_account_ids?.length ?? 3 }),
    '/ad-ops/apply': apply,
    '/ad-ops/budget_changes': (b) => ({ list: b.ids.map((id) => ({ id, limit: 4, used: 0, next_change_at: null, frees_at: null, ...budgetChanges[id] })) }),
    '/ad-ops/copy': (b) => {
      const target = copyAccounts.find((a) => a.id === b.target_ad_account_id);
      if (!target) {
        return {
          batch_id: 'copy-1',
          results: b.ids.map((id) => {
            const row = find(id)?.row ?? { id, name: `#${id}` };
            const after = { status: b.status ?? 'PAUSED', ...(b.pixel_id && { pixel_id: b.pixel_id }), ...(!b.dry_run && { copied_id: '120999', objects: 2 }) };
            return { id, platform_id: row.platform_id ?? String(id), name: row.name, ad_account_id: 1, before: { source_id: row.platform_id, name: row.name }, after, result: b.dry_run ? ('preview' as const) : ('ok' as const), error: null, warnings: [], operation_id: b.dry_run ? null : 700 };
          }),
        };
      }
      // Into another account: the source and the ads under it, budgets converted at MOCK_RATES.
      const notes: string[] = [];
      const results = b.ids.flatMap((id) => {
        const source = find(id);
        const row = source?.row ?? { id, name: `#${id}` };
        const from = row.currency ?? 'USD';
        const before: Record<string, unknown> = { source_id: row.platform_id, name: row.name, ad_account: 'act_111' };
        const after: Record<string, unknown> = { ad_account: target.platform_id, name: b.name ?? row.name, status: b.status ?? 'PAUSED', ...(b.pixel_id && { pixel_id: b.pixel_id }) };
        if (row.daily_budget_minor != null) {
          const to = target.currency;
          const minor = b.daily_budget !== undefined ? Math.round(b.daily_budget * 10 ** decimals(to)) : Math.round((row.daily_budget_minor / 10 ** decimals(from) / MOCK_RATES[from]!) * MOCK_RATES[to]! * 10 ** decimals(to));
          Object.assign(before, { daily_budget_minor: row.daily_budget_minor, currency: from });
          Object.assign(after, { daily_budget_minor: minor, currency: to });
          if (from !== to && b.daily_budget === undefined) notes.push(`Budgets converted from ${from} to ${to}: 1 USD = ${MOCK_RATES[from]} ${from} = ${MOCK_RATES[to]} ${to}`);
        }
        const children = state.rows.filter((r) => r.level === 'ad' && r.parents?.adset_id === id);
        const base = { ad_account_id: target.id, warnings: [] as string[], error: null, result: 'preview' as const, operation_id: null };
        return [
          { ...base, level: b.level, id, platform_id: row.platform_id ?? String(id), name: String(after.name), before, after },
          ...children.map((c) => ({ ...base, level: 'ad' as const, id: c.row.id, platform_id: c.row.platform_id ?? String(c.row.id), name: c.row.name, before: { source_id: c.row.platform_id, name: c.row.name, ad_account: 'act_111' }, after: { ad_account: target.platform_id, name: c.row.name, status: b.status ?? 'PAUSED' } })),
        ];
      });
      if (b.dry_run) return { batch_id: 'copy-preview', results, notes: [...notes, `First 1 materials are pushed to "${target.name}" and processed by the platform: ep1.mp4`] };
      // The act runs as a task; its log rows appear under the batch.
      state.operations.push(
        ...results.map((r, i) =>
          buildOperation({ id: 800 + i, batch_id: COPY_BATCH, action: 'copy', level: r.level, object_id: r.id, object_platform_id: r.platform_id, object_name: r.name, ad_account: { id: target.id, name: target.name, platform_id: target.platform_id }, before: r.before, after: { ...r.after, copied_id: `130${i}` } }),
        ),
      );
      return { batch_id: COPY_BATCH, results: [], task_id: 77, notes: [...notes, 'The copy is queued as a task; its results go to the operation log.'] };
    },
    '/ad-ops/copy_accounts': (b) => ({ list: copyAccounts.filter((a) => !b.keyword || a.name.includes(b.keyword)).map(({ pixels: _p, ...a }) => a) }),
    '/ad-ops/copy_targets': (b) => {
      const a = copyAccounts.find((x) => x.id === b.ad_account_id) ?? { id: b.ad_account_id, name: 'US Drama 01', platform_id: 'act_111', currency: 'USD', reachable: true, pixels: [] };
      return { ad_account: { id: a.id, name: a.name, platform_id: a.platform_id, currency: a.currency, timezone_name: 'UTC' }, reachable: a.reachable, pixels: a.pixels ?? [], events: [...AD_CONVERSION_EVENTS] };
    },
    '/tasks/get': (b) =>
      taskSchema.parse({ id: b.id, job_name: 'copy-ad-objects', title: 'Copy to another ad account', status: 'success', progress_done: 3, progress_total: 3, message: 'Copied: 3 created, 0 failed', summary: null, error: null, created_by: 1, created_by_name: 'Manager', trigger: 'manual', queued_at: '2026-11-24T03:00:00.000Z', started_at: '2026-11-24T03:00:00.000Z', finished_at: '2026-11-24T03:00:05.000Z' }),
    '/ad-operations/list': (b) => {
      let ops = state.operations;
      if (b.log === 'close') ops = ops.filter((o) => o.action === 'pause');
      if (b.log === 'remove') ops = ops.filter((o) => o.action === 'delete');
      if (b.result) ops = ops.filter((o) => o.result === b.result);
      if (b.action) ops = ops.filter((o) => o.action === b.action);
      if (b.keyword) ops = ops.filter((o) => o.object_name.includes(b.keyword!));
      if (b.batch_id) ops = ops.filter((o) => o.batch_id === b.batch_id);
      return { list: ops.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: ops.length };
    },
    '/ad-operations/export': () => 'xlsx',
    '/fx-rates/list': () => ({ list: [{ currency: 'JPY', day: '2026-11-24', units_per_usd: 150, updated_by: null, updated_at: '2026-11-24T00:00:00.000Z' }], total: 1 }),
    '/fx-rates/save': () => ({ updated_rows: 12 }),
  };
  return { handlers, state };
}
