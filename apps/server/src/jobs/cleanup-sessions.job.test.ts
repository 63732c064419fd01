import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { fixedClock } from '../lib/clock.ts';
import { freshDatabase, testConfig } from '../test/build-test-app.ts';
import { createUser } from '../test/factories.ts';
import { noPlatform } from '../test/jobs.ts';
import { cleanupSessionsJob } from './cleanup-sessions.job.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe('cleanup-sessions', () => {
  it('deletes revoked and idle sessions, finished throttle entries and runs past retention, and nothing else', async () => {
    const db = database.db;
    const now = new Date('2026-11-01T08:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const DAY = 24 * 3600 * 1000;
    const config = testConfig({ sessionIdleMs: 7 * DAY, login: { maxFailures: 5, accountMaxFailures: 50, ipMaxFailures: 30, lockMs: 15 * 60_000, slowdownMs: 0 } });
    const user = await createUser(db);

    const session = (token: string, lastSeen: Date, revoked: Date | null) =>
      db.insertInto('sessions').values({ user_id: user.id, token_hash: token, created_at: ago(30 * DAY), last_seen_at: lastSeen, revoked_at: revoked }).returning('id').executeTakeFirstOrThrow();
    const fresh = await session('fresh', ago(DAY), null);
    await session('revoked', ago(60_000), ago(60_000));
    await session('idle', ago(8 * DAY), null);

    await db
      .insertInto('login_throttle')
      .values([
        { key: 'acct:old', failures: 3, first_failed_at: ago(3600_000), locked_until: null },
        { key: 'acct:old-lock-over', failures: 5, first_failed_at: ago(3600_000), locked_until: ago(60_000) },
        { key: 'acct:locked', failures: 5, first_failed_at: ago(3600_000), locked_until: new Date(now.getTime() + 60_000) },
        { key: 'acct:recent', failures: 1, first_failed_at: ago(60_000), locked_until: null },
      ])
      .execute();

    const run = (status: 'success' | 'failed' | 'queued' | 'running', queuedAt: Date, finishedAt: Date | null) =>
      db.insertInto('job_runs').values({ job_name: 'x', trigger: 'schedule', data: '{}', status, queued_at: queuedAt, finished_at: finishedAt }).returning('id').executeTakeFirstOrThrow();
    await run('success', ago(100 * DAY), ago(100 * DAY));
    await run('failed', ago(95 * DAY), ago(91 * DAY));
    const recent = await run('success', ago(100 * DAY), ago(10 * DAY));
    const stuck = await run('running', ago(200 * DAY), null);
    const waiting = await run('queued', ago(120 * DAY), null);

    const reports: [number, number, unknown][] = [];
    const result = await cleanupSessionsJob.run({
      data: {},
      db,
      platform: noPlatform,
      clock: fixedClock(now),
      config,
      log: { info() {}, warn() {}, error() {} },
      runId: 0,
      progress: async (d, t, m) => {
        reports.push([d, t, m]);
      },
      signal: new AbortController().signal,
    });

    expect(result).toEqual({ status: 'success', summary: { sessions: 2, login_throttle: 2, job_runs: 2 } });
    expect(reports).toEqual([
      [1, 3, 'sessions'],
      [2, 3, 'login_throttle'],
      [3, 3, 'job_runs'],
    ]);
    expect((await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).map((r) => r.id)).toEqual([fresh.id]);
    expect((await db.selectFrom('login_throttle').select('key').orderBy('key').execute()).map((r) => r.key)).toEqual(['acct:locked', 'acct:recent']);
    expect((await db.selectFrom('job_runs').select('id').where('job_name', '=', 'x').orderBy('id').execute()).map((r) => r.id)).toEqual([recent.id, stuck.id, waiting.id]);
  });

  it('stops at once when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(
      cleanupSessionsJob.run({
        data: {},
        db: database.db,
        platform: noPlatform,
        clock: fixedClock('2026-11-01T08:00:00Z'),
        config: testConfig(),
        log: { info() {}, warn() {}, error() {} },
        runId: 0,
        progress: async () => {},
        signal: controller.signal,
      }),
    ).rejects.toThrow('shutting down');
  });
});
