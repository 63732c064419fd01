import type { Sim } from '../graph/context.ts';
import { formatMajor } from '../money.ts';
import type { SiteRecord } from '../store/state.ts';
import { addDays, formatIsoOffset, HOUR_MS, localDate } from '../time.ts';
import { cellBuyers, planOrders, siteModel, type Buyer, type CellInput, type PixelCounts, type PlannedOrder, type SiteModel } from './cohort.ts';
import { landingUrl, siteMatches } from './landing.ts';

// From delivery to a site's events: the finished ad-hours whose ads land on the site, their
// buyers, and each order's `order.paid` / `order.refunded` events with the instant they are due
// (never before the end of the hour that acquired the buyer: the simulator learns of a click
// when its hour is over).

export type EventKind = 'order.paid' | 'order.refunded';

/** One event in the exact shape of API.md ("Orders"). */
export interface WebhookEvent {
  event: EventKind;
  order_no: string;
  amount: string;
  currency: string;
  paid_at: string;
  refunded_at?: string;
  app_user_id: string;
  user_registered_at?: string;
  country?: string;
  landing_url?: string;
  campaign_id?: string;
  adset_id?: string;
  ad_id?: string;
  drama_id?: string;
  episode?: number;
  product_id?: string;
  quantity?: number;
}

/** An event before it is sent: which buyer and order it belongs to, and when it is due. */
export interface PlannedEvent {
  due: number;
  kind: EventKind;
  buyer: Buyer;
  order: PlannedOrder;
}

export const eventKey = (kind: EventKind, orderNo: string) => `${kind === 'order.paid' ? 'paid' : 'refunded'}:${orderNo}`;

export function toWebhookEvent(site: SiteRecord, e: PlannedEvent): WebhookEvent {
  const { buyer, order } = e;
  const refund = e.kind === 'order.refunded' ? order.refund : undefined;
  const out: WebhookEvent = {
    event: e.kind,
    order_no: order.order_no,
    amount: formatMajor(refund ? refund.amount : order.amount, site.currency),
    currency: site.currency,
    paid_at: formatIsoOffset(order.paid_at, site.timezone),
    ...(refund && { refunded_at: formatIsoOffset(refund.at, site.timezone) }),
    app_user_id: buyer.app_user_id,
    user_registered_at: formatIsoOffset(buyer.registered_at, site.timezone),
    country: buyer.country,
  };
  if (buyer.landing_url) out.landing_url = buyer.landing_url;
  Object.assign(out, buyer.sent_ids);
  if (order.drama_id !== undefined) {
    out.drama_id = order.drama_id;
    out.episode = order.episode;
  }
  if (order.product_id !== undefined) {
    out.product_id = order.product_id;
    out.quantity = order.quantity;
  }
  return out;
}

/** The events of a buyer's orders, each with the instant it is due. */
export function buyerEvents(buyer: Buyer, orders: PlannedOrder[]): PlannedEvent[] {
  const events: PlannedEvent[] = [];
  for (const order of orders) {
    events.push({ due: Math.max(order.paid_at, buyer.hour_end), kind: 'order.paid', buyer, order });
    if (order.refund) events.push({ due: Math.max(order.refund.at, buyer.hour_end), kind: 'order.refunded', buyer, order });
  }
  return events;
}

/**
 * Calls `fn` for every finished ad-hour with end in (fromEnd, toEnd] whose ad lands on the
 * site, with the ad's landing URL and target countries.
 */
export function forEachSiteCell(sim: Sim, site: SiteRecord, fromEnd: number, toEnd: number, fn: (input: CellInput) => void): void {
  const state = sim.store.state;
  for (const account of Object.values(state.ad_accounts)) {
    const owners = sim.delivery.owners(account.id);
    if (owners.length === 0) continue;
    let firstAd = Infinity;
    for (const owner of owners) for (const ad of owner.ads) firstAd = Math.min(firstAd, ad.created_at);
    const start = Math.max(fromEnd - HOUR_MS, firstAd);
    if (start >= toEnd) continue;
    const tz = account.timezone_name;
    const lastDate = localDate(toEnd, tz);
    const landing = new Map<string, { url: string | undefined; countries: string[] } | null>();
    for (let date = localDate(start, tz); date <= lastDate; date = addDays(date, 1)) {
      for (const owner of owners) {
        for (const [adId, cells] of sim.delivery.ownerDay(owner, date, toEnd)) {
          const ad = state.ads[adId]!;
          let target = landing.get(adId);
          if (target === undefined) {
            const url = landingUrl(sim, ad);
            const geo = state.adsets[ad.adset_id]?.targeting.geo_locations as { countries?: unknown } | undefined;
            const countries = Array.isArray(geo?.countries) && geo.countries.length > 0 ? geo.countries.map(String) : ['US'];
            target = siteMatches(site, url) ? { url, countries } : null;
            landing.set(adId, target);
          }
          if (!target) continue;
          for (const cell of cells) {
            const end = cell.slot + HOUR_MS;
            if (end <= fromEnd || end > toEnd || cell.purchases === 0) continue;
            fn({ ad, cell, landing: target.url, countries: target.countries });
          }
        }
      }
    }
  }
}

/** Buyers (with their planned orders) of the ad-hours ending in (fromEnd, toEnd]. */
export function expandBuyers(
  sim: Sim,
  model: SiteModel,
  fromEnd: number,
  toEnd: number,
  fn: (buyer: Buyer, orders: PlannedOrder[]) => void,
  onPixel?: (pixel: PixelCounts, input: CellInput) => void,
): void {
  forEachSiteCell(sim, model.site, fromEnd, toEnd, (input) => {
    const { buyers, pixel } = cellBuyers(sim.seed, model, input);
    onPixel?.(pixel, input);
    for (const buyer of buyers) fn(buyer, planOrders(sim.seed, model, buyer));
  });
}

export { siteModel };
