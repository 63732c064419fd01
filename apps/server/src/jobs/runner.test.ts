import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, Db } from '../db/database.ts';
import { driver, freshDatabase } from '../test/build-test-app.ts';
import { createUser } from '../test/factories.ts';
import { freezableDb, gate, readRun, secondPool, testLog, testRunner, waitForRun } from '../test/jobs.ts';
import { bossDb } from './boss-db.ts';
import { BOSS_SCHEMA, type JobRunner } from './runner.ts';
import { defineJob, type JobContext } from './types.ts';

/**
 * The job engine on the driver under test: pg-boss over our own connection, job_runs as the
 * record, retries, progress, cancel, restart survival, and several servers sharing one database.
 * Real waits are kept to what pg-boss's own clock needs (its expiry runs on database time).
 */
let database: Database;
let db: Db;
const runners: JobRunner[] = [];

beforeAll(async () => {
  database = await freshDatabase();
  db = database.db;
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});
afterAll(() => database.close());

function runner(...args: Parameters<typeof testRunner> extends [Db, ...infer R] ? R : never) {
  const r = testRunner(db, ...args);
  runners.push(r);
  return r;
}

const title = { zh: '测试', en: 'Test' };
const ok = () => ({ status: 'success' as const });

describe('pg-boss on our connection', () => {
  it(`installs its schema '${BOSS_SCHEMA}' and migrates it from the previous version`, async () => {
    const job = defineJob({ name: 'boss-install', title, description: '', defaultSchedule: null, run: async () => ok() });
    let r = runner([job]);
    await r.start();
    const version = async () => (await sql<{ version: number }>`select version from pgboss.version`.execute(db)).rows[0]!.version;
    const current = await version();
    expect(current).toBeGreaterThanOrEqual(24);
    await r.stop();

    // Back to the previous schema version with pg-boss's own rollback plan; the next start migrates forward.
    // (Its typings say string, its code compares numbers.)
    await bossDb(db).executeSql(PgBoss.getRollbackPlans(BOSS_SCHEMA, current as never), []);
    expect(await version()).toBe(current - 1);
    r = runner([job]);
    await r.start();
    expect(await version()).toBe(current);
    const id = await r.enqueue('boss-install', {});
    await waitForRun(db, id, (row) => row.status === 'success');
  });

  it('leaves the connection usable when a multi-statement text fails mid-transaction (its migration race check)', async () => {
    // At the current version the migration plan divides by zero on purpose, after BEGIN.
    const current = (await sql<{ version: number }>`select version from pgboss.version`.execute(db)).rows[0]!.version;
    const plan = PgBoss.getMigrationPlans(BOSS_SCHEMA, (current - 1) as never);
    await expect(bossDb(db).executeSql(plan, [])).rejects.toThrow(/division by zero/);
    // Without the rollback, PGlite's single connection (or the pooled one) would answer "current transaction is aborted".
    for (let i = 0; i < 3; i++) expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]!.one).toBe(1);
    expect((await sql<{ version: number }>`select version from pgboss.version`.execute(db)).rows[0]!.version).toBe(current);
  });

  it.runIf(driver === 'pglite')('never interleaves with a Kysely transaction on PGlite: pg-boss waits for the commit', async () => {
    const job = defineJob({ name: 'boss-serial', title, description: '', defaultSchedule: null, run: async () => ok() });
    const r = runner([job], { options: { workers: false } });
    await r.start();
    const events: string[] = [];
    const inTrx = gate();
    const trx = db.transaction().execute(async (t) => {
      await t.insertInto('job_settings').values({ name: 'boss-serial', schedule: null, enabled: true, updated_by: null }).execute();
      events.push('trx wrote');
      await inTrx.promise;
      events.push('trx commits');
    });
    await new Promise((res) => setTimeout(res, 20));
    const size = r.boss!.getQueueSize('boss-serial').then(() => events.push('pg-boss answered'));
    await new Promise((res) => setTimeout(res, 50));
    expect(events).toEqual(['trx wrote']);
    inTrx.open();
    await Promise.all([trx, size]);
    expect(events).toEqual(['trx wrote', 'trx commits', 'pg-boss answered']);
    await db.deleteFrom('job_settings').where('name', '=', 'boss-serial').execute();
  });
});

describe('a run', () => {
  it('is recorded from queued to success, with its data, summary, message and times', async () => {
    const seen: unknown[] = [];
    const job = defineJob<{ n: number }>({
      name: 'rec-success',
      title,
      description: '',
      defaultSchedule: null,
      async run({ data, runId }) {
        seen.push({ data, runId });
        return { status: 'success', summary: { doubled: data.n * 2 }, message: 'all good' };
      },
    });
    const r = runner([job]);
    await r.start();
    const id = await r.enqueue('rec-success', { n: 21 }, { createdBy: null });
    const row = await waitForRun(db, id, (x) => x.status === 'success');
    expect(row).toMatchObject({ job_name: 'rec-success', trigger: 'manual', data: { n: 21 }, summary: { doubled: 42 }, message: 'all good', error: null, attempt: 1 });
    expect(row.boss_job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.started_at).toBeInstanceOf(Date);
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(seen).toEqual([{ data: { n: 21 }, runId: id }]);
    // job_runs is written first, then pg-boss is told: wait for the second step too.
    await until(async () => expect(await bossState(r, 'rec-success', row.boss_job_id!)).toBe('completed'));
  });

  it('records skipped, and a returned failure as final without a retry', async () => {
    let calls = 0;
    const skipper = defineJob({ name: 'rec-skip', title, description: '', defaultSchedule: null, run: async () => ({ status: 'skipped', message: 'nothing to do' }) });
    const failer = defineJob({
      name: 'rec-fail',
      title,
      description: '',
      defaultSchedule: null,
      retryLimit: 3,
      retryDelaySeconds: 0,
      async run() {
        calls++;
        return { status: 'failed', message: 'token invalid' };
      },
    });
    const r = runner([skipper, failer]);
    await r.start();
    const [a, b] = [await r.enqueue('rec-skip', {}), await r.enqueue('rec-fail', {})];
    expect(await waitForRun(db, a, (x) => x.status === 'skipped')).toMatchObject({ message: 'nothing to do' });
    expect(await waitForRun(db, b, (x) => x.status === 'failed')).toMatchObject({ error: 'token invalid', attempt: 1 });
    await new Promise((res) => setTimeout(res, 200));
    expect(calls).toBe(1);
  });

  it('queues the continuation it returns with its result: for the same person, held until its time, then run with its data', async () => {
    const person = await createUser(db);
    const legs: number[] = [];
    const job = defineJob<{ leg: number }>({
      name: 'rec-continue',
      title,
      description: '',
      defaultSchedule: null,
      async run({ data, clock }) {
        legs.push(data.leg);
        if (data.leg === 2) return { status: 'success', message: 'done' };
        return { status: 'success', message: 'paused', continuation: { data: { leg: 2 }, at: new Date(clock.now().getTime() + 3_600_000), message: 'continues at 09:00' } };
      },
    });
    const r = runner([job]);
    await r.start();
    const id = await r.enqueue('rec-continue', { leg: 1 }, { createdBy: person.id });
    expect(await waitForRun(db, id, (x) => x.status === 'success')).toMatchObject({ message: 'paused' });
    // Committed with the result: the continuation is there as soon as the run has ended.
    const next = await db.selectFrom('job_runs').selectAll().where('job_name', '=', 'rec-continue').where('id', '>', id).executeTakeFirstOrThrow();
    expect(next).toMatchObject({ status: 'queued', trigger: 'manual', created_by: person.id, data: { leg: 2 }, message: 'continues at 09:00', singleton_key: null });
    const delay = async () =>
      Number((await sql<{ s: number }>`select extract(epoch from start_after - now())::int as s from pgboss.job where id = ${next.boss_job_id}::uuid`.execute(db)).rows[0]!.s);
    expect(await delay()).toBeGreaterThan(3500);
    await new Promise((res) => setTimeout(res, 300));
    expect(legs).toEqual([1]);
    expect((await readRun(db, next.id))?.status).toBe('queued');

    // Its time comes (pg-boss counts it on database time): it runs with the data it was given.
    await sql`update pgboss.job set start_after = now() where id = ${next.boss_job_id}::uuid`.execute(db);
    expect(await waitForRun(db, next.id, (x) => x.status === 'success')).toMatchObject({ message: 'done' });
    expect(legs).toEqual([1, 2]);
  });

  it('shows progress while it runs (writes throttled, the last report always lands)', async () => {
    const step1 = gate();
    const step2 = gate();
    const job = defineJob({
      name: 'rec-progress',
      title,
      description: '',
      defaultSchedule: null,
      async run({ progress }) {
        await progress(1, 4, 'first account');
        await step1.promise;
        // A burst: only some of these are written, the last one for sure.
        for (let i = 2; i <= 3; i++) await progress(i, 4, `account ${i}`);
        await step2.promise;
        return { status: 'success' };
      },
    });
    const r = runner([job]);
    await r.start();
    const id = await r.enqueue('rec-progress', {});
    expect(await waitForRun(db, id, (x) => x.progress_done === 1)).toMatchObject({ status: 'running', progress_total: 4, message: 'first account' });
    step1.open();
    expect(await waitForRun(db, id, (x) => x.progress_done === 3)).toMatchObject({ status: 'running', message: 'account 3' });
    step2.open();
    expect(await waitForRun(db, id, (x) => x.status === 'success')).toMatchObject({ progress_done: 3, progress_total: 4 });
  });

  it('is retried after it throws, and fails for good when the retries are used up', async () => {
    let flakyCalls = 0;
    const flaky = defineJob({
      name: 'rec-flaky',
      title,
      description: '',
      defaultSchedule: null,
      retryLimit: 2,
      retryDelaySeconds: 0,
      async run() {
        flakyCalls++;
        if (flakyCalls === 1) throw new Error('Graph API unavailable');
        return { status: 'success', summary: { calls: flakyCalls } };
      },
    });
    const broken = defineJob({
      name: 'rec-broken',
      title,
      description: '',
      defaultSchedule: null,
      retryLimit: 1,
      retryDelaySeconds: 0,
      async run() {
        throw new Error('always broken');
      },
    });
    const r = runner([flaky, broken]);
    await r.start();
    const a = await r.enqueue('rec-flaky', {});
    const b = await r.enqueue('rec-broken', {});
    expect(await waitForRun(db, a, (x) => x.status === 'success')).toMatchObject({ attempt: 2, error: null, summary: { calls: 2 } });
    const failed = await waitForRun(db, b, (x) => x.status === 'failed');
    expect(failed).toMatchObject({ attempt: 2, error: 'always broken' });
    await until(async () => expect(await bossState(r, 'rec-broken', failed.boss_job_id!)).toBe('failed'));
  });

  it('is aborted and retried when it outlives expireInSeconds', async () => {
    let calls = 0;
    const slow = defineJob({
      name: 'rec-timeout',
      title,
      description: '',
      defaultSchedule: null,
      expireInSeconds: 1,
      retryLimit: 1,
      retryDelaySeconds: 0,
      async run({ signal }) {
        calls++;
        if (calls === 1) {
          await new Promise((_res, rej) => signal.addEventListener('abort', () => rej(signal.reason as Error)));
        }
        return { status: 'success' };
      },
    });
    const r = runner([slow]);
    await r.start();
    const id = await r.enqueue('rec-timeout', {});
    expect(await waitForRun(db, id, (x) => x.status === 'success')).toMatchObject({ attempt: 2 });
    expect(calls).toBe(2);
  });
});

describe('enqueue', () => {
  it('reuses the queued or running run of a singleton key, and queues anew once it ended', async () => {
    const release = gate();
    const job = defineJob<{ account: number }>({
      name: 'enq-key',
      title,
      description: '',
      defaultSchedule: null,
      async run() {
        await release.promise;
        return { status: 'success' };
      },
    });
    const r = runner([job]);
    await r.start();
    const a = await r.enqueue('enq-key', { account: 7 }, { singletonKey: 'account:7' });
    expect(await r.enqueue('enq-key', { account: 7 }, { singletonKey: 'account:7' })).toBe(a);
    await waitForRun(db, a, (x) => x.status === 'running');
    expect(await r.enqueue('enq-key', { account: 7 }, { singletonKey: 'account:7' })).toBe(a);
    const other = await r.enqueue('enq-key', { account: 8 }, { singletonKey: 'account:8' });
    expect(other).not.toBe(a);
    release.open();
    await waitForRun(db, a, (x) => x.status === 'success');
    await waitForRun(db, other, (x) => x.status === 'success');
    const again = await r.enqueue('enq-key', { account: 7 }, { singletonKey: 'account:7' });
    expect(again).not.toBe(a);
    await waitForRun(db, again, (x) => x.status === 'success');
  });

  it("queues inside the caller's transaction: the run exists and runs only if it commits", async () => {
    const job = defineJob<{ account: number }>({ name: 'enq-trx', title, description: '', defaultSchedule: null, run: async ({ data }) => ({ status: 'success', summary: { account: data.account } }) });
    const r = runner([job]);
    await r.start();
    const committed = await db.transaction().execute(async (trx) => {
      await trx.insertInto('job_settings').values({ name: 'enq-trx', schedule: null, enabled: true, updated_by: null }).execute();
      return r.enqueue('enq-trx', { account: 1 }, { trx });
    });
    expect(await waitForRun(db, committed, (x) => x.status === 'success')).toMatchObject({ summary: { account: 1 } });

    let rolledBack = 0;
    await expect(
      db.transaction().execute(async (trx) => {
        rolledBack = await r.enqueue('enq-trx', { account: 2 }, { trx });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(rolledBack).toBeGreaterThan(0);
    expect(await readRun(db, rolledBack)).toBeUndefined();
    expect(await r.boss!.getQueueSize('enq-trx')).toBe(0);
  });

  it('writes no job_runs row when pg-boss refuses the job (one transaction)', async () => {
    const job = defineJob({ name: 'enq-atomic', title, description: '', defaultSchedule: null, run: async () => ok() });
    const r = runner([job], { options: { workers: false } });
    await r.start();
    await r.boss!.deleteQueue('enq-atomic');
    const before = await db.selectFrom('job_runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await expect(r.enqueue('enq-atomic', {})).rejects.toThrow(/refused/);
    const after = await db.selectFrom('job_runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    await expect(r.enqueue('no-such-job', {})).rejects.toThrow(/unknown job/);
  });
});

describe('one job never overlaps itself', () => {
  it('runs queued runs of a job one at a time, even with two servers with free slots', async () => {
    let active = 0;
    let maxActive = 0;
    const ran: number[] = [];
    const job = defineJob({
      name: 'solo',
      title,
      description: '',
      defaultSchedule: null,
      async run({ runId }) {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((res) => setTimeout(res, 60));
        ran.push(runId);
        active--;
        return { status: 'success' };
      },
    });
    // Two runners on one database, as two servers; each has room for 4 runs.
    const a = runner([job], { options: { concurrency: 4 } });
    const b = runner([job], { options: { concurrency: 4 } });
    await a.start();
    await b.start();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await (i % 2 ? b : a).enqueue('solo', {}));
    for (const id of ids) await waitForRun(db, id, (x) => x.status === 'success');
    expect(maxActive).toBe(1);
    expect(ran.sort()).toEqual([...ids].sort());
  });
});

describe('cancel', () => {
  it('keeps a queued run from starting, and aborts a running one through its signal', async () => {
    const started = gate();
    let sawAbort = false;
    const job = defineJob({
      name: 'cancel-me',
      title,
      description: '',
      defaultSchedule: null,
      retryDelaySeconds: 0,
      async run({ signal }: JobContext<Record<string, never>>) {
        started.open();
        await new Promise<void>((_res, rej) =>
          signal.addEventListener('abort', () => {
            sawAbort = true;
            rej(signal.reason as Error);
          }),
        );
        return { status: 'success' };
      },
    });
    const r = runner([job]);
    await r.start();
    const first = await r.enqueue('cancel-me', {});
    const second = await r.enqueue('cancel-me', {});
    await started.promise;
    // The second waits behind the first (one at a time): cancel it while it is queued.
    expect(await r.cancel(second)).toBe(true);
    expect(await r.cancel(first)).toBe(true);
    expect(await r.cancel(first)).toBe(false);
    await until(() => expect(sawAbort).toBe(true));
    await until(() => expect(r.activeCount).toBe(0));
    expect(await readRun(db, first)).toMatchObject({ status: 'cancelled', attempt: 1 });
    expect(await readRun(db, second)).toMatchObject({ status: 'cancelled', attempt: 0, started_at: null });
    await until(async () => expect(await bossState(r, 'cancel-me', (await readRun(db, first))!.boss_job_id!)).toBe('completed'));
    expect(await bossState(r, 'cancel-me', (await readRun(db, second))!.boss_job_id!)).toBe('cancelled');
  });

  it('reaches a run on another server within its cancel-check interval', async () => {
    const started = gate();
    const job = defineJob({
      name: 'cancel-remote',
      title,
      description: '',
      defaultSchedule: null,
      async run({ signal }) {
        started.open();
        await new Promise<void>((_res, rej) => signal.addEventListener('abort', () => rej(signal.reason as Error)));
        return { status: 'success' };
      },
    });
    const worker = runner([job]);
    const web = runner([job], { options: { workers: false } });
    await worker.start();
    await web.start();
    const id = await web.enqueue('cancel-remote', {});
    await started.promise;
    expect(await web.cancel(id)).toBe(true);
    await until(() => expect(worker.activeCount).toBe(0));
    expect(await readRun(db, id)).toMatchObject({ status: 'cancelled' });
  });
});

describe('restarts', () => {
  it('a graceful stop waits for a run, aborts one that does not end in time, and the next start runs it again', async () => {
    let calls = 0;
    const job = defineJob({
      name: 'restart-graceful',
      title,
      description: '',
      defaultSchedule: null,
      retryDelaySeconds: 0,
      async run({ signal }) {
        calls++;
        if (calls === 1) await new Promise<void>((_res, rej) => signal.addEventListener('abort', () => rej(signal.reason as Error)));
        return { status: 'success', summary: { calls } };
      },
    });
    const first = runner([job], { options: { stopTimeoutMs: 100 } });
    await first.start();
    const id = await first.enqueue('restart-graceful', {});
    await waitForRun(db, id, (x) => x.status === 'running');
    await first.stop();
    expect(await readRun(db, id)).toMatchObject({ status: 'queued', attempt: 1, error: '运行中断：服务器已关闭', error_en: 'Interrupted: the server shut down', message: '第 1 次运行失败，将重试', message_en: 'Attempt 1 failed; it will be retried' });

    const second = runner([job]);
    await second.start();
    expect(await waitForRun(db, id, (x) => x.status === 'success')).toMatchObject({ attempt: 2, summary: { calls: 2 }, error: null });
  });

  it('a run of a server that crashed mid-run is retried by the next server after it expires, as attempt 2', async () => {
    let calls = 0;
    const job = defineJob({
      name: 'restart-crash',
      title,
      description: '',
      defaultSchedule: null,
      expireInSeconds: 1,
      retryLimit: 2,
      retryDelaySeconds: 0,
      async run({ progress }) {
        calls++;
        await progress(1, 2, `attempt ${calls}`);
        // The crashed server's run never ends, not even on abort: a dead process says nothing more.
        if (calls === 1) await new Promise(() => {});
        return { status: 'success', summary: { calls } };
      },
    });
    // The first server talks to the database through a handle the test can cut, and runs no maintenance of its own.
    const link = freezableDb(db);
    const crashed = testRunner(link.db, [job], { options: { stopTimeoutMs: 50, abortGraceMs: 50, boss: { supervise: false, schedule: false } } });
    await crashed.start();
    const id = await crashed.enqueue('restart-crash', {});
    await waitForRun(db, id, (x) => x.status === 'running' && x.progress_done === 1);
    link.freeze();
    await crashed.stop();
    // Nothing was recorded after the crash: the row still says attempt 1 is running, pg-boss still has it active.
    const orphan = (await readRun(db, id))!;
    expect(orphan).toMatchObject({ status: 'running', attempt: 1, message: 'attempt 1' });
    expect((await sql<{ state: string }>`select state::text from pgboss.job where id = ${orphan.boss_job_id}::uuid`.execute(db)).rows[0]!.state).toBe('active');

    // The next server; its maintenance (every second here) expires the orphan, which is then retried.
    const next = runner([job], { options: { boss: { maintenanceIntervalSeconds: 1 } } });
    await next.start();
    const row = await waitForRun(db, id, (x) => x.status === 'success', 15_000);
    expect(row).toMatchObject({ attempt: 2, summary: { calls: 2 }, message: null, error: null });
    expect(calls).toBe(2);
    await until(async () => expect(await bossState(next, 'restart-crash', orphan.boss_job_id!)).toBe('completed'));
  });
});

describe('schedules', () => {
  it('applies default schedules, job_settings overrides and disabled jobs to pg-boss', async () => {
    const make = (name: string, defaultSchedule: string | null) => defineJob({ name, title, description: '', defaultSchedule, run: async () => ok() });
    const jobs = [make('sched-default', '*/5 * * * *'), make('sched-override', '0 3 * * *'), make('sched-off', '0 4 * * *'), make('sched-none', null)];
    await db
      .insertInto('job_settings')
      .values([
        { name: 'sched-override', schedule: '30 6 * * 1', enabled: true, updated_by: null },
        { name: 'sched-off', schedule: null, enabled: false, updated_by: null },
      ])
      .execute();
    const r = runner(jobs, { options: { workers: false } });
    await r.start();
    const schedules = async () => Object.fromEntries((await r.boss!.getSchedules()).filter((s) => s.name.startsWith('sched-')).map((s) => [s.name, s.cron]));
    expect(await schedules()).toEqual({ 'sched-default': '*/5 * * * *', 'sched-override': '30 6 * * 1' });

    await db.updateTable('job_settings').set({ enabled: true }).where('name', '=', 'sched-off').execute();
    await db.updateTable('job_settings').set({ enabled: false }).where('name', '=', 'sched-override').execute();
    await r.applySchedules('sched-off');
    await r.applySchedules('sched-override');
    expect(await schedules()).toEqual({ 'sched-default': '*/5 * * * *', 'sched-off': '0 4 * * *' });
  });

  it('a schedule fires through pg-boss cron and the run is recorded with trigger schedule', async () => {
    const job = defineJob({ name: 'sched-every-minute', title, description: '', defaultSchedule: '* * * * *', run: async () => ({ status: 'success', summary: { scheduled: true } }) });
    // pg-boss evaluates cron at start and then every second here; '* * * * *' is due at once.
    const r = runner([job], { options: { boss: { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 } } });
    await r.start();
    await until(async () => {
      const row = await db.selectFrom('job_runs').selectAll().where('job_name', '=', 'sched-every-minute').executeTakeFirst();
      expect(row).toMatchObject({ trigger: 'schedule', status: 'success', created_by: null, attempt: 1, data: {}, summary: { scheduled: true } });
    }, 15_000);
    await r.boss!.unschedule('sched-every-minute');
  });

  it('coalesces schedule ticks that piled up behind a long run into one catch-up run', async () => {
    const release = gate();
    let calls = 0;
    const job = defineJob({
      name: 'sched-coalesce',
      title,
      description: '',
      defaultSchedule: null,
      async run() {
        calls++;
        if (calls === 1) await release.promise;
        return { status: 'success' };
      },
    });
    const r = runner([job]);
    await r.start();
    // What pg-boss cron inserts on each tick: a job without a run id.
    await r.boss!.send('sched-coalesce', {});
    const first = await until(async () => {
      const row = await db.selectFrom('job_runs').selectAll().where('job_name', '=', 'sched-coalesce').executeTakeFirst();
      expect(row).toMatchObject({ trigger: 'schedule', status: 'running' });
      return row!;
    });
    await r.boss!.send('sched-coalesce', {});
    await r.boss!.send('sched-coalesce', {});
    release.open();
    await waitForRun(db, first.id, (x) => x.status === 'success');
    await until(async () => {
      const rows = await db.selectFrom('job_runs').select(['status', 'trigger']).where('job_name', '=', 'sched-coalesce').execute();
      expect(rows).toEqual([
        { status: 'success', trigger: 'schedule' },
        { status: 'success', trigger: 'schedule' },
      ]);
    });
    await new Promise((res) => setTimeout(res, 200));
    expect(calls).toBe(2);
    expect(await r.boss!.getQueueSize('sched-coalesce')).toBe(0);
  });
});

describe.runIf(driver === 'pg')('several servers on one PostgreSQL database', () => {
  it('share the runs and run each exactly once', async () => {
    const other = await secondPool(db);
    try {
      const executions = new Map<number, string[]>();
      const byServer = { A: 0, B: 0 };
      const active = new Map<string, number>();
      let overlap = false;
      const make = (name: string, server: 'A' | 'B') =>
        defineJob({
          name,
          title,
          description: '',
          defaultSchedule: null,
          async run({ runId }: JobContext<{ server?: string }>) {
            const n = (active.get(name) ?? 0) + 1;
            active.set(name, n);
            if (n > 1) overlap = true;
            await new Promise((res) => setTimeout(res, 10 + Math.random() * 20));
            executions.set(runId, [...(executions.get(runId) ?? []), server]);
            byServer[server]++;
            active.set(name, active.get(name)! - 1);
            return { status: 'success' };
          },
        });
      // The same jobs on both servers; each copy knows which server runs it.
      const names = ['multi-a', 'multi-b', 'multi-c'];
      const jobsA = names.map((n) => make(n, 'A'));
      const jobsB = names.map((n) => make(n, 'B'));
      const logA = testLog();
      const logB = testLog();
      const serverA = runner(jobsA, { log: logA });
      const serverB = testRunner(other.db, jobsB, { log: logB });
      runners.push(serverB);
      await Promise.all([serverA.start(), serverB.start()]);

      const ids: number[] = [];
      await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const server = i % 2 ? serverB : serverA;
          ids.push(await server.enqueue(names[i % 3]!, {}));
        }),
      );
      for (const id of ids) await waitForRun(db, id, (x) => x.status === 'success', 20_000);
      expect(ids).toHaveLength(24);
      expect(new Set(ids).size).toBe(24);
      // Each run executed exactly once, no job overlapped itself, and nothing went wrong on either server.
      expect([...executions.keys()].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
      for (const [, servers] of executions) expect(servers).toHaveLength(1);
      // Both servers took part.
      expect(byServer.A).toBeGreaterThan(0);
      expect(byServer.B).toBeGreaterThan(0);
      expect(byServer.A + byServer.B).toBe(24);
      expect(overlap).toBe(false);
      expect(logA.entries.filter((e) => e.level === 'error')).toEqual([]);
      expect(logB.entries.filter((e) => e.level === 'error')).toEqual([]);
      const rows = await db.selectFrom('job_runs').select(['attempt']).where('id', 'in', ids).execute();
      expect(rows.every((x) => x.attempt === 1)).toBe(true);
    } finally {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
      await other.close();
    }
  });
});

const bossState = async (r: JobRunner, name: string, id: string) => (await r.boss!.getJobById(name, id))?.state;

/** vi.waitFor with the timeouts of these tests. */
function until<T>(fn: () => T | Promise<T>, timeout = 10_000): Promise<T> {
  return vi.waitFor(fn, { timeout, interval: 25 });
}
