import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRegistry } from '../jobs/registry.ts';
import { createRecordingJobs } from '../jobs/runner.ts';
import { fixedClock } from '../lib/clock.ts';
import { freshDatabase, testConfig } from '../test/build-test-app.ts';
import { testLog } from '../test/jobs.ts';
import { startTestSimulator, TEST_START, type TestSimulator } from '../test/simulator.ts';
import type { Database } from './database.ts';
import { seedDemoAssets } from './demo-assets.ts';
import { seedDemoCompany } from './demo.ts';
import { seedInitialUsers } from './seed.ts';

let sim: TestSimulator;
let database: Database;

beforeAll(async () => {
  sim = await startTestSimulator();
  database = await freshDatabase();
  await seedInitialUsers(database.db, { adminPassword: 'admin-pass', managerPassword: 'manager-pass' });
  await seedDemoCompany(database.db, 'demo-pass');
});
afterAll(async () => {
  await database.close();
  await sim.close();
});

describe('DEMO=1 assets', () => {
  const seed = () => {
    const clock = fixedClock(TEST_START);
    return seedDemoAssets({ db: database.db, clock, config: testConfig(), jobs: createRecordingJobs({ db: database.db, clock, registry: jobRegistry }), platform: sim.platform, simulatorUrl: sim.url, log: testLog() });
  };

  it('connects a simulated personal account, syncs it, hands its ad accounts to the optimizers and creates two sites', async () => {
    const added = await seed();
    expect(added).toMatch(/36 ad accounts, 8 pages, 4 pixels/);
    const db = database.db;
    const pa = await db.selectFrom('personal_accounts as pa').innerJoin('users as u', 'u.id', 'pa.owner_user_id').select(['pa.status', 'u.account', 'u.is_leader']).executeTakeFirstOrThrow();
    expect(pa).toEqual({ status: 'valid', account: 'zhangwei', is_leader: 1 });

    const accounts = await db.selectFrom('ad_accounts').select(['currency', 'timezone_name', 'platform']).execute();
    expect(accounts).toHaveLength(36);
    expect(new Set(accounts.map((a) => a.currency))).toEqual(new Set(['USD', 'EUR', 'JPY']));
    expect(new Set(accounts.map((a) => a.timezone_name)).size).toBeGreaterThanOrEqual(3);
    expect(accounts.filter((a) => a.platform === 'ec')).toHaveLength(8);
    expect(accounts.filter((a) => a.platform === 'dj')).toHaveLength(28);

    const shares = await db.selectFrom('user_ad_accounts as ua').innerJoin('users as u', 'u.id', 'ua.user_id').select(['u.account']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('u.account').execute();
    expect(Object.fromEntries(shares.map((s) => [s.account, Number(s.n)]))).toEqual({ zhangwei: 6, lina: 6, wangfang: 6, liuyang: 5, chenjing: 5, zhaolei: 4, sunli: 4 });

    const sites = await db.selectFrom('sites').select(['id', 'platform']).orderBy('id').execute();
    expect(sites.map((s) => s.platform)).toEqual(['dj', 'ec']);
    const dramas = await db.selectFrom('dramas').select(['language', 'test_status']).execute();
    expect(dramas).toHaveLength(12);
    expect(new Set(dramas.map((d) => d.language))).toEqual(new Set(['zh', 'en', 'ja']));
    expect(new Set(dramas.map((d) => d.test_status)).size).toBe(4);
    expect(await db.selectFrom('products').select('id').execute()).toHaveLength(8);
  });

  it('runs once per database', async () => {
    expect(await seed()).toBeNull();
    expect(await database.db.selectFrom('personal_accounts').select('id').execute()).toHaveLength(1);
  });
});
