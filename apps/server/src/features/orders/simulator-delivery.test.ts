import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';

// The simulator plays the company's site over real loopback HTTP: the app registers its site
// there by itself, the simulated buyers' signed batches reach the webhook, and what is stored
// equals the simulator's truth, each order exactly once, through injected duplicates, bad
// signatures, stale timestamps and a secret rotation.

let sim: TestSimulator;
let t: TestApp;
let manager: string;
let user: SimUser;
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}';

beforeAll(async () => {
  sim = await startTestSimulator();
  await sim.control('PUT', '/__sim/settings', { webhook_retry_base_ms: 0 });
  t = await buildTestApp({ simulatorUrl: sim.url });
  const m = await createUser(t.db, { is_admin: 1 });
  manager = await t.login(m.account, m.password);
  user = await sim.createUser({ ad_accounts: 1, pages: 1, pixels: 1 });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** A Graph POST as the product's client makes it (form-encoded, JSON text for objects). */
async function graph(path: string, params: Record<string, unknown>) {
  const body = new URLSearchParams({ access_token: user.access_token });
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const res = await fetch(`${sim.url}/v25.0${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const json = (await res.json()) as { id: string };
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json.id;
}

/** Moves the simulator clock and the app's clock together (the signature window compares them), then lets the site send. */
async function advance(duration: string) {
  await sim.advance(duration);
  t.clock.set(new Date(sim.sim.now()));
  return sim.control('POST', '/__sim/orders/flush', { until_idle: true, retry_now: true });
}

async function compareWithTruth(siteId: number) {
  const truth = await sim.control<{ data: any[]; total: number; summary: any }>('GET', `/__sim/sites/${siteId}/orders?limit=100000`);
  expect(truth.total).toBeGreaterThan(20);
  for (const row of truth.data) expect(row.delivery.paid, row.order_no).toBe('delivered');
  const stored = await t.db
    .selectFrom('orders')
    .select(['order_no', 'amount_minor', 'refunded_minor', 'currency', 'status', 'is_new_payer', 'campaign_platform_id', 'adset_platform_id', 'ad_platform_id', 'drama_external_id', 'episode', 'country', 'paid_at'])
    .where('site_id', '=', siteId)
    .execute();
  const byNo = new Map(stored.map((o) => [o.order_no, o]));
  // Exactly once: as many rows as true orders, each order_no once (the unique key), and the events too.
  expect(stored).toHaveLength(truth.total);
  expect(byNo.size).toBe(truth.total);
  const events = await t.db.selectFrom('order_events').select(['order_no', 'event']).where('site_id', '=', siteId).execute();
  const refundedTruth = truth.data.filter((r) => r.refunded_minor > 0).length;
  expect(events).toHaveLength(truth.total + refundedTruth);
  for (const row of truth.data) {
    const o = byNo.get(row.order_no);
    expect(o, row.order_no).toBeDefined();
    expect({ amount: o!.amount_minor, refunded: o!.refunded_minor, status: o!.status, currency: o!.currency, new: o!.is_new_payer, country: o!.country, drama: o!.drama_external_id }).toEqual({
      amount: row.amount_minor,
      refunded: row.refunded_minor,
      status: row.status,
      currency: row.currency,
      new: row.first_order,
      country: row.country,
      drama: row.drama_id,
    });
    expect(o!.paid_at.getTime()).toBe(Date.parse(row.paid_at));
    // The ad that really brought the buyer, read back from the landing URL; organic buyers have none.
    if (row.organic) expect(o!.ad_platform_id).toBeNull();
    else expect([o!.campaign_platform_id, o!.adset_platform_id, o!.ad_platform_id]).toEqual([row.acquired_by.campaign_id, row.acquired_by.adset_id, row.acquired_by.ad_id]);
  }
  const sum = (pick: (o: (typeof stored)[number]) => number) => stored.reduce((s, o) => s + pick(o), 0);
  expect(sum((o) => o.amount_minor)).toBe(truth.summary.paid_minor);
  expect(sum((o) => o.refunded_minor)).toBe(truth.summary.refunded_minor);
  return truth;
}

describe('orders from the simulated site', () => {
  let siteId: number;

  it('registers a site created before the server listens, at start, with its webhook URL, secret, link template and catalog', async () => {
    const created = await t.call('/api/sites/create', { name: '星河短剧', domain: 'drama.example.com', platform: 'dj', link_template: TEMPLATE }, { token: manager });
    expect(created.code).toBe(0);
    siteId = created.data.id;
    // Not listening yet: nothing to register with.
    await expect(sim.control('GET', `/__sim/sites/${siteId}`)).rejects.toThrow(/404/);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.simulatorSitesReady();
    const registered = await sim.control('GET', `/__sim/sites/${siteId}`);
    expect(registered).toMatchObject({ id: String(siteId), name: '星河短剧', webhook_url: `${address}/api/orders/webhook/${siteId}`, domain: 'drama.example.com', kind: 'drama', link_template: TEMPLATE, dramas: [] });
    // The catalog follows: a drama created here is in the simulator's site at once.
    const drama = await t.call('/api/dramas/create', { site_id: siteId, external_id: 'D100', name: 'First Love', language: 'en', episode_count: 80 }, { token: manager });
    expect(drama.code).toBe(0);
    expect((await sim.control('GET', `/__sim/sites/${siteId}`)).dramas).toEqual([{ external_id: 'D100', episodes: 80 }]);
  });

  it('stores the signed batches of two days of delivery exactly once, equal to the simulator’s truth', async () => {
    const account = user.ad_accounts[0]!.id;
    const campaign = await graph(`/${account}/campaigns`, { name: 'D100 test', objective: 'OUTCOME_SALES', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
    const adset = await graph(`/${account}/adsets`, {
      name: 'US',
      campaign_id: campaign,
      status: 'ACTIVE',
      daily_budget: 60000,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'OFFSITE_CONVERSIONS',
      promoted_object: { pixel_id: user.pixels[0]!.id, custom_event_type: 'PURCHASE' },
      targeting: { geo_locations: { countries: ['US', 'JP'] }, targeting_automation: { advantage_audience: 0 } },
    });
    const creative = await graph(`/${account}/adcreatives`, {
      name: 'C',
      object_story_spec: { page_id: user.pages[0]!.id, link_data: { link: 'https://drama.example.com/play/D100?ep=3', message: 'Watch' } },
      url_tags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}',
    });
    for (const name of ['Ad 1', 'Ad 2']) await graph(`/${account}/ads`, { name, adset_id: adset, status: 'ACTIVE', creative: { creative_id: creative } });

    const flushed = await advance('2d');
    expect(flushed).toMatchObject({ failed: 0, dropped: 0, pending: 0 });
    expect(flushed.sent).toBeGreaterThan(20);
    const truth = await compareWithTruth(siteId);
    expect(truth.summary.organic_orders).toBeGreaterThan(0);
    expect(truth.summary.first_orders).toBeLessThan(truth.total);

    const site = (await t.call('/api/sites/detail', { id: siteId }, { token: manager })).data;
    expect(site.webhook_health).toMatchObject({ status: 'ok', failures_24h: 0 });
    expect(site.recent_deliveries[0]).toMatchObject({ http_status: 200, result: 'ok' });
  }, 120_000);

  it('stays exactly once through duplicated requests, bad signatures and stale timestamps (the site resends)', async () => {
    await sim.control('POST', `/__sim/sites/${siteId}/faults`, { duplicate: 2, bad_signature: 1, stale_timestamp: 1 });
    const flushed = await advance('1d');
    expect(flushed).toMatchObject({ dropped: 0, pending: 0 });
    await compareWithTruth(siteId);
    const results = (await t.db.selectFrom('order_deliveries').select(['result', 'duplicates']).where('site_id', '=', siteId).execute()).map((d) => d.result);
    expect(results).toContain('bad_signature');
    expect(results).toContain('stale_timestamp');
    const dup = await t.db.selectFrom('order_deliveries').select((eb) => eb.fn.sum<number>('duplicates').as('n')).where('site_id', '=', siteId).executeTakeFirstOrThrow();
    expect(Number(dup.n)).toBeGreaterThan(0);
  }, 120_000);

  it('gives the simulator the new secret on rotation, and removes the site when it is deleted', async () => {
    const before = await sim.control('GET', `/__sim/sites/${siteId}`);
    t.clock.set(new Date(sim.sim.now() + 1000));
    expect((await t.call('/api/sites/rotate_secret', { id: siteId }, { token: manager })).code).toBe(0);
    const after = await sim.control('GET', `/__sim/sites/${siteId}`);
    expect(after.secret_updated_at).not.toBe(before.secret_updated_at);
    const flushed = await advance('1d');
    expect(flushed).toMatchObject({ failed: 0, dropped: 0, pending: 0 });
    await compareWithTruth(siteId);

    expect((await t.call('/api/sites/delete', { id: siteId }, { token: manager })).code).toBe(0);
    await expect(sim.control('GET', `/__sim/sites/${siteId}`)).rejects.toThrow(/404/);
  }, 120_000);
});
