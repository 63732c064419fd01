import { CODE_FORBIDDEN, CODE_UNAUTHORIZED, type CronJob, type JobRun } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanupSessionsJob } from '../../jobs/cleanup-sessions.job.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/types.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { gate, testRunner, waitForRun } from '../../test/jobs.ts';

/** The cron screen's API (/admin/sys/cron) over a started job engine on the driver under test. */
const hold = gate();
const reportJob = defineJob({
  name: 'cron-report',
  title: { zh: '生成日报', en: 'Daily report' },
  description: 'Builds the daily report.',
  defaultSchedule: '0 * * * *',
  async run({ progress }) {
    await progress(1, 1);
    return { status: 'success', summary: { rows: 12 }, message: '12 rows' };
  },
});
const manualJob = defineJob({
  name: 'cron-manual',
  title: { zh: '手动任务', en: 'Manual job' },
  description: 'Runs only on demand.',
  defaultSchedule: null,
  async run({ signal }) {
    await Promise.race([hold.promise, new Promise((_r, rej) => signal.addEventListener('abort', () => rej(signal.reason as Error)))]);
    return { status: 'success' };
  },
});
const registry = [cleanupSessionsJob, reportJob, manualJob];

let t: TestApp;
let runner: JobRunner;
let superToken: string;
let managerToken: string;
let staffToken: string;

beforeAll(async () => {
  t = await buildTestApp({
    jobs: async ({ db, clock }) => {
      runner = testRunner(db, registry, { clock });
      await runner.start();
      return runner;
    },
  });
  const admin = await createUser(t.db, { is_admin: 9, name: 'Root' });
  const manager = await createUser(t.db, { is_admin: 1 });
  const staff = await createUser(t.db, { paths: ['/sys/accounts', '/index'] });
  [superToken, managerToken, staffToken] = [await t.login(admin.account, admin.password), await t.login(manager.account, manager.password), await t.login(staff.account, staff.password)];
});
afterAll(() => t.close());

const call = <T = any>(action: string, body?: unknown, token = superToken, lang?: string) => t.call<T>(`/api/sys-cron/${action}`, body, { token, ...(lang ? { lang } : {}) });
const list = async (lang?: string) => {
  const res = await call<{ list: CronJob[]; total: number }>('list', {}, superToken, lang);
  expect(res.code, res.message).toBe(0);
  return res.data;
};
const row = async (name: string) => (await list()).list.find((j) => j.name === name)!;
const bossSchedules = async () => Object.fromEntries((await runner.boss!.getSchedules()).map((s) => [s.name, s.cron]));

describe('permissions', () => {
  it('serves the super admin only: 401 without a session, 403 for managers and staff', async () => {
    for (const action of ['list', 'update', 'run_now', 'runs']) {
      const body = action === 'list' || action === 'runs' ? {} : { name: 'cron-report' };
      expect((await call(action, body, '')).code, action).toBe(CODE_UNAUTHORIZED);
      expect((await call(action, body, managerToken)).code, action).toBe(CODE_FORBIDDEN);
      expect((await call(action, body, staffToken)).code, action).toBe(CODE_FORBIDDEN);
    }
    expect((await call('list', {})).code).toBe(0);
  });
});

describe('list', () => {
  it('answers every registered job with its schedule in force, last run and next run', async () => {
    const { list: jobs, total } = await list();
    expect(total).toBe(3);
    expect(jobs.map((j) => j.name)).toEqual(['cleanup-sessions', 'cron-report', 'cron-manual']);
    // The test clock stands at 2026-11-01T08:00:00Z.
    expect(jobs[1]).toEqual({
      name: 'cron-report',
      title: '生成日报',
      description: 'Builds the daily report.',
      schedule: '0 * * * *',
      default_schedule: '0 * * * *',
      enabled: true,
      overridden: false,
      last_run: null,
      next_run_at: '2026-11-01T09:00:00.000Z',
      updated_by_name: null,
      updated_at: null,
    });
    expect(jobs[0]).toMatchObject({ schedule: '17 3 * * *', next_run_at: '2026-11-02T03:17:00.000Z' });
    expect(jobs[2]).toMatchObject({ schedule: null, default_schedule: null, enabled: true, next_run_at: null });
    expect((await list('en')).list.map((j) => j.title)).toEqual(['Clean up sessions and old records', 'Daily report', 'Manual job']);
    expect(await bossSchedules()).toEqual({ 'cleanup-sessions': '17 3 * * *', 'cron-report': '0 * * * *' });
  });
});

describe('update', () => {
  it('changes the schedule, switches it off and on, and goes back to the default, each time in pg-boss too', async () => {
    let res = await call<CronJob>('update', { name: 'cron-report', schedule: '  30   6 * * 1-5 ' });
    expect(res.code, res.message).toBe(0);
    expect(res.data).toMatchObject({ schedule: '30 6 * * 1-5', default_schedule: '0 * * * *', overridden: true, enabled: true, updated_by_name: 'Root', next_run_at: '2026-11-02T06:30:00.000Z' });
    expect((await bossSchedules())['cron-report']).toBe('30 6 * * 1-5');

    res = await call<CronJob>('update', { name: 'cron-report', enabled: 0 });
    expect(res.data).toMatchObject({ schedule: '30 6 * * 1-5', enabled: false, next_run_at: null });
    expect(await bossSchedules()).not.toHaveProperty('cron-report');

    res = await call<CronJob>('update', { name: 'cron-report', enabled: 1 });
    expect(res.data).toMatchObject({ enabled: true, schedule: '30 6 * * 1-5' });
    expect((await bossSchedules())['cron-report']).toBe('30 6 * * 1-5');

    res = await call<CronJob>('update', { name: 'cron-report', schedule: null });
    expect(res.data).toMatchObject({ schedule: '0 * * * *', overridden: false, enabled: true });
    expect((await bossSchedules())['cron-report']).toBe('0 * * * *');

    // A job without a default can be given a schedule, and fires from then on.
    res = await call<CronJob>('update', { name: 'cron-manual', schedule: '0 0 1 * *' });
    expect(res.data).toMatchObject({ schedule: '0 0 1 * *', next_run_at: '2026-12-01T00:00:00.000Z' });
    expect((await bossSchedules())['cron-manual']).toBe('0 0 1 * *');
    await call('update', { name: 'cron-manual', schedule: null });
    expect(await bossSchedules()).not.toHaveProperty('cron-manual');

    const audit = await t.db.selectFrom('audit_logs').select(['action', 'entity_id', 'before', 'after']).where('action', '=', 'job.update').orderBy('id').execute();
    expect(audit[0]).toEqual({ action: 'job.update', entity_id: 'cron-report', before: null, after: { schedule: '30 6 * * 1-5', enabled: true } });
    expect(audit[1]).toMatchObject({ before: { schedule: '30 6 * * 1-5', enabled: true }, after: { schedule: '30 6 * * 1-5', enabled: false } });
  });

  it('refuses a schedule that is not five valid cron fields, and an unknown job, naming the field', async () => {
    for (const schedule of ['61 * * * *', '* * 32 * *', '*/0 * * * *', 'x y z a b']) {
      const res = await call('update', { name: 'cron-report', schedule });
      expect(res.code, schedule).toBe(-2);
      expect(res.data.errors.map((e: { field: string }) => e.field), schedule).toEqual(['schedule']);
    }
    for (const schedule of ['* * * *', '0 * * * * *', '@daily']) {
      const res = await call('update', { name: 'cron-report', schedule }, superToken, 'en');
      expect(res.code, schedule).toBe(-2);
      expect(res.message, schedule).toContain('5 cron fields');
    }
    const unknown = await call('update', { name: 'no-such-job', enabled: 0 });
    expect(unknown).toMatchObject({ code: -2, message: '定时任务「no-such-job」不存在' });
    expect((await bossSchedules())['cron-report']).toBe('0 * * * *');
  });
});

describe('run now and history', () => {
  it('queues a run that the engine runs, shown in the history and as the last run', async () => {
    const res = await call<{ task_id: number }>('run_now', { name: 'cron-report' });
    expect(res.code, res.message).toBe(0);
    const done = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success');
    expect(done).toMatchObject({ trigger: 'manual', summary: { rows: 12 } });

    const runs = await call<{ list: JobRun[]; total: number }>('runs', { name: 'cron-report' });
    expect(runs.data.total).toBe(1);
    expect(runs.data.list[0]).toMatchObject({ id: res.data.task_id, job_name: 'cron-report', title: '生成日报', status: 'success', attempt: 1, trigger: 'manual', created_by_name: 'Root', summary: { rows: 12 }, message: '12 rows', duration_ms: 0, data: {} });
    expect((await row('cron-report')).last_run).toEqual({ status: 'success', started_at: '2026-11-01T08:00:00.000Z', finished_at: '2026-11-01T08:00:00.000Z', duration_ms: 0, message: '12 rows' });
    const audit = await t.db.selectFrom('audit_logs').select(['entity_id', 'after']).where('action', '=', 'job.run_now').execute();
    expect(audit).toEqual([{ entity_id: 'cron-report', after: { task_id: res.data.task_id } }]);
  });

  it('runs the built-in cleanup job to completion', async () => {
    const res = await call<{ task_id: number }>('run_now', { name: 'cleanup-sessions' });
    const done = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success');
    expect(done.summary).toEqual({ sessions: expect.any(Number), login_throttle: 0, job_runs: 0 });
    expect(done).toMatchObject({ progress_done: 3, progress_total: 3 });
  });

  it('a running run can be cancelled from the task API, which aborts it', async () => {
    const res = await call<{ task_id: number }>('run_now', { name: 'cron-manual' });
    await waitForRun(t.db, res.data.task_id, (r) => r.status === 'running');
    const cancelled = await t.call('/api/tasks/cancel', { id: res.data.task_id }, { token: superToken });
    expect(cancelled.code, cancelled.message).toBe(0);
    expect(cancelled.data).toMatchObject({ status: 'cancelled' });
    await vi.waitFor(() => expect(runner.activeCount).toBe(0), { timeout: 5000 });
    expect((await row('cron-manual')).last_run).toMatchObject({ status: 'cancelled' });
  });

  it('filters the history by job and status, newest first, paged', async () => {
    const a = (await call<{ task_id: number }>('run_now', { name: 'cron-report' })).data.task_id;
    await waitForRun(t.db, a, (r) => r.status === 'success');
    const ok = await call<{ list: JobRun[]; total: number }>('runs', { status: 'success', page_size: 2 });
    expect(ok.data.total).toBe(3);
    expect(ok.data.list.map((r) => r.id)).toEqual([a, expect.any(Number)]);
    expect(ok.data.list[1]!.id).toBeLessThan(a);
    const page2 = await call<{ list: JobRun[]; total: number }>('runs', { status: 'success', page: 2, page_size: 2 });
    expect(page2.data.list).toHaveLength(1);
    const asc = await call<{ list: JobRun[] }>('runs', { name: 'cron-report', sort_field: 'id', sort_order: 'ascend' });
    expect(asc.data.list.map((r) => r.id).at(-1)).toBe(a);
    expect((await call('runs', { name: 'cron-manual', status: 'cancelled' })).data.total).toBe(1);
  });
});
