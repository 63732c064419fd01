import { textIn, type Bilingual } from '@ads/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext, JobResult } from '../../jobs/types.ts';
import type { AdPlatformClient } from '../../platform/types.ts';
import { buildTestApp, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { testLog } from '../../test/jobs.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { checkTokensJob, syncPersonalAccountsJob } from './personal-accounts.jobs.ts';

// The sync and token-check jobs against the simulator over HTTP: paging, idempotent reruns, a run
// killed midway, dropped connections, dead tokens, and expiry as the clocks move.
let sim: TestSimulator;
let t: TestApp;
let managerToken: string;
let manager: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  sim = await startTestSimulator();
  t = await buildTestApp({ platform: sim.platform });
  manager = await createUser(t.db, { is_admin: 1 });
  managerToken = await t.login(manager.account, manager.password);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

interface Progress {
  done: number;
  total: number;
  message?: string | Bilingual | undefined;
}

/** A job text in Chinese (the runner stores both languages). */
const zh = (text: string | Bilingual | undefined) => (text === undefined ? undefined : textIn(text, 'zh'));

function context<T>(data: T, o: { signal?: AbortSignal; onProgress?: (p: Progress) => void } = {}) {
  const progress: Progress[] = [];
  const ctx: JobContext<T> = {
    data,
    db: t.db,
    platform: sim.platform,
    clock: t.clock,
    config: testConfig(),
    log: testLog(),
    runId: 0,
    signal: o.signal ?? new AbortController().signal,
    progress: async (done, total, message) => {
      progress.push({ done, total, message });
      o.onProgress?.({ done, total, message });
    },
  };
  return { ctx, progress };
}

const runSync = (ids?: number[], o?: Parameters<typeof context>[1]) => {
  const { ctx, progress } = context(ids ? { ids } : {}, o);
  return { result: syncPersonalAccountsJob.run(ctx), progress };
};

async function connect(user: SimUser): Promise<number> {
  const res = await t.call('/api/personal-accounts/connect_token', { access_token: user.access_token }, { token: managerToken });
  expect(res.code, res.message).toBe(0);
  return res.data.id;
}

/** Row counts of every table a sync writes. */
async function counts() {
  const { rows } = await sql<Record<string, number>>`select
    (select count(*) from ad_accounts) as ad_accounts,
    (select count(*) from personal_account_ad_accounts) as account_links,
    (select count(*) from pages) as pages,
    (select count(*) from personal_account_pages) as page_links,
    (select count(*) from pixels) as pixels,
    (select count(*) from pixel_ad_accounts) as pixel_links`.execute(t.db);
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
}

const accountsOf = async (user: SimUser) => Number((await t.db.selectFrom('ad_accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('platform_id', 'in', user.ad_accounts.map((a) => a.id)).executeTakeFirstOrThrow()).n);

describe('sync-personal-accounts', () => {
  let big: SimUser;
  let bigId: number;

  it('syncs 120 ad accounts (several pages of results), their pages with page tokens, and pixels', async () => {
    big = await sim.createUser({ name: 'Big FB', ad_accounts: 120, pages: 5, pixels: 3, currency: 'JPY', timezone_name: 'Asia/Tokyo' });
    bigId = await connect(big);
    const { result, progress } = runSync([bigId]);
    const res = await result;
    expect(res.status, zh(res.message)).toBe('success');
    expect(res.summary).toMatchObject({ accounts: 1, synced: 1, ad_accounts: 120, new_ad_accounts: 120, pages: 5, pixels: 3, invalid: [], failed: [] });
    expect(await counts()).toEqual({ ad_accounts: 120, account_links: 120, pages: 5, page_links: 5, pixels: 3, pixel_links: 360 });
    // One step per ad account, one for the pages, one per 50 accounts of pixels.
    expect(progress.at(-1)).toMatchObject({ done: 124, total: 124 });
    expect(progress.filter((p) => zh(p.message)?.includes('act_')).length).toBe(120);

    const account = await t.db.selectFrom('ad_accounts').selectAll().where('platform_id', '=', big.ad_accounts[0]!.id).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ currency: 'JPY', timezone_name: 'Asia/Tokyo', account_status: 1, spend_cap_minor: null });
    const pageLinks = await t.db.selectFrom('personal_account_pages').selectAll().execute();
    for (const link of pageLinks) {
      expect(link.page_token_enc).toMatch(/^v1\./);
      expect(link.tasks.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(pageLinks)).not.toContain(big.pages[0]!.access_token);

    const listed = (await t.call('/api/personal-accounts/list', { keyword: 'Big FB' }, { token: managerToken })).data.list[0];
    expect(listed).toMatchObject({ ad_account_count: 120, page_count: 5, pixel_count: 3, last_sync_status: 'success', last_sync_error: null, last_synced_at: t.clock.now().toISOString() });
  });

  it('changes nothing on a rerun: same rows, same page-token ciphertexts, no updated_at moved', async () => {
    const before = await counts();
    const stamps = await t.db.selectFrom('ad_accounts').select(['id', 'updated_at']).orderBy('id').execute();
    const tokens = await t.db.selectFrom('personal_account_pages').select(['page_id', 'page_token_enc']).orderBy('page_id').execute();
    t.clock.advance(60_000);
    const res = await runSync([bigId]).result;
    expect(res.summary).toMatchObject({ ad_accounts: 120, new_ad_accounts: 0 });
    expect(await counts()).toEqual(before);
    expect(await t.db.selectFrom('ad_accounts').select(['id', 'updated_at']).orderBy('id').execute()).toEqual(stamps);
    expect(await t.db.selectFrom('personal_account_pages').select(['page_id', 'page_token_enc']).orderBy('page_id').execute()).toEqual(tokens);
  });

  it('marks ad accounts the token no longer reaches unreachable, and never deletes them', async () => {
    const gone = await t.db
      .insertInto('ad_accounts')
      .values({ platform_id: 'act_1', account_id: '1', name: 'Lost access', currency: 'USD', timezone_name: 'UTC', account_status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('personal_account_ad_accounts').values({ personal_account_id: bigId, ad_account_id: gone.id }).execute();
    const res = await runSync([bigId]).result;
    expect(res.status).toBe('success');
    const link = await t.db.selectFrom('personal_account_ad_accounts').select('reachable').where('ad_account_id', '=', gone.id).executeTakeFirstOrThrow();
    expect(link.reachable).toBe(false);
    expect(await t.db.selectFrom('ad_accounts').select('id').where('id', '=', gone.id).executeTakeFirst()).toBeDefined();
    const listed = (await t.call('/api/personal-accounts/list', { keyword: 'Big FB' }, { token: managerToken })).data.list[0];
    expect(listed.ad_account_count).toBe(120);
  });

  it('a run aborted midway keeps what it wrote; the rerun completes without duplicates', async () => {
    const user = await sim.createUser({ name: 'Killed FB', ad_accounts: 60, pages: 2, pixels: 1 });
    const id = await connect(user);
    const before = await counts();
    const abort = new AbortController();
    // Ad accounts are written 50 to a transaction: stopped after the first chunk, the run keeps those 50.
    const run = runSync([id], { signal: abort.signal, onProgress: (p) => p.done === 50 && p.message && abort.abort(new Error('server shutting down')) });
    await expect(run.result).rejects.toThrow('server shutting down');
    expect(await accountsOf(user)).toBe(50);
    const state = await t.db.selectFrom('personal_accounts').select('last_sync_status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(state.last_sync_status).toBe('cancelled');

    const res = await runSync([id]).result;
    expect(res.summary).toMatchObject({ ad_accounts: 60, new_ad_accounts: 10 });
    expect(await accountsOf(user)).toBe(60);
    expect(await counts()).toEqual({ ...before, ad_accounts: before.ad_accounts! + 60, account_links: before.account_links! + 60, pages: before.pages! + 2, page_links: before.page_links! + 2, pixels: before.pixels! + 1, pixel_links: before.pixel_links! + 60 });
  });

  it('a connection dropped past the retries fails the run (retried by the engine); the rerun completes', async () => {
    const user = await sim.createUser({ name: 'Dropped FB', ad_accounts: 30, pages: 3, pixels: 1 });
    const id = await connect(user);
    // Every /me/accounts call (the pages, after the ad accounts) loses its connection until cleared.
    await sim.control('POST', '/__sim/faults', { path: '/me/accounts', drop: true, count: null });
    try {
      await expect(runSync([id]).result).rejects.toThrow(/Dropped FB/);
    } finally {
      await sim.control('DELETE', '/__sim/faults');
    }
    expect(await accountsOf(user)).toBe(30);
    const failed = await t.db.selectFrom('personal_accounts').select(['last_sync_status', 'last_sync_error', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(failed.last_sync_status).toBe('failed');
    expect(failed.last_sync_error).toBeTruthy();
    // A transient failure says nothing about the token.
    expect(failed.status).toBe('valid');

    const before = await counts();
    const res = await runSync([id]).result;
    expect(res.status).toBe('success');
    expect(await accountsOf(user)).toBe(30);
    expect(await counts()).toEqual({ ...before, pages: before.pages! + 3, page_links: before.page_links! + 3, pixels: before.pixels! + 1, pixel_links: before.pixel_links! + 30 });
  });

  it('marks an account whose token died invalid at once, fails the run saying so, and leaves it out of scheduled runs', async () => {
    const user = await sim.createUser({ name: 'Revoked FB', ad_accounts: 2 });
    const id = await connect(user);
    await sim.control('POST', '/__sim/tokens/revoke', { token: user.access_token, reason: 'password_changed' });
    const res = await runSync([id]).result;
    expect(res.status).toBe('failed');
    expect(zh(res.message)).toContain('个号「Revoked FB」的令牌已失效，已标记为失效并停止同步');
    expect(textIn(res.message!, 'en')).toContain('The token of the personal account "Revoked FB" no longer works; the account is marked invalid and its sync stopped');
    expect((res.summary as any).invalid).toEqual([{ id, name: 'Revoked FB', reason: expect.any(String) }]);
    const listed = (await t.call('/api/personal-accounts/list', { keyword: 'Revoked FB' }, { token: managerToken, lang: 'en' })).data.list[0];
    expect(listed).toMatchObject({ status: 'invalid', last_sync_status: 'failed' });
    expect(listed.status_reason).toMatch(/^The platform refused the token\. Connect the account again: /);

    const scheduled: JobResult = await runSync().result;
    const synced = await t.db.selectFrom('personal_accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('deleted_at', 'is', null).where('status', '!=', 'invalid').executeTakeFirstOrThrow();
    expect(scheduled.status).toBe('success');
    expect(scheduled.summary).toMatchObject({ accounts: Number(synced.n), invalid: [] });
  });
});

describe('a sync while the account is disconnected', () => {
  /**
   * The simulator's client, held at `method` until released: the sync waits there (after the
   * platform answered) while the test disconnects the account. No sleeping: the gate opens when the test says.
   */
  function gated(method: 'listAdAccounts' | 'listPages') {
    let release!: () => void;
    let reached!: () => void;
    const open = new Promise<void>((r) => (release = r));
    const waiting = new Promise<void>((r) => (reached = r));
    const platform: AdPlatformClient = Object.create(sim.platform);
    const original = sim.platform[method].bind(sim.platform) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(platform, {
      [method]: async (...args: unknown[]) => {
        const answer = await original(...args);
        reached();
        await open;
        return answer;
      },
    });
    return { platform, release, waiting };
  }

  it.each(['listAdAccounts', 'listPages'] as const)('disconnect wins when it lands while the sync waits on %s: no token or reachable link is written back', async (method) => {
    const user = await sim.createUser({ name: `Race ${method}`, ad_accounts: 3, pages: 2 });
    const id = await connect(user);
    const gate = gated(method);
    const { ctx } = context({ ids: [id] });
    const run = syncPersonalAccountsJob.run({ ...ctx, platform: gate.platform });
    await gate.waiting;
    expect((await t.call('/api/personal-accounts/disconnect', { id }, { token: managerToken })).code).toBe(0);
    gate.release();
    const result = await run;

    expect(await t.db.selectFrom('personal_accounts').select(['token_enc']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ token_enc: null });
    const pages = await t.db.selectFrom('personal_account_pages').select(['page_token_enc', 'reachable']).where('personal_account_id', '=', id).execute();
    expect(pages.filter((p) => p.page_token_enc !== null || p.reachable)).toEqual([]);
    const links = await t.db.selectFrom('personal_account_ad_accounts').select(['reachable']).where('personal_account_id', '=', id).execute();
    expect(links.filter((l) => l.reachable)).toEqual([]);
    // The run says the account was disconnected, and does not fail (nothing to retry).
    expect(result.status).toBe('skipped');
  });
});

describe('check-tokens', () => {
  it('flags a token as expiring a week ahead and invalid once it expired, as the clocks move', async () => {
    const user = await sim.createUser({ name: 'Aging FB', ad_accounts: 1 });
    const id = await connect(user);
    const status = async () => (await t.db.selectFrom('personal_accounts').select(['status', 'status_reason_key', 'last_checked_at']).where('id', '=', id).executeTakeFirstOrThrow());
    const check = () => checkTokensJob.run(context({}).ctx as JobContext<Record<string, never>>);

    let res = await check();
    expect(res.status).toBe('success');
    expect((await status()).status).toBe('valid');

    // 54 days on: the 60-day token has 6 days left.
    await sim.advance('54d');
    t.clock.advance(54 * 86400_000);
    res = await check();
    expect(await status()).toMatchObject({ status: 'expiring', status_reason_key: 'TOKEN_EXPIRING', last_checked_at: t.clock.now() });
    expect((res.summary as any).changed).toEqual(expect.arrayContaining([{ id, name: 'Aging FB', from: 'valid', to: 'expiring' }]));
    // Sessions idle for 54 days have ended too.
    managerToken = await t.login(manager.account, manager.password);
    const listed = (await t.call('/api/personal-accounts/list', { keyword: 'Aging FB' }, { token: managerToken, lang: 'en' })).data.list[0];
    expect(listed.status_reason).toBe('The token expires on 2026-12-31 08:00 UTC. Connect the account again soon.');

    await sim.advance('7d');
    t.clock.advance(7 * 86400_000);
    res = await check();
    expect(await status()).toMatchObject({ status: 'invalid', status_reason_key: 'TOKEN_EXPIRED' });
    expect((res.summary as any).changed).toEqual(expect.arrayContaining([{ id, name: 'Aging FB', from: 'expiring', to: 'invalid' }]));
    const audit = await t.db.selectFrom('audit_logs').select(['actor_id', 'after']).where('action', '=', 'personal_account.token_status').where('entity_id', '=', String(id)).orderBy('id').execute();
    expect(audit.map((a) => [a.actor_id, (a.after as any).status])).toEqual([
      [null, 'expiring'],
      [null, 'invalid'],
    ]);
  });
});
