import { textIn, type Bilingual } from '@ads/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext, JobResult } from '../../jobs/types.ts';
import { createMetaPlatformClient } from '../../platform/meta-adapter.ts';
import type { AdPlatformClient } from '../../platform/types.ts';
import { buildTestApp, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { testLog } from '../../test/jobs.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { syncPersonalAccountsJob, type SyncJobData } from './personal-accounts.jobs.ts';
import { SYNC_JOB } from './personal-accounts.service.ts';

// The sync under a binding hourly app budget: the run pauses when the platform's rate limit
// refuses it, keeps what it wrote and names its continuation; after the window the continuation
// goes on from the resume point until every ad account and link is there exactly once.
let sim: TestSimulator;
let t: TestApp;
let managerToken: string;
/** The Graph client on the simulator, its waits moving the frozen sim clock (as the bench's throttled run): no real waiting. */
let throttled: AdPlatformClient;

beforeAll(async () => {
  sim = await startTestSimulator();
  t = await buildTestApp({ platform: sim.platform });
  const manager = await createUser(t.db, { is_admin: 1 });
  managerToken = await t.login(manager.account, manager.password);
  throttled = createMetaPlatformClient(
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
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

/** A job text in Chinese (the runner stores both languages). */
const zh = (text: string | Bilingual | undefined) => (text === undefined ? undefined : textIn(text, 'zh'));

function context(data: SyncJobData, platform: AdPlatformClient, runId = 0) {
  const ctx: JobContext<SyncJobData> = {
    data,
    db: t.db,
    platform,
    clock: t.clock,
    config: testConfig(),
    log: testLog(),
    runId,
    signal: new AbortController().signal,
    progress: async () => {},
  };
  return ctx;
}

async function connect(user: SimUser): Promise<number> {
  const res = await t.call('/api/personal-accounts/connect_token', { access_token: user.access_token }, { token: managerToken });
  expect(res.code, res.message).toBe(0);
  return res.data.id;
}

/** What the database holds of `user`'s assets, with duplicates counted. */
async function holdings(user: SimUser, personalAccountId: number) {
  const accounts = user.ad_accounts.map((a) => a.id);
  const { rows } = await sql<Record<string, number>>`select
    (select count(*) from ad_accounts where platform_id = any(${accounts}::text[])) as ad_accounts,
    (select count(distinct platform_id) from ad_accounts where platform_id = any(${accounts}::text[])) as distinct_ad_accounts,
    (select count(*) from personal_account_ad_accounts where personal_account_id = ${personalAccountId} and reachable) as account_links,
    (select count(*) from personal_account_pages where personal_account_id = ${personalAccountId} and reachable and page_token_enc is not null) as page_links,
    (select count(*) from pixels where platform_id = any(${user.pixels.map((p) => p.id)}::text[])) as pixels,
    (select count(*) from pixel_ad_accounts l join ad_accounts a on a.id = l.ad_account_id where a.platform_id = any(${accounts}::text[]) and l.source = 'platform') as pixel_links,
    (select count(distinct (l.pixel_id, l.ad_account_id)) from pixel_ad_accounts l join ad_accounts a on a.id = l.ad_account_id where a.platform_id = any(${accounts}::text[])) as distinct_pixel_links`.execute(t.db);
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
}

const syncState = (id: number) => t.db.selectFrom('personal_accounts').select(['last_sync_status', 'last_sync_error', 'last_synced_at']).where('id', '=', id).executeTakeFirstOrThrow();

describe('sync-personal-accounts under a binding hourly budget', () => {
  it('pauses on the rate limit, keeps what it wrote, and its continuations complete every ad account and link exactly once', async () => {
    const user = await sim.createUser({ name: 'Budget FB', ad_accounts: 110, pages: 3, pixels: 2 });
    const id = await connect(user);
    // 60 calls per hour; a complete sync needs 116 (2 pages of ad accounts, the pages, 3 batches of 50 + 1).
    await sim.control('PUT', '/__sim/rate-limits', { preset: 'standard', app_calls_per_hour: 60 });
    try {
      const started = t.clock.now();
      const first = await syncPersonalAccountsJob.run(context({ ids: [id] }, throttled));
      expect(first.status, zh(first.message)).toBe('success');
      expect(zh(first.message)).toMatch(/^平台限流，同步已暂停：已写入的数据保留，将于 09:00 UTC 从断点继续（1 个个号）。/);
      // The app limit is a rolling hour: the run's calls leave it an hour after the run began.
      expect(first.continuation?.at).toEqual(new Date(started.getTime() + 3_600_000));
      expect(zh(first.continuation?.message)).toContain('09:00 UTC');
      expect(first.summary).toMatchObject({ accounts: 1, synced: 0, paused: [id], resume_at: '2026-11-01T09:00:00.000Z' });
      const data = first.continuation!.data as SyncJobData;
      expect(data.resume?.[id]).toMatchObject({ phase: 'pixels', counts: { ad_accounts: 110, new_ad_accounts: 110, pages: 3 } });

      // Every ad account and page is written; the pixel links of the first chunk of 50 too.
      expect(await holdings(user, id)).toEqual({ ad_accounts: 110, distinct_ad_accounts: 110, account_links: 110, page_links: 3, pixels: 2, pixel_links: 100, distinct_pixel_links: 100 });
      expect(await syncState(id)).toMatchObject({ last_sync_status: 'queued', last_sync_error: expect.stringContaining('将于 09:00 UTC 从断点继续') });

      // After the window, continuation after continuation until one completes.
      const runs: JobResult[] = [first];
      let last = first;
      while (last.continuation && runs.length < 6) {
        const wait = last.continuation.at.getTime() - t.clock.now().getTime();
        t.clock.advance(wait);
        await sim.advance(Math.ceil(wait / 1000));
        last = await syncPersonalAccountsJob.run(context(last.continuation.data as SyncJobData, throttled));
        runs.push(last);
      }
      // Run 1: ad accounts, pages, pixels of the first 50; run 2: the next 50; run 3: the last 10.
      expect(last.continuation).toBeUndefined();
      expect(runs.length).toBe(3);
      expect(zh(runs[1]!.message)).toContain('将于 10:00 UTC 从断点继续');
      expect(last.status, zh(last.message)).toBe('success');
      // The summary covers the whole sync, not just the last leg.
      expect(last.summary).toMatchObject({ accounts: 1, synced: 1, ad_accounts: 110, new_ad_accounts: 110, pages: 3, pixels: 2, invalid: [], failed: [] });
      expect(await holdings(user, id)).toEqual({ ad_accounts: 110, distinct_ad_accounts: 110, account_links: 110, page_links: 3, pixels: 2, pixel_links: 220, distinct_pixel_links: 220 });
      expect(await syncState(id)).toMatchObject({ last_sync_status: 'success', last_sync_error: null, last_synced_at: t.clock.now() });

      // A later full run starts afresh (nothing pending) and finds everything in place.
      await sim.control('PUT', '/__sim/rate-limits', { preset: 'standard' });
      const fresh = await syncPersonalAccountsJob.run(context({ ids: [id] }, sim.platform));
      expect(fresh.summary).toMatchObject({ synced: 1, ad_accounts: 110, new_ad_accounts: 0, pixels: 2 });
      expect(await holdings(user, id)).toEqual({ ad_accounts: 110, distinct_ad_accounts: 110, account_links: 110, page_links: 3, pixels: 2, pixel_links: 220, distinct_pixel_links: 220 });
    } finally {
      await sim.control('PUT', '/__sim/rate-limits', { preset: 'standard' });
    }
  });

  it('a scheduled run leaves an account with a pending continuation to it; a continuation overtaken by a later sync does nothing', async () => {
    const user = await sim.createUser({ name: 'Pending FB', ad_accounts: 2, pages: 1, pixels: 1 });
    const id = await connect(user);
    const others = await t.db.selectFrom('personal_accounts').select('id').where('deleted_at', 'is', null).where('status', '!=', 'invalid').where('id', '!=', id).execute();
    const due = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const pending = await t.db
      .insertInto('job_runs')
      .values({ job_name: SYNC_JOB, trigger: 'manual', created_by: null, data: JSON.stringify({ resume: { [id]: null }, due }), status: 'queued', queued_at: t.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();

    const scheduled = await syncPersonalAccountsJob.run(context({}, sim.platform));
    expect(scheduled.status, zh(scheduled.message)).toBe('success');
    expect(scheduled.summary).toMatchObject({ accounts: others.length, synced: others.length });

    // An older continuation of the same account defers to the pending (newer) one.
    const older = await syncPersonalAccountsJob.run(context({ resume: { [id]: null }, due }, sim.platform, pending.id - 1));
    expect(older).toMatchObject({ status: 'skipped', message: { zh: '续跑的个号已由之后的同步完成' } });

    // Once a sync of the account finished after the pause, the pending continuation has nothing left to do.
    const pausedAt = t.clock.now().toISOString();
    t.clock.advance(60_000);
    const now = await syncPersonalAccountsJob.run(context({ ids: [id] }, sim.platform));
    expect(now.summary).toMatchObject({ synced: 1, ad_accounts: 2 });
    const stale = await syncPersonalAccountsJob.run(
      context({ resume: { [id]: { phase: 'pixels', after: 0, paused_at: pausedAt, counts: { ad_accounts: 2, new_ad_accounts: 2, unreachable_ad_accounts: 0, pages: 1, new_pages: 1, new_pixels: 0, pixel_ids: [] } } }, due }, sim.platform, pending.id),
    );
    expect(stale).toMatchObject({ status: 'skipped' });
  });
});
