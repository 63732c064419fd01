import { FACT_COLUMNS } from '@ads/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';

// Rollups by dimension (migration 0015_report_rollups, docs/orders-design.md "Rollups by
// dimension"). Triggers log every (report day, ad account) whose source rows changed; this module
// recomputes the rollup rows of logged pairs from the sources and removes the log rows it read.
// Readers call it for their own range before reading (bounded), and a job every 2 minutes drains
// the rest, so a figure is at most minutes old and usually current.

/** Order facts of a rollup row beside the insights facts (contracts FACT_COLUMNS). */
export const ROLLUP_ORDER_COLUMNS = ['revenue_usd_cents', 'payers', 'new_payers', 'orders', 'cohort_d0_usd_cents', 'cohort_d1_usd_cents', 'cohort_d3_usd_cents', 'cohort_d7_usd_cents', 'cohort_d14_usd_cents', 'cohort_d30_usd_cents'] as const;
const COHORT_COLUMNS = ROLLUP_ORDER_COLUMNS.filter((c) => c.startsWith('cohort_'));
/** The facts of campaign_order_daily (migration 0023): ad_order_daily's, summed per campaign-day. */
export const CAMPAIGN_ORDER_COLUMNS = ROLLUP_ORDER_COLUMNS.filter((c) => c !== 'orders');

/** Serialises refreshers (the job and readers), so two never rebuild the same pair at once. */
const REFRESH_LOCK = 727_015;
/** Pairs per statement: bounded statements for large backlogs. */
const CHUNK = 200;

export interface DirtyPair {
  day: string;
  /** 0 = organic orders. */
  adAccountId: number;
}

const zeros = (cols: readonly string[]) => sql.join(cols.map((c) => sql`0::bigint as ${sql.ref(c)}`));
const ref = (alias: string, cols: readonly string[]) => sql.join(cols.map((c) => sql`${sql.ref(`${alias}.${c}`)}::bigint as ${sql.ref(c)}`));
const sums = (alias: string, cols: readonly string[]) => sql.join(cols.map((c) => sql`sum(${sql.ref(`${alias}.${c}`)})::bigint`));
const cols = (list: readonly string[]) => sql.join(list.map((c) => sql.ref(c)));

/** The dimension of a grouping-sets row, and its key as text ('' = none). */
function dimOf(alias: string, dims: readonly ('material_id' | 'scheme_id' | 'site_id' | 'country')[]): { dim: RawBuilder<string>; key: RawBuilder<string> } {
  const name = { material_id: 'material', scheme_id: 'scheme', site_id: 'site', country: 'country' } as const;
  const col = (d: string) => sql.ref(`${alias}.${d}`);
  const dim = sql<string>`case ${sql.join(dims.map((d) => sql`when grouping(${col(d)}) = 0 then ${name[d]}`), sql` `)} else 'all' end`;
  const key = sql<string>`coalesce(case ${sql.join(dims.map((d) => sql`when grouping(${col(d)}) = 0 then ${col(d)}::text`), sql` `)} end, '')`;
  return { dim, key };
}

/** Rebuilds the rollup rows of ad accounts' days: insights, order facts and order counts of their ads. */
async function rebuildAttributed(trx: Db, pairs: DirtyPair[]) {
  const p = sql`(values ${sql.join(pairs.map((x) => sql`(${x.day}::date, ${x.adAccountId}::int)`))})`;
  const country = sql`case when cardinality(st.countries) = 1 then st.countries[1] end`;
  const grain = sql`f.day, f.acct, f.owner, f.platform, f.drama_id, f.product_id`;
  const { dim, key } = dimOf('f', ['material_id', 'scheme_id', 'site_id', 'country']);
  await sql`
    with p(day, acct) as ${p},
    f as (
      select s.day, s.ad_account_id as acct, s.owner_user_id as owner, s.platform, s.drama_id, s.product_id, s.material_id, a.scheme_id, a.site_id, s.country,
        ${ref('s', FACT_COLUMNS)}, ${zeros(ROLLUP_ORDER_COLUMNS)}
      from ad_stats_daily s join p on p.day = s.day and p.acct = s.ad_account_id join ads a on a.id = s.ad_id
      union all
      select d.day, a.ad_account_id, a.owner_user_id, c.platform, a.drama_id, a.product_id, a.material_id, a.scheme_id, a.site_id, ${country},
        ${zeros(FACT_COLUMNS)}, d.revenue_usd_cents::bigint, d.payers::bigint, d.new_payers::bigint, 0::bigint, ${ref('d', COHORT_COLUMNS)}
      from ad_order_daily d join ads a on a.platform_id = d.ad_platform_id join p on p.day = d.day and p.acct = a.ad_account_id
        join ad_campaigns c on c.id = a.campaign_id join ad_sets st on st.id = a.adset_id
      union all
      select o.paid_day, a.ad_account_id, a.owner_user_id, c.platform, a.drama_id, a.product_id, a.material_id, a.scheme_id, a.site_id, ${country},
        ${zeros(FACT_COLUMNS)}, 0::bigint, 0::bigint, 0::bigint, 1::bigint, ${zeros(COHORT_COLUMNS)}
      from orders o join ads a on a.platform_id = o.ad_platform_id join p on p.day = o.paid_day and p.acct = a.ad_account_id
        join ad_campaigns c on c.id = a.campaign_id join ad_sets st on st.id = a.adset_id
    )
    insert into ad_dim_daily (dim, key, day, ad_account_id, owner_user_id, platform, drama_id, product_id, ${cols(FACT_COLUMNS)}, ${cols(ROLLUP_ORDER_COLUMNS)})
    select ${dim}, ${key}, ${grain}, ${sums('f', FACT_COLUMNS)}, ${sums('f', ROLLUP_ORDER_COLUMNS)}
    from f
    group by grouping sets ((${grain}), (${grain}, f.material_id), (${grain}, f.scheme_id), (${grain}, f.site_id), (${grain}, f.country))`.execute(trx);
}

/**
 * Rebuilds the organic rows (ad account 0) of days: orders without an ad, by the order's own site,
 * drama or product and country; revenue is paid minus refunded that day, as for attributed orders.
 */
async function rebuildOrganic(trx: Db, days: string[]) {
  const p = sql`(values ${sql.join(days.map((d) => sql`(${d}::date)`))})`;
  const grain = sql`m.day, m.platform, m.drama_id, m.product_id`;
  const { dim, key } = dimOf('m', ['site_id', 'country']);
  await sql`
    with p(day) as ${p},
    m as (
      select o.paid_day as day, s.platform, o.drama_id, o.product_id, o.site_id, o.country, o.buyer_id, coalesce(o.amount_usd_cents, 0)::bigint as cents, 1 as n, case when o.is_new_payer then 1 else 0 end as np
      from orders o join p on p.day = o.paid_day join sites s on s.id = o.site_id where o.ad_platform_id is null
      union all
      select r.refund_day, s.platform, o.drama_id, o.product_id, o.site_id, o.country, null::int, -coalesce(r.amount_usd_cents, 0)::bigint, 0, 0
      from order_refunds r join p on p.day = r.refund_day join orders o on o.id = r.order_id join sites s on s.id = o.site_id where o.ad_platform_id is null
    )
    insert into ad_dim_daily (dim, key, day, ad_account_id, owner_user_id, platform, drama_id, product_id, revenue_usd_cents, payers, new_payers, orders)
    select ${dim}, ${key}, m.day, 0, null, m.platform, m.drama_id, m.product_id, sum(m.cents)::bigint, count(distinct m.buyer_id)::bigint, sum(m.np)::bigint, sum(m.n)::bigint
    from m
    group by grouping sets ((${grain}), (${grain}, m.site_id), (${grain}, m.country))`.execute(trx);
}

/**
 * Rebuilds campaign_order_daily (migration 0023) of ad accounts' days: the order facts of their
 * mirrored ads per campaign, with the scope and filter columns the ad-level join gives
 * (ad-reports.repository.ts reads either; they must agree).
 */
async function rebuildCampaignOrders(trx: Db, pairs: DirtyPair[]) {
  const p = sql`(values ${sql.join(pairs.map((x) => sql`(${x.day}::date, ${x.adAccountId}::int)`))})`;
  await sql`delete from campaign_order_daily r using ${p} as p(day, acct) where r.day = p.day and r.ad_account_id = p.acct`.execute(trx);
  const grain = sql`a.campaign_id, d.day, a.ad_account_id, a.owner_user_id, c.platform, a.drama_id, a.product_id`;
  await sql`
    with p(day, acct) as ${p}
    insert into campaign_order_daily (campaign_id, day, ad_account_id, owner_user_id, platform, drama_id, product_id, ${cols(CAMPAIGN_ORDER_COLUMNS)})
    select ${grain}, ${sums('d', CAMPAIGN_ORDER_COLUMNS)}
    from p join ads a on a.ad_account_id = p.acct join ad_order_daily d on d.ad_platform_id = a.platform_id and d.day = p.day
      join ad_campaigns c on c.id = a.campaign_id
    group by ${grain}`.execute(trx);
}

/** Recomputes the rollup rows of the given pairs from the sources (inside the caller's transaction). */
export async function rebuildPairs(trx: Db, pairs: DirtyPair[]): Promise<void> {
  const unique = [...new Map(pairs.map((x) => [`${x.day}|${x.adAccountId}`, x])).values()];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const chunk = unique.slice(i, i + CHUNK);
    const p = sql.join(chunk.map((x) => sql`(${x.day}::date, ${x.adAccountId}::int)`));
    await sql`delete from ad_dim_daily r using (values ${p}) as p(day, acct) where r.day = p.day and r.ad_account_id = p.acct`.execute(trx);
    const attributed = chunk.filter((x) => x.adAccountId !== 0);
    const organic = chunk.filter((x) => x.adAccountId === 0).map((x) => x.day);
    if (attributed.length) {
      await rebuildAttributed(trx, attributed);
      await rebuildCampaignOrders(trx, attributed);
    }
    if (organic.length) await rebuildOrganic(trx, organic);
  }
}

export interface RefreshOptions {
  /** Pairs to rebuild at most in this call. */
  maxPairs: number;
  /** Only pairs of these report days (a reader's range). */
  from?: string;
  to?: string;
}

/**
 * Rebuilds up to `maxPairs` logged pairs (oldest first) and removes exactly the log rows read, so
 * a change committed meanwhile stays logged for the next refresh. Answers how many pairs were
 * rebuilt and whether logged pairs remain (in the range, when one is given).
 */
export async function refreshRollups(db: Db, o: RefreshOptions): Promise<{ pairs: number; more: boolean }> {
  const range = sql.join([sql`true`, ...(o.from ? [sql`day >= ${o.from}`] : []), ...(o.to ? [sql`day <= ${o.to}`] : [])], sql` and `);
  // Nothing logged (the usual case for a reader): no transaction, no wait on the refreshers' lock.
  const logged = await sql<{ one: number }>`select 1 as one from ad_dim_dirty where ${range} limit 1`.execute(db);
  if (!logged.rows.length) return { pairs: 0, more: false };
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${REFRESH_LOCK})`.execute(trx);
    const rows = await sql<{ day: string; ad_account_id: number; ids: string[] }>`
      select day::text as day, ad_account_id, array_agg(id) as ids from ad_dim_dirty where ${range}
      group by day, ad_account_id order by min(id) limit ${o.maxPairs + 1}`.execute(trx);
    const take = rows.rows.slice(0, o.maxPairs);
    if (!take.length) return { pairs: 0, more: false };
    await rebuildPairs(
      trx,
      take.map((r) => ({ day: String(r.day).slice(0, 10), adAccountId: Number(r.ad_account_id) })),
    );
    const ids = take.flatMap((r) => r.ids.map(String));
    for (let i = 0; i < ids.length; i += 5000) {
      await sql`delete from ad_dim_dirty where id = any(${ids.slice(i, i + 5000)}::bigint[])`.execute(trx);
    }
    return { pairs: take.length, more: rows.rows.length > o.maxPairs };
  });
}

/** Logged pairs waiting for a refresh (in a range of days, when given). */
export async function pendingPairs(db: Db, from?: string, to?: string): Promise<number> {
  let q = db.selectFrom('ad_dim_dirty').select(sql<number>`count(distinct (day, ad_account_id))`.as('n'));
  if (from) q = q.where('day', '>=', from);
  if (to) q = q.where('day', '<=', to);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}
