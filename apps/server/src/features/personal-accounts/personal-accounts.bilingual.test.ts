import type { PersonalAccount, Task } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { createMetaPlatformClient } from '../../platform/meta-adapter.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { FAST, testLog, waitForRun } from '../../test/jobs.ts';
import { startTestSimulator, type TestSimulator } from '../../test/simulator.ts';
import { checkTokensJob, syncPersonalAccountsJob } from './personal-accounts.jobs.ts';
import { SYNC_JOB } from './personal-accounts.service.ts';

// A sync the platform's rate limit pauses, run by the job engine and read through the API: the
// run's message, its queued continuation and the account's last sync error are in Chinese by
// default and in English for a caller who asks for English.
let sim: TestSimulator;
let t: TestApp;
let runner: JobRunner;
let token: string;

beforeAll(async () => {
  sim = await startTestSimulator();
  // The engine's Graph client waits by moving the frozen simulator clock (as in personal-accounts.resume.test.ts): no real waiting.
  const throttled = createMetaPlatformClient(
    { graphUrl: sim.url, apiVersion: 'v25.0', appId: sim.sim.appId, appSecret: sim.sim.appSecret, requestTimeoutMs: 10_000, maxConcurrencyPerAccount: 4, maxConcurrencyPerToken: 8 },
    {
      tuning: { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 },
      now: () => sim.sim.now(),
      sleep: async (ms, signal) => {
        signal?.throwIfAborted();
        await sim.control('POST', '/__sim/clock', { advance_seconds: ms / 1000 });
      },
    },
  );
  t = await buildTestApp({
    platform: sim.platform,
    jobs: async ({ db, clock, config }) => {
      runner = createJobs({ db, platform: throttled, clock, config, log: testLog(), registry: [syncPersonalAccountsJob, checkTokensJob], options: { workers: true, concurrency: 2, ...FAST } });
      await runner.start();
      return runner;
    },
  });
  const staff = await createUser(t.db, { paths: ['/operation/auth'] });
  token = await t.login(staff.account, staff.password);
});
afterAll(async () => {
  await sim.control('PUT', '/__sim/rate-limits', { preset: 'standard' }).catch(() => {});
  await t.close();
  await sim.close();
});

const task = async (id: number, lang?: string) => {
  const res = await t.call<Task>('/api/tasks/get', { id }, { token, ...(lang ? { lang } : {}) });
  expect(res.code, res.message).toBe(0);
  return res.data;
};
const account = async (id: number, lang?: string) => {
  const res = await t.call<{ list: PersonalAccount[] }>('/api/personal-accounts/list', {}, { token, ...(lang ? { lang } : {}) });
  expect(res.code, res.message).toBe(0);
  return res.data.list.find((a) => a.id === id)!;
};

describe('a sync paused by the rate limit, read in each language', () => {
  it('says why and when it goes on in Chinese by default and in English to an English caller', async () => {
    const user = await sim.createUser({ name: 'Paused FB', ad_accounts: 110, pages: 3, pixels: 2 });
    // 60 calls per hour; the first sync (queued by the connect) needs 116.
    await sim.control('PUT', '/__sim/rate-limits', { preset: 'standard', app_calls_per_hour: 60 });
    const connected = await t.call('/api/personal-accounts/connect_token', { access_token: user.access_token }, { token });
    expect(connected.code, connected.message).toBe(0);
    const id: number = connected.data.id;

    const paused = await t.db.selectFrom('job_runs').select('id').where('job_name', '=', SYNC_JOB).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const row = await waitForRun(t.db, paused.id, (r) => r.status !== 'queued' && r.status !== 'running', 20_000);
    expect(row.status, row.error ?? row.message ?? '').toBe('success');
    expect(row.summary).toMatchObject({ accounts: 1, synced: 0, paused: [id], resume_at: '2026-11-01T09:00:00.000Z' });

    // The run's result.
    expect((await task(paused.id)).message).toMatch(/^平台限流，同步已暂停：已写入的数据保留，将于 09:00 UTC 从断点继续（1 个个号）。限流：/);
    expect((await task(paused.id, 'en')).message).toMatch(
      /^The platform’s rate limit paused the sync: what was written is kept, and it continues where it stopped at 09:00 UTC \(personal accounts: 1\)\. Limit: /,
    );

    // Its continuation, queued for the same person, waits for the window.
    const next = await t.db.selectFrom('job_runs').select(['id', 'status']).where('job_name', '=', SYNC_JOB).where('id', '>', paused.id).executeTakeFirstOrThrow();
    expect(next.status).toBe('queued');
    expect((await task(next.id)).message).toBe('限流暂停后的续跑：将于 09:00 UTC 开始，从断点继续 1 个个号');
    expect((await task(next.id, 'en')).message).toBe('Continuation after the rate limit: starts at 09:00 UTC and goes on where it stopped (personal accounts: 1)');

    // The personal accounts screen: the account's last sync error.
    const zh = await account(id);
    expect(zh).toMatchObject({ last_sync_status: 'queued' });
    expect(zh.last_sync_error).toMatch(/^同步因平台限流暂停（.+），已写入的数据保留，将于 09:00 UTC 从断点继续$/);
    const en = await account(id, 'en');
    expect(en).toMatchObject({ last_sync_status: 'queued' });
    expect(en.last_sync_error).toMatch(/^The sync was paused by the platform’s rate limit \(.+\); what was written is kept, and it continues where it stopped at 09:00 UTC$/);
  }, 60_000);
});
