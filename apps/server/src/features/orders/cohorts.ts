import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';

// Cohort facts (migration 0012_cohorts): ad_order_daily per (ad platform id, REPORT_TIMEZONE day),
// recomputed from orders, buyers and refunds for exactly the (ad, day) pairs an intake touched,
// inside the intake's transaction, so reports are fresh as soon as the order is stored.

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
 * Every (ad, day) whose facts depend on these buyers: their acquisition day, the days their
 * orders were paid and the days refunds were made (attributed buyers only).
 *
 * Two statements, each led by an index: the buyers (by their key, or through an order of theirs),
 * then their rows by buyer id. As one statement the planner could not see how few buyers there are
 * and read every order and refund of the company for each batch.
 */
export async function cohortPairsOfBuyers(trx: Db, siteId: number, appUserIds: string[], orderNos: string[]): Promise<AdDay[]> {
  if (!appUserIds.length && !orderNos.length) return [];
  const byUser = appUserIds.length ? sql`select b.id from order_buyers b where b.site_id = ${siteId} and b.app_user_id in (${sql.join(appUserIds)})` : null;
  const byOrder = orderNos.length ? sql`select o.buyer_id as id from orders o where o.site_id = ${siteId} and o.order_no in (${sql.join(orderNos)})` : null;
  const found = await sql<{ id: number }>`${byUser && byOrder ? sql`${byUser} union ${byOrder}` : (byUser ?? byOrder!)}`.execute(trx);
  if (!found.rows.length) return [];
  const ids = sql.join([...new Set(found.rows.map((r) => r.id))]);
  const rows = await sql<{ ad: string; day: string }>`
    select b.ad_platform_id as ad, b.acquisition_day::text as day from order_buyers b where b.id in (${ids}) and b.ad_platform_id is not null
    union
    select o.ad_platform_id, o.paid_day::text from orders o where o.buyer_id in (${ids}) and o.ad_platform_id is not null
    union
    select o.ad_platform_id, r.refund_day::text from orders o join order_refunds r on r.order_id = o.id where o.buyer_id in (${ids}) and o.ad_platform_id is not null`.execute(trx);
  return rows.rows.map((r) => ({ ad: r.ad, day: String(r.day).slice(0, 10) }));
}

/** pg_advisory_xact_lock key space of the (ad, day) stripes (ingest.ts takes 727011 per site). */
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
