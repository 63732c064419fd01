import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAdAccountJob, type AdAccountSyncData } from '../features/ad-data/ad-data.jobs.ts';
import { jobRegistry } from '../jobs/registry.ts';
import { createRecordingJobs } from '../jobs/runner.ts';
import { fixedClock } from '../lib/clock.ts';
import { freshDatabase, testConfig } from '../test/build-test-app.ts';
import { testLog } from '../test/jobs.ts';
import { startTestSimulator, TEST_START, type TestSimulator } from '../test/simulator.ts';
import type { Database } from './database.ts';
import { seedDemoAds } from './demo-ads.ts';
import { seedDemoAssets } from './demo-assets.ts';
import { seedDemoCompany } from './demo.ts';
import { seedInitialUsers } from './seed.ts';

// DEMO=1 campaigns: created on the simulator in the demo ad accounts, back-dated 30 days, and
// synced in by the per-account job, so reports show a month of (simulated) delivery.

let sim: TestSimulator;
let database: Database;
const clock = fixedClock(TEST_START);

beforeAll(async () => {
  sim = await startTestSimulator();
  database = await freshDatabase();
  await seedInitialUsers(database.db, { adminPassword: 'admin-pass', managerPassword: 'manager-pass' });
  await seedDemoCompany(database.db, 'demo-pass');
  const jobs = createRecordingJobs({ db: database.db, clock, registry: jobRegistry });
  await seedDemoAssets({ db: database.db, clock, config: testConfig(), jobs, platform: sim.platform, simulatorUrl: sim.url, log: testLog() });
});
afterAll(async () => {
  await database.close();
  await sim.close();
});

describe('DEMO=1 campaigns', () => {
  it('creates campaigns in every demo ad account, back-dates them and queues their 30-day sync; once', { timeout: 90_000 }, async () => {
    const db = database.db;
    const jobs = createRecordingJobs({ db, clock, registry: jobRegistry });
    const added = await seedDemoAds({ db, clock, config: testConfig(), jobs, simulatorUrl: sim.url, log: testLog() });
    expect(added).toMatch(/72 campaigns and 288 ads in 36 ad accounts/);
    expect(await seedDemoAds({ db, clock, config: testConfig(), jobs, simulatorUrl: sim.url, log: testLog() })).toBeNull();
    const runs = await db.selectFrom('job_runs').select(['data', 'concurrency_key']).where('job_name', '=', 'sync-ad-account').orderBy('id').execute();
    expect(runs).toHaveLength(36);

    // Run three of the queued syncs (one per kind of zone) as the engine would.
    for (const run of runs.slice(0, 3)) {
      const data = run.data as AdAccountSyncData;
      expect(data).toMatchObject({ mode: 'backfill', days: 30 });
      const result = await syncAdAccountJob.run({ data, db, platform: sim.platform, clock, config: testConfig(), log: testLog(), runId: 0, signal: new AbortController().signal, progress: async () => {} });
      expect(result.status).toBe('success');
    }
    const days = await db.selectFrom('ad_stats_daily').select('day').where('spend_usd_cents', '>', 0).distinct().execute();
    expect(days.length).toBeGreaterThanOrEqual(28);
    // Owners are the accounts' optimizers (named in the campaign names too), dramas come from the landing links.
    const campaigns = await db.selectFrom('ad_campaigns as c').innerJoin('users as u', 'u.id', 'c.owner_user_id').select(['c.name', 'u.account', 'c.owner_source', 'c.drama_id', 'c.name_dims']).execute();
    expect(campaigns.length).toBe(6);
    for (const c of campaigns) {
      expect(c.name.split('-')[1]).toBe(c.account);
      expect(c.owner_source).toBe('name');
      expect((c.name_dims as { optimizer?: string }).optimizer).toBe(c.account);
    }
    const withDrama = await db.selectFrom('ads').select('drama_id').where('drama_id', 'is not', null).execute();
    expect(withDrama.length).toBeGreaterThan(0);
  });
});
