import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAdAccountJob, type AdAccountSyncData } from '../features/ad-data/ad-data.jobs.ts';
import { jobRegistry } from '../jobs/registry.ts';
import { createRecordingJobs } from '../jobs/runner.ts';
import { buildTestApp, testConfig, type TestApp } from '../test/build-test-app.ts';
import { testLog } from '../test/jobs.ts';
import { startTestSimulator, type TestSimulator } from '../test/simulator.ts';
import { seedDemoAds } from './demo-ads.ts';
import { seedDemoAssets } from './demo-assets.ts';
import { seedDemoCompany } from './demo.ts';
import { seedInitialUsers } from './seed.ts';

// DEMO=1 campaigns: created on the simulator in the demo ad accounts, back-dated 30 days, and
// synced in by the per-account job, so reports show a month of (simulated) delivery; and the
// demo sites, registered with the simulator once the server listens, send that month's orders
// to the webhook, so the order screens and dashboards start with 30 days of orders.

let sim: TestSimulator;
let t: TestApp;

beforeAll(async () => {
  sim = await startTestSimulator();
  // Delivery failures (none expected) are retried at once, not after real seconds.
  await sim.control('PUT', '/__sim/settings', { webhook_retry_base_ms: 0 });
  t = await buildTestApp({ simulatorUrl: sim.url, platform: sim.platform });
  await seedInitialUsers(t.db, { adminPassword: 'admin-pass', managerPassword: 'manager-pass' });
  await seedDemoCompany(t.db, 'demo-pass');
  const jobs = createRecordingJobs({ db: t.db, clock: t.clock, registry: jobRegistry });
  await seedDemoAssets({ db: t.db, clock: t.clock, config: testConfig(), jobs, platform: sim.platform, simulatorUrl: sim.url, log: testLog() });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const seed = () => seedDemoAds({ db: t.db, clock: t.clock, config: testConfig(), jobs: createRecordingJobs({ db: t.db, clock: t.clock, registry: jobRegistry }), simulatorUrl: sim.url, log: testLog() });

describe('DEMO=1 campaigns', () => {
  it('wait until the simulator knows the sites (their back-dated orders would be lost): nothing is created before', async () => {
    expect(await seed()).toBeNull();
    expect(await t.db.selectFrom('app_settings').select('key').where('key', '=', 'demo.ads').executeTakeFirst()).toBeUndefined();
    const state = await sim.control<{ counts: { campaigns: number; sites: number } }>('GET', '/__sim/state');
    expect(state.counts).toMatchObject({ campaigns: 0, sites: 0 });
  });

  it('creates campaigns in every demo ad account once the server listens, back-dates them and queues their 30-day sync; once', { timeout: 120_000 }, async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.simulatorSitesReady();
    const db = t.db;
    const added = await seed();
    expect(added).toMatch(/72 campaigns and 288 ads in 36 ad accounts .*, \d+ of them as publish schemes/);
    expect(await seed()).toBeNull();
    const runs = await db.selectFrom('job_runs').select(['data', 'concurrency_key']).where('job_name', '=', 'sync-ad-account').orderBy('id').execute();
    expect(runs).toHaveLength(36);

    // Run three of the queued syncs (one per kind of zone) as the engine would.
    for (const run of runs.slice(0, 3)) {
      const data = run.data as AdAccountSyncData;
      expect(data).toMatchObject({ mode: 'backfill', days: 30 });
      const result = await syncAdAccountJob.run({ data, db, platform: sim.platform, clock: t.clock, config: testConfig(), log: testLog(), runId: 0, signal: new AbortController().signal, progress: async () => {} });
      expect(result.status).toBe('success');
    }
    const days = await db.selectFrom('ad_stats_daily').select('day').where('spend_usd_cents', '>', 0).distinct().execute();
    expect(days.length).toBeGreaterThanOrEqual(28);
    // Owners are the accounts' optimizers (named in the campaign names too), dramas come from the landing links.
    const campaigns = await db.selectFrom('ad_campaigns as c').innerJoin('users as u', 'u.id', 'c.owner_user_id').select(['c.name', 'u.account', 'c.owner_source', 'c.drama_id', 'c.name_dims']).execute();
    expect(campaigns.length).toBe(6);
    for (const c of campaigns) {
      expect(c.name.split('-')[1]).toBe(c.account);
      // Published through a scheme: its publisher (the same optimizer) stays the owner.
      expect(['name', 'scheme']).toContain(c.owner_source);
      expect((c.name_dims as { optimizer?: string }).optimizer).toBe(c.account);
    }
    const withDrama = await db.selectFrom('ads').select('drama_id').where('drama_id', 'is not', null).execute();
    expect(withDrama.length).toBeGreaterThan(0);
  });

  it('records some campaigns as their optimizers’ publish schemes over the month; the sync links their mirrors', async () => {
    const db = t.db;
    const schemes = await db.selectFrom('publish_schemes as s').innerJoin('users as u', 'u.id', 's.created_by').select(['s.id', 's.name', 's.status', 's.created_at', 'u.account']).orderBy('s.created_at').execute();
    expect(schemes.length).toBeGreaterThanOrEqual(6);
    // Published on different days of the last month, each by the optimizer its campaign is named after.
    const days = new Set(schemes.map((s) => s.created_at.toISOString().slice(0, 10)));
    expect(days.size).toBe(schemes.length);
    expect(schemes[0]!.created_at.getTime()).toBeLessThan(t.clock.now().getTime() - 20 * 86_400_000);
    for (const s of schemes) expect(s.name).toContain(`-${s.account}-`);
    // The screens: the list as the manager sees it, and a detail with its draft and counts.
    const manager = await t.login('manager', 'manager-pass');
    const list = await t.call('/api/publish-schemes/list', { page: 1, page_size: 50 }, { token: manager });
    expect(list.code, list.message).toBe(0);
    expect(list.data.total).toBe(schemes.length);
    const detail = await t.call('/api/publish-schemes/get', { id: schemes[0]!.id }, { token: manager });
    expect(detail.code, detail.message).toBe(0);
    expect(detail.data).toMatchObject({ status: 'done', counts: { total: 9, created: 9, failed: 0 }, created_objects: { campaigns: 1, adsets: 2, ads: 4 } });
    // Synced accounts (the first three above): their scheme campaigns' mirrors carry the scheme, its items and the publisher.
    const linked = await db
      .selectFrom('ads as a')
      .innerJoin('publish_scheme_items as i', 'i.id', 'a.scheme_item_id')
      .innerJoin('publish_schemes as s', 's.id', 'a.scheme_id')
      .select(['a.id', 'i.object_id', 'i.platform_id', 'a.platform_id', 'a.owner_user_id', 'a.owner_source', 's.created_by'])
      .execute();
    expect(linked.length).toBeGreaterThanOrEqual(4);
    for (const r of linked) expect(r).toMatchObject({ object_id: r.id, platform_id: r.platform_id, owner_user_id: r.created_by, owner_source: 'scheme' });
  });

  it('the demo sites send the orders of the 30 back-dated days (first payments, recharges, refunds) and the order screens show them', { timeout: 120_000 }, async () => {
    const sites = await t.db.selectFrom('sites').select(['id', 'platform']).where('deleted_at', 'is', null).orderBy('id').execute();
    expect(sites.map((s) => s.platform).sort()).toEqual(['dj', 'ec']);
    const reportTz = testConfig().reportTimezone;
    const dayOf = (iso: string) => new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10); // Asia/Shanghai
    expect(reportTz).toBe('Asia/Shanghai');
    for (const site of sites) {
      // The month's orders are due to be sent: none counted as before the site's time (`not_sent`).
      const truth = await sim.control<{ total: number; data: { paid_at: string; delivery: { paid: string } }[] }>('GET', `/__sim/sites/${site.id}/orders?limit=100000`);
      expect(truth.total, `site ${site.id}`).toBeGreaterThan(100);
      expect(truth.data.filter((o) => o.delivery.paid === 'not_sent')).toEqual([]);
      expect(new Set(truth.data.map((o) => dayOf(o.paid_at))).size, `site ${site.id}`).toBeGreaterThanOrEqual(28);
    }
    // One dispatch pass sends the oldest 72 hours: the first back-dated days reach the webhook and are stored.
    const flushed = await sim.control('POST', '/__sim/orders/flush', {});
    expect(flushed).toMatchObject({ failed: 0, dropped: 0 });
    expect(flushed.sent).toBeGreaterThan(0);
    for (const site of sites) {
      const days = await sql<{ day: string }>`select distinct (paid_at at time zone ${reportTz})::date::text as day from orders where site_id = ${site.id} order by 1`.execute(t.db);
      expect(days.rows.length, `site ${site.id}`).toBeGreaterThanOrEqual(2);
      // Four weeks before "now" (2026-11-01): the start of the back-dated month.
      expect(days.rows[0]!.day <= '2026-10-04', `site ${site.id}: ${days.rows[0]?.day}`).toBe(true);
    }
    const attributed = await t.db.selectFrom('orders').select((eb) => eb.fn.countAll<string>().as('n')).where('ad_platform_id', 'is not', null).executeTakeFirstOrThrow();
    expect(Number(attributed.n)).toBeGreaterThan(0);

    // The order analysis screen shows them on their days.
    const admin = await t.login('admin', 'admin-pass');
    const daily = await t.call('/api/orders/daily', { date_from: '2026-10-01', date_to: '2026-11-01', page: 1, page_size: 100 }, { token: admin });
    expect(daily.code, daily.message).toBe(0);
    const withOrders = (daily.data.list as { day: string; orders: number }[]).filter((r) => r.orders > 0);
    expect(withOrders.length).toBeGreaterThanOrEqual(2);
    expect(withOrders.some((r) => r.day <= '2026-10-04')).toBe(true);
  });
});
