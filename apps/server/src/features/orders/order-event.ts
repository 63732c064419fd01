import { createHash } from 'node:crypto';
import { formatMessage, type ErrorKey, type FieldError, type Lang } from '@ads/contracts';
import { localHourStart } from '../../lib/tz.ts';
import { currencyOffset } from '../../platform/currency.ts';

// One order event of API.md "Orders" (webhook body or an import row), checked field by field and
// normalised: amounts in minor units, times as instants. The content hash of the normalised event
// decides whether a resend is a duplicate (same content) or a conflict (other content).

export type OrderEventKind = 'order.paid' | 'order.refunded';

export interface OrderEvent {
  event: OrderEventKind;
  order_no: string;
  /** Minor units of `currency`: the paid amount, or for a refund the refunded amount. */
  amount_minor: number;
  currency: string;
  paid_at: Date;
  refunded_at: Date | null;
  app_user_id: string;
  user_registered_at: Date | null;
  country: string | null;
  landing_url: string | null;
  campaign_id: string | null;
  adset_id: string | null;
  ad_id: string | null;
  drama_id: string | null;
  episode: number | null;
  product_id: string | null;
  quantity: number | null;
}

export const EVENT_FIELDS = [
  'event',
  'order_no',
  'amount',
  'currency',
  'paid_at',
  'refunded_at',
  'app_user_id',
  'user_registered_at',
  'country',
  'landing_url',
  'campaign_id',
  'adset_id',
  'ad_id',
  'drama_id',
  'episode',
  'product_id',
  'quantity',
] as const;

export interface ParseOptions {
  lang: Lang;
  /** Field names are prefixed with this (`events.3.`), as API.md wants in a batch. */
  prefix?: string;
  /**
   * Import rows: every cell is text, so integers may come as digit strings and a time without an
   * offset is read in this zone (a person typing "2026-05-01 08:00" means their business day).
   */
  looseZone?: string;
}

/** NUL and lone surrogates: PostgreSQL text and jsonb refuse them. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what must be refused
const BAD_CHARS = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The event's own fields as received (unknown fields are ignored, and not kept). */
export function knownFields(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of EVENT_FIELDS) if (raw[f] !== undefined) out[f] = raw[f];
  return out;
}

const TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** An ISO-8601 time with an offset (or, with `zone`, without one) → the instant; null when not one. */
export function parseTime(text: string, zone?: string): Date | null {
  const m = TIME_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0', off] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  if (off === undefined) {
    if (!zone) return null;
    return new Date(localHourStart(`${y}-${mo}-${d}`, hour, zone) + minute * 60_000 + second * 1000 + ms);
  }
  let offsetMin = 0;
  if (off.toUpperCase() !== 'Z') {
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000);
}

/** A decimal string in major units → minor units of the currency; null when not > 0 or too precise. */
export function parseAmount(text: string, currency: string): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,12}))?$/.exec(text.trim());
  if (!m) return null;
  const decimals = currencyOffset(currency) === 1 ? 0 : 2;
  const frac = m[2] ?? '';
  // Trailing zeros past the currency's decimals say nothing ("4.990"); other digits would be lost.
  if (/[1-9]/.test(frac.slice(decimals))) return null;
  const minor = Number(m[1]) * 10 ** decimals + Number((frac + '00').slice(0, decimals) || '0');
  return minor > 0 && Number.isSafeInteger(minor) ? minor : null;
}

/** Minor units → the decimal string in major units ("4.99", JPY "1500"). */
export function formatAmount(minor: number, currency: string): string {
  if (currencyOffset(currency) === 1) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Parses one event; either `event` or a non-empty `errors`. */
export function parseOrderEvent(raw: unknown, opts: ParseOptions): { event?: OrderEvent; raw?: Record<string, unknown>; errors: FieldError[] } {
  const prefix = opts.prefix ?? '';
  const errors: FieldError[] = [];
  const fail = (field: string, key: ErrorKey, params: Record<string, unknown> = {}) => {
    errors.push({ field: `${prefix}${field}`, message: formatMessage(key, opts.lang, params) });
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push({ field: prefix.replace(/\.$/, '') || 'body', message: formatMessage('ORDER_BODY_SHAPE', opts.lang, { max: 500 }) });
    return { errors };
  }
  const b = raw as Record<string, unknown>;
  const blank = (v: unknown) => v === undefined || v === null || v === '';

  const text = (field: string, max: number, required: boolean): string | null => {
    const v = b[field];
    if (blank(v)) {
      if (required) fail(field, 'ORDER_FIELD_REQUIRED');
      return null;
    }
    if (typeof v !== 'string' || v.length > max || v.trim() === '' || BAD_CHARS.test(v)) {
      fail(field, 'ORDER_FIELD_TEXT', { max });
      return null;
    }
    return v;
  };
  /** A site's own id: a string (a number is taken as written). */
  const idText = (field: string): string | null => {
    const v = b[field];
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
    return text(field, 64, false);
  };
  const digits = (field: string): string | null => {
    const v = b[field];
    if (blank(v)) return null;
    if (typeof v !== 'string' || !/^\d{1,30}$/.test(v)) {
      fail(field, 'ORDER_FIELD_DIGITS');
      return null;
    }
    return v;
  };
  const integer = (field: string, max: number): number | null => {
    let v = b[field];
    if (blank(v)) return null;
    if (opts.looseZone && typeof v === 'string' && /^\d{1,9}$/.test(v.trim())) v = Number(v.trim());
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
      fail(field, 'ORDER_FIELD_INTEGER', { max });
      return null;
    }
    return v;
  };
  const time = (field: string, required: boolean): Date | null => {
    const v = b[field];
    if (blank(v)) {
      if (required) fail(field, 'ORDER_FIELD_REQUIRED');
      return null;
    }
    const t = typeof v === 'string' && v.length <= 64 ? parseTime(v, opts.looseZone) : null;
    if (!t) fail(field, 'ORDER_FIELD_TIME');
    return t;
  };

  let kind: OrderEventKind | null = null;
  if (blank(b.event)) fail('event', 'ORDER_FIELD_REQUIRED');
  else if (b.event === 'order.paid' || b.event === 'order.refunded') kind = b.event;
  else fail('event', 'ORDER_FIELD_EVENT');

  const orderNo = text('order_no', 64, true);
  let currency: string | null = null;
  if (blank(b.currency)) fail('currency', 'ORDER_FIELD_REQUIRED');
  else if (typeof b.currency === 'string' && /^[A-Z]{3}$/.test(b.currency)) currency = b.currency;
  else fail('currency', 'ORDER_FIELD_CURRENCY');

  let amount: number | null = null;
  if (blank(b.amount)) fail('amount', 'ORDER_FIELD_REQUIRED');
  else {
    const c = currency ?? 'USD';
    amount = typeof b.amount === 'string' && b.amount.length <= 40 ? parseAmount(b.amount, c) : null;
    if (amount === null) fail('amount', 'ORDER_FIELD_AMOUNT', { currency: c, decimals: currencyOffset(c) === 1 ? 0 : 2 });
  }
  const paidAt = time('paid_at', true);
  const refundedAt = time('refunded_at', kind === 'order.refunded');
  if (kind === 'order.paid' && refundedAt) fail('refunded_at', 'ORDER_FIELD_REFUND_ONLY');
  const appUserId = text('app_user_id', 64, true);
  const registeredAt = time('user_registered_at', false);
  let country: string | null = null;
  if (!blank(b.country)) {
    if (typeof b.country === 'string' && /^[A-Z]{2}$/.test(b.country)) country = b.country;
    else fail('country', 'ORDER_FIELD_COUNTRY');
  }
  const landingUrl = text('landing_url', 2048, false);
  const campaignId = digits('campaign_id');
  const adsetId = digits('adset_id');
  const adId = digits('ad_id');
  const dramaId = idText('drama_id');
  const episode = integer('episode', 100_000);
  const productId = idText('product_id');
  const quantity = integer('quantity', 1_000_000);

  if (errors.length) return { errors };
  return {
    errors,
    raw: knownFields(b),
    event: {
      event: kind!,
      order_no: orderNo!,
      amount_minor: amount!,
      currency: currency!,
      paid_at: paidAt!,
      refunded_at: refundedAt,
      app_user_id: appUserId!,
      user_registered_at: registeredAt,
      country,
      landing_url: landingUrl,
      campaign_id: campaignId,
      adset_id: adsetId,
      ad_id: adId,
      drama_id: dramaId,
      episode,
      product_id: productId,
      quantity,
    },
  };
}

/** sha256 of the normalised content, field by field in a fixed order (key order and spelling of the JSON do not matter). */
export function contentHash(e: OrderEvent): string {
  const time = (d: Date | null) => (d ? d.getTime() : null);
  const parts = [
    e.event,
    e.order_no,
    e.amount_minor,
    e.currency,
    time(e.paid_at),
    time(e.refunded_at),
    e.app_user_id,
    time(e.user_registered_at),
    e.country,
    e.landing_url,
    e.campaign_id,
    e.adset_id,
    e.ad_id,
    e.drama_id,
    e.episode,
    e.product_id,
    e.quantity,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
