import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobRegistry } from '../../jobs/registry.ts';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { adAccountId, connectUser, simTree, syncClocks } from '../../test/ad-data.ts';
import { buildTestApp, driver, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { FAST, testLog, waitForRun } from '../../test/jobs.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';

// The ad-data jobs on the real job engine: the 15-minute dispatcher fans out one run per ad
// account (key ad_account:<id>), "sync now" queues tasks the caller follows in their task list
// for their own accounts only, and old hourly rows are pruned.

const PATHS = ['/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group'];
let sim: TestSimulator;
let t: TestApp;
let runner: JobRunner;
let user: SimUser;
let staff: Awaited<ReturnType<typeof createUser>>;
let staffToken: string;
let accounts: number[];

beforeAll(async () => {
  sim = await startTestSimulator();
  await sim.advance('5d');
  t = await buildTestApp({
    platform: sim.platform,
    jobs: async ({ db, clock }) => {
      runner = createJobs({ db, platform: sim.platform, clock, config: testConfig(), log: testLog(), registry: jobRegistry, options: { workers: true, concurrency: 3, reclaim: driver === 'pglite' ? 'all-at-start' : 'heartbeat', ...FAST } });
      await runner.start();
      return runner;
    },
  });
  await syncClocks(t, sim);
  const manager = await createUser(t.db, { is_admin: 1 });
  const managerToken = await t.login(manager.account, manager.password);
  staff = await createUser(t.db, { paths: PATHS });
  staffToken = await t.login(staff.account, staff.password);
  user = await sim.createUser({ ad_accounts: 2, pages: 1, pixels: 1 });
  // The connect queues an asset sync on the engine; wait for the ad accounts it brings.
  await connectUser(t, managerToken, user, sim.platform, { sync: false });
  await vi.waitFor(async () => expect((await t.db.selectFrom('ad_accounts').select('id').execute()).length).toBe(2), { timeout: 20_000, interval: 50 });
  accounts = [await adAccountId(t.db, user.ad_accounts[0]!.id), await adAccountId(t.db, user.ad_accounts[1]!.id)];
  await t.db.insertInto('user_ad_accounts').values({ user_id: staff.id, ad_account_id: accounts[0]!, created_at: new Date() }).execute();
  for (const a of user.ad_accounts) await simTree(sim, user, a.id, { ads: 1 });
  for (const a of user.ad_accounts) await sim.control('POST', '/__sim/backdate', { account_id: a.id, days: 2 });
  await syncClocks(t, sim);
}, 60_000);
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('ad-data jobs', () => {
  it('the dispatcher queues one sync per ad account, keyed by account, and each completes', async () => {
    const id = await runner.enqueue('sync-ad-data', {});
    await waitForRun(t.db, id, (r) => r.status === 'success', 20_000);
    const runs = await vi.waitFor(
      async () => {
        const rows = await t.db.selectFrom('job_runs').select(['id', 'status', 'concurrency_key', 'data']).where('job_name', '=', 'sync-ad-account').execute();
        if (rows.length !== 2 || rows.some((r) => r.status !== 'success')) throw new Error(JSON.stringify(rows));
        return rows;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(runs.map((r) => r.concurrency_key).sort()).toEqual(accounts.map((a) => `ad_account:${a}`).sort());
    const stats = await t.db.selectFrom('ad_stats_daily').select('ad_account_id').distinct().execute();
    expect(stats.map((s) => s.ad_account_id).sort()).toEqual([...accounts].sort());
    const state = await t.db.selectFrom('ad_account_sync_state').select(['status', 'insights_synced_at']).execute();
    expect(state.every((s) => s.status === 'idle' && s.insights_synced_at !== null)).toBe(true);
  });

  it('“sync now” queues tasks for the caller’s own ad accounts only, shown in their task list', async () => {
    const res = await t.call('/api/ad-reports/sync', {}, { token: staffToken });
    expect(res.code).toBe(0);
    expect(res.data.ad_accounts).toBe(1);
    await waitForRun(t.db, res.data.task_ids[0], (r) => r.status === 'success', 20_000);
    const tasks = await t.call('/api/tasks/list', { page: 1, page_size: 20 }, { token: staffToken });
    expect(tasks.data.list.map((x: { id: number }) => x.id)).toContain(res.data.task_ids[0]);
    const refused = await t.call('/api/ad-reports/sync', { ad_account_ids: [accounts[1]] }, { token: staffToken });
    expect(refused.code).not.toBe(0);
  });

  it('prunes hourly rows older than the retention', async () => {
    const ad = await t.db.selectFrom('ads').select('id').executeTakeFirstOrThrow();
    const old = new Date(t.clock.now().getTime() - 45 * 86_400_000);
    await t.db.insertInto('ad_insights_hourly').values({ ad_id: ad.id, hour: old, spend_minor: 5, impressions: 1, clicks: 0, synced_at: old }).execute();
    const before = Number((await t.db.selectFrom('ad_insights_hourly').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const id = await runner.enqueue('prune-ad-hourly', {});
    const run = await waitForRun(t.db, id, (r) => r.status === 'success', 20_000);
    expect(run.summary).toEqual({ deleted: 1 });
    const after = Number((await t.db.selectFrom('ad_insights_hourly').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before - 1);
  });
});
