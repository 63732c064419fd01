import { COHORT_DAYS, FACT_COLUMNS, lastMaturedDay, metrics, REPORT_COLUMNS, type FactColumn, type FactSums, type MetricDef, type MetricKey } from '@ads/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { escapeLike } from '../../lib/sql.ts';
import { splitRange } from './day-blocks.ts';

// Report queries (docs/ad-data-design.md §4, §5): facts summed per row for a range of report days,
// data scope applied to the facts and the objects first. The optimizer, account and campaign views
// read the campaign rollups (campaign_stats_daily, campaign_order_daily); ad sets and ads read
// ad_stats_daily and ad_order_daily filtered by their parent.
// Ratios for sorting are computed in SQL from the sums with the registry's formula; the figures
// shown are computed from the same sums by the registry (metricValue).

export type ReportLevel = 'optimizer' | 'account' | 'campaign' | 'adset' | 'ad';

/** Where a scope reaches: ad accounts and users (null = everything). */
export interface ReportScope {
  adAccountIds: number[] | null;
  userIds: number[] | null;
}

export interface ReportFilters {
  platform?: 'dj' | 'ec';
  adAccountIds?: number[];
  ownerUserId?: number;
  campaignId?: number;
  adsetId?: number;
  status?: 'active' | 'paused' | 'deleted' | 'all';
  keyword?: string;
  dramaId?: number;
  productId?: number;
}

export interface ReportQuery {
  level: ReportLevel;
  from: string;
  to: string;
  filters: ReportFilters;
  scope: ReportScope;
  sort?: { field: MetricKey | 'name'; order: 'asc' | 'desc' };
  limit: number;
  offset: number;
  /** Today's report day: cohort figures (Dn) only count days whose day+N has ended. */
  today: string;
  /**
   * The fact columns to sum (those of the metrics shown and of the sort); absent = every column.
   * The others come back as 0 and the side (insights or orders) none of them is on is not read.
   */
  columns?: readonly FactColumn[];
}

/** The fact columns a query sums, in REPORT_COLUMNS order. */
const columnsOf = (q: { columns?: readonly FactColumn[] }): readonly FactColumn[] => q.columns ?? REPORT_COLUMNS;

export interface ReportRowRaw {
  key: number;
  name: string;
  platform_id: string | null;
  ad_account_id: number | null;
  account_name: string | null;
  account_currency: string | null;
  account_timezone: string | null;
  owner_id: number | null;
  owner_name: string | null;
  status: string | null;
  effective_status: string | null;
  deleted: boolean;
  budget_level: 'campaign' | 'adset' | null;
  daily_budget_minor: number | null;
  lifetime_budget_minor: number | null;
  bid_amount_minor: number | null;
  currency: string | null;
  drama_id: number | null;
  product_id: number | null;
  sums: FactSums;
}

/** Levels read from the campaign rollups (campaign_stats_daily, campaign_order_daily). */
export const usesCampaignRollup = (level: ReportLevel) => level === 'optimizer' || level === 'account' || level === 'campaign';

/**
 * Scope and fact filters on a fact table aliased `f`, and its range of days unless `days` is false
 * (the campaign rollups name their days and blocks instead: a range beside them would only make
 * the planner take a thirtieth of the rows it reads, and sort where it should hash).
 */
function factWhere(q: ReportQuery, days = true): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = days ? [sql`f.day >= ${q.from}`, sql`f.day <= ${q.to}`] : [sql`true`];
  const { adAccountIds, userIds } = q.scope;
  if (adAccountIds !== null || userIds !== null) {
    const accounts = adAccountIds?.length ? sql`f.ad_account_id in (${sql.join(adAccountIds)})` : sql`false`;
    const users = userIds?.length ? sql`f.owner_user_id in (${sql.join(userIds)})` : sql`false`;
    parts.push(sql`(${accounts} or ${users})`);
  }
  const f = q.filters;
  if (f.platform) parts.push(sql`f.platform = ${f.platform}`);
  if (f.adAccountIds?.length) parts.push(sql`f.ad_account_id in (${sql.join(f.adAccountIds)})`);
  if (f.ownerUserId !== undefined) parts.push(f.ownerUserId === 0 ? sql`f.owner_user_id is null` : sql`f.owner_user_id = ${f.ownerUserId}`);
  if (f.campaignId !== undefined) parts.push(sql`f.campaign_id = ${f.campaignId}`);
  if (f.adsetId !== undefined) parts.push(sql`f.adset_id = ${f.adsetId}`);
  if (f.dramaId !== undefined) parts.push(sql`f.drama_id = ${f.dramaId}`);
  if (f.productId !== undefined) parts.push(sql`f.product_id = ${f.productId}`);
  return sql.join(parts, sql` and `);
}

const GROUP_KEY: Record<ReportLevel, string> = { optimizer: 'owner_user_id', account: 'ad_account_id', campaign: 'campaign_id', adset: 'adset_id', ad: 'ad_id' };

/** The order facts stored per (ad platform id, day) in ad_order_daily (migration 0012_cohorts). */
const STORED_ORDER_COLUMNS = ['revenue_usd_cents', 'payers', 'new_payers', ...COHORT_DAYS.map((n) => `cohort_d${n}_usd_cents`)] as const;

/**
 * The order facts of ad sets and ads as a fact table with the columns factWhere reads:
 * ad_order_daily joined to the ad mirror by platform id (orders carry platform ids; an ad mirrored
 * later counts from then on).
 */
function adOrderFacts(from: string, to: string): RawBuilder<unknown> {
  const cols = sql.join(STORED_ORDER_COLUMNS.map((c) => sql`d.${sql.ref(c)}`));
  return sql`(select o.id as ad_id, d.day, o.ad_account_id, o.campaign_id, o.adset_id, o.owner_user_id, c.platform, o.drama_id, o.product_id, ${cols}
    from ad_order_daily d join ads o on o.platform_id = d.ad_platform_id join ad_campaigns c on c.id = o.campaign_id
    where d.day >= ${from} and d.day <= ${to})`;
}

/** Columns of a campaign rollup row besides its facts (daily and block tables alike). */
const ROLLUP_KEY = ['day', 'campaign_id', 'ad_account_id', 'owner_user_id', 'platform', 'drama_id', 'product_id'] as const;

/**
 * A campaign rollup over [from, to] (optimizer, account and campaign views): the whole blocks of
 * migration 0025 that fit in the range and lie on one side of every cutoff, and the daily rows of
 * the days left over (day-blocks.ts), each part filtered by `where`. 30 days are ~6–9 rows per
 * campaign instead of 30.
 */
function campaignRollup(daily: 'campaign_stats_daily' | 'campaign_order_daily', blocks: 'campaign_stats_blocks' | 'campaign_order_blocks', facts: readonly string[], where: RawBuilder<unknown>, from: string, to: string, cutoffs: readonly string[]): RawBuilder<unknown> {
  const split = splitRange(from, to, cutoffs);
  const cols = sql.join([...ROLLUP_KEY, ...facts].map((c) => sql.ref(`f.${c}`)));
  const parts: RawBuilder<unknown>[] = [];
  if (split.days.length) parts.push(sql`select ${cols} from ${sql.table(daily)} f where f.day in (${sql.join(split.days)}) and ${where}`);
  if (split.blocks.length) parts.push(sql`select ${cols} from ${sql.table(blocks)} f where f.block in (${sql.join(split.blocks)}) and ${where}`);
  // An empty range reads nothing (still a relation with the columns the aggregates name).
  if (!parts.length) parts.push(sql`select ${cols} from ${sql.table(daily)} f where false`);
  return sql`(${sql.join(parts, sql` union all `)})`;
}

/**
 * `select <key> as k, sum(...) … group by k` for a range: the insights facts (campaign rollup or ad
 * facts) and the order facts of the same scope and filters, added by key. Dn cohort revenue and
 * the spend beside it only count days whose day+N has ended.
 *
 * Each side is summed on its own first and only the per-key sums are added up: every fact row
 * goes through the aggregates of its own side only (the insights rows carry no order columns and
 * the other way round), which is most of the cost of a report over many rows. Those sums add
 * float8: sum(bigint) accumulates in a 128-bit state that costs about twice as much per row
 * (and far more to hand over between parallel workers), and a float8 sum of integers is exact
 * while it stays below 2^53 (90 trillion dollars in cents).
 */
function statsCte(q: ReportQuery, from: string, to: string): RawBuilder<unknown> {
  const rollup = usesCampaignRollup(q.level);
  // Only an optimizer may be nobody (0, unassigned); the other keys are never null, and a bare column
  // lets the planner size the groups from its statistics instead of guessing 200.
  const key = q.level === 'optimizer' ? sql`coalesce(f.owner_user_id, 0)` : sql.ref(`f.${GROUP_KEY[q.level]}`);
  const where = factWhere({ ...q, from, to }, !rollup);
  const matured = (n: (typeof COHORT_DAYS)[number]) => lastMaturedDay(n, q.today);
  const wanted = new Set<string>(columnsOf(q));
  /** One aggregate: output column, expression, the stored fact it reads and the cohort cutoff it counts up to. */
  interface Agg {
    name: string;
    sql: RawBuilder<unknown>;
    fact: string;
    cutoff?: string;
  }
  const sum = (fact: string, name = fact): Agg => ({ name, fact, sql: sql`sum(${sql.ref(`f.${fact}`)}::float8)::bigint as ${sql.ref(name)}` });
  const sumMatured = (fact: string, n: (typeof COHORT_DAYS)[number], name: string): Agg => ({
    name,
    fact,
    cutoff: matured(n),
    sql: sql`sum(${sql.ref(`f.${fact}`)}::float8) filter (where f.day <= ${matured(n)})::bigint as ${sql.ref(name)}`,
  });
  // Each side's aggregates by output column, in REPORT_COLUMNS order; only the wanted ones are summed.
  const insightAggs = [...FACT_COLUMNS.map((c) => sum(c)), ...COHORT_DAYS.map((n) => sumMatured('spend_usd_cents', n, `matured_spend_d${n}_usd_cents`))].filter((a) => wanted.has(a.name));
  const orderAggs = [
    ...(['revenue_usd_cents', 'payers', 'new_payers'] as const).map((c) => sum(c)),
    ...COHORT_DAYS.map((n) => sumMatured(`cohort_d${n}_usd_cents`, n, `cohort_d${n}_usd_cents`)),
    ...([1, 3, 7] as const).map((n) => sumMatured('cohort_d0_usd_cents', n, `matured_d0_at_d${n}_usd_cents`)),
  ].filter((a) => wanted.has(a.name));
  /** A side's rows, already filtered by the scope, the filters and the range. */
  const source = (side: 'insights' | 'orders', aggs: Agg[]): RawBuilder<unknown> => {
    if (rollup) {
      const facts = [...new Set(aggs.map((a) => a.fact))];
      const cutoffs = aggs.flatMap((a) => (a.cutoff ? [a.cutoff] : []));
      return side === 'insights'
        ? campaignRollup('campaign_stats_daily', 'campaign_stats_blocks', facts, where, from, to, cutoffs)
        : campaignRollup('campaign_order_daily', 'campaign_order_blocks', facts, where, from, to, cutoffs);
    }
    return sql`(select * from ${side === 'insights' ? sql`ad_stats_daily` : adOrderFacts(from, to)} f where ${where})`;
  };
  // A side none of whose columns is wanted is not read at all (the orders side of an insights-only
  // column set is most of the cost of a report with orders). With nothing wanted, the insights
  // side still gives the groups.
  const sides: { aggs: Agg[]; from: RawBuilder<unknown> }[] = [];
  if (insightAggs.length || !orderAggs.length) sides.push({ aggs: insightAggs, from: source('insights', insightAggs) });
  if (orderAggs.length) sides.push({ aggs: orderAggs, from: source('orders', orderAggs) });
  const names = sides.flatMap((side) => side.aggs.map((a) => a.name));
  if (sides.length === 1) {
    const only = sides[0]!;
    return sql`select ${key} as k${sql.join(only.aggs.map((a) => sql`, ${a.sql}`), sql``)} from ${only.from} f group by 1`;
  }
  // Both sides summed per key on their own, then matched by key (a hash full join of two small
  // results: cheaper than stacking them and grouping again).
  const [ins, ord] = sides.map((side) => sql`select ${key} as g, ${sql.join(side.aggs.map((a) => a.sql))} from ${side.from} f group by 1`);
  const cols = names.map((c) => sql.ref(`${insightAggs.some((a) => a.name === c) ? 'i' : 'o'}.${c}`));
  return sql`select coalesce(i.g, o.g) as k, ${sql.join(cols)} from (${ins}) i full join (${ord}) o on o.g = i.g`;
}

/** The row source of a level: objects (with their own filters) left-joined to the stats, or the stats' groups themselves. */
function rowsFrom(q: ReportQuery): RawBuilder<unknown> {
  const f = q.filters;
  const objectScope = (alias: string) => {
    const { adAccountIds, userIds } = q.scope;
    if (adAccountIds === null && userIds === null) return sql`true`;
    const a = adAccountIds?.length ? sql`${sql.ref(`${alias}.ad_account_id`)} in (${sql.join(adAccountIds)})` : sql`false`;
    const u = userIds?.length ? sql`${sql.ref(`${alias}.owner_user_id`)} in (${sql.join(userIds)})` : sql`false`;
    return sql`(${a} or ${u})`;
  };
  const keyword = (alias: string) => {
    if (!f.keyword) return sql`true`;
    const like = `%${escapeLike(f.keyword)}%`;
    const id = /^\d{1,9}$/.test(f.keyword) ? Number(f.keyword) : -1;
    return sql`(${sql.ref(`${alias}.name`)} ilike ${like} or ${sql.ref(`${alias}.platform_id`)} = ${f.keyword} or ${sql.ref(`${alias}.id`)} = ${id})`;
  };
  const status = (alias: string) => {
    switch (f.status) {
      case 'active':
        return sql`${sql.ref(`${alias}.effective_status`)} = 'ACTIVE' and ${sql.ref(`${alias}.deleted_at`)} is null`;
      case 'paused':
        return sql`${sql.ref(`${alias}.effective_status`)} in ('PAUSED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED') and ${sql.ref(`${alias}.deleted_at`)} is null`;
      case 'deleted':
        return sql`${sql.ref(`${alias}.deleted_at`)} is not null`;
      case 'all':
        return sql`true`;
      default:
        // Deleted objects show while they have figures in the range.
        return sql`(${sql.ref(`${alias}.deleted_at`)} is null or s.k is not null)`;
    }
  };
  const common = (alias: string) => {
    const parts = [objectScope(alias), keyword(alias), status(alias)];
    if (f.adAccountIds?.length) parts.push(sql`${sql.ref(`${alias}.ad_account_id`)} in (${sql.join(f.adAccountIds)})`);
    if (f.ownerUserId !== undefined) parts.push(f.ownerUserId === 0 ? sql`${sql.ref(`${alias}.owner_user_id`)} is null` : sql`${sql.ref(`${alias}.owner_user_id`)} = ${f.ownerUserId}`);
    if (f.dramaId !== undefined) parts.push(sql`${sql.ref(`${alias}.drama_id`)} = ${f.dramaId}`);
    if (f.productId !== undefined) parts.push(sql`${sql.ref(`${alias}.product_id`)} = ${f.productId}`);
    return sql.join(parts, sql` and `);
  };
  switch (q.level) {
    case 'optimizer':
      return sql`
        select s.k as key, coalesce(u.name, '') as name, null::text as platform_id, null::int as ad_account_id, null::text as account_name,
               null::text as account_currency, null::text as account_timezone, nullif(s.k, 0) as owner_id, u.name as owner_name, null::text as status,
               null::text as effective_status, false as deleted, null::text as budget_level, null::bigint as daily_budget_minor,
               null::bigint as lifetime_budget_minor, null::bigint as bid_amount_minor, null::text as currency, null::int as drama_id, null::int as product_id, s.*
        from s left join users u on u.id = s.k
        where ${f.keyword ? sql`(u.name ilike ${`%${escapeLike(f.keyword)}%`} or u.account ilike ${`%${escapeLike(f.keyword)}%`})` : sql`true`}`;
    case 'account':
      return sql`
        select s.k as key, a.name, a.platform_id, a.id as ad_account_id, a.name as account_name, a.currency as account_currency, a.timezone_name as account_timezone,
               null::int as owner_id, null::text as owner_name, a.account_status::text as status, null::text as effective_status, false as deleted,
               null::text as budget_level, null::bigint as daily_budget_minor, null::bigint as lifetime_budget_minor, null::bigint as bid_amount_minor,
               a.currency, null::int as drama_id, null::int as product_id, s.*
        from s join ad_accounts a on a.id = s.k
        where ${f.keyword ? sql`(a.name ilike ${`%${escapeLike(f.keyword)}%`} or a.platform_id = ${f.keyword} or a.account_id = ${f.keyword})` : sql`true`}
          ${f.platform ? sql`and a.platform = ${f.platform}` : sql``}`;
    case 'campaign':
      return sql`
        select o.id as key, o.name, o.platform_id, a.id as ad_account_id, a.name as account_name, a.currency as account_currency, a.timezone_name as account_timezone,
               o.owner_user_id as owner_id, u.name as owner_name, o.status, o.effective_status, o.deleted_at is not null as deleted,
               o.budget_level, o.daily_budget_minor, o.lifetime_budget_minor, o.bid_amount_minor, o.currency, o.drama_id, o.product_id, s.*
        from ad_campaigns o join ad_accounts a on a.id = o.ad_account_id left join users u on u.id = o.owner_user_id left join s on s.k = o.id
        where ${common('o')} ${f.platform ? sql`and o.platform = ${f.platform}` : sql``} ${f.campaignId !== undefined ? sql`and o.id = ${f.campaignId}` : sql``}`;
    case 'adset':
      return sql`
        select o.id as key, o.name, o.platform_id, a.id as ad_account_id, a.name as account_name, a.currency as account_currency, a.timezone_name as account_timezone,
               o.owner_user_id as owner_id, u.name as owner_name, o.status, o.effective_status, o.deleted_at is not null as deleted,
               case when c.budget_level = 'adset' then 'adset' else 'campaign' end as budget_level, o.daily_budget_minor, o.lifetime_budget_minor, o.bid_amount_minor,
               o.currency, o.drama_id, o.product_id, s.*
        from ad_sets o join ad_campaigns c on c.id = o.campaign_id join ad_accounts a on a.id = o.ad_account_id left join users u on u.id = o.owner_user_id left join s on s.k = o.id
        where ${common('o')} ${f.platform ? sql`and c.platform = ${f.platform}` : sql``} ${f.campaignId !== undefined ? sql`and o.campaign_id = ${f.campaignId}` : sql``}`;
    case 'ad':
      return sql`
        select o.id as key, o.name, o.platform_id, a.id as ad_account_id, a.name as account_name, a.currency as account_currency, a.timezone_name as account_timezone,
               o.owner_user_id as owner_id, u.name as owner_name, o.status, o.effective_status, o.deleted_at is not null as deleted,
               null::text as budget_level, null::bigint as daily_budget_minor, null::bigint as lifetime_budget_minor, null::bigint as bid_amount_minor,
               a.currency, o.drama_id, o.product_id, s.*
        from ads o join ad_campaigns c on c.id = o.campaign_id join ad_accounts a on a.id = o.ad_account_id left join users u on u.id = o.owner_user_id left join s on s.k = o.id
        where ${common('o')} ${f.platform ? sql`and c.platform = ${f.platform}` : sql``}
          ${f.campaignId !== undefined ? sql`and o.campaign_id = ${f.campaignId}` : sql``} ${f.adsetId !== undefined ? sql`and o.adset_id = ${f.adsetId}` : sql``}`;
  }
}

function toSums(row: Record<string, unknown>, columns: readonly FactColumn[]): FactSums {
  const out: FactSums = {};
  for (const c of columns) out[c] = row[c] == null ? 0 : Number(row[c]);
  return out;
}

/** Prefix of the totals' columns beside a page row (no column of a report row starts with it). */
const TOTAL = 't__';

/**
 * One page of rows, the total count, and the sums over every matching row (so totals = the sum of
 * the rows), in one statement: the rows are computed once and read twice (a CTE referenced twice
 * is materialised), the totals beside every row of the page, or alone on one row when the page is
 * empty.
 */
export async function reportRows(db: Db, q: ReportQuery): Promise<{ rows: ReportRowRaw[]; total: number; totals: FactSums }> {
  const order = q.sort?.order === 'asc' ? sql`asc` : sql`desc`;
  const sortExpr = !q.sort || q.sort.field === 'name' ? sql`r.name` : metricSqlOn('r', q.sort.field);
  const columns = columnsOf(q);
  const sums = sql.join([sql`count(*)::int as ${sql.ref(`${TOTAL}count`)}`, ...columns.map((c) => sql`coalesce(sum(r.${sql.ref(c)}), 0)::bigint as ${sql.ref(`${TOTAL}${c}`)}`)]);
  const result = await sql<Record<string, unknown>>`with s as (${statsCte(q, q.from, q.to)}), r as (${rowsFrom(q)}),
    t as (select ${sums} from r),
    p as (select r.*, row_number() over (order by ${sortExpr} ${order} nulls last, r.key ${order}) as ${sql.ref(`${TOTAL}rank`)} from r)
    select * from t left join p on p.${sql.ref(`${TOTAL}rank`)} > ${q.offset} and p.${sql.ref(`${TOTAL}rank`)} <= ${q.offset + q.limit}
    order by p.${sql.ref(`${TOTAL}rank`)}`.execute(db);
  const first = result.rows[0] ?? {};
  const totals: Record<string, unknown> = {};
  for (const c of columns) totals[c] = first[`${TOTAL}${c}`];
  return {
    rows: result.rows
      .filter((r) => r.key != null)
      .map((r) => ({
        key: Number(r.key),
        name: String(r.name ?? ''),
        platform_id: (r.platform_id as string | null) ?? null,
        ad_account_id: r.ad_account_id == null ? null : Number(r.ad_account_id),
        account_name: (r.account_name as string | null) ?? null,
        account_currency: (r.account_currency as string | null) ?? null,
        account_timezone: (r.account_timezone as string | null) ?? null,
        owner_id: r.owner_id == null ? null : Number(r.owner_id),
        owner_name: (r.owner_name as string | null) ?? null,
        status: (r.status as string | null) ?? null,
        effective_status: (r.effective_status as string | null) ?? null,
        deleted: Boolean(r.deleted),
        budget_level: (r.budget_level as 'campaign' | 'adset' | null) ?? null,
        daily_budget_minor: r.daily_budget_minor == null ? null : Number(r.daily_budget_minor),
        lifetime_budget_minor: r.lifetime_budget_minor == null ? null : Number(r.lifetime_budget_minor),
        bid_amount_minor: r.bid_amount_minor == null ? null : Number(r.bid_amount_minor),
        currency: (r.currency as string | null) ?? null,
        drama_id: r.drama_id == null ? null : Number(r.drama_id),
        product_id: r.product_id == null ? null : Number(r.product_id),
        sums: toSums(r, columns),
      })),
    total: Number(first[`${TOTAL}count`] ?? 0),
    totals: toSums(totals, columns),
  };
}

/** A metric over the columns of row alias `alias` (the joined sums). */
export function metricSqlOn(alias: string, key: MetricKey): RawBuilder<number | null> {
  const def: MetricDef = metrics[key];
  if (def.kind === 'sum') return sql`(coalesce(${sql.ref(`${alias}.${def.column}`)}, 0)::float8 / ${def.divisor})`;
  if (def.kind === 'cohort') return sql`(coalesce(${sql.ref(`${alias}.${def.revenue}`)}, 0)::float8 / nullif(${sql.ref(`${alias}.${def.spend}`)}, 0) * ${def.scale})`;
  return sql`(${metricSqlOn(alias, def.numerator)} / nullif(${metricSqlOn(alias, def.denominator)}, 0) * ${def.scale})`;
}

/** Sums of the previous period for the given row keys, and over every matching row. */
export async function previousSums(db: Db, q: ReportQuery, from: string, to: string, keys: number[]): Promise<{ byKey: Map<number, FactSums>; totals: FactSums }> {
  const prev = { ...q, from, to };
  const base = sql`with s as (${statsCte(prev, from, to)}), r as (${rowsFrom({ ...prev, filters: { ...prev.filters, status: 'all' } })})`;
  const byKey = new Map<number, FactSums>();
  if (keys.length) {
    const rows = await sql<Record<string, unknown>>`${base} select * from r where r.key in (${sql.join(keys)})`.execute(db);
    for (const r of rows.rows) byKey.set(Number(r.key), toSums(r, columnsOf(q)));
  }
  const sums = sql.join(columnsOf(q).map((c) => sql`coalesce(sum(s.${sql.ref(c)}), 0)::bigint as ${sql.ref(c)}`));
  // Totals of the previous period over the same filters as the current rows.
  const cur = sql`with s as (${statsCte(prev, from, to)}), r as (${rowsFrom(q)})`;
  const agg = await sql<Record<string, unknown>>`${cur} select ${sums} from s where s.k in (select key from r)`.execute(db);
  return { byKey, totals: toSums(agg.rows[0] ?? {}, columnsOf(q)) };
}


/**
 * When the figures in view were last brought in: the oldest insights sync among the ad accounts the
 * scope reaches, both its own ad accounts and those of the people it sees (the optimizer view is
 * scoped by people only).
 */
export async function insightsSyncedAsOf(db: Db, scope: ReportScope): Promise<Date | string | null> {
  let q = db.selectFrom('ad_account_sync_state as s').select((eb) => eb.fn.min('s.insights_synced_at').as('at'));
  // adAccountIds null: every ad account is in view.
  if (scope.adAccountIds !== null) {
    const accounts = scope.adAccountIds;
    const users = scope.userIds ?? [];
    q = q.where((eb) =>
      eb.or([
        eb('s.ad_account_id', 'in', accounts.length ? accounts : [0]),
        eb('s.ad_account_id', 'in', eb.selectFrom('ad_campaigns as c').select('c.ad_account_id').where('c.owner_user_id', 'in', users.length ? users : [0])),
      ]),
    );
  }
  const row = await q.executeTakeFirst();
  return (row?.at as Date | string | null | undefined) ?? null;
}
