import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, Db } from '../db/database.ts';
import { driver, freshDatabase } from '../test/build-test-app.ts';
import { createUser } from '../test/factories.ts';
import { fixedClock } from '../lib/clock.ts';
import { FAST, freezableDb, gate, readRun, secondPool, testLog, testRunner, waitForRun } from '../test/jobs.ts';
import { bossDb } from './boss-db.ts';
import { BOSS_SCHEMA, type JobRunner } from './runner.ts';
import { defineJob, type AnyJobDefinition, type JobContext } from './types.ts';

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
});

/**
 * A server killed mid-run (kill -9, power loss) says nothing more: its run stays 'running' and its
 * pg-boss job 'active', which would block the job (or its key) until the job expires. The next
 * server puts the run back at once (PGlite: it owns the database) or within the heartbeat window
 * (PostgreSQL: any live server, once the dead one has missed its beats).
 */
describe('orphaned runs', () => {
  /** A job whose first attempt hangs for good, as a dead server's run does; later attempts succeed. */
  function hangingJob(name: string, o: { retryLimit?: number } = {}) {
    const calls: number[] = [];
    const job = defineJob({
      name,
      title,
      description: '',
      defaultSchedule: null,
      // Far beyond the test: whatever brings the run back, it is not pg-boss's expiry.
      expireInSeconds: 3600,
      retryLimit: o.retryLimit ?? 2,
      retryDelaySeconds: 60,
      async run({ progress }) {
        calls.push(calls.length + 1);
        await progress(1, 2, `attempt ${calls.length}`);
        if (calls.length === 1) await new Promise(() => {});
        return { status: 'success', summary: { calls: calls.length } };
      },
    });
    return { job, calls };
  }

  /** Starts a server on a handle the test can cut, has it start a run of `job`, then cuts it off without a graceful stop. */
  async function crashMidRun(job: AnyJobDefinition, reclaim: 'all-at-start' | 'heartbeat') {
    const link = freezableDb(db);
    const crashed = testRunner(link.db, [job], { options: { reclaim, stopTimeoutMs: 50, abortGraceMs: 50, boss: { supervise: false, schedule: false } } });
    await crashed.start();
    const id = await crashed.enqueue(job.name, {});
    await waitForRun(db, id, (x) => x.status === 'running' && x.progress_done === 1);
    expect((await readRun(db, id))!.process_id).toBe(crashed.processId);
    // The process dies: no more beats, no more writes. (stop() only ends the timers of this test
    // object; every query it tries fails, as a dead process's would not even be sent.)
    link.freeze();
    const crashedAt = performance.now();
    await crashed.stop();
    const orphan = (await readRun(db, id))!;
    expect(orphan).toMatchObject({ status: 'running', attempt: 1, message: 'attempt 1' });
    expect((await sql<{ state: string }>`select state::text from pgboss.job where id = ${orphan.boss_job_id}::uuid`.execute(db)).rows[0]!.state).toBe('active');
    return { id, orphan, crashed, crashedAt };
  }

  for (const reclaim of ['all-at-start', 'heartbeat'] as const) {
    it(`${reclaim}: the run of a server killed mid-run starts again ${reclaim === 'all-at-start' ? 'as the next server starts' : 'once the dead server misses its beats'}, as attempt 2, once`, async () => {
      const { job, calls } = hangingJob(`orphan-${reclaim}`);
      const { id, orphan, crashed, crashedAt } = await crashMidRun(job, reclaim);

      const log = testLog();
      const next = runner([job], { log, options: { reclaim } });
      await next.start();
      const row = await waitForRun(db, id, (x) => x.status === 'success', 15_000);
      const tookMs = performance.now() - crashedAt;
      expect(row).toMatchObject({ attempt: 2, summary: { calls: 2 }, message: null, error: null, process_id: next.processId });
      expect(calls).toEqual([1, 2]);
      // At once (all-at-start) or within the 2 s reclaim window, with room for a busy machine: far
      // from the hour after which the job would expire.
      expect(tookMs).toBeLessThan(reclaim === 'all-at-start' ? 8000 : 12_000);
      expect(log.entries.filter((e) => e.msg === 'reclaimed a run whose process stopped')).toEqual([
        expect.objectContaining({ obj: expect.objectContaining({ runId: id, attempt: 1, deadProcess: crashed.processId, willRetry: true }) }),
      ]);
      await until(async () => expect(await bossState(next, job.name, orphan.boss_job_id!)).toBe('completed'));
      // The dead server is forgotten; the live one is registered.
      expect((await db.selectFrom('job_processes').select('id').execute()).map((p) => p.id)).toEqual([next.processId]);
    });
  }

  it('a reclaimed run out of retries is recorded as failed: the server running it stopped', async () => {
    const { job, calls } = hangingJob('orphan-last-try', { retryLimit: 0 });
    const { id, orphan } = await crashMidRun(job, 'all-at-start');
    const next = runner([job], { options: { reclaim: 'all-at-start' } });
    await next.start();
    expect(await waitForRun(db, id, (x) => x.status === 'failed')).toMatchObject({
      attempt: 1,
      error: '运行中断：运行它的服务进程已停止',
      error_en: 'Interrupted: the server process running it stopped',
      finished_at: expect.any(Date),
    });
    await until(async () => expect(await bossState(next, job.name, orphan.boss_job_id!)).toBe('failed'));
    expect(calls).toEqual([1]);
  });

  it('a live but slow run is never reclaimed, however long it takes', async () => {
    const release = gate();
    let calls = 0;
    const job = defineJob({
      name: 'orphan-slow',
      title,
      description: '',
      defaultSchedule: null,
      expireInSeconds: 3600,
      async run() {
        calls++;
        await release.promise;
        return { status: 'success' };
      },
    });
    // Two live servers that reclaim by heartbeat (any driver): the one running is slow, not dead.
    const a = runner([job], { options: { reclaim: 'heartbeat', concurrency: 1 } });
    await a.start();
    const id = await a.enqueue('orphan-slow', {});
    await waitForRun(db, id, (x) => x.status === 'running');
    const b = runner([job], { options: { reclaim: 'heartbeat' } });
    await b.start();
    const beatOf = async (p: string) => (await db.selectFrom('job_processes').select('last_beat').where('id', '=', p).executeTakeFirstOrThrow()).last_beat.getTime();
    const firstBeat = await beatOf(a.processId);
    // Three reclaim windows of database time, during which `a` keeps beating and `b` keeps looking for orphans.
    const windowMs = FAST.heartbeatIntervalMs! * FAST.missedBeats!;
    await until(async () => expect((await beatOf(a.processId)) - firstBeat).toBeGreaterThan(3 * windowMs), 20_000);
    await until(async () => expect((await beatOf(b.processId)) - firstBeat).toBeGreaterThan(3 * windowMs), 20_000);
    expect(await readRun(db, id)).toMatchObject({ status: 'running', attempt: 1, process_id: a.processId });
    release.open();
    expect(await waitForRun(db, id, (x) => x.status === 'success')).toMatchObject({ attempt: 1, process_id: a.processId });
    expect(calls).toBe(1);
  });

  it('a server presumed dead while it still runs (it stopped beating) gives its run up to the attempt that took over', async () => {
    const calls: string[] = [];
    let silentSawAbort = false;
    const make = (server: string) =>
      defineJob({
        name: 'orphan-fenced',
        title,
        description: '',
        defaultSchedule: null,
        expireInSeconds: 3600,
        retryDelaySeconds: 60,
        async run({ signal }) {
          calls.push(server);
          if (server === 'silent') {
            await new Promise<void>((_res, rej) =>
              signal.addEventListener('abort', () => {
                silentSawAbort = true;
                rej(signal.reason as Error);
              }),
            );
          }
          return { status: 'success', summary: { by: server } };
        },
      });
    // `silent` beats once, at start, then never (an hour between beats): to the others it looks dead.
    const silent = runner([make('silent')], { options: { reclaim: 'heartbeat', heartbeatIntervalMs: 3_600_000 } });
    await silent.start();
    const id = await silent.enqueue('orphan-fenced', {});
    await waitForRun(db, id, (x) => x.status === 'running');
    const live = runner([make('live')], { options: { reclaim: 'heartbeat' } });
    await live.start();
    expect(await waitForRun(db, id, (x) => x.status === 'success', 15_000)).toMatchObject({ attempt: 2, summary: { by: 'live' }, process_id: live.processId });
    // The silent server learns at its next ownership check that the run is no longer its own, and stops it without recording anything.
    await until(() => expect(silentSawAbort).toBe(true));
    await until(() => expect(silent.activeCount).toBe(0));
    expect(calls).toEqual(['silent', 'live']);
    expect(await readRun(db, id)).toMatchObject({ status: 'success', attempt: 2, summary: { by: 'live' } });
  });
});

/**
 * Jobs that run for many people at once (pushes, publishing, syncs) run per key: runs with one key
 * never overlap, anywhere; runs with different keys do, within the slots of each server and the
 * job's max; and keys take turns, so one busy key does not starve the others.
 */
describe('per-key concurrency', () => {
  it('runs different keys at once and one key one at a time, across two servers, within the job’s max', async () => {
    const activeByKey = new Map<string, number>();
    let active = 0;
    let maxActive = 0;
    let keyOverlap = false;
    const executions = new Map<number, number>();
    const job = defineJob<{ key: string }>({
      name: 'per-key',
      title,
      description: '',
      defaultSchedule: null,
      concurrency: { perKey: true, max: 3 },
      async run({ data, runId }) {
        const k = (activeByKey.get(data.key) ?? 0) + 1;
        activeByKey.set(data.key, k);
        if (k > 1) keyOverlap = true;
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((res) => setTimeout(res, 40 + Math.random() * 40));
        active--;
        activeByKey.set(data.key, activeByKey.get(data.key)! - 1);
        executions.set(runId, (executions.get(runId) ?? 0) + 1);
        return { status: 'success' };
      },
    });
    // Two servers with room for 4 runs each (3 of them for one job): the job's max of 3 is what binds.
    const a = runner([job], { options: { concurrency: 4, reclaim: 'heartbeat' } });
    const b = runner([job], { options: { concurrency: 4, reclaim: 'heartbeat' } });
    await a.start();
    await b.start();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const key = `account:${i % 4}`;
      ids.push(await (i % 2 ? b : a).enqueue('per-key', { key }, { key }));
    }
    for (const id of ids) await waitForRun(db, id, (x) => x.status === 'success', 20_000);
    expect(keyOverlap).toBe(false);
    expect(maxActive).toBeGreaterThanOrEqual(2);
    expect(maxActive).toBeLessThanOrEqual(3);
    expect([...executions.entries()].sort(([x], [y]) => x - y)).toEqual(ids.map((id) => [id, 1]));
    const rows = await db.selectFrom('job_runs').select(['concurrency_key', 'attempt']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => r.concurrency_key)).toEqual(ids.map((_, i) => `account:${i % 4}`));
    expect(rows.every((r) => r.attempt === 1)).toBe(true);
  });

  it('lets keys take turns: a key with many queued runs does not hold back a key queued after them', async () => {
    const order: string[] = [];
    const job = defineJob<{ label: string }>({
      name: 'per-key-fair',
      title,
      description: '',
      defaultSchedule: null,
      concurrency: { perKey: true, max: 1 },
      async run({ data }) {
        order.push(data.label);
        return { status: 'success' };
      },
    });
    // Everything is queued before any worker looks, so the order is the queue's alone.
    const web = runner([job], { options: { workers: false } });
    await web.start();
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await web.enqueue('per-key-fair', { label: `a${i}` }, { key: 'a' }));
    ids.push(await web.enqueue('per-key-fair', { label: 'b1' }, { key: 'b' }));
    ids.push(await web.enqueue('per-key-fair', { label: 'b2' }, { key: 'b' }));
    const worker = runner([job]);
    await worker.start();
    for (const id of ids) await waitForRun(db, id, (x) => x.status === 'success');
    // Oldest first within a key; between keys, the one that started longest ago (or never) goes next.
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4', 'a5']);
  });

  it('refuses a key for a job that runs one at a time, and runs keyless runs of a per-key job one at a time', async () => {
    const solo = defineJob({ name: 'per-key-solo', title, description: '', defaultSchedule: null, run: async () => ok() });
    let active = 0;
    let maxActive = 0;
    const keyed = defineJob({
      name: 'per-key-keyless',
      title,
      description: '',
      defaultSchedule: null,
      concurrency: { perKey: true },
      async run() {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((res) => setTimeout(res, 30));
        active--;
        return { status: 'success' };
      },
    });
    const r = runner([solo, keyed], { options: { concurrency: 4 } });
    await r.start();
    await expect(r.enqueue('per-key-solo', {}, { key: 'x' })).rejects.toThrow(/does not run per key/);
    await expect(r.enqueue('per-key-keyless', {}, { key: '' })).rejects.toThrow(/1–200 characters/);
    const ids = [await r.enqueue('per-key-keyless', {}), await r.enqueue('per-key-keyless', {}), await r.enqueue('per-key-keyless', {})];
    for (const id of ids) await waitForRun(db, id, (x) => x.status === 'success');
    expect(maxActive).toBe(1);
  });
});

describe('start at a given time', () => {
  it('holds a run queued for a time until the job clock reaches it, showing it queued with its start time meanwhile', async () => {
    const clock = fixedClock('2026-11-01T08:00:00Z');
    const ran: string[] = [];
    const job = defineJob<{ label: string }>({
      name: 'start-at',
      title,
      description: '',
      defaultSchedule: null,
      async run({ data }) {
        ran.push(data.label);
        return { status: 'success' };
      },
    });
    const r = runner([job], { clock });
    await r.start();
    const later = await r.enqueue('start-at', { label: 'at 09:00' }, { startAt: new Date('2026-11-01T09:00:00Z') });
    // A run of the same job queued after it, to run now: once it has run, the poll has passed the held one by.
    const now = await r.enqueue('start-at', { label: 'now' });
    await waitForRun(db, now, (x) => x.status === 'success');
    expect(await readRun(db, later)).toMatchObject({ status: 'queued', start_at: new Date('2026-11-01T09:00:00Z'), started_at: null });
    expect(ran).toEqual(['now']);

    clock.set('2026-11-01T08:59:59Z');
    const again = await r.enqueue('start-at', { label: 'now again' });
    await waitForRun(db, again, (x) => x.status === 'success');
    expect((await readRun(db, later))!.status).toBe('queued');

    // Its time comes by the job clock: it runs at the next poll.
    clock.set('2026-11-01T09:00:00Z');
    expect(await waitForRun(db, later, (x) => x.status === 'success')).toMatchObject({ attempt: 1, started_at: new Date('2026-11-01T09:00:00Z') });
    expect(ran).toEqual(['now', 'now again', 'at 09:00']);
  });

  it('runs at once a run whose start time has already passed', async () => {
    const job = defineJob({ name: 'start-at-past', title, description: '', defaultSchedule: null, run: async () => ok() });
    const r = runner([job]);
    await r.start();
    const id = await r.enqueue('start-at-past', {}, { startAt: new Date('2026-10-31T00:00:00Z') });
    expect(await waitForRun(db, id, (x) => x.status === 'success')).toMatchObject({ start_at: new Date('2026-10-31T00:00:00Z') });
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
