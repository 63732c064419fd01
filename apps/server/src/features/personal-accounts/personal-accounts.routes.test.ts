import { REQUIRED_SCOPES } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createPersonalAccount, createScopeOrg, createUser } from '../../test/factories.ts';
import { startTestSimulator, type TestSimulator } from '../../test/simulator.ts';

// Personal accounts over the API, with the Graph client talking to the simulator over HTTP.
let sim: TestSimulator;
let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  sim = await startTestSimulator();
  t = await buildTestApp({ platform: sim.platform });
  org = await createScopeOrg(t.db, ['/auth/personage']);
  for (const [k, u] of Object.entries(org)) if (k !== 'departments') tokens[k] = await t.login((u as any).account, (u as any).password);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const call = (who: string, path: string, body?: unknown, lang?: string) => t.call(`/api/personal-accounts/${path}`, body, { token: tokens[who], ...(lang && { lang }) });
const paCount = async () => Number((await t.db.selectFrom('personal_accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('connect_token', () => {
  it('checks the token, stores it encrypted for the caller, and queues a sync of its assets', async () => {
    const user = await sim.createUser({ name: 'Alice FB', ad_accounts: 2 });
    const res = await call('s1', 'connect_token', { access_token: user.access_token });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      fb_user_id: user.user.id,
      name: 'Alice FB',
      status: 'valid',
      status_reason: null,
      owner: { id: org.s1.id, name: expect.any(String) },
      missing_scopes: [],
      hosted: false,
      last_sync_status: 'queued',
      ad_account_count: 0,
    });
    expect(res.data.scopes).toEqual(expect.arrayContaining([...REQUIRED_SCOPES]));
    // 60 days from the (shared) clock start.
    expect(res.data.token_expires_at).toBe('2026-12-31T08:00:00.000Z');

    const row = await t.db.selectFrom('personal_accounts').selectAll().where('id', '=', res.data.id).executeTakeFirstOrThrow();
    expect(row.token_enc).toMatch(/^v1\./);
    expect(row.token_enc).not.toContain(user.access_token);
    expect(JSON.stringify(res)).not.toContain(user.access_token);
    const audit = await t.db.selectFrom('audit_logs').selectAll().where('entity_type', '=', 'personal_account').where('entity_id', '=', String(res.data.id)).execute();
    expect(audit.map((a) => a.action)).toEqual(['personal_account.connect']);
    expect(JSON.stringify(audit)).not.toContain(user.access_token);

    const run = await t.db.selectFrom('job_runs').selectAll().where('job_name', '=', 'sync-personal-accounts').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(run).toMatchObject({ created_by: org.s1.id, status: 'queued' });
    expect(run.data).toEqual({ ids: [res.data.id] });
  });

  it('updates an already connected Facebook user instead of adding another', async () => {
    const user = await sim.createUser({ name: 'Bob FB', ad_accounts: 1 });
    const first = await call('s1', 'connect_token', { access_token: user.access_token });
    const before = await paCount();
    const fresh = await sim.control('POST', '/__sim/tokens', { user_id: user.user.id, scopes: [...REQUIRED_SCOPES], expires_in: 30 * 86400 });
    const again = await call('s1', 'connect_token', { access_token: fresh.access_token });
    expect(again.data.id).toBe(first.data.id);
    expect(again.data.token_expires_at).toBe('2026-12-01T08:00:00.000Z');
    expect(await paCount()).toBe(before);
    const actions = await t.db.selectFrom('audit_logs').select('action').where('entity_id', '=', String(first.data.id)).where('entity_type', '=', 'personal_account').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['personal_account.connect', 'personal_account.reconnect']);
  });

  it('refuses an unknown, expired or revoked token with a clear message and stores nothing', async () => {
    const before = await paCount();
    const unknown = await call('s1', 'connect_token', { access_token: 'EAAB' + 'x'.repeat(40) }, 'en');
    expect(unknown).toMatchObject({ code: -2, message: 'The token was refused and not saved: The platform refused the token (expired, revoked or password changed). Connect the account again.' });
    expect(unknown.data.errors[0].field).toBe('access_token');

    const expiring = await sim.createUser({ name: 'Expired FB' });
    await sim.control('POST', '/__sim/tokens/expire', { token: expiring.access_token });
    const expired = await call('s1', 'connect_token', { access_token: expiring.access_token }, 'en');
    expect(expired.code).toBe(-2);
    expect(expired.message).toMatch(/^The token was refused and not saved: The token expired on 2026-11-01 08:00 UTC\./);

    const revoked = await sim.createUser({ name: 'Revoked FB' });
    await sim.control('POST', '/__sim/tokens/revoke', { token: revoked.access_token, reason: 'password_changed' });
    expect((await call('s1', 'connect_token', { access_token: revoked.access_token })).message).toMatch(/^令牌无效，未保存：平台拒绝了该令牌/);
    expect(await paCount()).toBe(before);
  });

  it('refuses page tokens (they cannot list ad accounts)', async () => {
    const user = await sim.createUser({ name: 'Page owner', pages: 1 });
    const res = await call('s1', 'connect_token', { access_token: user.pages[0]!.access_token }, 'en');
    expect(res).toMatchObject({ code: -2, message: 'Only user or system-user tokens can be connected; this is a PAGE token.' });
  });

  it('flags a token that expires within 7 days and lists missing scopes', async () => {
    const user = await sim.createUser({ name: 'Short FB', token_expires_in: 3 * 86400, scopes: ['ads_read', 'pages_show_list'] });
    const res = await call('s1', 'connect_token', { access_token: user.access_token }, 'en');
    expect(res.data).toMatchObject({ status: 'expiring', status_reason: 'The token expires on 2026-11-04 08:00 UTC. Connect the account again soon.' });
    expect(res.data.missing_scopes).toEqual(['ads_management', 'business_management', 'pages_read_engagement', 'pages_manage_ads']);
  });

  it('gives the account to someone else only within the caller reach', async () => {
    const a = await sim.createUser({ name: 'For s3' });
    expect((await call('s1', 'connect_token', { access_token: a.access_token, owner_user_id: org.s3.id })).code).toBe(403);
    const byLeader = await call('leader', 'connect_token', { access_token: a.access_token, owner_user_id: org.s3.id });
    expect(byLeader.data.owner.id).toBe(org.s3.id);
    // s4 (another department) owns it now; s1 pasting the same user's token may not take it over.
    await call('manager', 'set_owner', { ids: [byLeader.data.id], owner_user_id: org.s4.id });
    const taken = await call('s1', 'connect_token', { access_token: a.access_token }, 'en');
    expect(taken).toMatchObject({ code: -2, message: 'This Facebook user is already connected by someone outside your scope. Ask their leader or a manager.' });
  });
});

describe('list and actions in scope', () => {
  let own: Record<string, number>;
  beforeAll(async () => {
    own = {
      s1: (await createPersonalAccount(t.db, { name: 'Scope s1', owner_user_id: org.s1.id })).id,
      s3: (await createPersonalAccount(t.db, { name: 'Scope s3', owner_user_id: org.s3.id, token_expires_at: new Date('2026-11-03T00:00:00Z') })).id,
      s4: (await createPersonalAccount(t.db, { name: 'Scope s4', owner_user_id: org.s4.id, status: 'invalid' })).id,
      none: (await createPersonalAccount(t.db, { name: 'Scope nobody', owner_user_id: null })).id,
    };
  });
  const listNames = async (who: string, body: object = {}) => (await call(who, 'list', { keyword: 'Scope', ...body })).data.list.map((p: any) => p.name).sort();

  it('shows staff their own accounts, leaders their subtree, managers all (the unowned too)', async () => {
    expect(await listNames('s1')).toEqual(['Scope s1']);
    expect(await listNames('leader')).toEqual(['Scope s1', 'Scope s3']);
    expect(await listNames('manager')).toEqual(['Scope nobody', 'Scope s1', 'Scope s3', 'Scope s4']);
  });

  it('filters by status as the clock sees it: a token expiring in two days is "expiring" before any check', async () => {
    expect(await listNames('manager', { status: 'expiring' })).toEqual(['Scope s3']);
    expect(await listNames('manager', { status: 'invalid' })).toEqual(['Scope s4']);
    expect(await listNames('manager', { owner_user_id: org.s1.id })).toEqual(['Scope s1']);
    const s3 = (await call('leader', 'list', { keyword: 'Scope s3' }, 'en')).data.list[0];
    expect(s3).toMatchObject({ status: 'expiring', status_reason: 'The token expires on 2026-11-03 00:00 UTC. Connect the account again soon.' });
    // Two days later the same account reads as expired, still before any check.
    t.clock.advance(3 * 86400_000);
    try {
      expect(await listNames('manager', { status: 'invalid' })).toEqual(['Scope s3', 'Scope s4']);
    } finally {
      t.clock.advance(-3 * 86400_000);
    }
  });

  it('sets owner and hosting within scope, and audits each change', async () => {
    expect((await call('s1', 'set_owner', { ids: [own.s1], owner_user_id: org.s2.id })).code).toBe(403);
    expect((await call('leader', 'set_owner', { ids: [own.s1], owner_user_id: org.s3.id })).data).toEqual({ updated: 1 });
    expect((await call('leader', 'set_owner', { ids: [own.s1], owner_user_id: org.s4.id })).code).toBe(403);
    expect((await call('leader', 'set_owner', { ids: [own.s1], owner_user_id: null }, 'en')).message).toBe('Only managers can remove the owner.');
    expect((await call('leader', 'set_owner', { ids: [own.s4], owner_user_id: org.s3.id })).code).toBe(403);
    expect((await call('manager', 'set_owner', { ids: [own.s1], owner_user_id: org.s1.id })).code).toBe(0);

    expect((await call('s1', 'set_hosted', { ids: [own.s1], hosted: true })).data).toEqual({ updated: 1 });
    expect(await listNames('s1', { hosted: true })).toEqual(['Scope s1']);
    expect((await call('s1', 'set_hosted', { ids: [own.s1, own.s3], hosted: true })).code).toBe(403);
    expect((await call('s1', 'set_hosted', { ids: [999999], hosted: true })).message).toBe('个号不存在或已断开');
    const actions = await t.db.selectFrom('audit_logs').select('action').where('entity_type', '=', 'personal_account').where('entity_id', '=', String(own.s1)).orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['personal_account.set_owner', 'personal_account.set_owner', 'personal_account.set_hosted']);
  });

  it('queues one sync task for the listed accounts, which its creator can follow in tasks', async () => {
    expect((await call('s1', 'sync', { ids: [own.s1, own.s4] })).code).toBe(403);
    const res = await call('leader', 'sync', { ids: [own.s3, own.s1] });
    expect(res.data).toEqual({ task_id: expect.any(Number) });
    const task = await t.call('/api/tasks/get', { id: res.data.task_id }, { token: tokens.leader });
    expect(task.data).toMatchObject({ id: res.data.task_id, job_name: 'sync-personal-accounts', status: 'queued', created_by: org.leader.id });
    expect((await call('leader', 'list', { keyword: 'Scope s3' })).data.list[0].last_sync_status).toBe('queued');
  });

  it('disconnects: the token is wiped, the account leaves the list, ad accounts it reached stay as unreachable', async () => {
    const account = await createAdAccount(t.db, { name: 'Reached only by s1 PA', users: [org.s1.id] });
    await t.db.insertInto('personal_account_ad_accounts').values({ personal_account_id: own.s1!, ad_account_id: account.id }).execute();
    await t.db.updateTable('personal_accounts').set({ token_enc: 'v1.00000000.x' }).where('id', '=', own.s1!).execute();
    expect((await call('s2', 'disconnect', { id: own.s1 })).code).toBe(403);
    expect((await call('s1', 'disconnect', { id: own.s1 })).code).toBe(0);
    expect(await listNames('s1')).toEqual([]);
    const row = await t.db.selectFrom('personal_accounts').select(['token_enc', 'deleted_at']).where('id', '=', own.s1!).executeTakeFirstOrThrow();
    expect(row.token_enc).toBeNull();
    expect(row.deleted_at).not.toBeNull();
    const link = await t.db.selectFrom('personal_account_ad_accounts').select('reachable').where('ad_account_id', '=', account.id).executeTakeFirstOrThrow();
    expect(link.reachable).toBe(false);
    expect(await t.db.selectFrom('ad_accounts').select('id').where('id', '=', account.id).executeTakeFirst()).toBeDefined();
  });
});

describe('OAuth', () => {
  /** Opens the dialog URL like a browser and clicks one of its buttons; answers where the dialog redirects. */
  async function clickThrough(url: string, action: 'continue' | 'cancel', userId?: string) {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const hidden = Object.fromEntries([...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))]));
    expect(hidden).toHaveProperty('state');
    const form = new URLSearchParams({ ...hidden, user_id: userId ?? 'new', action });
    const res = await fetch(url, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  /**
   * oauth_start as a browser calls it: the dialog URL and the cookie the answer sets (the
   * browser's "jar", `name=value`), which is sent again with the next calls, as a browser would.
   */
  async function startOAuth(who: string, jar = '') {
    const res = await t.app.inject({ method: 'POST', url: '/api/personal-accounts/oauth_start', headers: { authorization: `Bearer ${tokens[who]}`, ...(jar && { cookie: jar }) } });
    expect(res.json().code).toBe(0);
    const setCookie = String(res.headers['set-cookie'] ?? '');
    return { url: res.json().data.url as string, setCookie, jar: setCookie.split(';')[0]! };
  }

  const callback = (query: URLSearchParams | string, jar: string, lang = 'en') =>
    t.app.inject({ method: 'GET', url: `/api/personal-accounts/oauth_callback?${query.toString()}`, headers: { 'accept-language': lang, ...(jar && { cookie: jar }) } });
  const errorOf = (res: { headers: Record<string, unknown> }) => new URL(res.headers.location as string, 'http://x').searchParams.get('error');

  it('round trip: the dialog, the callback with code and state in the starter\'s browser, a stored account owned by the starter', async () => {
    const fbUser = await sim.createUser({ name: 'OAuth FB', ad_accounts: 2 });
    const start = await startOAuth('s2');
    const dialog = new URL(start.url);
    expect(dialog.origin).toBe(sim.url);
    expect(dialog.searchParams.get('redirect_uri')).toBe('http://localhost:8080/api/personal-accounts/oauth_callback');
    expect(dialog.searchParams.get('scope')).toBe(REQUIRED_SCOPES.join(','));
    // The state travels only through the browser: the database keeps its hash.
    const state = dialog.searchParams.get('state')!;
    expect(JSON.stringify(await t.db.selectFrom('oauth_states').selectAll().execute())).not.toContain(state);
    // The browser that starts gets a cookie only the callback's path sees, out of scripts' reach; the database keeps its hash.
    expect(start.setCookie).toMatch(/^ads_oauth_browser=[A-Za-z0-9_-]{43}; Path=\/api\/personal-accounts\/; Max-Age=600; HttpOnly; SameSite=Lax$/);
    expect(JSON.stringify(await t.db.selectFrom('oauth_states').selectAll().execute())).not.toContain(start.jar.split('=')[1]);

    const back = await clickThrough(start.url, 'continue', fbUser.user.id);
    expect(back.origin + back.pathname).toBe('http://localhost:8080/api/personal-accounts/oauth_callback');
    expect(back.searchParams.get('state')).toBe(state);
    const res = await callback(back.searchParams, start.jar);
    expect(res.statusCode).toBe(302);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/operation\/auth\?connected=\d+$/);
    const id = Number(location.split('=')[1]);
    const stored = await t.db.selectFrom('personal_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ fb_user_id: fbUser.user.id, name: 'OAuth FB', owner_user_id: org.s2.id, status: 'valid' });
    // A long-lived token (about 60 days), not the 2-hour one the code gives.
    expect(stored.token_expires_at!.getTime() - t.clock.now().getTime()).toBeGreaterThan(59 * 86400_000);
    const audit = await t.db.selectFrom('audit_logs').select(['actor_id', 'action']).where('entity_type', '=', 'personal_account').where('entity_id', '=', String(id)).executeTakeFirstOrThrow();
    expect(audit).toEqual({ actor_id: org.s2.id, action: 'personal_account.connect' });
    expect(await t.db.selectFrom('job_runs').select('id').where('created_by', '=', org.s2.id).where('job_name', '=', 'sync-personal-accounts').executeTakeFirst()).toBeDefined();

    // The state works once.
    const replay = await callback(back.searchParams, start.jar);
    expect(replay.headers.location).toBe(`/operation/auth?error=${encodeURIComponent('The authorization link is invalid, used or expired (it lasts 10 minutes). Start again.')}`);
  });

  it('a dialog link sent to a colleague connects nothing in the colleague\'s browser, with or without a cookie of its own (RFC 6749 §10.12)', async () => {
    const victim = await sim.createUser({ name: 'Colleague FB', ad_accounts: 1 });
    // s2 starts, and sends the dialog link to s1, who completes it as their own Facebook user.
    const attacker = await startOAuth('s2');
    const back = await clickThrough(attacker.url, 'continue', victim.user.id);
    const before = await paCount();
    const colleague = await startOAuth('s1');
    for (const jar of ['', colleague.jar, 'ads_oauth_browser=forged-value-forged-value-forged-value-forg']) {
      const res = await callback(back.searchParams, jar, 'zh');
      expect(res.statusCode, jar).toBe(302);
      expect(errorOf(res), jar).toBe('授权须在发起授权的同一浏览器中完成，请在本浏览器中重新点击“授权新个号”');
    }
    expect(await paCount()).toBe(before);
    expect(await t.db.selectFrom('personal_accounts').select('id').where('fb_user_id', '=', victim.user.id).executeTakeFirst()).toBeUndefined();
    // The refusals did not use the state up: the browser that started it can still finish.
    const res = await callback(back.searchParams, attacker.jar);
    expect(res.headers.location).toMatch(/^\/operation\/auth\?connected=\d+$/);
  });

  it('one browser may have several dialogs open: a second start keeps the browser\'s cookie', async () => {
    const first = await startOAuth('s2');
    const second = await startOAuth('s2', first.jar);
    expect(second.jar).toBe(first.jar);
    const a = await sim.createUser({ name: 'Tab A', ad_accounts: 1 });
    const b = await sim.createUser({ name: 'Tab B', ad_accounts: 1 });
    const backB = await clickThrough(second.url, 'continue', b.user.id);
    const backA = await clickThrough(first.url, 'continue', a.user.id);
    expect((await callback(backB.searchParams, first.jar)).headers.location).toMatch(/connected=\d+$/);
    expect((await callback(backA.searchParams, first.jar)).headers.location).toMatch(/connected=\d+$/);
  });

  it('marks the cookie Secure when the app is served over https', async () => {
    const https = await buildTestApp({ platform: sim.platform, config: { publicUrl: 'https://ads.example.com' } });
    try {
      const u = await createUser(https.db, { is_admin: 1 });
      const res = await https.app.inject({ method: 'POST', url: '/api/personal-accounts/oauth_start', headers: { authorization: `Bearer ${await https.login(u.account, u.password)}` } });
      expect(res.headers['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await https.close();
    }
  });

  it('sends the browser back with a message when the person cancels, or the state expired', async () => {
    const browser = await startOAuth('s2');
    const cancelled = await clickThrough(browser.url, 'cancel');
    const res = await callback(cancelled.searchParams, browser.jar, 'zh');
    expect(res.statusCode).toBe(302);
    expect(new URL(res.headers.location as string, 'http://x').searchParams.get('error')).toBe('已在 Facebook 取消授权');

    const again = await startOAuth('s2', browser.jar);
    const late = await clickThrough(again.url, 'continue');
    t.clock.advance(11 * 60_000);
    try {
      const expired = await callback(late.searchParams, browser.jar);
      expect(new URL(expired.headers.location as string, 'http://x').searchParams.get('error')).toMatch(/^The authorization link is invalid, used or expired/);
    } finally {
      t.clock.advance(-11 * 60_000);
    }
  });

  it('answers the envelope, not a redirect, to a request that is no return from the dialog', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/personal-accounts/oauth_callback' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: -2, message: '授权链接无效、已使用或已过期（10 分钟内有效），请重新发起授权' });
  });
});

describe('check_token', () => {
  it('asks the platform now: a revoked token turns the account invalid with the reason, and the change is audited', async () => {
    const user = await sim.createUser({ name: 'Check FB', ad_accounts: 1 });
    const connected = await call('s4', 'connect_token', { access_token: user.access_token });
    expect((await call('s4', 'check_token', { id: connected.data.id })).data.status).toBe('valid');
    await sim.control('POST', '/__sim/tokens/revoke', { token: user.access_token, reason: 'app_removed' });
    const checked = await call('s4', 'check_token', { id: connected.data.id }, 'en');
    expect(checked.data).toMatchObject({ status: 'invalid', status_reason: 'The platform refused the token (expired, revoked or password changed). Connect the account again.' });
    expect(checked.data.last_checked_at).toBe(t.clock.now().toISOString());
    const audit = await t.db.selectFrom('audit_logs').select(['before', 'after']).where('action', '=', 'personal_account.token_status').where('entity_id', '=', String(connected.data.id)).executeTakeFirstOrThrow();
    expect(audit.before).toEqual({ status: 'valid', reason: null });
    expect(audit.after).toMatchObject({ status: 'invalid', reason: 'TOKEN_INVALID' });
    expect((await call('s1', 'check_token', { id: connected.data.id })).code).toBe(403);
  });
});
