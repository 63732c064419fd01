import type { Sim } from '../graph/context.ts';
import { formatMajor } from '../money.ts';
import type { SiteRecord } from '../store/state.ts';
import { formatIsoOffset, HOUR_MS } from '../time.ts';
import { HORIZON_MS, type PixelCounts } from './cohort.ts';
import type { DeliveryStatus } from './dispatcher.ts';
import { buyerEvents, eventKey, expandBuyers, siteModel, toWebhookEvent, type EventKind } from './schedule.ts';

// `GET /__sim/sites/:id/orders`: the orders the simulator considers true, recomputed from the
// delivery history (the same pure functions the dispatcher uses), as of the sim clock: what
// a test compares with what the app stored. Each order says how its events were delivered.

export type TruthDelivery = DeliveryStatus | 'not_sent';

export interface TruthOrder {
  order_no: string;
  status: 'paid' | 'refunded' | 'partially_refunded';
  amount: string;
  refunded_amount: string;
  /** Minor units, for sums. */
  amount_minor: number;
  refunded_minor: number;
  currency: string;
  paid_at: string;
  refunded_at: string | null;
  app_user_id: string;
  user_registered_at: string;
  country: string;
  landing_url: string | null;
  /** The ids the site sent itself (parses_ids), else null. */
  campaign_id: string | null;
  adset_id: string | null;
  ad_id: string | null;
  drama_id: string | null;
  episode: number | null;
  product_id: string | null;
  quantity: number | null;
  /** The buyer's first order. */
  first_order: boolean;
  organic: boolean;
  /** The ad that acquired the buyer (the truth, whatever the site sent). */
  acquired_by: { campaign_id: string; adset_id: string; ad_id: string } | null;
  /** First orders of ad buyers: whether the pixel counted it; null otherwise. */
  pixel_seen: boolean | null;
  delivery: { paid: TruthDelivery; refunded?: TruthDelivery };
}

export interface TruthQuery {
  since: number;
  until: number;
  limit: number;
  offset: number;
}

export function truthOrders(sim: Sim, site: SiteRecord, query: TruthQuery, status: (key: string) => DeliveryStatus | undefined) {
  const now = sim.clock.now();
  const until = Math.min(query.until, now + 1);
  const collected: Array<{ ms: number; row: TruthOrder }> = [];
  const pixel: PixelCounts = { purchases: 0, phantoms: 0, matched: 0, missed: 0 };
  const delivery = (kind: EventKind, orderNo: string, due: number): TruthDelivery =>
    status(eventKey(kind, orderNo)) ?? (due > site.dispatched_until ? 'pending' : 'not_sent');

  // A buyer's orders come at most HORIZON_MS after the hour that acquired them; the hour ends at most an hour after its first order.
  expandBuyers(
    sim,
    siteModel(site),
    query.since - HORIZON_MS,
    Math.min(until + HOUR_MS, now),
    (buyer, orders) => {
      const events = buyerEvents(buyer, orders);
      for (const e of events) {
        if (e.kind !== 'order.paid' || e.due > now || e.order.paid_at < query.since || e.order.paid_at >= until) continue;
        const sent = toWebhookEvent(site, e);
        const refund = events.find((r) => r.kind === 'order.refunded' && r.order === e.order && r.due <= now);
        const refunded = refund ? refund.order.refund!.amount : 0;
        collected.push({ ms: e.order.paid_at, row: {
          order_no: sent.order_no,
          status: refunded === 0 ? 'paid' : refunded === e.order.amount ? 'refunded' : 'partially_refunded',
          amount: sent.amount,
          refunded_amount: formatMajor(refunded, site.currency),
          amount_minor: e.order.amount,
          refunded_minor: refunded,
          currency: site.currency,
          paid_at: sent.paid_at,
          refunded_at: refund ? formatIsoOffset(refund.order.refund!.at, site.timezone) : null,
          app_user_id: buyer.app_user_id,
          user_registered_at: sent.user_registered_at!,
          country: buyer.country,
          landing_url: buyer.landing_url ?? null,
          campaign_id: sent.campaign_id ?? null,
          adset_id: sent.adset_id ?? null,
          ad_id: sent.ad_id ?? null,
          drama_id: sent.drama_id ?? null,
          episode: sent.episode ?? null,
          product_id: sent.product_id ?? null,
          quantity: sent.quantity ?? null,
          first_order: e.order.first,
          organic: !buyer.acquired_by,
          acquired_by: buyer.acquired_by ?? null,
          pixel_seen: buyer.acquired_by && e.order.first ? (buyer.pixel_seen ?? false) : null,
          delivery: {
            paid: delivery('order.paid', e.order.order_no, e.due),
            ...(refund && { refunded: delivery('order.refunded', e.order.order_no, refund.due) }),
          },
        } });
      }
    },
    (counts, input) => {
      if (input.cell.slot < query.since || input.cell.slot >= until || input.cell.slot + HOUR_MS > now) return;
      pixel.purchases += counts.purchases;
      pixel.phantoms += counts.phantoms;
      pixel.matched += counts.matched;
      pixel.missed += counts.missed;
    },
  );
  collected.sort((a, b) => a.ms - b.ms || a.row.order_no.localeCompare(b.row.order_no));
  const rows = collected.map((c) => c.row);

  const sum = (pick: (r: TruthOrder) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const paidMinor = sum((r) => r.amount_minor);
  const refundedMinor = sum((r) => r.refunded_minor);
  return {
    data: rows.slice(query.offset, query.offset + query.limit),
    total: rows.length,
    summary: {
      currency: site.currency,
      orders: rows.length,
      first_orders: rows.filter((r) => r.first_order).length,
      organic_orders: rows.filter((r) => r.organic).length,
      refunded_orders: rows.filter((r) => r.refunded_minor > 0).length,
      paid_amount: formatMajor(paidMinor, site.currency),
      refunded_amount: formatMajor(refundedMinor, site.currency),
      paid_minor: paidMinor,
      refunded_minor: refundedMinor,
      /** The pixel's view of the ad-hours in the range (their Insights purchases, once reported). */
      pixel,
    },
  };
}
