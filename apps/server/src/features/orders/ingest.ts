import { formatMessage, type FieldError, type Lang } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AttributionSource, DeliveryResult, OrderSource, OrderStatus } from '../../db/schema.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { rateBook } from '../../lib/fx.ts';
import { parseLink } from '../../lib/link-template.ts';
import { dayIn } from '../../lib/tz.ts';
import { daysOfBuyers, markCohortsDirty, uniquePairs, type AdDay } from './cohorts.ts';
import { contentHash, formatAmount, type OrderEvent } from './order-event.ts';

// Storing checked order events (webhook batches and import chunks alike), in the caller's
// transaction. Two phases: a plan that only reads (duplicates, conflicts, refunds against what
// was paid) and, when nothing conflicts, the writes. The cohort facts are not recomputed here: the
// (ad, day) pairs the events affect are appended to a log that drainCohorts works off (cohorts.ts).
//
// Locks: two deliveries of one order, or two batches of one buyer, take turns (advisory locks on
// hashed stripes of the order numbers and buyers, taken in ascending order in one statement, so
// they never deadlock), while deliveries of other orders and buyers of the same site run side by
// side. An import holds its whole site instead (its chunks share one transaction).

export interface IngestSite {
  id: number;
  link_template: string;
}

export interface IngestItem {
  event: OrderEvent;
  /** The event as received (stored for the order detail). */
  raw: unknown;
  /** Where a conflict is reported: `events.3` in a batch, the row number in an import. */
  field: string;
}

export interface IngestContext {
  site: IngestSite;
  reportTimezone: string;
  now: Date;
  source: OrderSource;
  lang: Lang;
  /**
   * The webhook's delivery-log row: stored with the answer's counts once the plan found no conflict
   * (a refused delivery is logged by the caller after the rollback), and named by the events.
   */
  delivery?: { site_id: number; events: number; http_status: number; result: DeliveryResult; bytes: number };
  /**
   * 'site': the whole site until the transaction ends (an import, whose chunks share one
   * transaction: stripes taken chunk after chunk would not be in one ascending order). Default:
   * the stripes of this call's orders and buyers, beside other intakes of the site.
   */
  lock?: 'site' | 'stripes';
}

export interface IngestResult {
  accepted: number;
  /** Of the accepted: new paid orders and refunds. */
  paid: number;
  refunded: number;
  duplicates: number;
  /** Non-empty: nothing was written. */
  conflicts: (FieldError & { index: number })[];
  /** (ad, day) pairs logged for the cohort refresh. */
  dirtyPairs: number;
}

interface Attribution {
  campaign_platform_id: string | null;
  adset_platform_id: string | null;
  ad_platform_id: string | null;
  attribution_source: AttributionSource;
}

interface LandingInfo {
  attribution: Attribution | null;
  drama_id: string | null;
  episode: number | null;
  product_id: string | null;
}

const digits = (v: string | undefined) => (v && /^\d{1,30}$/.test(v) ? v : null);

/**
 * What a landing URL says, read with the site's link template (campaign / ad set / ad ids, drama,
 * episode, product); ids that are not digit strings (an unexpanded macro) are ignored.
 */
export function readLanding(linkTemplate: string, url: string | null): LandingInfo {
  let values: ReturnType<typeof parseLink>;
  try {
    values = url ? parseLink(linkTemplate, url) : null;
  } catch {
    // A broken %-escape in the path (decodeURIComponent): the URL says nothing we can trust.
    values = null;
  }
  if (!values) return { attribution: null, drama_id: null, episode: null, product_id: null };
  const campaign = digits(values.campaign_id);
  const adset = digits(values.adset_id);
  const ad = digits(values.ad_id);
  const episode = values.episode && /^\d{1,6}$/.test(values.episode) && Number(values.episode) > 0 ? Number(values.episode) : null;
  return {
    attribution: campaign || adset || ad ? { campaign_platform_id: campaign, adset_platform_id: adset, ad_platform_id: ad, attribution_source: 'landing_url' } : null,
    drama_id: values.drama_id ? values.drama_id.slice(0, 64) : null,
    episode,
    product_id: values.product_id ? values.product_id.slice(0, 64) : null,
  };
}

/** The ad a buyer came through: the landing URL read with the link template, else the ids the site sent; null = organic. */
export function attributionOf(site: IngestSite, e: OrderEvent, landing: LandingInfo = readLanding(site.link_template, e.landing_url)): Attribution | null {
  if (landing.attribution) return landing.attribution;
  if (e.campaign_id || e.adset_id || e.ad_id) return { campaign_platform_id: e.campaign_id, adset_platform_id: e.adset_id, ad_platform_id: e.ad_id, attribution_source: 'payload' };
  return null;
}

/** USD cents of an amount at the rate of its day (fx_rates: the last known rate for a day without one). */
type UsdCents = (minor: number, currency: string, at: Date) => number | null;

const statusOf = (amount: number, refunded: number): OrderStatus => (refunded === 0 ? 'paid' : refunded >= amount ? 'refunded' : 'partially_refunded');

const NO_ATTRIBUTION = { campaign_platform_id: null, adset_platform_id: null, ad_platform_id: null, attribution_source: null } as const;

/**
 * The site lock of order writes (pg_advisory_xact_lock key space of this feature): exclusive for an
 * import, shared by the webhook's intakes (which then lock their stripes), so an import and the
 * webhook of one site take turns while webhook deliveries run side by side.
 */
const ORDER_LOCK = 727_011;
/** Key space of the order and buyer stripes (cohorts.ts uses 727012 and 727013). */
const STRIPE_LOCK = 727_014;

/** A stable stripe (31 bits: false sharing between two keys is negligible) of a site's order or buyer (FNV-1a). */
function stripeOf(siteId: number, kind: 'o' | 'u', value: string): number {
  let h = 0x811c9dc5;
  const text = `${siteId}|${kind}|${value}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h & 0x7fffffff;
}

/**
 * Thrown when a refund's order turned out, once locked, to belong to a buyer whose stripe is not
 * locked (its payment committed meanwhile under another buyer's name): the caller rolls back and
 * runs the delivery again, which then reads that buyer before locking.
 */
export class IngestRetry extends Error {
  constructor() {
    super('ingest: run again with the buyers of the refunded orders locked');
  }
}

/**
 * Locks the stripes of the events' orders and buyers: each order number (resends, a refund racing
 * its payment), and each buyer (two batches with orders of one buyer, a refund beside a batch that
 * moves its buyer's acquisition day or attribution). A refund's buyer is the one of its stored
 * order (an order's buyer never changes, so it is read before locking).
 */
async function lockStripes(trx: Db, siteId: number, items: IngestItem[]): Promise<Set<string>> {
  const paidNos = new Set(items.filter((i) => i.event.event === 'order.paid').map((i) => i.event.order_no));
  const refundNos = [...new Set(items.filter((i) => i.event.event !== 'order.paid' && !paidNos.has(i.event.order_no)).map((i) => i.event.order_no))];
  const users = new Set(items.map((i) => i.event.app_user_id));
  if (refundNos.length) {
    const owners = await trx.selectFrom('orders').select('app_user_id').where('site_id', '=', siteId).where('order_no', 'in', refundNos).execute();
    for (const o of owners) users.add(o.app_user_id);
  }
  const stripes = new Set<number>();
  for (const i of items) stripes.add(stripeOf(siteId, 'o', i.event.order_no));
  for (const u of users) stripes.add(stripeOf(siteId, 'u', u));
  // One round trip: the shared site lock first (the -1), then the stripes in ascending order.
  const sorted = [-1, ...[...stripes].sort((a, b) => a - b)];
  await sql`select case when s < 0 then pg_advisory_xact_lock_shared(${ORDER_LOCK}, ${siteId}) else pg_advisory_xact_lock(${STRIPE_LOCK}, s) end
    from unnest(${sql`array[${sql.join(sorted.map((n) => sql.lit(n)))}]::int[]`}) s`.execute(trx);
  return users;
}

export async function ingestEvents(trx: Db, ctx: IngestContext, items: IngestItem[]): Promise<IngestResult> {
  if (!items.length) return { accepted: 0, paid: 0, refunded: 0, duplicates: 0, conflicts: [], dirtyPairs: 0 };
  let locked: Set<string> | null = null;
  if (ctx.lock === 'site') await sql`select pg_advisory_xact_lock(${ORDER_LOCK}, ${ctx.site.id})`.execute(trx);
  else locked = await lockStripes(trx, ctx.site.id, items);
  return ingestLocked(trx, ctx, items, locked);
}

/** A date column as YYYY-MM-DD. */
const dayText = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);

async function ingestLocked(trx: Db, ctx: IngestContext, items: IngestItem[], lockedUsers: Set<string> | null): Promise<IngestResult> {
  const { site, lang } = ctx;
  const result: IngestResult = { accepted: 0, paid: 0, refunded: 0, duplicates: 0, conflicts: [], dirtyPairs: 0 };
  // REPORT_TIMEZONE days, memoized per quarter hour of UTC: every zone's offset is a whole number of
  // quarter hours, so its midnight is a quarter-hour boundary (Intl formatting was ~3 ms of a batch).
  const days = new Map<number, string>();
  const dayOf = (at: Date) => {
    const q = Math.floor(at.getTime() / 900_000);
    let day = days.get(q);
    if (day === undefined) {
      day = dayIn(at.getTime(), ctx.reportTimezone);
      days.set(q, day);
    }
    return day;
  };
  const rateOn = await rateBook(trx, items.map((i) => i.event.currency));
  const usdCents: UsdCents = (minor, currency, at) => {
    const rate = rateOn(currency, dayOf(at));
    return rate ? Math.round((minor / currencyOffset(currency) / rate) * 100) : null;
  };

  // ---- plan (reads only) ------------------------------------------------------------------
  const orderNos = [...new Set(items.map((i) => i.event.order_no))];
  // Stored orders matter to refunds only (a paid event is known by its stored event).
  const hasRefunds = items.some((i) => i.event.event !== 'order.paid');
  const readOrders = () =>
    trx
      .selectFrom('orders as o')
      .innerJoin('order_buyers as b', 'b.id', 'o.buyer_id')
      .select(['o.id', 'o.order_no', 'o.amount_minor', 'o.refunded_minor', 'o.currency', 'o.app_user_id', 'o.ad_platform_id', 'b.ad_platform_id as buyer_ad', 'b.acquisition_day'])
      .where('o.site_id', '=', site.id)
      .where('o.order_no', 'in', orderNos)
      .execute();
  const [storedEvents, storedOrders] = await Promise.all([
    trx.selectFrom('order_events').select(['order_no', 'event', 'content_hash']).where('site_id', '=', site.id).where('order_no', 'in', orderNos).execute(),
    hasRefunds ? readOrders() : [],
  ]);
  // A refund whose order was stored, after the stripes were read, by a delivery naming another
  // buyer (the sender's refund event disagrees with its payment): that buyer must be locked too.
  if (lockedUsers) {
    const refundNos = new Set(items.filter((i) => i.event.event !== 'order.paid').map((i) => i.event.order_no));
    if (storedOrders.some((o) => refundNos.has(o.order_no) && !lockedUsers.has(o.app_user_id))) throw new IngestRetry();
  }
  const seen = new Map<string, string>(storedEvents.map((e) => [`${e.event}|${e.order_no}`, e.content_hash]));
  type Known = { id: number | null; amount: number; refunded: number; currency: string; refundedAt: Date | null; refundedUsd: number };
  const orders = new Map<string, Known>(
    storedOrders.map((o) => [o.order_no, { id: o.id, amount: Number(o.amount_minor), refunded: Number(o.refunded_minor), currency: o.currency, refundedAt: null, refundedUsd: 0 }]),
  );
  const paid: IngestItem[] = [];
  const refunds: IngestItem[] = [];
  const accepted: { item: IngestItem; hash: string }[] = [];
  items.forEach((item, index) => {
    const e = item.event;
    const key = `${e.event}|${e.order_no}`;
    const hash = contentHash(e);
    const conflict = (key: Parameters<typeof formatMessage>[0], params: Record<string, unknown>) =>
      result.conflicts.push({ index, field: item.field, message: formatMessage(key, lang, params) });
    const before = seen.get(key);
    if (before !== undefined) {
      if (before === hash) result.duplicates += 1;
      else conflict('ORDER_CONFLICT_CONTENT', { order_no: e.order_no, event: e.event });
      return;
    }
    if (e.event === 'order.paid') {
      seen.set(key, hash);
      orders.set(e.order_no, { id: null, amount: e.amount_minor, refunded: 0, currency: e.currency, refundedAt: null, refundedUsd: 0 });
      paid.push(item);
    } else {
      const order = orders.get(e.order_no);
      if (!order) return conflict('ORDER_CONFLICT_REFUND_UNPAID', { order_no: e.order_no });
      if (order.currency !== e.currency) return conflict('ORDER_CONFLICT_CURRENCY', { order_no: e.order_no, currency: e.currency, order_currency: order.currency });
      if (order.refunded + e.amount_minor > order.amount) {
        return conflict('ORDER_CONFLICT_REFUND_EXCEEDS', {
          order_no: e.order_no,
          refund: formatAmount(e.amount_minor, e.currency),
          paid: formatAmount(order.amount, order.currency),
          refunded: formatAmount(order.refunded, order.currency),
        });
      }
      seen.set(key, hash);
      order.refunded += e.amount_minor;
      order.refundedAt = e.refunded_at;
      order.refundedUsd += usdCents(e.amount_minor, e.currency, e.refunded_at!) ?? 0;
      refunds.push(item);
    }
    accepted.push({ item, hash });
  });
  if (result.conflicts.length) return result;
  result.accepted = accepted.length;
  result.paid = paid.length;
  result.refunded = refunds.length;
  let deliveryId: number | null = null;
  if (ctx.delivery) {
    const row = { ...ctx.delivery, accepted: result.accepted, duplicates: result.duplicates, message: '', received_at: ctx.now };
    deliveryId = (await trx.insertInto('order_deliveries').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }
  if (!accepted.length) return result;

  // ---- writes -----------------------------------------------------------------------------
  const now = ctx.now;
  const orderIds = new Map<string, number>();
  for (const o of storedOrders) orderIds.set(o.order_no, o.id);
  // Buyers of this call's orders after it: their ad and acquisition day (the cohort pairs they touch).
  type BuyerState = { id: number; firstOrderNo: string; attribution: Attribution | null; acqDay: string };
  const state = new Map<string, BuyerState>();
  // (ad, day) pairs whose cohort facts this call changes (logged for drainCohorts).
  const dirty: AdDay[] = [];

  if (paid.length) {
    const landing = new Map<string, LandingInfo>();
    const landingOf = (e: OrderEvent) => {
      const k = e.landing_url ?? '';
      let info = landing.get(k);
      if (!info) {
        info = readLanding(site.link_template, e.landing_url);
        landing.set(k, info);
      }
      return info;
    };

    // Buyers: created with their first order, or moved when an earlier order (or an earlier attributed one) arrives late.
    const byUser = new Map<string, IngestItem[]>();
    for (const item of paid) {
      const list = byUser.get(item.event.app_user_id) ?? [];
      list.push(item);
      byUser.set(item.event.app_user_id, list);
    }
    const earlier = (a: IngestItem, b: IngestItem) => a.event.paid_at.getTime() - b.event.paid_at.getTime() || (a.event.order_no < b.event.order_no ? -1 : 1);
    const storedBuyers = await trx
      .selectFrom('order_buyers')
      .selectAll()
      .where('site_id', '=', site.id)
      .where('app_user_id', 'in', [...byUser.keys()])
      .execute();
    const buyers = new Map(storedBuyers.map((b) => [b.app_user_id, b]));
    const newBuyers: { user: string; first: IngestItem; attributedBy: IngestItem | null; attribution: Attribution | null }[] = [];
    const dethroned: string[] = [];
    type Move = { stored: (typeof storedBuyers)[number]; first: IngestItem | null; attributedBy: IngestItem | null; attribution: Attribution | null };
    const moves: Move[] = [];

    for (const [user, list] of byUser) {
      list.sort(earlier);
      const first = list[0]!;
      const attributedBy = list.find((i) => attributionOf(site, i.event, landingOf(i.event)) !== null) ?? null;
      const attribution = attributedBy ? attributionOf(site, attributedBy.event, landingOf(attributedBy.event)) : null;
      const stored = buyers.get(user);
      if (!stored) {
        newBuyers.push({ user, first, attributedBy, attribution });
        continue;
      }
      const storedAttribution = stored.attribution_source
        ? { campaign_platform_id: stored.campaign_platform_id, adset_platform_id: stored.adset_platform_id, ad_platform_id: stored.ad_platform_id, attribution_source: stored.attribution_source }
        : null;
      const s: BuyerState = { id: stored.id, firstOrderNo: stored.first_order_no, attribution: storedAttribution, acqDay: dayText(stored.acquisition_day) };
      const moveAcquisition = first.event.paid_at < stored.first_paid_at;
      if (moveAcquisition) {
        dethroned.push(stored.first_order_no);
        s.firstOrderNo = first.event.order_no;
        s.acqDay = dayOf(first.event.paid_at);
      }
      const moveAttribution = Boolean(attributedBy && attribution && (!stored.attributed_paid_at || attributedBy.event.paid_at < stored.attributed_paid_at));
      if (moveAttribution) s.attribution = attribution;
      if (moveAcquisition || moveAttribution) moves.push({ stored, first: moveAcquisition ? first : null, attributedBy: moveAttribution ? attributedBy : null, attribution: moveAttribution ? attribution : null });
      // Cohort pairs: the acquisition day left (its cohort loses the buyer) and the new one.
      if (moveAcquisition && storedAttribution?.ad_platform_id) dirty.push({ ad: storedAttribution.ad_platform_id, day: dayText(stored.acquisition_day) });
      state.set(user, s);
    }

    if (moves.length) {
      // A buyer whose attribution moves takes all their facts to the new ad: every day of theirs
      // is out of date under the old ad and the new one (read before their orders move).
      const attributionMoves = moves.filter((m) => m.attribution);
      const days = attributionMoves.length ? await daysOfBuyers(trx, attributionMoves.map((m) => m.stored.id)) : new Map<number, string[]>();
      for (const m of attributionMoves) {
        const old = m.stored.ad_platform_id;
        const cur = state.get(m.stored.app_user_id)!;
        for (const day of [...(days.get(m.stored.id) ?? []), dayText(m.stored.acquisition_day), cur.acqDay]) {
          if (old) dirty.push({ ad: old, day });
          if (m.attribution!.ad_platform_id) dirty.push({ ad: m.attribution!.ad_platform_id, day });
        }
      }
      // One statement for every moved buyer, one for their orders' ad.
      const rows = moves.map((m) => {
        const a = m.attribution ?? NO_ATTRIBUTION;
        return sql`(${m.stored.id}::int, ${m.first !== null}::boolean, ${m.first?.event.order_no ?? null}::text, ${m.first?.event.paid_at ?? null}::timestamptz, ${m.first ? dayOf(m.first.event.paid_at) : null}::date,
          ${m.attribution !== null}::boolean, ${a.campaign_platform_id}::text, ${a.adset_platform_id}::text, ${a.ad_platform_id}::text, ${a.attribution_source}::text, ${m.attributedBy?.event.paid_at ?? null}::timestamptz, ${m.attributedBy?.event.landing_url ?? null}::text)`;
      });
      await sql`
        update order_buyers b set
          first_order_no = case when v.acq then v.first_order_no else b.first_order_no end,
          first_paid_at = case when v.acq then v.first_paid_at else b.first_paid_at end,
          acquisition_day = case when v.acq then v.acquisition_day else b.acquisition_day end,
          campaign_platform_id = case when v.attr then v.campaign else b.campaign_platform_id end,
          adset_platform_id = case when v.attr then v.adset else b.adset_platform_id end,
          ad_platform_id = case when v.attr then v.ad else b.ad_platform_id end,
          attribution_source = case when v.attr then v.source else b.attribution_source end,
          attributed_paid_at = case when v.attr then v.attributed_paid_at else b.attributed_paid_at end,
          landing_url = case when v.attr then v.landing_url else b.landing_url end,
          updated_at = ${now}
        from (values ${sql.join(rows)}) as v(id, acq, first_order_no, first_paid_at, acquisition_day, attr, campaign, adset, ad, source, attributed_paid_at, landing_url)
        where b.id = v.id`.execute(trx);
      if (attributionMoves.length) {
        // The buyer's orders all carry the acquiring ad.
        const a = attributionMoves.map(
          (m) => sql`(${m.stored.id}::int, ${m.attribution!.campaign_platform_id}::text, ${m.attribution!.adset_platform_id}::text, ${m.attribution!.ad_platform_id}::text, ${m.attribution!.attribution_source}::text)`,
        );
        await sql`
          update orders o set campaign_platform_id = v.campaign, adset_platform_id = v.adset, ad_platform_id = v.ad, attribution_source = v.source, updated_at = ${now}
          from (values ${sql.join(a)}) as v(id, campaign, adset, ad, source) where o.buyer_id = v.id`.execute(trx);
      }
    }
    if (dethroned.length) {
      await trx.updateTable('orders').set({ is_new_payer: false, updated_at: now }).where('site_id', '=', site.id).where('order_no', 'in', dethroned).execute();
    }
    if (newBuyers.length) {
      const rows = await trx
        .insertInto('order_buyers')
        .values(
          newBuyers.map(({ user, first, attributedBy, attribution }) => ({
            site_id: site.id,
            app_user_id: user,
            registered_at: first.event.user_registered_at,
            country: first.event.country,
            first_order_no: first.event.order_no,
            first_paid_at: first.event.paid_at,
            acquisition_day: dayOf(first.event.paid_at),
            ...(attribution ?? NO_ATTRIBUTION),
            attributed_paid_at: attributedBy?.event.paid_at ?? null,
            landing_url: (attributedBy ?? first).event.landing_url,
            created_at: now,
            updated_at: now,
          })),
        )
        .returning(['id', 'app_user_id'])
        .execute();
      const ids = new Map(rows.map((r) => [r.app_user_id, r.id]));
      for (const b of newBuyers) state.set(b.user, { id: ids.get(b.user)!, firstOrderNo: b.first.event.order_no, attribution: b.attribution, acqDay: dayOf(b.first.event.paid_at) });
    }

    // Catalog ids: the site's drama / product of the order (or of its landing link).
    const dramaIds = new Set<string>();
    const productIds = new Set<string>();
    for (const item of paid) {
      const l = landingOf(item.event);
      const d = item.event.drama_id ?? l.drama_id;
      const p = item.event.product_id ?? l.product_id;
      if (d) dramaIds.add(d);
      if (p) productIds.add(p);
    }
    const [dramas, products] = await Promise.all([
      dramaIds.size
        ? trx.selectFrom('dramas').select(['id', 'external_id']).where('site_id', '=', site.id).where('deleted_at', 'is', null).where('external_id', 'in', [...dramaIds]).execute()
        : [],
      productIds.size
        ? trx.selectFrom('products').select(['id', 'external_id']).where('site_id', '=', site.id).where('deleted_at', 'is', null).where('external_id', 'in', [...productIds]).execute()
        : [],
    ]);
    const dramaId = new Map(dramas.map((d) => [d.external_id, d.id]));
    const productId = new Map(products.map((p) => [p.external_id, p.id]));

    const rows = await trx
      .insertInto('orders')
      .values(
        paid.map(({ event: e }) => {
          const buyer = state.get(e.app_user_id)!;
          const known = orders.get(e.order_no)!;
          const l = landingOf(e);
          const drama = e.drama_id ?? l.drama_id;
          const product = e.product_id ?? l.product_id;
          const quantity = e.quantity ?? (product ? 1 : null);
          return {
            site_id: site.id,
            order_no: e.order_no,
            buyer_id: buyer.id,
            app_user_id: e.app_user_id,
            status: statusOf(known.amount, known.refunded),
            currency: e.currency,
            amount_minor: e.amount_minor,
            refunded_minor: known.refunded,
            amount_usd_cents: usdCents(e.amount_minor, e.currency, e.paid_at),
            refunded_usd_cents: known.refundedUsd,
            paid_at: e.paid_at,
            paid_day: dayOf(e.paid_at),
            refunded_at: known.refundedAt,
            user_registered_at: e.user_registered_at,
            country: e.country,
            landing_url: e.landing_url,
            ...(buyer.attribution ?? NO_ATTRIBUTION),
            is_new_payer: buyer.firstOrderNo === e.order_no,
            drama_external_id: drama,
            drama_id: drama ? (dramaId.get(drama) ?? null) : null,
            episode: e.episode ?? (e.drama_id ? null : l.episode),
            product_external_id: product,
            product_id: product ? (productId.get(product) ?? null) : null,
            quantity,
            unit_price_minor: quantity ? Math.round(e.amount_minor / quantity) : null,
            source: ctx.source,
            created_at: now,
            updated_at: now,
          };
        }),
      )
      .returning(['id', 'order_no'])
      .execute();
    for (const r of rows) orderIds.set(r.order_no, r.id);
    // A new order counts on its payment day and in its buyer's cohort.
    for (const { event: e } of paid) {
      const buyer = state.get(e.app_user_id)!;
      const ad = buyer.attribution?.ad_platform_id;
      if (ad) dirty.push({ ad, day: dayOf(e.paid_at) }, { ad, day: buyer.acqDay });
    }
  }

  if (refunds.length) {
    await trx
      .insertInto('order_refunds')
      .values(
        refunds.map(({ event: e }) => ({
          order_id: orderIds.get(e.order_no)!,
          site_id: site.id,
          currency: e.currency,
          amount_minor: e.amount_minor,
          amount_usd_cents: usdCents(e.amount_minor, e.currency, e.refunded_at!),
          refunded_at: e.refunded_at!,
          refund_day: dayOf(e.refunded_at!),
          created_at: now,
        })),
      )
      .execute();
    // Refunds of orders stored before this call (those paid in this call were inserted refunded), in one statement.
    const paidHere = new Set(paid.map((p) => p.event.order_no));
    const byOrder = new Map<number, { minor: number; cents: number; at: Date }>();
    for (const { event: e } of refunds) {
      if (paidHere.has(e.order_no)) continue;
      const id = orderIds.get(e.order_no)!;
      const sum = byOrder.get(id) ?? { minor: 0, cents: 0, at: e.refunded_at! };
      sum.minor += e.amount_minor;
      sum.cents += usdCents(e.amount_minor, e.currency, e.refunded_at!) ?? 0;
      if (e.refunded_at! > sum.at) sum.at = e.refunded_at!;
      byOrder.set(id, sum);
    }
    if (byOrder.size) {
      const v = [...byOrder].map(([id, r]) => sql`(${id}::int, ${r.minor}::bigint, ${r.cents}::bigint, ${r.at}::timestamptz)`);
      await sql`
        update orders o set refunded_minor = o.refunded_minor + v.minor, refunded_usd_cents = o.refunded_usd_cents + v.cents,
          status = case when o.refunded_minor + v.minor >= o.amount_minor then 'refunded' else 'partially_refunded' end,
          refunded_at = v.at, updated_at = ${now}
        from (values ${sql.join(v)}) as v(id, minor, cents, at) where o.id = v.id`.execute(trx);
    }
    // A refund counts on its day under its order's ad, and in its buyer's cohort.
    const storedByNo = new Map(storedOrders.map((o) => [o.order_no, o]));
    const payerOf = new Map(paid.map((p) => [p.event.order_no, p.event.app_user_id]));
    for (const { event: e } of refunds) {
      const day = dayOf(e.refunded_at!);
      const stored = storedByNo.get(e.order_no);
      const owner = stored?.app_user_id ?? payerOf.get(e.order_no);
      const buyer = owner === undefined ? undefined : state.get(owner);
      if (buyer) {
        const ad = buyer.attribution?.ad_platform_id;
        if (ad) dirty.push({ ad, day }, { ad, day: buyer.acqDay });
      } else if (stored) {
        if (stored.ad_platform_id) dirty.push({ ad: stored.ad_platform_id, day });
        if (stored.buyer_ad) dirty.push({ ad: stored.buyer_ad, day }, { ad: stored.buyer_ad, day: dayText(stored.acquisition_day) });
      }
    }
  }

  const events = accepted.map(({ item, hash }) => ({
    site_id: site.id,
    order_no: item.event.order_no,
    event: item.event.event,
    order_id: orderIds.get(item.event.order_no) ?? null,
    content_hash: hash,
    payload: JSON.stringify(item.raw),
    source: ctx.source,
    delivery_id: deliveryId,
    received_at: now,
  }));
  // The cohort pairs go in with the events (one round trip), unless there are very many (an import's chunk).
  const pairs = uniquePairs(dirty);
  result.dirtyPairs = pairs.length;
  if (pairs.length && pairs.length <= 1000) {
    await trx
      .with('logged', (db) => db.insertInto('ad_order_dirty').values(pairs.map((p) => ({ ad_platform_id: p.ad, day: p.day }))))
      .insertInto('order_events')
      .values(events)
      .execute();
  } else {
    await trx.insertInto('order_events').values(events).execute();
    await markCohortsDirty(trx, pairs);
  }
  return result;
}
