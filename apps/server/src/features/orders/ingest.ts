import { formatMessage, type FieldError, type Lang } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AttributionSource, OrderSource, OrderStatus } from '../../db/schema.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { rateBook } from '../../lib/fx.ts';
import { parseLink } from '../../lib/link-template.ts';
import { dayIn } from '../../lib/tz.ts';
import { cohortPairsOfBuyers, refreshCohorts } from './cohorts.ts';
import { contentHash, formatAmount, type OrderEvent } from './order-event.ts';

// Storing checked order events (webhook batches and import chunks alike), in the caller's
// transaction. Two phases: a plan that only reads (duplicates, conflicts, refunds against what
// was paid) and, when nothing conflicts, the writes. Events of one site are taken in one at a
// time (an advisory lock), so two deliveries of the same order cannot both insert it.

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
  deliveryId?: number | null;
}

export interface IngestResult {
  accepted: number;
  /** Of the accepted: new paid orders and refunds. */
  paid: number;
  refunded: number;
  duplicates: number;
  /** Non-empty: nothing was written. */
  conflicts: (FieldError & { index: number })[];
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

/** The per-site lock of order writes (pg_advisory_xact_lock key space of this feature). */
const ORDER_LOCK = 727_011;

export async function ingestEvents(trx: Db, ctx: IngestContext, items: IngestItem[]): Promise<IngestResult> {
  if (!items.length) return { accepted: 0, paid: 0, refunded: 0, duplicates: 0, conflicts: [] };
  await sql`select pg_advisory_xact_lock(${ORDER_LOCK}, ${ctx.site.id})`.execute(trx);
  // Cohort facts of the buyers touched, before and after (attribution or acquisition day may move).
  const users = [...new Set(items.map((i) => i.event.app_user_id))];
  const orderNos = [...new Set(items.map((i) => i.event.order_no))];
  const before = await cohortPairsOfBuyers(trx, ctx.site.id, users, orderNos);
  const result = await ingestLocked(trx, ctx, items);
  if (result.accepted > 0) await refreshCohorts(trx, [...before, ...(await cohortPairsOfBuyers(trx, ctx.site.id, users, orderNos))]);
  return result;
}

async function ingestLocked(trx: Db, ctx: IngestContext, items: IngestItem[]): Promise<IngestResult> {
  const { site, lang } = ctx;
  const result: IngestResult = { accepted: 0, paid: 0, refunded: 0, duplicates: 0, conflicts: [] };
  const rateOn = await rateBook(trx, items.map((i) => i.event.currency));
  const usdCents: UsdCents = (minor, currency, at) => {
    const rate = rateOn(currency, dayIn(at.getTime(), ctx.reportTimezone));
    return rate ? Math.round((minor / currencyOffset(currency) / rate) * 100) : null;
  };

  // ---- plan (reads only) ------------------------------------------------------------------
  const orderNos = [...new Set(items.map((i) => i.event.order_no))];
  const [storedEvents, storedOrders] = await Promise.all([
    trx.selectFrom('order_events').select(['order_no', 'event', 'content_hash']).where('site_id', '=', site.id).where('order_no', 'in', orderNos).execute(),
    trx
      .selectFrom('orders')
      .select(['id', 'order_no', 'amount_minor', 'refunded_minor', 'currency', 'paid_at'])
      .where('site_id', '=', site.id)
      .where('order_no', 'in', orderNos)
      .execute(),
  ]);
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
  if (!accepted.length) return result;

  // ---- writes -----------------------------------------------------------------------------
  const now = ctx.now;
  const tz = ctx.reportTimezone;
  const orderIds = new Map<string, number>();
  for (const o of storedOrders) orderIds.set(o.order_no, o.id);

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
    type BuyerState = { id: number; firstOrderNo: string; attribution: Attribution | null };
    const state = new Map<string, BuyerState>();
    const newBuyers: { user: string; first: IngestItem; attributedBy: IngestItem | null; attribution: Attribution | null }[] = [];
    const dethroned: string[] = [];

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
      const s: BuyerState = {
        id: stored.id,
        firstOrderNo: stored.first_order_no,
        attribution: stored.attribution_source
          ? { campaign_platform_id: stored.campaign_platform_id, adset_platform_id: stored.adset_platform_id, ad_platform_id: stored.ad_platform_id, attribution_source: stored.attribution_source }
          : null,
      };
      const set: Record<string, unknown> = {};
      if (first.event.paid_at < stored.first_paid_at) {
        dethroned.push(stored.first_order_no);
        s.firstOrderNo = first.event.order_no;
        Object.assign(set, { first_order_no: first.event.order_no, first_paid_at: first.event.paid_at, acquisition_day: dayIn(first.event.paid_at.getTime(), tz) });
      }
      const moveAttribution = attributedBy && attribution && (!stored.attributed_paid_at || attributedBy.event.paid_at < stored.attributed_paid_at);
      if (moveAttribution) {
        s.attribution = attribution;
        Object.assign(set, attribution, { attributed_paid_at: attributedBy.event.paid_at, landing_url: attributedBy.event.landing_url });
      }
      if (Object.keys(set).length) {
        await trx
          .updateTable('order_buyers')
          .set({ ...set, updated_at: now })
          .where('id', '=', stored.id)
          .execute();
      }
      if (moveAttribution) {
        // The buyer's orders all carry the acquiring ad.
        await trx
          .updateTable('orders')
          .set({ ...attribution!, updated_at: now })
          .where('buyer_id', '=', stored.id)
          .execute();
      }
      state.set(user, s);
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
            acquisition_day: dayIn(first.event.paid_at.getTime(), tz),
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
      for (const b of newBuyers) state.set(b.user, { id: ids.get(b.user)!, firstOrderNo: b.first.event.order_no, attribution: b.attribution });
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
            paid_day: dayIn(e.paid_at.getTime(), tz),
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
          refund_day: dayIn(e.refunded_at!.getTime(), tz),
          created_at: now,
        })),
      )
      .execute();
    // Refunds of orders stored before this call (those paid in this call were inserted refunded).
    const paidHere = new Set(paid.map((p) => p.event.order_no));
    for (const { event: e } of refunds) {
      if (paidHere.has(e.order_no)) continue;
      const cents = usdCents(e.amount_minor, e.currency, e.refunded_at!) ?? 0;
      await trx
        .updateTable('orders')
        .set((eb) => ({
          refunded_minor: eb('refunded_minor', '+', e.amount_minor),
          refunded_usd_cents: eb('refunded_usd_cents', '+', cents),
          status: sql<OrderStatus>`case when refunded_minor + ${e.amount_minor} >= amount_minor then 'refunded' else 'partially_refunded' end`,
          refunded_at: e.refunded_at,
          updated_at: now,
        }))
        .where('id', '=', orderIds.get(e.order_no)!)
        .execute();
    }
  }

  await trx
    .insertInto('order_events')
    .values(
      accepted.map(({ item, hash }) => ({
        site_id: site.id,
        order_no: item.event.order_no,
        event: item.event.event,
        order_id: orderIds.get(item.event.order_no) ?? null,
        content_hash: hash,
        payload: JSON.stringify(item.raw),
        source: ctx.source,
        delivery_id: ctx.deliveryId ?? null,
        received_at: now,
      })),
    )
    .execute();
  return result;
}
