import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { FAST, testLog, waitForRun } from '../../test/jobs.ts';
import { startTestSimulator, type TestSimulator } from '../../test/simulator.ts';
import { checkTokensJob, syncPersonalAccountsJob } from './personal-accounts.jobs.ts';

// The whole path: connect and "sync now" queue runs, the job engine runs them against the
// simulator, and the caller follows them through the tasks API.
let sim: TestSimulator;
let t: TestApp;
let runner: JobRunner;
let token: string;

beforeAll(async () => {
  sim = await startTestSimulator();
  t = await buildTestApp({
    platform: sim.platform,
    jobs: async ({ db, clock, config }) => {
      runner = createJobs({ db, platform: sim.platform, clock, config, log: testLog(), registry: [syncPersonalAccountsJob, checkTokensJob], options: { workers: true, concurrency: 2, ...FAST } });
      await runner.start();
      return runner;
    },
  });
  const staff = await createUser(t.db, { paths: ['/operation/auth'] });
  token = await t.login(staff.account, staff.password);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('personal accounts with the job engine', () => {
  it('connecting runs the first sync; "sync now" answers a task the caller follows to its result', async () => {
    const user = await sim.createUser({ name: 'Runner FB', ad_accounts: 7, pages: 2, pixels: 1 });
    const connected = await t.call('/api/personal-accounts/connect_token', { access_token: user.access_token }, { token });
    expect(connected.code, connected.message).toBe(0);
    const first = await t.db.selectFrom('job_runs').select('id').where('job_name', '=', 'sync-personal-accounts').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await waitForRun(t.db, first.id, (r) => r.status === 'success', 20_000);
    const listed = (await t.call('/api/personal-accounts/list', {}, { token })).data.list[0];
    expect(listed).toMatchObject({ ad_account_count: 7, page_count: 2, pixel_count: 1, last_sync_status: 'success' });

    const sync = await t.call('/api/personal-accounts/sync', { ids: [connected.data.id] }, { token });
    expect(sync.data.task_id).toBeGreaterThan(first.id);
    const task = await vi.waitFor(
      async () => {
        const res = await t.call('/api/tasks/get', { id: sync.data.task_id }, { token, lang: 'en' });
        if (res.data?.status !== 'success') throw new Error(JSON.stringify(res));
        return res.data;
      },
      { timeout: 20_000, interval: 50 },
    );
    // 7 ad accounts, the pages, one chunk of pixel reads.
    expect(task).toMatchObject({ job_name: 'sync-personal-accounts', title: 'Sync personal accounts', progress_done: 9, progress_total: 9, error: null });
    expect(task.summary).toMatchObject({ ad_accounts: 7, new_ad_accounts: 0, pages: 2, pixels: 1 });
  }, 60_000);
});
