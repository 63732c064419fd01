import { SITE_SILENT_HOURS, type OrderDelivery, type SiteWebhookHealth } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Deliveries each site shows in the sites list. */
export const RECENT_DELIVERIES = 5;
const DAY_MS = 24 * 3600_000;

export interface SiteOrderHealth {
  webhook_health: SiteWebhookHealth;
  recent_deliveries: OrderDelivery[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The order webhook's health of each site (the sites screen): last order and delivery, orders
 * received in the last 24 hours, refused requests, and the last few requests. Each figure is an
 * index lookup per site (LATERAL), so a page of sites costs the same however many orders exist.
 */
export async function siteOrderHealth(db: Db, siteIds: number[], now: Date): Promise<Map<number, SiteOrderHealth>> {
  const out = new Map<number, SiteOrderHealth>();
  if (!siteIds.length) return out;
  const since = new Date(now.getTime() - DAY_MS);
  const ids = sql.join(siteIds.map((id) => sql`(${id}::int)`));
  const [figures, deliveries] = await Promise.all([
    sql<{
      site_id: number;
      last_order_at: Date | null;
      last_received_at: Date | null;
      last_delivery_at: Date | null;
      last_status: number | null;
      orders_24h: number;
      failures_24h: number;
    }>`
      select s.id as site_id,
        (select o.paid_at from orders o where o.site_id = s.id order by o.paid_at desc limit 1) as last_order_at,
        (select o.created_at from orders o where o.site_id = s.id order by o.created_at desc limit 1) as last_received_at,
        d.received_at as last_delivery_at,
        d.http_status as last_status,
        (select count(*) from orders o where o.site_id = s.id and o.created_at > ${since})::int as orders_24h,
        (select count(*) from order_deliveries f where f.site_id = s.id and f.received_at > ${since} and f.http_status <> 200)::int as failures_24h
      from (values ${ids}) as s(id)
      left join lateral (
        select received_at, http_status from order_deliveries x where x.site_id = s.id order by x.received_at desc, x.id desc limit 1
      ) d on true`.execute(db),
    sql<{ site_id: number; id: number; received_at: Date; events: number | null; accepted: number; duplicates: number; http_status: number; result: OrderDelivery['result']; message: string }>`
      select s.id as site_id, d.*
      from (values ${ids}) as s(id)
      cross join lateral (
        select x.id, x.received_at, x.events, x.accepted, x.duplicates, x.http_status, x.result, x.message
        from order_deliveries x where x.site_id = s.id order by x.received_at desc, x.id desc limit ${RECENT_DELIVERIES}
      ) d`.execute(db),
  ]);
  for (const f of figures.rows) {
    const lastReceived = f.last_received_at ? new Date(f.last_received_at) : null;
    let status: SiteWebhookHealth['status'] = 'ok';
    if (f.last_delivery_at === null) status = 'none';
    else if (f.last_status !== 200) status = 'failing';
    else if (!lastReceived || now.getTime() - lastReceived.getTime() > SITE_SILENT_HOURS * 3600_000) status = 'silent';
    out.set(f.site_id, {
      webhook_health: {
        status,
        last_order_at: iso(f.last_order_at),
        last_received_at: iso(f.last_received_at),
        last_delivery_at: iso(f.last_delivery_at),
        orders_24h: Number(f.orders_24h),
        orders_per_hour: Math.round((Number(f.orders_24h) / 24) * 10) / 10,
        failures_24h: Number(f.failures_24h),
      },
      recent_deliveries: [],
    });
  }
  for (const d of deliveries.rows) {
    out.get(d.site_id)?.recent_deliveries.push({
      id: d.id,
      received_at: new Date(d.received_at).toISOString(),
      events: d.events,
      accepted: d.accepted,
      duplicates: d.duplicates,
      http_status: d.http_status,
      result: d.result,
      message: d.message,
    });
  }
  return out;
}
