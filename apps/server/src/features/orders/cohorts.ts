import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';

// Cohort facts (migration 0012_cohorts): ad_order_daily per (ad platform id, REPORT_TIMEZONE day),
// recomputed from orders, buyers and refunds for exactly the (ad, day) pairs an intake touched.
// The intake only logs those pairs (ad_order_dirty, migration 0019_cohort_dirty): recomputing them
// inline made concurrent intakes queue on the pairs' locks and read from disk (bench/README.md
// "Orders"). drainCohorts recomputes logged pairs: the order service soon after an intake, the
// refresh-cohorts job every minute, and readers for their own range of days.

/** The cohort ages kept, in days after the acquisition day. */
export const COHORT_DAYS = [0, 1, 3, 7, 14, 30] as const;

export interface AdDay {
  ad: string;
  day: string;
}

const key = (p: AdDay) => `${p.ad}|${p.day}`;

function pairsValues(pairs: AdDay[]): RawBuilder<unknown> {
  return sql`(values ${sql.join(pairs.map((p) => sql`(${p.ad}::text, ${p.day}::date)`))})`;
}

/**
 * Every day with facts of these buyers: the days their orders were paid and refunds made, by
 * buyer. Read only for buyers whose attribution moves (rare: an earlier attributed order arrives
 * late), whose facts then move from one ad to another on all those days.
 */
export async function daysOfBuyers(trx: Db, buyerIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!buyerIds.length) return out;
  const ids = sql.join([...new Set(buyerIds)]);
  const rows = await sql<{ id: number; day: string }>`
    select o.buyer_id as id, o.paid_day::text as day from orders o where o.buyer_id in (${ids})
    union
    select o.buyer_id, r.refund_day::text from orders o join order_refunds r on r.order_id = o.id where o.buyer_id in (${ids})`.execute(trx);
  for (const r of rows.rows) (out.get(r.id) ?? out.set(r.id, []).get(r.id)!).push(String(r.day).slice(0, 10));
  return out;
}

/** pg_advisory_xact_lock key space of the (ad, day) stripes (ingest.ts takes 727011 per site and its stripes). */
const PAIR_LOCK = 727_012;
/** Stripes the (ad, day) pairs are hashed into: bounded locks per transaction, rare false sharing. */
const PAIR_STRIPES = 4096;

/** A stable stripe of an (ad, day) pair (FNV-1a). */
function stripeOf(p: AdDay): number {
  let h = 0x811c9dc5;
  const text = key(p);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % PAIR_STRIPES;
}

/**
 * Recomputes ad_order_daily for the given (ad, day) pairs from the order tables (rows with nothing
 * are removed).
 *
 * Orders of one ad may come from several sites, whose intakes run side by side (the intake locks
 * one site at a time): the pairs' stripes are locked first, in ascending order, so that two intakes
 * recomputing the same (ad, day) take turns, and the one that waited reads what the other
 * committed (each statement after the lock sees it). Without it both deleted the row, both
 * inserted it, and the second failed on the key.
 */
export async function refreshCohorts(trx: Db, pairs: AdDay[]): Promise<void> {
  const unique = [...new Map(pairs.map((p) => [key(p), p])).values()];
  if (!unique.length) return;
  const stripes = [...new Set(unique.map(stripeOf))].sort((a, b) => a - b);
  await sql`select pg_advisory_xact_lock(${PAIR_LOCK}, s) from unnest(${sql`array[${sql.join(stripes.map((n) => sql.lit(n)))}]::int[]`}) s`.execute(trx);
  // Chunks keep the statements bounded for large imports.
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const p = pairsValues(chunk);
    await sql`delete from ad_order_daily d using ${p} as p(ad, day) where d.ad_platform_id = p.ad and d.day = p.day`.execute(trx);
    const cohortSums = sql.join(COHORT_DAYS.map((n) => sql`coalesce(sum(m.cents) filter (where m.at <= m.day + ${sql.lit(n)}), 0)::bigint as ${sql.ref(`cohort_d${n}_usd_cents`)}`));
    const cohortCols = sql.join(COHORT_DAYS.map((n) => sql.ref(`cohort_d${n}_usd_cents`)));
    const cohortPick = sql.join(COHORT_DAYS.map((n) => sql`coalesce(c.${sql.ref(`cohort_d${n}_usd_cents`)}, 0)`));
    // Every join below is led by an index: buyers by (ad, acquisition day) (a partial index, hence
    // the "is not null"), their orders by buyer, refunds by order, and the refunds of a payment day
    // by that day.
    await sql`
      with p(ad, day) as ${p},
      bu as (select b.id, b.ad_platform_id as ad, b.acquisition_day as day from order_buyers b join p on b.ad_platform_id = p.ad and b.acquisition_day = p.day where b.ad_platform_id is not null),
      bo as (select bu.ad, bu.day, o.id, o.paid_day, o.amount_usd_cents from bu join orders o on o.buyer_id = bu.id),
      money as (
        select bo.ad, bo.day, bo.paid_day as at, coalesce(bo.amount_usd_cents, 0) as cents from bo
        union all
        select bo.ad, bo.day, r.refund_day, -coalesce(r.amount_usd_cents, 0) from bo join order_refunds r on r.order_id = bo.id
      ),
      c as (
        select n.ad, n.day, n.new_payers, ${cohortSums}
        from (select ad, day, count(*)::int as new_payers from bu group by ad, day) n left join money m on m.ad = n.ad and m.day = n.day
        group by n.ad, n.day, n.new_payers
      ),
      -- The refunds of the pairs' days first, then their orders by key: joined the other way the
      -- planner read every order of each ad over all its days (1.2 s of a 1.3 s intake batch with
      -- 10 million orders, bench/README.md "Orders").
      rf as materialized (select r.order_id, r.refund_day, r.amount_usd_cents from order_refunds r where r.refund_day in (select distinct day from p)),
      paid as (
        select o.ad_platform_id as ad, o.paid_day as day, coalesce(o.amount_usd_cents, 0) as cents, o.buyer_id from orders o join p on o.ad_platform_id = p.ad and o.paid_day = p.day
        union all
        select o.ad_platform_id, rf.refund_day, -coalesce(rf.amount_usd_cents, 0), null from rf join orders o on o.id = rf.order_id join p on o.ad_platform_id = p.ad and rf.refund_day = p.day
      ),
      d as (select ad, day, sum(cents)::bigint as revenue, count(distinct buyer_id)::int as payers from paid group by ad, day)
      insert into ad_order_daily (ad_platform_id, day, revenue_usd_cents, payers, new_payers, ${cohortCols})
      select coalesce(c.ad, d.ad), coalesce(c.day, d.day), coalesce(d.revenue, 0), coalesce(d.payers, 0), coalesce(c.new_payers, 0), ${cohortPick}
      from c full join d on d.ad = c.ad and d.day = c.day`.execute(trx);
  }
}

/** Each (ad, day) once. */
export const uniquePairs = (pairs: AdDay[]): AdDay[] => [...new Map(pairs.map((p) => [key(p), p])).values()];

/** Appends (ad, day) pairs whose facts are out of date to the log (never conflicts: intakes do not wait on each other here). */
export async function markCohortsDirty(trx: Db, pairs: AdDay[]): Promise<number> {
  const unique = uniquePairs(pairs);
  for (let i = 0; i < unique.length; i += 1000) {
    const chunk = unique.slice(i, i + 1000);
    await trx
      .insertInto('ad_order_dirty')
      .values(chunk.map((p) => ({ ad_platform_id: p.ad, day: p.day })))
      .execute();
  }
  return unique.length;
}

/** Serialises drainers (the job, the service's trigger and readers), so two never rebuild the same pairs at once. */
const DRAIN_LOCK = 727_013;

export interface DrainOptions {
  /** Pairs to rebuild at most in this call (one transaction). */
  maxPairs: number;
  /** Only pairs of these days (a reader's range). */
  from?: string;
  to?: string;
}

/**
 * Rebuilds up to `maxPairs` logged pairs (oldest first) and removes exactly the log rows it read,
 * so a pair logged by an intake that commits meanwhile stays logged for the next drain. Answers
 * how many pairs were rebuilt and whether logged pairs remain (in the range, when one is given).
 */
export async function drainCohorts(db: Db, o: DrainOptions): Promise<{ pairs: number; more: boolean }> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${DRAIN_LOCK})`.execute(trx);
    const range = sql.join([sql`true`, ...(o.from ? [sql`day >= ${o.from}`] : []), ...(o.to ? [sql`day <= ${o.to}`] : [])], sql` and `);
    // The oldest log rows name the pairs; then every log row of those pairs (by the (day, ad) index).
    const picked = await sql<{ ad: string; day: string }>`
      select distinct ad_platform_id as ad, day::text as day from (select ad_platform_id, day from ad_order_dirty where ${range} order by id limit ${o.maxPairs * 4}) x`.execute(trx);
    const take = picked.rows.slice(0, o.maxPairs).map((r) => ({ ad: r.ad, day: String(r.day).slice(0, 10) }));
    if (!take.length) return { pairs: 0, more: false };
    const rows = await sql<{ id: string }>`
      select d.id from ad_order_dirty d join ${pairsValues(take)} as p(ad, day) on d.day = p.day and d.ad_platform_id = p.ad`.execute(trx);
    await refreshCohorts(trx, take);
    const ids = rows.rows.map((r) => String(r.id));
    for (let i = 0; i < ids.length; i += 5000) {
      await sql`delete from ad_order_dirty where id = any(${ids.slice(i, i + 5000)}::bigint[])`.execute(trx);
    }
    const more = picked.rows.length > o.maxPairs || Boolean((await sql`select 1 from ad_order_dirty where ${range} limit 1`.execute(trx)).rows.length);
    return { pairs: take.length, more };
  });
}

/** Drains every logged pair (of a range of days, when given), in transactions of `step` pairs; bounded by `maxRounds`. */
export async function drainAllCohorts(db: Db, o: { from?: string; to?: string; step?: number; maxRounds?: number; signal?: AbortSignal } = {}): Promise<{ pairs: number; more: boolean }> {
  let pairs = 0;
  for (let round = 0; round < (o.maxRounds ?? 1000); round++) {
    o.signal?.throwIfAborted();
    const r = await drainCohorts(db, { maxPairs: o.step ?? 500, from: o.from, to: o.to });
    pairs += r.pairs;
    if (!r.more) return { pairs, more: false };
  }
  return { pairs, more: true };
}

/**
 * A reader's own range first (reports, dashboards): the logged pairs of those days are rebuilt
 * before it reads, up to `maxPairs` (the rest are the job's). One indexed look-up when nothing
 * is logged, so concurrent readers do not queue on the drain lock for nothing.
 */
export async function drainCohortRange(db: Db, from: string, to: string, maxPairs = 2000): Promise<void> {
  const logged = await sql`select 1 from ad_order_dirty where day >= ${from} and day <= ${to} limit 1`.execute(db);
  if (!logged.rows.length) return;
  await drainAllCohorts(db, { from, to, step: 500, maxRounds: Math.ceil(maxPairs / 500) });
}
