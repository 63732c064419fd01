import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from '../testing/harness.ts';
import { startReceiver, type Receiver } from '../testing/receiver.ts';

// The order webhook as API.md ("Orders") specifies it, checked by a receiver that verifies
// and validates every request the way the app must: registration of sites, the signature and
// its t, batches and lone events, the event fields, currencies, shop orders, secret rotation,
// injected duplicates and bad signatures, and the truth the simulator reports.

let t: TestSim;
let rx: Receiver;
const TEMPLATE = 'https://drama.example/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}';

beforeAll(async () => {
  t = await startTestSim();
  rx = await startReceiver(() => t.sim.now());
  await t.control('PUT', '/__sim/settings', { webhook_retry_base_ms: 0 });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const flush = () => t.control('POST', '/__sim/orders/flush', { until_idle: true });
const requestsOf = (site: string, from = 0) => rx.requests.slice(from).filter((r) => r.site === site);
const storedPaid = (site: string) => [...rx.stored(site).values()].filter((e) => e.event === 'order.paid');

describe('sites', () => {
  it('registers, replaces, patches and removes sites, refusing bad input', async () => {
    const bad = async (body: unknown, pattern: RegExp, method: 'POST' | 'PUT' = 'POST', path = '/__sim/sites') =>
      expect(t.control(method, path, body)).rejects.toThrow(pattern);
    await bad({ webhook_url: 'http://example.com/hook', secret: 'secret-123' }, /loopback/);
    await bad({ webhook_url: rx.url('x'), secret: 'short' }, /secret/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', currency: 'XXX' }, /currency/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', kind: 'casino' }, /kind/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', currency: 'JPY', products: [{ external_id: 'P', price: '4.99' }] }, /products\.0: price/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', dramas: [{ external_id: 'D' }, { external_id: 'D' }] }, /duplicate external_id/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', batch_size: 501 }, /batch_size/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', colour: 'red' }, /colour: unknown field/);
    await bad({ webhook_url: rx.url('x'), secret: 'secret-123', link_template: 'not a url {x}' }, /link_template/);
    await bad({ name: 'no url' }, /webhook_url: is required/, 'PUT', '/__sim/sites/app-1');
    expect((await t.control('GET', '/__sim/sites')).data).toEqual([]);

    // PUT with the app's own id creates (and later replaces); the secret is never shown.
    const created = await t.control('PUT', '/__sim/sites/app-1', { name: 'Drama', webhook_url: rx.url('app-1'), secret: 'secret-123', domain: 'Drama.Example', dramas: [{ external_id: 'D100', episodes: 80, episode_price: '0.99' }] });
    expect(created).toMatchObject({ id: 'app-1', name: 'Drama', domain: 'drama.example', kind: 'drama', currency: 'USD', parses_ids: false, batch_size: 100, pending_events: 0 });
    expect(created.secret).toBeUndefined();
    const patched = await t.control('PATCH', '/__sim/sites/app-1', { parses_ids: true, link_template: TEMPLATE, timezone: 'Asia/Shanghai' });
    expect(patched).toMatchObject({ name: 'Drama', parses_ids: true, link_template: TEMPLATE, timezone: 'Asia/Shanghai', dramas: [{ external_id: 'D100', episodes: 80, episode_price: '0.99' }] });
    expect(patched.secret_updated_at).toBe(created.secret_updated_at);
    // A currency change that leaves a price with too many decimals is refused, and nothing changes.
    await expect(t.control('PATCH', '/__sim/sites/app-1', { currency: 'JPY' })).rejects.toThrow(/dramas\.0: episode_price/);
    expect((await t.control('GET', '/__sim/sites/app-1')).currency).toBe('USD');
    await expect(t.control('POST', '/__sim/sites', { id: 'app-1', webhook_url: rx.url('app-1'), secret: 'secret-123' })).rejects.toThrow(/409/);
    await expect(t.control('PATCH', '/__sim/sites/nope', { name: 'x' })).rejects.toThrow(/404/);

    const other = await t.control('POST', '/__sim/sites', { webhook_url: rx.url('gone'), secret: 'secret-123' });
    expect(other.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await t.control('DELETE', `/__sim/sites/${other.id}`)).toEqual({ success: true, deleted: true });
    expect((await t.control('GET', '/__sim/sites')).data.map((s: any) => s.id)).toEqual(['app-1']);
  });
});

describe('order webhook requests', () => {
  let tree: Awaited<ReturnType<typeof createTree>>;

  it('sends signed batches of API.md events that match the truth the simulator reports', async () => {
    rx.setSecrets('app-1', ['secret-123']);
    await t.control('PATCH', '/__sim/sites/app-1', { refund_rate: 0.2 });
    const account = t.user.ad_accounts[0].id;
    tree = await createTree(t, account, { adsetBudget: 60000, link: 'https://drama.example/play/D100?ep=3', urlTags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}' });
    await t.advance('3d');
    const result = await flush();
    const requests = requestsOf('app-1');
    expect(requests.length).toBeGreaterThan(1);
    expect(result).toMatchObject({ failed: 0, dropped: 0, pending: 0, requests: requests.length });

    const nowSeconds = Math.floor(t.sim.now() / 1000);
    for (const r of requests) {
      expect(r.status).toBe(200);
      expect(r.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      // t is the sim clock (frozen here), and v1 signs `<t>.<raw body>` with the site secret.
      expect(r.t).toBe(nowSeconds);
      expect(r.signature).toBe(`t=${nowSeconds},v1=${createHmac('sha256', 'secret-123').update(`${nowSeconds}.${r.raw.toString('utf8')}`).digest('hex')}`);
      expect(r.events.length).toBeLessThanOrEqual(100);
    }
    expect(requests.some((r) => r.shape === 'batch' && r.events.length > 1)).toBe(true);
    const events = requests.flatMap((r) => r.events);
    expect(result.sent).toBe(events.length);

    const paid = events.filter((e) => e.event === 'order.paid');
    const adOrders = paid.filter((e) => e.campaign_id !== undefined);
    const organic = paid.filter((e) => e.campaign_id === undefined);
    expect(adOrders.length).toBeGreaterThan(20);
    expect(organic.length).toBeGreaterThan(0);
    for (const e of adOrders) {
      expect(e).toMatchObject({ currency: 'USD', campaign_id: tree.campaignId, adset_id: tree.adsetId, drama_id: 'D100' });
      expect(tree.adIds).toContain(e.ad_id);
      // The landing URL as the site saw it: the link, the url_tags expanded, Meta's click id.
      expect(e.landing_url).toMatch(new RegExp(`^https://drama\\.example/play/D100\\?ep=3&c=${tree.campaignId}&s=${tree.adsetId}&a=${e.ad_id}&fbclid=\\w+$`));
      expect(e.episode).toBeGreaterThanOrEqual(3);
      expect(e.episode).toBeLessThanOrEqual(80);
      expect(e.paid_at).toMatch(/\+08:00$/);
      expect(Date.parse(e.paid_at)).toBeGreaterThanOrEqual(Date.parse(e.user_registered_at));
      expect(['US', 'CA']).toContain(e.country);
    }
    for (const e of organic) {
      expect(e.adset_id ?? e.ad_id).toBeUndefined();
      if (e.landing_url !== undefined) expect(e.landing_url).toBe('https://drama.example/play/D100');
    }
    // Recharge packages, or a 0.99 episode.
    expect(new Set(paid.map((e) => e.amount))).toContain('0.99');
    for (const e of paid) expect(['0.99', '1.99', '4.99', '9.99', '19.99', '29.99', '49.99', '99.99']).toContain(e.amount);

    // The truth: every order the simulator considers paid by now, each delivered.
    const truth = await t.control('GET', '/__sim/sites/app-1/orders?limit=100000');
    expect(truth.total).toBe(storedPaid('app-1').length);
    for (const row of truth.data) {
      const sent = rx.stored('app-1').get(`order.paid:${row.order_no}`);
      expect(sent).toMatchObject({ amount: row.amount, paid_at: row.paid_at, app_user_id: row.app_user_id });
      expect(row.delivery.paid).toBe('delivered');
      expect(row.organic).toBe(sent.campaign_id === undefined);
      if (row.refunded_minor > 0) expect(rx.stored('app-1').get(`order.refunded:${row.order_no}`).amount).toBe(row.refunded_amount);
    }
    const refunds = events.filter((e) => e.event === 'order.refunded');
    expect(refunds.length).toBe(truth.summary.refunded_orders);
    expect(refunds.length).toBeGreaterThan(0);

    // Nothing is sent twice.
    expect(await flush()).toMatchObject({ sent: 0, requests: 0 });
  });

  it('sends lone events, bare or wrapped, when the batch size is 1', async () => {
    await t.control('PATCH', '/__sim/sites/app-1', { batch_size: 1 });
    const from = rx.requests.length;
    await t.advance('12h');
    await flush();
    const requests = requestsOf('app-1', from);
    expect(requests.length).toBeGreaterThan(8);
    for (const r of requests) {
      expect(r.status).toBe(200);
      expect(r.events).toHaveLength(1);
      const body = JSON.parse(r.raw.toString('utf8'));
      if (r.shape === 'object') expect(body.event).toBe(r.events[0].event);
      else expect(body).toEqual({ events: [r.events[0]] });
    }
    expect(new Set(requests.map((r) => r.shape))).toEqual(new Set(['object', 'batch']));
    await t.control('PATCH', '/__sim/sites/app-1', { batch_size: 100 });
  });

  it('signs with the new secret from the moment the app rotates it', async () => {
    const before = await t.control('GET', '/__sim/sites/app-1');
    await t.advance('1m');
    const rotated = await t.control('PATCH', '/__sim/sites/app-1', { secret: 'rotated-secret-456' });
    expect(rotated.secret_updated_at).toBeGreaterThan(before.secret_updated_at);
    // A receiver that only knows the old secret refuses every request (401): they wait.
    const from = rx.requests.length;
    await t.advance('6h');
    const refused = await t.control('POST', '/__sim/orders/flush');
    expect(refused.requests).toBeGreaterThan(0);
    expect(refused.sent).toBe(0);
    expect(requestsOf('app-1', from).every((r) => r.status === 401)).toBe(true);
    // Once the receiver has the new secret, the same events go through.
    rx.setSecrets('app-1', ['rotated-secret-456']);
    const ok = await flush();
    expect(ok.sent).toBeGreaterThan(0);
    expect(ok.pending).toBe(0);
    const last = requestsOf('app-1', from).at(-1)!;
    expect(last.status).toBe(200);
    expect(last.signature).toBe(`t=${last.t},v1=${createHmac('sha256', 'rotated-secret-456').update(`${last.t}.`).update(last.raw).digest('hex')}`);
  });

  it('sends a duplicate, a corrupted signature or a stale t on demand, and lists its deliveries', async () => {
    await expect(t.control('POST', '/__sim/sites/app-1/faults', { meteor: 1 })).rejects.toThrow(/unknown fault/);
    expect(await t.control('POST', '/__sim/sites/app-1/faults', { duplicate: 1, bad_signature: 1, stale_timestamp: 1 })).toEqual({ duplicate: 1, bad_signature: 1, stale_timestamp: 1 });
    const from = rx.requests.length;
    await t.advance('12h');
    await flush();
    const requests = requestsOf('app-1', from);
    // First the corrupted signature, then the stale t: both refused; then a request sent twice.
    expect(requests[0]!.status).toBe(401);
    expect(requests[1]!.status).toBe(401);
    expect(requests[1]!.signature).toMatch(new RegExp(`^t=${Math.floor(t.sim.now() / 1000) - 600},`));
    expect(requests[2]!.status).toBe(200);
    expect(requests[3]!.raw.equals(requests[2]!.raw)).toBe(true);
    expect(requests[3]!.body.data).toEqual({ accepted: 0, duplicates: requests[2]!.events.length });
    expect(requests.slice(4).every((r) => r.status === 200)).toBe(true);
    expect(await t.control('GET', '/__sim/sites/app-1/faults')).toEqual({ duplicate: 0, bad_signature: 0, stale_timestamp: 0 });

    const log = await t.control('GET', '/__sim/sites/app-1/deliveries?limit=200');
    const newest = log.data.slice(0, requests.length).reverse();
    expect(newest.map((d: any) => d.status)).toEqual(requests.map((r) => r.status));
    expect(newest.slice(0, 4).map((d: any) => [d.fault, d.outcome])).toEqual([
      ['bad_signature', 'retry'],
      ['stale_timestamp', 'retry'],
      [undefined, 'delivered'],
      ['duplicate', 'delivered'],
    ]);
    expect(newest[2]).toMatchObject({ events: requests[2]!.events.length, attempt: 3, shape: requests[2]!.shape });
    expect(log.stats).toMatchObject({ failed_requests: expect.any(Number), dropped_events: 0, last_status: 200 });
    expect(log.stats.delivered_events).toBe(storedPaid('app-1').length + [...rx.stored('app-1').values()].filter((e) => e.event === 'order.refunded').length);
  });
});

describe('currencies and shops', () => {
  it('sends JPY amounts without decimals and shop orders with product, quantity and unit price', async () => {
    rx.setSecrets('anime', ['anime-secret']);
    rx.setSecrets('shop', ['shop-secret']);
    await t.control('PUT', '/__sim/sites/anime', { webhook_url: rx.url('anime'), secret: 'anime-secret', domain: 'anime.example', currency: 'JPY', timezone: 'Asia/Tokyo' });
    await t.control('PUT', '/__sim/sites/shop', {
      webhook_url: rx.url('shop'),
      secret: 'shop-secret',
      domain: 'shop.example',
      kind: 'shop',
      currency: 'EUR',
      link_template: 'https://shop.example/p/{product_id}',
      products: [
        { external_id: 'P1', price: '19.90' },
        { external_id: 'P2', price: '5.00' },
      ],
    });
    const account = t.user.ad_accounts[1].id;
    await createTree(t, account, { adsetBudget: 60000, link: 'https://anime.example/watch', countries: ['JP'] });
    await createTree(t, account, { adsetBudget: 60000, link: 'https://shop.example/p/P1' });
    await t.advance('2d');
    await flush();

    const yen = requestsOf('anime').flatMap((r) => r.events);
    expect(yen.length).toBeGreaterThan(10);
    for (const e of yen) {
      expect(e.currency).toBe('JPY');
      expect(e.amount).toMatch(/^[1-9]\d*$/);
      expect(e.paid_at).toMatch(/\+09:00$/);
      expect(e.country).toBe('JP');
      expect(e.product_id).toBeUndefined();
      // No catalog: the site sells its default dramas; no link template: nothing read from the link.
      expect(e.drama_id).toMatch(/^sim-drama-\d$/);
    }

    const shop = requestsOf('shop').flatMap((r) => r.events).filter((e) => e.event === 'order.paid');
    expect(shop.length).toBeGreaterThan(10);
    const unit: Record<string, number> = { P1: 1990, P2: 500 };
    for (const e of shop) {
      expect(e).toMatchObject({ currency: 'EUR' });
      expect(e.drama_id ?? e.episode).toBeUndefined();
      expect(Number.isInteger(e.quantity) && e.quantity >= 1).toBe(true);
      expect(e.amount).toBe(((unit[e.product_id]! * e.quantity) / 100).toFixed(2));
    }
    // Buyers land on P1 and buy it first; some come back for P2.
    expect(shop.filter((e) => e.product_id === 'P1').length).toBeGreaterThan(shop.length / 2);
    expect(shop.every((e) => e.campaign_id === undefined)).toBe(true);
  });
});

describe('on its own', () => {
  it('sends orders while the clock runs, without flush calls, t from the running clock', async () => {
    // Ten sim minutes per real second (the 300 s window is half a real second); the dispatcher wakes every 20 ms.
    const live = await startTestSim({ speed: 600, orderIntervalMs: 20 });
    const liveRx = await startReceiver(() => live.sim.now());
    try {
      liveRx.setSecrets('live', ['live-secret']);
      await live.control('PUT', '/__sim/sites/live', { webhook_url: liveRx.url('live'), secret: 'live-secret', domain: 'drama.example' });
      await createTree(live, live.user.ad_accounts[0].id, { adsetBudget: 300000 });
      const deadline = Date.now() + 60_000;
      while (liveRx.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const first = liveRx.requests[0]!;
      expect(first.status).toBe(200);
      expect(first.events.length).toBeGreaterThan(0);
      expect(Math.abs(first.t! - Math.floor(live.sim.now() / 1000))).toBeLessThan(300);
    } finally {
      await live.close();
      await liveRx.close();
    }
  }, 90_000);
});
