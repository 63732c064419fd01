import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createDrama, createUser } from '../../test/factories.ts';
import { signatureHeader } from './signature.ts';

// The order webhook of API.md "Orders", case by case (issue 9 "The webhook contract"):
// signature, window, replay, duplicates, conflicts, a refund above the paid amount, malformed and
// oversized bodies, an unknown site, rotation grace; nothing stored by a refused request; never a 5xx.

let t: TestApp;
let manager: string;
let site: { id: number; secret: string };
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}';

beforeAll(async () => {
  t = await buildTestApp();
  const m = await createUser(t.db, { is_admin: 1 });
  manager = await t.login(m.account, m.password);
  const created = await t.call('/api/sites/create', { name: 'Drama', domain: 'drama.example.com', platform: 'dj', link_template: TEMPLATE }, { token: manager });
  expect(created.code).toBe(0);
  site = { id: created.data.id, secret: created.data.webhook_secret };
  await createDrama(t.db, { site_id: site.id, external_id: 'D100' });
});
afterAll(() => t.close());

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

/** POSTs a body (object → JSON) signed with `secret` at `ts` (defaults: the site's, now), or with `signature` as given. */
async function send(body: unknown, opts: { siteId?: number | string; secret?: string; ts?: number; signature?: string | null; contentType?: string; lang?: string } = {}) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const signature = opts.signature === undefined ? signatureHeader(opts.secret ?? site.secret, opts.ts ?? nowSeconds(), raw) : opts.signature;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/webhook/${opts.siteId ?? site.id}`,
    headers: { 'content-type': opts.contentType ?? 'application/json; charset=utf-8', ...(signature !== null && { 'x-signature': signature }), ...(opts.lang && { 'accept-language': opts.lang }) },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBeLessThan(500);
  const json = res.json();
  expect(Object.keys(json).sort()).toEqual(['code', 'data', 'message']);
  return { status: res.statusCode, ...(json as { code: number; message: string; data: any }) };
}

let seq = 0;
/** A valid paid event of a new order (fields overridable). */
const paid = (over: Record<string, unknown> = {}) => ({
  event: 'order.paid',
  order_no: `O-${++seq}`,
  amount: '4.99',
  currency: 'USD',
  paid_at: '2026-11-01T15:10:00+08:00',
  app_user_id: `u-${seq}`,
  user_registered_at: '2026-11-01T15:00:00+08:00',
  country: 'US',
  landing_url: 'https://drama.example.com/play/D100?ep=3&c=1201&s=1202&a=1203&fbclid=abc',
  drama_id: 'D100',
  episode: 4,
  ...over,
});
const refund = (order: Record<string, unknown>, over: Record<string, unknown> = {}) => ({ ...order, event: 'order.refunded', refunded_at: '2026-11-01T18:00:00+08:00', ...over });

/** Everything a request could store (the delivery log aside). */
async function stored() {
  const [orders, events, refunds, buyers] = await Promise.all([
    t.db.selectFrom('orders').selectAll().orderBy('id').execute(),
    t.db.selectFrom('order_events').selectAll().orderBy('id').execute(),
    t.db.selectFrom('order_refunds').selectAll().orderBy('id').execute(),
    t.db.selectFrom('order_buyers').selectAll().orderBy('id').execute(),
  ]);
  return { orders, events, refunds, buyers };
}
const lastDelivery = () => t.db.selectFrom('order_deliveries').selectAll().where('site_id', '=', site.id).orderBy('id', 'desc').executeTakeFirstOrThrow();

beforeEach(() => {
  t.clock.set('2026-11-01T08:00:00Z');
});

describe('accepted events', () => {
  it('stores a lone event and a batch, with amounts in minor units, days in REPORT_TIMEZONE and the attribution of the landing URL', async () => {
    const one = paid({ order_no: 'A-1', app_user_id: 'alice' });
    const r1 = await send(one);
    expect(r1).toMatchObject({ status: 200, code: 0, data: { accepted: 1, duplicates: 0 } });
    const order = await t.db.selectFrom('orders').selectAll().where('order_no', '=', 'A-1').executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      site_id: site.id,
      status: 'paid',
      currency: 'USD',
      amount_minor: 499,
      refunded_minor: 0,
      amount_usd_cents: 499,
      paid_day: '2026-11-01',
      campaign_platform_id: '1201',
      adset_platform_id: '1202',
      ad_platform_id: '1203',
      attribution_source: 'landing_url',
      is_new_payer: true,
      drama_external_id: 'D100',
      episode: 4,
      source: 'webhook',
    });
    expect(order.drama_id).toEqual(expect.any(Number));
    expect(order.paid_at.toISOString()).toBe('2026-11-01T07:10:00.000Z');

    const batch = [paid({ order_no: 'A-2', app_user_id: 'alice', paid_at: '2026-11-02T01:00:00+08:00', landing_url: null }), paid({ order_no: 'B-1', app_user_id: 'bob', currency: 'JPY', amount: '1500' })];
    const r2 = await send({ events: batch });
    expect(r2).toMatchObject({ status: 200, code: 0, data: { accepted: 2, duplicates: 0 } });
    const rows = await t.db.selectFrom('orders').selectAll().where('order_no', 'in', ['A-2', 'B-1']).orderBy('order_no').execute();
    // Alice's second order inherits her first order's ad and is a returning payer's.
    expect(rows[0]).toMatchObject({ order_no: 'A-2', ad_platform_id: '1203', is_new_payer: false, paid_day: '2026-11-02' });
    expect(rows[1]).toMatchObject({ order_no: 'B-1', currency: 'JPY', amount_minor: 1500, amount_usd_cents: 1000, is_new_payer: true });
    expect(await lastDelivery()).toMatchObject({ events: 2, accepted: 2, duplicates: 0, http_status: 200, result: 'ok' });
  });

  it('accepts a resend as duplicates, whatever its key order, spacing or signature time, and stores nothing twice', async () => {
    const events: Record<string, unknown>[] = [paid(), paid(), paid()];
    events.push(refund(events[0]!, { amount: '1.00' }));
    expect((await send({ events })).data).toEqual({ accepted: 4, duplicates: 0 });
    const before = await stored();
    t.clock.advance(60_000);
    const reordered = events.map((e) => Object.fromEntries(Object.entries(e).reverse()));
    const again = await send(`{ "events" : ${JSON.stringify(reordered, null, 2)} }`);
    expect(again).toMatchObject({ status: 200, code: 0, data: { accepted: 0, duplicates: 4 } });
    // "4.990" is the same amount as "4.99".
    expect((await send({ ...events[1], amount: '4.990' })).data).toEqual({ accepted: 0, duplicates: 1 });
    expect(await stored()).toEqual(before);
    // A batch repeating one event inside itself: the copy is a duplicate.
    const fresh = paid();
    expect((await send({ events: [fresh, fresh] })).data).toEqual({ accepted: 1, duplicates: 1 });
  });

  it('takes the same batch sent three times at once exactly once (the site is locked while its events are stored)', async () => {
    const events = [paid({ app_user_id: 'same-buyer' }), paid({ app_user_id: 'same-buyer' }), paid()];
    const answers = await Promise.all([1, 2, 3].map(() => send({ events })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.reduce((s, a) => s + a.data.accepted, 0)).toBe(3);
    expect(answers.reduce((s, a) => s + a.data.duplicates, 0)).toBe(6);
    const rows = await t.db.selectFrom('orders').select(['order_no', 'is_new_payer']).where('order_no', 'in', events.map((e) => e.order_no)).orderBy('order_no').execute();
    expect(rows).toHaveLength(3);
    expect(await t.db.selectFrom('order_buyers').select('id').where('app_user_id', '=', 'same-buyer').execute()).toHaveLength(1);
  });

  it('stores refunds, partial and full, against what was paid', async () => {
    const a = paid({ amount: '10.00' });
    const b = paid({ amount: '9.99' });
    await send({ events: [a, b] });
    expect((await send({ events: [refund(a, { amount: '2.50' }), refund(b, { amount: '9.99' })] })).data).toEqual({ accepted: 2, duplicates: 0 });
    const rows = await t.db.selectFrom('orders').select(['order_no', 'status', 'refunded_minor', 'refunded_at']).where('order_no', 'in', [a.order_no, b.order_no]).orderBy('order_no').execute();
    expect(rows.map((r) => [r.status, r.refunded_minor])).toEqual([
      ['partially_refunded', 250],
      ['refunded', 999],
    ]);
    const refunds = await t.db.selectFrom('order_refunds').selectAll('order_refunds').innerJoin('orders', 'orders.id', 'order_refunds.order_id').where('orders.order_no', '=', a.order_no).execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount_minor: 250, refund_day: '2026-11-01' });
    // A paid event and its refund in one batch.
    const c = paid({ amount: '5.00' });
    expect((await send({ events: [c, refund(c, { amount: '5.00' })] })).data).toEqual({ accepted: 2, duplicates: 0 });
    expect(await t.db.selectFrom('orders').select(['status', 'refunded_minor']).where('order_no', '=', c.order_no).executeTakeFirstOrThrow()).toEqual({ status: 'refunded', refunded_minor: 500 });
  });

  it('keeps every accepted event as received for the order detail', async () => {
    const e = { ...paid(), unknown_field: 'ignored' };
    await send(e);
    const row = await t.db.selectFrom('order_events').innerJoin('orders', 'orders.id', 'order_events.order_id').select(['order_events.payload', 'order_events.event', 'order_events.source']).where('orders.order_no', '=', e.order_no).executeTakeFirstOrThrow();
    const { unknown_field: _, ...known } = e;
    expect(row).toEqual({ payload: known, event: 'order.paid', source: 'webhook' });
  });

  it('reads the raw bytes whatever the content type', async () => {
    expect(await send(paid(), { contentType: 'text/plain' })).toMatchObject({ status: 200, data: { accepted: 1 } });
  });
});

describe('refused requests store nothing', () => {
  async function refused(body: unknown, opts: Parameters<typeof send>[1], status: number, result: string | null) {
    const before = await stored();
    const deliveriesBefore = await t.db.selectFrom('order_deliveries').select('id').execute();
    const r = await send(body, opts);
    expect(r.status, r.message).toBe(status);
    expect(r.code).toBe(status === 401 ? 401 : -2);
    expect(await stored()).toEqual(before);
    const deliveries = await t.db.selectFrom('order_deliveries').select('id').execute();
    if (result) {
      expect(deliveries).toHaveLength(deliveriesBefore.length + 1);
      expect(await lastDelivery()).toMatchObject({ http_status: status, result, accepted: 0 });
    } else expect(deliveries).toHaveLength(deliveriesBefore.length);
    return r;
  }

  it('401: no signature, a wrong secret, a changed body, a malformed header, t outside the 300 s window', async () => {
    const e = paid();
    const raw = Buffer.from(JSON.stringify(e));
    expect((await refused(e, { signature: null }, 401, 'bad_signature')).message).toMatch(/X-Signature/);
    await refused(e, { secret: 'whsec_not_the_one' }, 401, 'bad_signature');
    await refused({ ...e, amount: '499.00' }, { signature: signatureHeader(site.secret, nowSeconds(), raw) }, 401, 'bad_signature');
    await refused(e, { signature: 'v1=abc' }, 401, 'bad_signature');
    await refused(e, { signature: `t=${nowSeconds()}` }, 401, 'bad_signature');
    const stale = await refused(e, { ts: nowSeconds() - 301 }, 401, 'stale_timestamp');
    expect(stale.message).toMatch(/300/);
    await refused(e, { ts: nowSeconds() + 301 }, 401, 'stale_timestamp');
    // The edges of the window are inside it; one valid v1 among several suffices.
    expect((await send(paid(), { ts: nowSeconds() - 300 })).status).toBe(200);
    expect((await send(paid(), { ts: nowSeconds() + 300 })).status).toBe(200);
    const other = paid();
    const otherRaw = Buffer.from(JSON.stringify(other));
    const ts = nowSeconds();
    const good = signatureHeader(site.secret, ts, otherRaw).split(',')[1];
    expect((await send(other, { signature: `t=${ts},v1=${'0'.repeat(64)},${good}` })).status).toBe(200);
  });

  it('400: malformed JSON, bodies that are not events, and bad fields, named events.<i>.<field> in a batch', async () => {
    await refused('{"event": "order.paid",', {}, 400, 'invalid');
    await refused(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), {}, 400, 'invalid');
    await refused('', {}, 400, 'invalid');
    await refused('[1,2]', {}, 400, 'invalid');
    await refused('42', {}, 400, 'invalid');
    await refused({ events: [] }, {}, 400, 'invalid');
    await refused({ events: 'nope' }, {}, 400, 'invalid');
    await refused({ events: Array.from({ length: 501 }, () => paid()) }, {}, 400, 'invalid');

    const r = await refused({ events: [paid(), paid({ amount: '-1', currency: 'usd', paid_at: '2026-11-01 15:00:00', episode: 0, campaign_id: 'abc' }), 7] }, { lang: 'en' }, 400, 'invalid');
    const fields = r.data.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(['events.1.currency', 'events.1.amount', 'events.1.paid_at', 'events.1.campaign_id', 'events.1.episode', 'events.2']);
    expect(r.data.errors[2].message).toMatch(/offset/);
    // A lone event: field names without a prefix.
    const lone = await refused(paid({ order_no: 'x'.repeat(65), event: 'order.shipped', app_user_id: undefined, refunded_at: '2026-11-01T18:00:00Z' }), {}, 400, 'invalid');
    expect(lone.data.errors.map((e: { field: string }) => e.field)).toEqual(['event', 'order_no', 'app_user_id']);
    // refunded_at on a paid event; no refunded_at on a refund; characters PostgreSQL cannot store.
    expect((await refused(paid({ refunded_at: '2026-11-01T18:00:00Z' }), {}, 400, 'invalid')).data.errors[0].field).toBe('refunded_at');
    expect((await refused({ ...paid(), event: 'order.refunded' }, {}, 400, 'invalid')).data.errors[0].field).toBe('refunded_at');
    expect((await refused(paid({ app_user_id: 'a\u0000b' }), {}, 400, 'invalid')).data.errors[0].field).toBe('app_user_id');
    expect((await refused(paid({ paid_at: '2026-02-30T10:00:00Z' }), {}, 400, 'invalid')).data.errors[0].field).toBe('paid_at');
    expect((await refused(paid({ amount: 4.99 }), {}, 400, 'invalid')).data.errors[0].field).toBe('amount');
    expect((await refused(paid({ currency: 'JPY', amount: '15.5' }), {}, 400, 'invalid')).data.errors[0].field).toBe('amount');
    // Not refused, but no 5xx either: a landing URL with a broken %-escape is kept and read as organic.
    const broken = paid({ landing_url: 'https://drama.example.com/play/%E0%A4%A?c=5&s=6&a=7' });
    expect(await send(broken)).toMatchObject({ status: 200, data: { accepted: 1 } });
    expect(await t.db.selectFrom('orders').select(['ad_platform_id', 'landing_url']).where('order_no', '=', broken.order_no).executeTakeFirstOrThrow()).toEqual({ ad_platform_id: null, landing_url: broken.landing_url });
  });

  it('409: other content for a stored event (the first stands), a refund above the paid amount or of an unpaid order; the rest of the batch is not stored', async () => {
    const e = paid({ amount: '9.99' });
    await send(e);
    const innocent = paid();
    const conflict = await refused({ events: [innocent, { ...e, amount: '19.99' }] }, { lang: 'en' }, 409, 'conflict');
    expect(conflict.data.errors).toEqual([{ field: 'events.1', message: expect.stringMatching(/different content/) }]);
    expect(await t.db.selectFrom('orders').select('amount_minor').where('order_no', '=', e.order_no).executeTakeFirstOrThrow()).toEqual({ amount_minor: 999 });

    const above = await refused(refund(e, { amount: '10.00' }), { lang: 'en' }, 409, 'conflict');
    expect(above.message).toMatch(/exceeds the paid amount 9\.99/);
    await refused({ events: [innocent, refund(innocent, { amount: '4.99' }), refund(paid(), { amount: '1.00' })] }, {}, 409, 'conflict');
    const f = paid({ amount: '3.00' });
    await refused({ events: [f, refund(f, { amount: '3.01' })] }, {}, 409, 'conflict');
    await refused(refund(e, { amount: '1.00', currency: 'EUR' }), {}, 409, 'conflict');
    // One refund per order: a second, different one is a conflict; the first stands.
    await send(refund(e, { amount: '5.00' }));
    await refused(refund(e, { amount: '1.00' }), {}, 409, 'conflict');
    expect(await t.db.selectFrom('orders').select(['refunded_minor', 'status']).where('order_no', '=', e.order_no).executeTakeFirstOrThrow()).toEqual({ refunded_minor: 500, status: 'partially_refunded' });
  });

  it('413: a body over 1 MiB', async () => {
    const big = { ...paid(), filler: 'x'.repeat(1024 * 1024) };
    const r = await refused(big, {}, 413, 'too_large');
    expect(r.message).toMatch(/1 MiB/);
  });

  it('404: an unknown, malformed or deleted site (nothing logged: there is no site)', async () => {
    await refused(paid(), { siteId: 999_999 }, 404, null);
    await refused(paid(), { siteId: 'abc' }, 404, null);
    await refused(paid(), { siteId: '99999999999999999999' }, 404, null);
    const gone = await t.call('/api/sites/create', { name: 'Gone', domain: 'gone.example.com', platform: 'dj', link_template: TEMPLATE }, { token: manager });
    expect((await t.call('/api/sites/delete', { id: gone.data.id }, { token: manager })).code).toBe(0);
    await refused(paid(), { siteId: gone.data.id, secret: gone.data.webhook_secret }, 404, null);
  });
});

describe('secret rotation', () => {
  it('keeps the previous secret valid for 24 hours, then only the new one', async () => {
    const created = await t.call('/api/sites/create', { name: 'Rotating', domain: 'rotating.example.com', platform: 'dj', link_template: TEMPLATE }, { token: manager });
    const id = created.data.id as number;
    const old = created.data.webhook_secret as string;
    const rotated = await t.call('/api/sites/rotate_secret', { id }, { token: manager });
    const fresh = rotated.data.webhook_secret as string;
    expect(fresh).not.toBe(old);
    expect((await send(paid(), { siteId: id, secret: old })).status).toBe(200);
    expect((await send(paid(), { siteId: id, secret: fresh })).status).toBe(200);
    t.clock.advance(24 * 3600_000 - 1000);
    expect((await send(paid(), { siteId: id, secret: old })).status).toBe(200);
    t.clock.advance(2000);
    expect((await send(paid(), { siteId: id, secret: old })).status).toBe(401);
    expect((await send(paid(), { siteId: id, secret: fresh })).status).toBe(200);
    // Rotating again ends the grace of the first secret at once (only one previous secret is kept).
    const third = (await t.call('/api/sites/rotate_secret', { id }, { token: manager })).data.webhook_secret as string;
    expect((await send(paid(), { siteId: id, secret: old })).status).toBe(401);
    expect((await send(paid(), { siteId: id, secret: fresh })).status).toBe(200);
    expect((await send(paid(), { siteId: id, secret: third })).status).toBe(200);
  });
});

describe('the sites screen', () => {
  it('shows each site’s last deliveries and the webhook’s health', async () => {
    const created = await t.call('/api/sites/create', { name: 'Health', domain: 'health.example.com', platform: 'dj', link_template: TEMPLATE }, { token: manager });
    const id = created.data.id as number;
    const secret = created.data.webhook_secret as string;
    const listed = async () => (await t.call('/api/sites/list', { keyword: 'health.example' }, { token: manager })).data.list[0];
    expect((await listed()).webhook_health).toMatchObject({ status: 'none', last_order_at: null, orders_24h: 0, failures_24h: 0 });

    await send({ events: [paid({ paid_at: '2026-11-01T15:30:00+08:00' }), paid({ paid_at: '2026-11-01T15:40:00+08:00' })] }, { siteId: id, secret });
    await send(paid(), { siteId: id, secret: 'wrong-secret' });
    let s = await listed();
    expect(s.webhook_health).toMatchObject({ status: 'failing', last_order_at: '2026-11-01T07:40:00.000Z', orders_24h: 2, orders_per_hour: 0.1, failures_24h: 1 });
    expect(s.recent_deliveries.map((d: any) => [d.http_status, d.result, d.events, d.accepted])).toEqual([
      [401, 'bad_signature', null, 0],
      [200, 'ok', 2, 2],
    ]);
    await send(paid(), { siteId: id, secret });
    expect((await listed()).webhook_health.status).toBe('ok');
    t.clock.advance(7 * 3600_000);
    s = await listed();
    expect(s.webhook_health).toMatchObject({ status: 'silent', orders_24h: 3 });
    const detail = await t.call('/api/sites/detail', { id }, { token: manager });
    expect(detail.data.recent_deliveries).toHaveLength(3);
  });
});
