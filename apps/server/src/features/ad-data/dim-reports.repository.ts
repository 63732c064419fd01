import { COHORT_DAYS, FACT_COLUMNS, lastMaturedDay, REPORT_COLUMNS, type FactColumn, type FactSums, type MetricKey, type ReportDimension } from '@ads/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { RollupDim } from '../../db/schema.ts';
import { escapeLike } from '../../lib/sql.ts';
import { metricSqlOn, type ReportScope } from './ad-reports.repository.ts';

// The report by dimension over the rollups (ad_dim_daily, migration 0015_report_rollups): the same
// sums as the ad reports (insights facts, order facts, cohort revenue of matured days beside the
// spend of those days), grouped by the dimension's key, in the caller's data scope. Organic
// orders (ad account 0) are summed apart and never mixed into the attributed figures.

export interface DimFilters {
  platform?: 'dj' | 'ec';
  adAccountIds?: number[];
  ownerUserId?: number;
  dramaId?: number;
  productId?: number;
}

export interface DimQuery {
  dimension: ReportDimension;
  from: string;
  to: string;
  /** Today's report day: Dn only counts days whose day+N has ended. */
  today: string;
  scope: ReportScope;
  filters: DimFilters;
  keyword?: string;
  sort: { field: MetricKey | 'name' | 'orders'; order: 'asc' | 'desc' };
  limit: number;
  offset: number;
  /** Add the organic figures of each key (callers who see the whole company; dimensions organic orders have). */
  organic: boolean;
}

export interface OrganicSums {
  revenue_usd_cents: number;
  orders: number;
  payers: number;
  new_payers: number;
}

export interface DimRowRaw {
  key: string;
  id: number | null;
  name: string;
  detail: string | null;
  sums: FactSums;
  orders: number;
  organic: OrganicSums | null;
}

/** Which rollup rows a dimension reads and how its key is read from them (alias `f`). */
const SOURCE: Record<ReportDimension, { dim: RollupDim; key: RawBuilder<string>; join?: RawBuilder<unknown> }> = {
  day: { dim: 'all', key: sql`f.day::text` },
  drama: { dim: 'all', key: sql`coalesce(f.drama_id::text, '')` },
  product: { dim: 'all', key: sql`coalesce(f.product_id::text, '')` },
  material: { dim: 'material', key: sql`f.key` },
  // An editor's figures are their materials' figures (the editor is read now, so a corrected editor counts at once).
  editor: { dim: 'material', key: sql`coalesce(em.editor_id::text, '')`, join: sql`left join materials em on em.id = nullif(f.key, '')::int` },
  scheme: { dim: 'scheme', key: sql`f.key` },
  site: { dim: 'site', key: sql`f.key` },
  country: { dim: 'country', key: sql`f.key` },
};

/** Names of a dimension's keys (alias `g`: the grouped rows, key `k`). */
function names(dimension: ReportDimension): { select: RawBuilder<unknown>; join: RawBuilder<unknown> } {
  const id = sql`nullif(g.k, '')::int`;
  switch (dimension) {
    case 'day':
    case 'country':
      return { select: sql`null::int as id, g.k as name, null::text as detail`, join: sql`` };
    case 'drama':
      return { select: sql`${id} as id, coalesce(x.name, '') as name, s.name as detail`, join: sql`left join dramas x on x.id = ${id} left join sites s on s.id = x.site_id` };
    case 'product':
      return { select: sql`${id} as id, coalesce(x.name, '') as name, s.name as detail`, join: sql`left join products x on x.id = ${id} left join sites s on s.id = x.site_id` };
    case 'material':
      return { select: sql`${id} as id, coalesce(x.file_name, '') as name, u.name as detail`, join: sql`left join materials x on x.id = ${id} left join users u on u.id = x.editor_id` };
    case 'editor':
      return { select: sql`${id} as id, coalesce(u.name, '') as name, u.account as detail`, join: sql`left join users u on u.id = ${id}` };
    case 'scheme':
      // Publish schemes arrive with issue 8: until then a scheme is its id.
      return { select: sql`${id} as id, '' as name, null::text as detail`, join: sql`` };
    case 'site':
      return { select: sql`${id} as id, coalesce(x.name, '') as name, x.domain as detail`, join: sql`left join sites x on x.id = ${id}` };
  }
}

function where(q: DimQuery, organic: boolean): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`f.dim = ${SOURCE[q.dimension].dim}`, sql`f.day >= ${q.from}`, sql`f.day <= ${q.to}`];
  if (organic) parts.push(sql`f.ad_account_id = 0`);
  else {
    parts.push(sql`f.ad_account_id <> 0`);
    const { adAccountIds, userIds } = q.scope;
    if (adAccountIds !== null || userIds !== null) {
      const accounts = adAccountIds?.length ? sql`f.ad_account_id in (${sql.join(adAccountIds)})` : sql`false`;
      const users = userIds?.length ? sql`f.owner_user_id in (${sql.join(userIds)})` : sql`false`;
      parts.push(sql`(${accounts} or ${users})`);
    }
    const f = q.filters;
    if (f.adAccountIds?.length) parts.push(sql`f.ad_account_id in (${sql.join(f.adAccountIds)})`);
    if (f.ownerUserId !== undefined) parts.push(f.ownerUserId === 0 ? sql`f.owner_user_id is null` : sql`f.owner_user_id = ${f.ownerUserId}`);
  }
  const f = q.filters;
  if (f.platform) parts.push(sql`f.platform = ${f.platform}`);
  if (f.dramaId !== undefined) parts.push(sql`f.drama_id = ${f.dramaId}`);
  if (f.productId !== undefined) parts.push(sql`f.product_id = ${f.productId}`);
  return sql.join(parts, sql` and `);
}

const ORGANIC_COLUMNS = ['o_revenue_usd_cents', 'o_orders', 'o_payers', 'o_new_payers'] as const;

/** `with a (attributed sums by key), o (organic sums by key), g (both), r (named rows)`. */
function base(q: DimQuery): RawBuilder<unknown> {
  const src = SOURCE[q.dimension];
  const sum = (c: string) => sql`sum(f.${sql.ref(c)})::bigint as ${sql.ref(c)}`;
  const sums = [
    ...FACT_COLUMNS.map(sum),
    ...(['revenue_usd_cents', 'payers', 'new_payers', 'orders'] as const).map(sum),
    ...COHORT_DAYS.map((n) => sql`sum(f.${sql.ref(`cohort_d${n}_usd_cents`)}) filter (where f.day <= ${lastMaturedDay(n, q.today)})::bigint as ${sql.ref(`cohort_d${n}_usd_cents`)}`),
    ...COHORT_DAYS.map((n) => sql`sum(f.spend_usd_cents) filter (where f.day <= ${lastMaturedDay(n, q.today)})::bigint as ${sql.ref(`matured_spend_d${n}_usd_cents`)}`),
    ...([1, 3, 7] as const).map((n) => sql`sum(f.cohort_d0_usd_cents) filter (where f.day <= ${lastMaturedDay(n, q.today)})::bigint as ${sql.ref(`matured_d0_at_d${n}_usd_cents`)}`),
  ];
  const join = src.join ?? sql``;
  const attributed = sql`select ${src.key} as ak, ${sql.join(sums)} from ad_dim_daily f ${join} where ${where(q, false)} group by 1`;
  const organic = q.organic
    ? sql`select ${src.key} as ok, sum(f.revenue_usd_cents)::bigint as o_revenue_usd_cents, sum(f.orders)::bigint as o_orders, sum(f.payers)::bigint as o_payers, sum(f.new_payers)::bigint as o_new_payers
        from ad_dim_daily f ${join} where ${where(q, true)} group by 1`
    : sql`select null::text as ok, 0::bigint as o_revenue_usd_cents, 0::bigint as o_orders, 0::bigint as o_payers, 0::bigint as o_new_payers where false`;
  const n = names(q.dimension);
  const keyword = q.keyword
    ? sql`where (r0.name ilike ${`%${escapeLike(q.keyword)}%`} or r0.k = ${q.keyword})`
    : sql``;
  return sql`with a as (${attributed}), o as (${organic}),
    g as (select coalesce(a.ak, o.ok) as k, a.*, o.* from a full join o on o.ok = a.ak),
    r0 as (select g.*, ${n.select} from g ${n.join}),
    r as (select * from r0 ${keyword})`;
}

const num = (v: unknown) => (v == null ? 0 : Number(v));

function toSums(row: Record<string, unknown>): FactSums {
  const out: FactSums = {};
  for (const c of REPORT_COLUMNS) out[c as FactColumn] = num(row[c]);
  return out;
}

const organicOf = (row: Record<string, unknown>): OrganicSums => ({
  revenue_usd_cents: num(row.o_revenue_usd_cents),
  orders: num(row.o_orders),
  payers: num(row.o_payers),
  new_payers: num(row.o_new_payers),
});

/** One page of rows, their count, the sums over every matching row, and the organic sums. */
export async function dimRows(db: Db, q: DimQuery): Promise<{ rows: DimRowRaw[]; total: number; totals: FactSums; totalOrders: number; organic: OrganicSums | null }> {
  const with_ = base(q);
  const order = q.sort.order === 'asc' ? sql`asc` : sql`desc`;
  const sortExpr = q.sort.field === 'name' ? (q.dimension === 'day' || q.dimension === 'country' ? sql`r.k` : sql`r.name`) : q.sort.field === 'orders' ? sql`coalesce(r.orders, 0)` : metricSqlOn('r', q.sort.field);
  const page = await sql<Record<string, unknown>>`${with_}
    select * from r order by ${sortExpr} ${order} nulls last, r.k asc limit ${q.limit} offset ${q.offset}`.execute(db);
  const totals = sql.join([...REPORT_COLUMNS, 'orders', ...ORGANIC_COLUMNS].map((c) => sql`coalesce(sum(r.${sql.ref(c)}), 0)::bigint as ${sql.ref(c)}`));
  const agg = await sql<Record<string, unknown>>`${with_} select count(*)::int as total, ${totals} from r`.execute(db);
  const a = agg.rows[0] ?? {};
  return {
    rows: page.rows.map((r) => ({
      key: String(r.k ?? ''),
      id: r.id == null ? null : Number(r.id),
      name: String(r.name ?? ''),
      detail: (r.detail as string | null) ?? null,
      sums: toSums(r),
      orders: num(r.orders),
      organic: q.organic ? organicOf(r) : null,
    })),
    total: Number(a.total ?? 0),
    totals: toSums(a),
    totalOrders: num(a.orders),
    organic: q.organic ? organicOf(a) : null,
  };
}
