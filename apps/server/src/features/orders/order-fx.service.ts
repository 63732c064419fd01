import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { refreshCohorts, type AdDay } from './cohorts.ts';

// Orders are priced in USD at the rate of their payment day (refunds at their refund day's), read
// from fx_rates when they arrive. When a manager sets a rate (features/ad-data fx.service), the
// orders and refunds of the days that rate governs are re-priced here, in the same transaction,
// and the cohort facts of the buyers they belong to are recomputed, so revenue and Dn ROI follow.

/**
 * Re-prices `currency`'s orders and refunds on the days governed by its rate of `day`: from `day`
 * (or from the beginning, when no earlier rate exists: earlier days use the earliest rate) up to
 * the next rate. USD cents are rounded as the intake rounds them. Answers the rows changed.
 */
export async function repriceOrders(trx: Db, currency: string, day: string): Promise<{ orders: number; refunds: number }> {
  const code = currency.toUpperCase();
  const rate = await trx.selectFrom('fx_rates').select('units_per_usd').where('currency', '=', code).where('day', '=', day).executeTakeFirst();
  if (!rate) return { orders: 0, refunds: 0 };
  const [earlier, next] = await Promise.all([
    trx.selectFrom('fx_rates').select('day').where('currency', '=', code).where('day', '<', day).limit(1).executeTakeFirst(),
    trx.selectFrom('fx_rates').select('day').where('currency', '=', code).where('day', '>', day).orderBy('day').limit(1).executeTakeFirst(),
  ]);
  const offset = currencyOffset(code);
  // The intake's Math.round(minor / offset / rate * 100), in the same floating-point order.
  const usd = (column: string) => sql`floor(${sql.ref(column)}::float8 / ${offset}::float8 / ${Number(rate.units_per_usd)}::float8 * 100 + 0.5)::bigint`;
  const range = (column: string) =>
    sql.join([...(earlier ? [sql`${sql.ref(column)} >= ${day}`] : []), ...(next ? [sql`${sql.ref(column)} < ${next.day}`] : []), sql`true`], sql` and `);

  const orders = await sql<{ buyer_id: number }>`
    update orders set amount_usd_cents = ${usd('amount_minor')}, updated_at = now()
    where currency = ${code} and ${range('paid_day')} and amount_usd_cents is distinct from ${usd('amount_minor')}
    returning buyer_id`.execute(trx);
  const refunds = await sql<{ order_id: number }>`
    update order_refunds set amount_usd_cents = ${usd('amount_minor')}
    where currency = ${code} and ${range('refund_day')} and amount_usd_cents is distinct from ${usd('amount_minor')}
    returning order_id`.execute(trx);
  const refundedOrders = [...new Set(refunds.rows.map((r) => r.order_id))];
  let refundBuyers: number[] = [];
  if (refundedOrders.length) {
    const rows = await sql<{ buyer_id: number }>`
      update orders o set refunded_usd_cents = (select coalesce(sum(r.amount_usd_cents), 0) from order_refunds r where r.order_id = o.id), updated_at = now()
      where o.id in (${sql.join(refundedOrders)}) returning o.buyer_id`.execute(trx);
    refundBuyers = rows.rows.map((r) => r.buyer_id);
  }

  const buyers = [...new Set([...orders.rows.map((r) => r.buyer_id), ...refundBuyers])];
  for (let i = 0; i < buyers.length; i += 1000) {
    const chunk = sql.join(buyers.slice(i, i + 1000));
    // Every (ad, day) these buyers' facts fall on: their cohort day, payment days and refund days.
    const pairs = await sql<{ ad: string; day: string }>`
      with bu as (select id, ad_platform_id, acquisition_day from order_buyers where id in (${chunk}))
      select bu.ad_platform_id as ad, bu.acquisition_day::text as day from bu where bu.ad_platform_id is not null
      union select o.ad_platform_id, o.paid_day::text from orders o join bu on bu.id = o.buyer_id where o.ad_platform_id is not null
      union select o.ad_platform_id, r.refund_day::text from order_refunds r join orders o on o.id = r.order_id join bu on bu.id = o.buyer_id where o.ad_platform_id is not null`.execute(trx);
    await refreshCohorts(
      trx,
      pairs.rows.map((p): AdDay => ({ ad: p.ad, day: String(p.day).slice(0, 10) })),
    );
  }
  return { orders: orders.rows.length, refunds: refunds.rows.length };
}
