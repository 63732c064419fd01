import type { HourCell } from '../delivery/model.ts';
import { localPrice, parseMajor } from '../money.ts';
import { between, hash32, rng, stochasticRound } from '../random.ts';
import type { AdRecord, SiteRecord } from '../store/state.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time.ts';
import { parseLanding } from './landing.ts';

// The buyers of the company's sites and what they pay. Every number is a pure function of
// (seed, site settings, ad, hour), so any window of orders can be computed again and a resend
// carries the same content.
//
// - Acquisition: an ad-hour's purchases as the pixel counts them (the delivery model's) are
//   the pixel's view. Each of them is a phantom (never paid) with PHANTOM_SHARE; the others are
//   real first orders, and the pixel misses some real ones: it sees a share `seen` (85–95 %,
//   fixed per ad) of the first orders, so first orders = matched / seen. Organic buyers join at
//   `organic_share` of new payers.
// - A buyer registers during the hour of the click (landing URL as the site saw it), pays a
//   first time minutes later (sometimes hours or days later), then recharges on later days
//   along a decaying curve whose height depends on the drama or product, the country and the
//   buyer; subscriptions renew. Recharges stop RECHARGE_DAYS after registration.
// - Some orders are refunded later, fully or partly (one refund per order, never above it).

export const PHANTOM_SHARE = 0.04;
export const RECHARGE_DAYS = 30;
const FIRST_PAY_MAX_MS = 3 * DAY_MS;
const REFUND_MIN_MS = 2 * HOUR_MS;
const REFUND_MAX_MS = 10 * DAY_MS;
/** Latest event of a buyer, counted from the end of the hour that acquired them. */
export const HORIZON_MS = FIRST_PAY_MAX_MS + (RECHARGE_DAYS + 1) * DAY_MS + REFUND_MAX_MS + HOUR_MS;

/** Recharge curve: chance of a recharge on day k ≥ 1 is height × stickiness × e^(−(k−1)/decay). */
const CURVES = {
  drama: { height: 0.25, decayDays: 5, sameDay: 0.25 },
  shop: { height: 0.05, decayDays: 10, sameDay: 0.05 },
};

/** How much buyers from a country come back (unlisted countries get a seeded factor). */
const COUNTRY_FACTORS: Record<string, number> = {
  US: 1.15, CA: 1.05, GB: 1.05, AU: 1.1, NZ: 1, DE: 0.95, FR: 0.9, JP: 1.3, KR: 1.25, TW: 1.2,
  HK: 1.15, SG: 1.1, BR: 0.7, MX: 0.75, ID: 0.6, PH: 0.65, TH: 0.7, VN: 0.6, IN: 0.5, MY: 0.75,
};

const DEFAULT_PACKAGES_USD: Array<{ usd: number; subscription_days?: number }> = [
  { usd: 1.99 },
  { usd: 4.99 },
  { usd: 9.99 },
  { usd: 19.99 },
  { usd: 29.99 },
  { usd: 49.99 },
  { usd: 99.99 },
  { usd: 9.99, subscription_days: 7 },
  { usd: 29.99, subscription_days: 30 },
];
const DEFAULT_DRAMAS = ['sim-drama-1', 'sim-drama-2', 'sim-drama-3', 'sim-drama-4'];
const DEFAULT_PRODUCTS_USD: Array<[string, number]> = [
  ['sim-product-1', 12.99],
  ['sim-product-2', 24.99],
  ['sim-product-3', 39.99],
  ['sim-product-4', 79.99],
];

interface Package {
  minor: number;
  subscriptionDays?: number;
}

/** A site's settings resolved for generation: prices in minor units, defaults filled in. */
export interface SiteModel {
  site: SiteRecord;
  packages: Package[];
  dramas: Map<string, { episodes: number; episodeMinor?: number }>;
  products: Map<string, number>;
  items: string[];
}

export function siteModel(site: SiteRecord): SiteModel {
  const minor = (price: string) => parseMajor(price, site.currency) ?? 1;
  const packages: Package[] =
    site.packages.length > 0
      ? site.packages.map((p) => ({ minor: minor(p.price), subscriptionDays: p.subscription_days }))
      : DEFAULT_PACKAGES_USD.map((p) => ({ minor: localPrice(p.usd, site.currency), subscriptionDays: p.subscription_days }));
  packages.sort((a, b) => a.minor - b.minor);
  const dramas = new Map<string, { episodes: number; episodeMinor?: number }>();
  for (const d of site.dramas) dramas.set(d.external_id, { episodes: d.episodes, episodeMinor: d.episode_price === undefined ? undefined : minor(d.episode_price) });
  if (dramas.size === 0) for (const id of DEFAULT_DRAMAS) dramas.set(id, { episodes: 60 });
  const products = new Map<string, number>();
  for (const p of site.products) products.set(p.external_id, minor(p.price));
  if (products.size === 0) for (const [id, usd] of DEFAULT_PRODUCTS_USD) products.set(id, localPrice(usd, site.currency));
  return { site, packages, dramas, products, items: [...(site.kind === 'shop' ? products : dramas).keys()] };
}

export interface Buyer {
  /** Part of every order number of the buyer: `<slot s>-<ad id>-<index>`. */
  ref: string;
  app_user_id: string;
  registered_at: number;
  country: string;
  landing_url?: string;
  /** The ids the site sends (when it parses them from the landing URL). */
  sent_ids: { campaign_id?: string; adset_id?: string; ad_id?: string };
  /** The ad that acquired the buyer (the truth); none for organic buyers. */
  acquired_by?: { campaign_id: string; adset_id: string; ad_id: string };
  /** Whether the pixel counted the buyer's first order (ad buyers only). */
  pixel_seen?: boolean;
  /** The drama or product the buyer came for. */
  item: string;
  /** Episode the landing link pointed at (drama sites). */
  landing_episode?: number;
  /** End of the hour that acquired the buyer: nothing of theirs is sent before it. */
  hour_end: number;
}

export interface PlannedOrder {
  order_no: string;
  /** The buyer's first order (the one the pixel may have counted). */
  first: boolean;
  paid_at: number;
  /** Minor units of the site currency. */
  amount: number;
  drama_id?: string;
  episode?: number;
  product_id?: string;
  quantity?: number;
  refund?: { at: number; amount: number };
}

export interface PixelCounts {
  /** The pixel's purchases (the Insights view). */
  purchases: number;
  /** Pixel purchases that never paid. */
  phantoms: number;
  /** First orders the pixel counted. */
  matched: number;
  /** First orders the pixel missed. */
  missed: number;
}

function countryFactor(seed: number, country: string): number {
  return COUNTRY_FACTORS[country] ?? between(rng(seed, 'country', country), 0.6, 1.2);
}

/** How sticky a drama (or how re-bought a product) is: fixed per item. */
export function itemFactor(seed: number, item: string): number {
  return between(rng(seed, 'item', item), 0.55, 1.6);
}

function weightedPick<T>(items: readonly T[], weight: (item: T, i: number) => number, u: number): T {
  const weights = items.map(weight);
  let x = u * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < items.length; i++) {
    x -= weights[i]!;
    if (x < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}

export interface CellInput {
  ad: AdRecord;
  cell: HourCell;
  /** The ad's landing URL (already known to be on the site). */
  landing: string | undefined;
  countries: string[];
}

/** The buyers an ad-hour brings to a site (ad buyers and organic ones), and the pixel's view. */
export function cellBuyers(seed: number, model: SiteModel, input: CellInput): { buyers: Buyer[]; pixel: PixelCounts } {
  const { ad, cell, landing, countries } = input;
  const site = model.site;
  const next = rng(seed, 'acquire', ad.id, cell.slot);
  let phantoms = 0;
  for (let i = 0; i < cell.purchases; i++) if (next() < PHANTOM_SHARE) phantoms += 1;
  const matched = cell.purchases - phantoms;
  const seen = between(rng(seed, 'pixel-seen', ad.id), 0.85, 0.95);
  const missed = stochasticRound(matched * (1 / seen - 1), next());
  const paying = matched + missed;
  const share = site.organic_share;
  const organic = share > 0 && paying > 0 ? stochasticRound((paying * share) / (1 - share), next()) : 0;
  const pixel = { purchases: cell.purchases, phantoms, matched, missed };
  if (paying + organic === 0) return { buyers: [], pixel };

  const fields = landing ? parseLanding(site, landing) : {};
  const landed = site.kind === 'shop' ? fields.product_id : fields.drama_id;
  const item = landed ?? model.items[Math.floor(rng(seed, 'ad-item', ad.id)() * model.items.length)]!;
  const slotSec = Math.floor(cell.slot / 1000);
  const hourEnd = cell.slot + HOUR_MS;
  let bare: string | undefined;
  try {
    const u = landing ? new URL(landing) : undefined;
    if (u) bare = `${u.origin}${u.pathname}`;
  } catch {
    bare = undefined;
  }

  const buyers: Buyer[] = [];
  const make = (index: string, isOrganic: boolean): Buyer => {
    const b = rng(seed, 'buyer', ad.id, cell.slot, index);
    const country = weightedPick(countries, (_, i) => 1 / (i + 1), b());
    const registered = cell.slot + Math.floor(b() * HOUR_MS);
    const buyer: Buyer = {
      ref: `${slotSec}-${ad.id}-${index}`,
      app_user_id: `u${slotSec.toString(36)}${hash32(seed, 'user', ad.id, cell.slot, index).toString(36)}${index}`,
      registered_at: registered,
      country,
      sent_ids: {},
      item,
      landing_episode: fields.episode,
      hour_end: hourEnd,
    };
    if (!isOrganic) {
      buyer.acquired_by = { campaign_id: ad.campaign_id, adset_id: ad.adset_id, ad_id: ad.id };
      if (landing) {
        // Meta adds a click id to every landing URL; the site records the URL as it arrived.
        // API.md caps landing_url at 2048 characters; a site keeps what fits.
        buyer.landing_url = `${landing}${landing.includes('?') ? '&' : '?'}fbclid=IwAR${hash32(seed, 'fbclid', buyer.ref).toString(36)}${registered.toString(36)}`.slice(0, 2048);
        if (site.parses_ids) {
          for (const key of ['campaign_id', 'adset_id', 'ad_id'] as const) if (fields[key]) buyer.sent_ids[key] = fields[key];
        }
      }
    } else {
      // Organic: no landing URL (typed in, app store), or the page without any ids (a share).
      buyer.landing_episode = undefined;
      if (bare && b() < 0.5) buyer.landing_url = bare.slice(0, 2048);
    }
    return buyer;
  };
  for (let i = 0; i < paying; i++) {
    const buyer = make(String(i), false);
    buyer.pixel_seen = i < matched;
    buyers.push(buyer);
  }
  for (let j = 0; j < organic; j++) buyers.push(make(`o${j}`, true));
  return { buyers, pixel };
}

/** Every order a buyer will place (first payment, recharges, renewals) with its refund, if any. */
export function planOrders(seed: number, model: SiteModel, buyer: Buyer): PlannedOrder[] {
  const site = model.site;
  const curve = CURVES[site.kind];
  const next = rng(seed, 'orders', buyer.ref);
  const u = next();
  const buyerFactor = u < 0.4 ? 0.15 : u < 0.92 ? between(next, 0.6, 1.5) : between(next, 2.5, 4);
  const stickiness = itemFactor(seed, buyer.item) * countryFactor(seed, buyer.country) * buyerFactor;

  const d = next();
  const delay = d < 0.75 ? between(next, MINUTE_MS, 30 * MINUTE_MS) : d < 0.95 ? between(next, HOUR_MS, 20 * HOUR_MS) : between(next, DAY_MS, FIRST_PAY_MAX_MS);
  const first = Math.floor(buyer.registered_at + delay);
  const times = [first];
  if (next() < Math.min(0.8, curve.sameDay * stickiness)) times.push(Math.floor(first + between(next, 10 * MINUTE_MS, 8 * HOUR_MS)));
  for (let k = 1; k <= RECHARGE_DAYS; k++) {
    const p = Math.min(0.95, curve.height * stickiness * Math.exp(-(k - 1) / curve.decayDays));
    const hit = next() < p;
    const at = Math.floor(buyer.registered_at + k * DAY_MS + next() * DAY_MS);
    if (hit && at > first) times.push(at);
  }
  times.sort((a, b) => a - b);

  const drama = site.kind === 'drama' ? (model.dramas.get(buyer.item) ?? { episodes: 60 }) : undefined;
  let episode = drama ? Math.min(drama.episodes, buyer.landing_episode ?? 5 + (hash32(seed, 'paywall', buyer.item) % 10)) : 0;
  const orders: PlannedOrder[] = [];
  let subscription: Package | undefined;
  times.forEach((at, n) => {
    const o = rng(seed, 'order', buyer.ref, at);
    const order: PlannedOrder = { order_no: `SIM-${buyer.ref}-${n}`, first: n === 0, paid_at: at, amount: 0 };
    if (drama) {
      if (n > 0) episode = Math.min(drama.episodes, episode + 1 + Math.floor(o() * 4));
      order.drama_id = buyer.item;
      order.episode = Math.max(1, episode);
      if (drama.episodeMinor !== undefined && o() < 0.25) order.amount = drama.episodeMinor;
      else {
        // First buys favour the cheap packages; returning buyers and whales spend more.
        const alpha = (n === 0 ? 1.5 : 1) - (buyerFactor > 2 ? 0.6 : 0);
        const pkg = weightedPick(model.packages, (_, rank) => (rank + 1) ** -alpha, o());
        order.amount = pkg.minor;
        if (n === 0 && pkg.subscriptionDays) subscription = pkg;
      }
    } else {
      const product = n === 0 || o() < 0.5 ? buyer.item : model.items[Math.floor(o() * model.items.length)]!;
      const q = o();
      order.product_id = product;
      order.quantity = q < 0.8 ? 1 : q < 0.95 ? 2 : 3;
      order.amount = (model.products.get(product) ?? localPrice(19.99, site.currency)) * order.quantity;
    }
    orders.push(order);
  });

  // A first purchase of a subscription renews every period while the buyer keeps it.
  if (subscription?.subscriptionDays) {
    const period = subscription.subscriptionDays * DAY_MS;
    for (let j = 1; j * subscription.subscriptionDays <= RECHARGE_DAYS && next() < 0.65; j++) {
      orders.push({ order_no: `SIM-${buyer.ref}-s${j}`, first: false, paid_at: first + j * period, amount: subscription.minor, drama_id: buyer.item, episode: Math.max(1, episode) });
    }
    orders.sort((a, b) => a.paid_at - b.paid_at);
  }

  for (const order of orders) {
    const r = rng(seed, 'refund', order.order_no);
    if (r() >= site.refund_rate) continue;
    const partial = order.amount >= 2 && r() < 0.3;
    const amount = partial ? Math.min(order.amount - 1, Math.max(1, Math.round(order.amount * between(r, 0.2, 0.8)))) : order.amount;
    order.refund = { at: Math.floor(order.paid_at + REFUND_MIN_MS + (REFUND_MAX_MS - REFUND_MIN_MS) * r() ** 2), amount };
  }
  return orders;
}
