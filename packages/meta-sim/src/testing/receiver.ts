import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback order-webhook receiver for tests: it does what API.md ("Orders") asks of the
// app, written from the text and not from the simulator's code, so it checks the simulator's
// requests against the contract. It verifies `X-Signature` (t within 300 s of the given clock,
// any of the site's secrets, any `v1=` entry), validates every event field, stores events
// idempotently (duplicates, 409 conflicts, refunds above the paid amount) and can be told to
// answer 4xx/5xx or drop the connection.

const MAX_BODY = 1024 * 1024;
const ISO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'TWD', 'HUF', 'IDR', 'COP', 'CRC']);
const FIELDS = new Set([
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
]);

export type Answer = number | 'drop';

export interface ReceivedRequest {
  site: string;
  raw: Buffer;
  signature: string | undefined;
  /** `t` of the signature header, when it parsed. */
  t?: number;
  shape?: 'object' | 'batch';
  events: any[];
  status: number | 'drop';
  body?: any;
}

export interface Receiver {
  url(site: string): string;
  /** Secrets the signature may be made with (current first; e.g. the previous one for 24 h). */
  setSecrets(site: string, secrets: string[]): void;
  /** The next answers for a site, before anything else is checked (e.g. [500, 'drop']). */
  plan(site: string, answers: Answer[]): void;
  /** Answers this status to any request containing an event the rule picks (nothing stored). */
  rejectWhen(rule: ((event: any) => number | undefined) | undefined): void;
  requests: ReceivedRequest[];
  /** Stored events per site, by `<event>:<order_no>`. */
  stored(site: string): Map<string, any>;
  close(): Promise<void>;
}

function decimals(amount: string): number {
  return amount.includes('.') ? amount.split('.')[1]!.length : 0;
}

/** Field errors of one event, as the app would list them. */
export function eventErrors(e: any, prefix: string): string[] {
  const errors: string[] = [];
  const err = (field: string, why: string) => errors.push(`${prefix}${field}: ${why}`);
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return [`${prefix}: not an object`];
  for (const key of Object.keys(e)) if (!FIELDS.has(key)) err(key, 'not a field of the contract');
  if (e.event !== 'order.paid' && e.event !== 'order.refunded') err('event', 'must be order.paid or order.refunded');
  if (typeof e.order_no !== 'string' || e.order_no.length < 1 || e.order_no.length > 64) err('order_no', 'string 1–64');
  if (typeof e.currency !== 'string' || !/^[A-Z]{3}$/.test(e.currency)) err('currency', 'ISO 4217');
  if (typeof e.amount !== 'string' || !/^\d+(\.\d+)?$/.test(e.amount) || Number(e.amount) <= 0) err('amount', 'decimal string > 0');
  else if (typeof e.currency === 'string' && decimals(e.amount) > (ZERO_DECIMAL.has(e.currency) ? 0 : 2)) err('amount', `too many decimals for ${e.currency}`);
  if (typeof e.paid_at !== 'string' || !ISO_OFFSET.test(e.paid_at)) err('paid_at', 'ISO-8601 with offset');
  if (e.event === 'order.refunded') {
    if (typeof e.refunded_at !== 'string' || !ISO_OFFSET.test(e.refunded_at)) err('refunded_at', 'ISO-8601 with offset');
  } else if (e.refunded_at !== undefined) err('refunded_at', 'only on order.refunded');
  if (typeof e.app_user_id !== 'string' || e.app_user_id.length < 1 || e.app_user_id.length > 64) err('app_user_id', 'string 1–64');
  if (e.user_registered_at !== undefined && (typeof e.user_registered_at !== 'string' || !ISO_OFFSET.test(e.user_registered_at))) err('user_registered_at', 'ISO-8601');
  if (e.country !== undefined && (typeof e.country !== 'string' || !/^[A-Z]{2}$/.test(e.country))) err('country', 'ISO 3166-1 alpha-2');
  if (e.landing_url !== undefined && (typeof e.landing_url !== 'string' || e.landing_url.length > 2048)) err('landing_url', 'string ≤ 2048');
  for (const id of ['campaign_id', 'adset_id', 'ad_id']) if (e[id] !== undefined && (typeof e[id] !== 'string' || !/^\d+$/.test(e[id]))) err(id, 'digit string');
  if (e.drama_id !== undefined && typeof e.drama_id !== 'string') err('drama_id', 'string');
  if (e.episode !== undefined && !Number.isInteger(e.episode)) err('episode', 'integer');
  if (e.product_id !== undefined && typeof e.product_id !== 'string') err('product_id', 'string');
  if (e.quantity !== undefined && !Number.isInteger(e.quantity)) err('quantity', 'integer');
  return errors;
}

/** The `X-Signature` check of API.md; returns `t` when one v1 entry matches one secret. */
export function verifySignature(header: string | undefined, raw: Buffer, secrets: string[], nowSeconds: number): number | undefined {
  if (!header) return undefined;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) t = Number(value);
    else if (key === 'v1') v1.push(value);
  }
  if (t === undefined || Math.abs(nowSeconds - t) > 300) return undefined;
  for (const secret of secrets) {
    const expected = Buffer.from(createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`), raw])).digest('hex'));
    for (const candidate of v1) {
      const got = Buffer.from(candidate);
      if (got.length === expected.length && timingSafeEqual(got, expected)) return t;
    }
  }
  return undefined;
}

const canonical = (e: any) => JSON.stringify(Object.keys(e).sort().map((k) => [k, e[k]]));

export async function startReceiver(clockMs: () => number): Promise<Receiver> {
  const secrets = new Map<string, string[]>();
  const plans = new Map<string, Answer[]>();
  const store = new Map<string, Map<string, any>>();
  const requests: ReceivedRequest[] = [];
  let rule: ((event: any) => number | undefined) | undefined;
  const storedOf = (site: string) => {
    let s = store.get(site);
    if (!s) store.set(site, (s = new Map()));
    return s;
  };

  const answer = (res: ServerResponse, rec: ReceivedRequest, status: number, body: unknown) => {
    rec.status = status;
    rec.body = body;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const site = decodeURIComponent((req.url ?? '').replace(/^\/orders\//, ''));
    const rec: ReceivedRequest = { site, raw, signature: req.headers['x-signature'] as string | undefined, events: [], status: 0 };
    requests.push(rec);
    let body: any;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    // Recorded even when the request is then refused, so a test sees what was sent.
    const isBatch = Boolean(body && typeof body === 'object' && Array.isArray(body.events) && Object.keys(body).length === 1);
    if (body !== undefined) {
      rec.shape = isBatch ? 'batch' : 'object';
      rec.events = isBatch ? body.events : [body];
    }
    const planned = plans.get(site)?.shift();
    if (planned === 'drop') {
      rec.status = 'drop';
      req.socket.destroy();
      return;
    }
    if (planned !== undefined) return answer(res, rec, planned, { code: 1, message: 'planned failure' });
    if (raw.length > MAX_BODY) return answer(res, rec, 413, { code: 1, message: 'too large' });
    const t = verifySignature(rec.signature, raw, secrets.get(site) ?? [], Math.floor(clockMs() / 1000));
    if (t === undefined) return answer(res, rec, 401, { code: 401, message: 'bad signature' });
    rec.t = t;
    if (body === undefined) return answer(res, rec, 400, { code: -2, message: 'malformed JSON' });
    const events = rec.events;
    if (isBatch && (events.length < 1 || events.length > 500)) return answer(res, rec, 400, { code: -2, message: '1–500 events' });
    const errors = events.flatMap((e, i) => eventErrors(e, rec.shape === 'batch' ? `events.${i}.` : ''));
    if (errors.length > 0) return answer(res, rec, 400, { code: -2, message: 'invalid', data: { errors } });
    for (const e of events) {
      const status = rule?.(e);
      if (status !== undefined) return answer(res, rec, status, { code: status === 409 ? 409 : -2, message: 'rejected by the test' });
    }

    // All or nothing: check every event against what is stored (and earlier ones of the request).
    const stored = storedOf(site);
    const pending = new Map<string, any>();
    let duplicates = 0;
    for (const e of events) {
      const key = `${e.event}:${e.order_no}`;
      const prior = pending.get(key) ?? stored.get(key);
      if (prior) {
        if (canonical(prior) !== canonical(e)) return answer(res, rec, 409, { code: 409, message: `conflict on ${key}` });
        duplicates += 1;
        continue;
      }
      if (e.event === 'order.refunded') {
        const paid = pending.get(`order.paid:${e.order_no}`) ?? stored.get(`order.paid:${e.order_no}`);
        if (!paid || Number(e.amount) > Number(paid.amount)) return answer(res, rec, 409, { code: 409, message: `refund above paid on ${e.order_no}` });
      }
      pending.set(key, e);
    }
    for (const [key, e] of pending) stored.set(key, e);
    return answer(res, rec, 200, { code: 0, message: 'ok', data: { accepted: pending.size, duplicates } });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: (site) => `http://127.0.0.1:${port}/orders/${encodeURIComponent(site)}`,
    setSecrets: (site, list) => void secrets.set(site, list),
    plan: (site, answers) => void plans.set(site, [...(plans.get(site) ?? []), ...answers]),
    rejectWhen: (r) => void (rule = r),
    requests,
    stored: storedOf,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
