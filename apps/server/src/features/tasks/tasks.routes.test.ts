import { CODE_FORBIDDEN, type Task } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingJobs } from '../../jobs/runner.ts';
import { defineJob, type Jobs } from '../../jobs/types.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';

/**
 * Who sees which task. Runs are recorded without an engine (nothing runs them), which is all
 * these rules need: the engine's side is tested in jobs/runner.test.ts and sys-cron.
 */
const regular = defineJob({ name: 'export-report', title: { zh: '导出报表', en: 'Export report' }, description: '', defaultSchedule: null, run: async () => ({ status: 'success' }) });
const maintenance = defineJob({ name: 'purge-cache', title: { zh: '清理缓存', en: 'Purge cache' }, description: '', defaultSchedule: '0 4 * * *', system: true, run: async () => ({ status: 'success' }) });

let t: TestApp;
let jobs: Jobs;
const users: Record<'alice' | 'bob' | 'manager' | 'root', { id: number; token: string }> = {} as never;
const runs: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp({ jobs: ({ db, clock }) => (jobs = createRecordingJobs({ db, clock, registry: [regular, maintenance] })) });
  for (const [key, spec] of [
    ['alice', { name: 'Alice' }],
    ['bob', { name: 'Bob' }],
    ['manager', { is_admin: 1, name: 'Mona' }],
    ['root', { is_admin: 9, name: 'Root' }],
  ] as const) {
    const u = await createUser(t.db, spec);
    users[key] = { id: u.id, token: await t.login(u.account, u.password) };
  }
  runs.alice1 = await jobs.enqueue('export-report', { month: '2026-10' }, { createdBy: users.alice.id });
  runs.alice2 = await jobs.enqueue('export-report', { month: '2026-09' }, { createdBy: users.alice.id });
  runs.bob = await jobs.enqueue('export-report', {}, { createdBy: users.bob.id });
  runs.scheduled = await jobs.enqueue('export-report', {});
  runs.system = await jobs.enqueue('purge-cache', {});
  runs.managerSystem = await jobs.enqueue('purge-cache', {}, { createdBy: users.manager.id });
});
afterAll(() => t.close());

const call = <T = any>(action: string, body: unknown, who: keyof typeof users, lang?: string) =>
  t.call<T>(`/api/tasks/${action}`, body, { token: users[who].token, ...(lang ? { lang } : {}) });
const ids = async (who: keyof typeof users, body: object = {}) => {
  const res = await call<{ list: Task[]; total: number }>('list', { page_size: 100, ...body }, who);
  expect(res.code, res.message).toBe(0);
  expect(res.data.total).toBe(res.data.list.length);
  return res.data.list.map((x) => x.id);
};

describe('list', () => {
  it('shows staff their own tasks, managers every regular task and their own, the super admin all', async () => {
    expect(await ids('alice')).toEqual([runs.alice2, runs.alice1]);
    expect(await ids('bob')).toEqual([runs.bob]);
    expect(await ids('manager')).toEqual([runs.managerSystem, runs.scheduled, runs.bob, runs.alice2, runs.alice1]);
    expect(await ids('root')).toEqual([runs.managerSystem, runs.system, runs.scheduled, runs.bob, runs.alice2, runs.alice1]);
    // "Mine" narrows anyone to what they started.
    expect(await ids('manager', { mine: 1 })).toEqual([runs.managerSystem]);
    expect(await ids('root', { mine: 1 })).toEqual([]);
  });

  it('answers the task shape, titled in the caller language, filtered and paged', async () => {
    const res = await call<{ list: Task[]; total: number }>('list', { page_size: 1 }, 'alice', 'en');
    expect(res.data.total).toBe(2);
    expect(res.data.list).toEqual([
      {
        id: runs.alice2,
        job_name: 'export-report',
        title: 'Export report',
        status: 'queued',
        progress_done: 0,
        progress_total: 0,
        message: null,
        summary: null,
        error: null,
        created_by: users.alice.id,
        created_by_name: 'Alice',
        trigger: 'manual',
        queued_at: '2026-11-01T08:00:00.000Z',
        started_at: null,
        finished_at: null,
        start_at: null,
      },
    ]);
    expect((await call('list', { page: 2, page_size: 1 }, 'alice')).data.list[0].title).toBe('导出报表');
    expect(await ids('root', { job_name: 'purge-cache' })).toEqual([runs.managerSystem, runs.system]);
    expect(await ids('alice', { status: 'success' })).toEqual([]);
    expect(await ids('alice', { sort_field: 'id', sort_order: 'ascend' })).toEqual([runs.alice1, runs.alice2]);
  });
});

describe('get', () => {
  it("answers one's own task and refuses anyone else's", async () => {
    const own = await call<Task>('get', { id: runs.alice1 }, 'alice');
    expect(own.data).toMatchObject({ id: runs.alice1, status: 'queued' });
    expect((await call('get', { id: runs.alice1 }, 'bob')).code).toBe(CODE_FORBIDDEN);
    expect((await call('get', { id: runs.alice1 }, 'manager')).code).toBe(0);
    expect((await call('get', { id: runs.system }, 'manager')).code).toBe(CODE_FORBIDDEN);
    expect((await call('get', { id: runs.system }, 'root')).code).toBe(0);
    expect(await call('get', { id: 999_999 }, 'root')).toMatchObject({ code: -2, message: '任务不存在' });
  });
});

describe('cancel', () => {
  it('lets the owner or a manager cancel a live task once, and nobody else', async () => {
    expect((await call('cancel', { id: runs.alice1 }, 'bob')).code).toBe(CODE_FORBIDDEN);
    expect((await call('cancel', { id: runs.system }, 'manager')).code).toBe(CODE_FORBIDDEN);

    const mine = await call<Task>('cancel', { id: runs.alice1 }, 'alice');
    expect(mine.code, mine.message).toBe(0);
    expect(mine.data).toMatchObject({ status: 'cancelled', finished_at: '2026-11-01T08:00:00.000Z' });
    expect(await call('cancel', { id: runs.alice1 }, 'alice')).toMatchObject({ code: -2, message: '任务已结束，无法取消' });

    expect((await call<Task>('cancel', { id: runs.bob }, 'manager')).data.status).toBe('cancelled');
    const audit = await t.db.selectFrom('audit_logs').select(['actor_id', 'entity_id']).where('action', '=', 'task.cancel').orderBy('id').execute();
    expect(audit).toEqual([
      { actor_id: users.alice.id, entity_id: String(runs.alice1) },
      { actor_id: users.manager.id, entity_id: String(runs.bob) },
    ]);
  });
});

describe('a task queued to start at a time', () => {
  it('is listed as queued with its start time', async () => {
    const at = new Date('2026-11-02T01:30:00Z');
    const id = await jobs.enqueue('export-report', {}, { createdBy: users.bob.id, startAt: at });
    const res = await call<Task>('get', { id }, 'bob');
    expect(res.data).toMatchObject({ id, status: 'queued', start_at: '2026-11-02T01:30:00.000Z', started_at: null });
    expect((await call<{ list: Task[] }>('list', {}, 'bob')).data.list.find((x) => x.id === id)?.start_at).toBe('2026-11-02T01:30:00.000Z');
  });
});
