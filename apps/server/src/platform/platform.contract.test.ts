import { startSimulator, type Simulator } from '@ads/meta-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGraphClient, type GraphClientTuning } from './graph-client.ts';
import { graphUserSchema } from './graph-schemas.ts';
import { createMetaPlatformClient, type MetaClientConfig } from './meta-adapter.ts';
import { PlatformError, type PlatformErrorKind } from './types.ts';

// The platform client against the Graph API simulator over real HTTP (STYLE.md §10), and against
// the real Graph API when META_LIVE_TOKEN, META_APP_ID and META_APP_SECRET are set. Waits never
// sleep: the injected sleeper records the delay and moves the simulator's clock instead.

const START = '2026-05-01T00:00:00Z';
const VERSION = 'v25.0';
let sim: Simulator;

async function control(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const successSchema = z.object({ success: z.literal(true) });
const fault = (rule: Record<string, unknown>) => control('POST', '/__sim/faults', rule);
const createUser = (input: Record<string, unknown> = {}) => control('POST', '/__sim/users', input);

/** A Graph call that bypasses our client (to set up state, or to play another process). */
async function rawGraph(method: 'GET' | 'POST', path: string, token: string, params: Record<string, string> = {}) {
  const body = new URLSearchParams(params);
  const url = `${sim.url}/${VERSION}/${path}${method === 'GET' ? `?${body}` : ''}`;
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: method === 'POST' ? body.toString() : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

interface Call {
  method: string;
  url: string;
  status: number | 'failed';
}

/**
 * A client wired to the simulator, with every HTTP exchange recorded (calls, in-flight peaks per
 * path) and a sleeper that moves the simulator clock by the delay asked for.
 */
function harness(opts: { tuning?: Partial<GraphClientTuning>; config?: Partial<MetaClientConfig> } = {}) {
  const calls: Call[] = [];
  const delays: number[] = [];
  const logs: Array<{ level: string; obj: object; msg?: string }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const inFlightByPath = new Map<string, number>();
  const maxInFlightByPath = new Map<string, number>();

  const recordingFetch: typeof fetch = async (input, init) => {
    const url = String(input);
    const path = new URL(url).pathname;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    inFlightByPath.set(path, (inFlightByPath.get(path) ?? 0) + 1);
    maxInFlightByPath.set(path, Math.max(maxInFlightByPath.get(path) ?? 0, inFlightByPath.get(path)!));
    const call: Call = { method: init?.method ?? 'GET', url, status: 'failed' };
    calls.push(call);
    try {
      const res = await fetch(input, init);
      // The exchange ends when the body is in, as it does for the client.
      const text = await res.text();
      call.status = res.status;
      return new Response(text, { status: res.status, headers: res.headers });
    } finally {
      inFlight -= 1;
      inFlightByPath.set(path, inFlightByPath.get(path)! - 1);
    }
  };

  const config: MetaClientConfig = {
    graphUrl: sim.url,
    apiVersion: VERSION,
    appId: sim.appId,
    appSecret: sim.appSecret,
    requestTimeoutMs: 5000,
    maxConcurrencyPerAccount: 4,
    maxConcurrencyPerToken: 8,
    ...opts.config,
  };
  const deps = {
    fetch: recordingFetch,
    now: () => sim.now(),
    random: () => 0,
    sleep: async (ms: number) => {
      delays.push(ms);
      await control('POST', '/__sim/clock', { advance: `${ms}ms` });
    },
    log: {
      debug: (obj: object, msg?: string) => logs.push({ level: 'debug', obj, msg }),
      warn: (obj: object, msg?: string) => logs.push({ level: 'warn', obj, msg }),
    },
    tuning: opts.tuning,
  };
  return {
    client: createMetaPlatformClient(config, deps),
    graph: createGraphClient(config, opts.tuning, deps),
    calls,
    delays,
    logs,
    callsTo: (path: string, method = 'GET') => calls.filter((c) => c.method === method && new URL(c.url).pathname === `/${VERSION}/${path}`),
    maxInFlight: () => maxInFlight,
    maxInFlightOn: (path: string) => maxInFlightByPath.get(`/${VERSION}/${path}`) ?? 0,
  };
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, startTime: START, speed: 0, orderIntervalMs: 0 });
});

afterAll(async () => {
  await sim.close();
});

beforeEach(async () => {
  // Fresh objects, no faults, default quotas and counters; the clock only moves forward.
  await control('POST', '/__sim/reset', { keep_settings: false });
});

describe('OAuth and tokens', () => {
  /** Opens the dialog like a browser and clicks "Continue"; answers the redirect URL. */
  async function clickThroughDialog(dialogUrl: string, userId: string): Promise<URL> {
    const page = await fetch(dialogUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    const unescape = (s: string) => s.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1]!, unescape(m[2]!));
    expect(html).toContain(`<option value="${userId}">`);
    form.set('user_id', userId);
    form.set('action', 'continue');
    // The form has no action: it posts back to the dialog URL.
    const res = await fetch(dialogUrl, { method: 'POST', body: form, redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  it('builds the dialog URL, exchanges the code for a short and then a long-lived token, and debug_token shows scopes and expiry', async () => {
    const h = harness();
    const person = await createUser({ name: 'Login Person' });
    const redirectUri = 'https://ads.example/api/auth/meta/callback';
    const scopes = ['ads_management', 'business_management', 'pages_show_list'];

    const dialogUrl = h.client.oauthDialogUrl({ redirectUri, state: 'csrf-123', scopes });
    const parsed = new URL(dialogUrl);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${sim.url}/${VERSION}/dialog/oauth`);
    expect(Object.fromEntries(parsed.searchParams)).toEqual({
      client_id: sim.appId,
      redirect_uri: redirectUri,
      state: 'csrf-123',
      response_type: 'code',
      scope: 'ads_management,business_management,pages_show_list',
    });

    const back = await clickThroughDialog(dialogUrl, person.user.id);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('csrf-123');
    const code = back.searchParams.get('code')!;

    const short = await h.client.exchangeCode({ code, redirectUri });
    expect(short.expiresAt!.getTime() - sim.now()).toBe(2 * 3600 * 1000);
    expect(await h.client.me(short.accessToken)).toEqual({ id: person.user.id, name: 'Login Person' });

    const long = await h.client.exchangeLongLived(short.accessToken);
    expect(long.accessToken).not.toBe(short.accessToken);
    expect(long.expiresAt!.getTime() - sim.now()).toBe(60 * 86_400 * 1000);

    const info = await h.client.debugToken(long.accessToken);
    expect(info).toMatchObject({ valid: true, userId: person.user.id, type: 'USER', scopes });
    expect(info.expiresAt!.getTime()).toBe(Math.floor(long.expiresAt!.getTime() / 1000) * 1000);
    expect(info.issuedAt!.getTime()).toBeLessThanOrEqual(sim.now());
    expect(info.dataAccessExpiresAt!.getTime()).toBeGreaterThan(sim.now());

    // Secrets travel in bodies and headers, never in URLs.
    for (const c of h.calls) {
      expect(c.url).not.toContain(code);
      expect(c.url).not.toContain(short.accessToken);
    }
    expect(h.calls.filter((c) => c.url.includes(sim.appSecret)).map((c) => new URL(c.url).pathname)).toEqual([`/${VERSION}/debug_token`]);
  });

  it('refuses a code used twice, as a request error and without retrying it', async () => {
    const h = harness();
    const person = await createUser();
    const redirectUri = 'https://ads.example/cb';
    const back = await clickThroughDialog(h.client.oauthDialogUrl({ redirectUri, state: 's', scopes: ['ads_read'] }), person.user.id);
    const code = back.searchParams.get('code')!;
    await h.client.exchangeCode({ code, redirectUri });
    const err = await failure(h.client.exchangeCode({ code, redirectUri }));
    expect(err).toMatchObject({ kind: 'invalid_request', details: { code: 100, subcode: 36009 } });
    expect(h.callsTo('oauth/access_token', 'POST')).toHaveLength(2);
  });

  it('reports an expired token through debug_token without throwing, and as auth_expired on calls', async () => {
    const h = harness();
    const person = await createUser();
    await control('POST', '/__sim/tokens/expire', { token: person.access_token });

    const info = await h.client.debugToken(person.access_token);
    expect(info.valid).toBe(false);
    expect(info.expiresAt!.getTime()).toBeLessThanOrEqual(sim.now());

    const err = await failure(h.client.listAdAccounts(person.access_token));
    expect(err).toMatchObject({ kind: 'auth_expired', retryable: false, details: { code: 190, subcode: 463 } });
    expect(h.callsTo('me/adaccounts')).toHaveLength(1);
  });

  it('reports unknown tokens as invalid through debug_token, revoked ones as auth_invalid on calls', async () => {
    const h = harness();
    expect((await h.client.debugToken('EAAnot-a-real-token')).valid).toBe(false);
    const person = await createUser();
    await control('POST', '/__sim/tokens/revoke', { token: person.access_token, reason: 'password_changed' });
    expect(await failure(h.client.me(person.access_token))).toMatchObject({ kind: 'auth_invalid', details: { code: 190, subcode: 460 } });
  });

  it('sends people to www.facebook.com for the real Graph API, or to the configured dialog URL', () => {
    const base = { apiVersion: 'v26.0', appId: '42', appSecret: 's', requestTimeoutMs: 1000, maxConcurrencyPerAccount: 1, maxConcurrencyPerToken: 1 };
    const input = { redirectUri: 'https://ads.example/cb', state: 's', scopes: ['ads_read'] };
    expect(createMetaPlatformClient({ ...base, graphUrl: 'https://graph.facebook.com' }).oauthDialogUrl(input)).toMatch(/^https:\/\/www\.facebook\.com\/v26\.0\/dialog\/oauth\?client_id=42&/);
    expect(createMetaPlatformClient({ ...base, graphUrl: 'https://graph.facebook.com', dialogUrl: 'https://login.example/oauth' }).oauthDialogUrl(input)).toMatch(/^https:\/\/login\.example\/oauth\?client_id=42&/);
  });

  it('needs the app credentials for the login dialog', () => {
    const h = harness({ config: { appId: undefined, appSecret: undefined } });
    expect(() => h.client.oauthDialogUrl({ redirectUri: 'https://x.example/cb', state: 's', scopes: [] })).toThrow(/META_APP_ID/);
  });

  it('sends appsecret_proof when the app requires it', async () => {
    await control('PUT', '/__sim/settings', { require_appsecret_proof: true });
    const person = await createUser({ name: 'Proof' });
    expect(await harness().client.me(person.access_token)).toMatchObject({ name: 'Proof' });
    const withoutSecret = harness({ config: { appSecret: undefined } });
    expect(await failure(withoutSecret.client.me(person.access_token))).toMatchObject({ kind: 'invalid_request', details: { code: 100 } });
  });
});

describe('assets', () => {
  it('lists every ad account across pages, with money as numbers and "0" spend cap as none', async () => {
    const h = harness({ tuning: { pageLimit: 25 } });
    const person = await createUser({ ad_accounts: [{ name: 'Yen', currency: 'JPY', timezone_name: 'Asia/Tokyo' }, ...Array.from({ length: 119 }, () => ({}))] });
    const capped = person.ad_accounts[1].id;
    expect((await rawGraph('POST', capped, person.access_token, { spend_cap: '150.5' })).body).toEqual({ success: true });

    const accounts = await h.client.listAdAccounts(person.access_token);
    expect(accounts).toHaveLength(120);
    expect(new Set(accounts.map((a) => a.id)).size).toBe(120);
    expect(h.callsTo('me/adaccounts')).toHaveLength(5);

    const yen = accounts.find((a) => a.name === 'Yen')!;
    expect(yen).toEqual({
      id: person.ad_accounts[0].id,
      accountId: person.ad_accounts[0].account_id,
      name: 'Yen',
      currency: 'JPY',
      timezoneName: 'Asia/Tokyo',
      timezoneOffsetHours: 9,
      accountStatus: 1,
      disableReason: 0,
      amountSpentMinor: 0,
      balanceMinor: 0,
      spendCapMinor: null,
      businessId: person.business.id,
      businessName: person.business.name,
    });
    expect(accounts.find((a) => a.id === capped)!.spendCapMinor).toBe(15050);
  });

  it('reads one ad account by act_ id or bare id, and a missing one as not_found', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0];
    await control('POST', `/__sim/ad-accounts/${account.account_id}/disable`, {});
    expect(await h.client.getAdAccount(person.access_token, account.id)).toMatchObject({ id: account.id, accountStatus: 2, disableReason: 1 });
    expect(await h.client.getAdAccount(person.access_token, account.account_id)).toMatchObject({ id: account.id });
    const err = await failure(h.client.getAdAccount(person.access_token, '999999999'));
    expect(err).toMatchObject({ kind: 'not_found', details: { code: 100, subcode: 33 } });
    expect(err.details.fbtraceId).toBeTruthy();
  });

  it('lists pages with their tokens, tasks and pictures', async () => {
    const h = harness();
    const person = await createUser({ pages: [{ name: 'Drama One', category: 'Media' }, {}, {}] });
    const pages = await h.client.listPages(person.access_token);
    expect(pages).toHaveLength(3);
    const one = pages.find((p) => p.name === 'Drama One')!;
    expect(one).toMatchObject({ id: person.pages[0].id, category: 'Media', accessToken: person.pages[0].access_token });
    expect(one.tasks).toContain('ADVERTISE');
    expect(one.pictureUrl).toMatch(/^http/);
  });

  it('lists pixels of many accounts through batches of 50, merged by pixel with the accounts they were found on', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 60, pixels: 2 });
    const stranger = await createUser({ ad_accounts: 1, pixels: 1 });
    const ids: string[] = person.ad_accounts.map((a: any) => a.id);

    const pixels = await h.client.listPixels(person.access_token, [...ids, ids[0]!]);
    expect(pixels.map((p) => p.id).sort()).toEqual(person.pixels.map((p: any) => p.id).sort());
    for (const p of pixels) {
      expect(p.adAccountIds.sort()).toEqual([...ids].sort());
      expect(p.ownerBusinessId).toBe(person.business.id);
      expect(p.lastFiredAt).toBeNull();
    }
    expect(h.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([`POST /${VERSION}/`, `POST /${VERSION}/`]);
    expect(pixels.some((p) => p.id === stranger.pixels[0].id)).toBe(false);
  });

  it('pages through an account with more pixels than one batch answer holds', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 2, pixels: 130 });
    const pixels = await h.client.listPixels(person.access_token, person.ad_accounts.map((a: any) => a.id));
    expect(pixels).toHaveLength(130);
    for (const p of pixels) expect(p.adAccountIds).toHaveLength(2);
    expect(h.callsTo('', 'POST')).toHaveLength(1);
  });

  it('fails the pixel listing when one account cannot be read, rather than returning a partial list', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 2 });
    const err = await failure(h.client.listPixels(person.access_token, [person.ad_accounts[0].id, 'act_424242']));
    expect(err.kind).toBe('not_found');
  });
});

describe('batch', () => {
  it('answers per item, retrying items that did not run (null) or failed transiently, but not items that failed for good', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 4 });
    const [a, b, c, d] = person.ad_accounts.map((x: any) => x.id);
    await fault({ path: `/${b}`, drop: true, count: 1 });
    await fault({ path: `/${c}`, error: { code: 2, http_status: 503 }, count: 1 });
    await fault({ path: `/${d}`, error: { code: 1 }, count: null });

    const results = await h.graph.batch(person.access_token, [
      { path: a, fields: ['name'] },
      { path: b, fields: ['name'] },
      { path: 'act_31337', fields: ['name'] },
      { path: c, fields: ['name'] },
      { path: d, fields: ['name'] },
    ]);
    expect(results[0]).toEqual({ ok: true, body: { name: person.ad_accounts[0].name, id: a } });
    expect(results[1]).toMatchObject({ ok: true, body: { id: b } });
    expect(results[2]).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(results[3]).toMatchObject({ ok: true, body: { id: c } });
    expect(results[4]).toMatchObject({ ok: false, error: { kind: 'unavailable', details: { code: 1 } } });

    // Round 1 had five items; later rounds only the one that kept failing (b and c recovered in round 2).
    const rounds = h.callsTo('', 'POST');
    expect(rounds).toHaveLength(5);
    expect(h.delays).toEqual([500, 1000, 2000, 4000]);
  });

  it('splits more than 50 items over several requests and keeps the order', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 3 });
    const items = Array.from({ length: 120 }, (_, i) => ({ path: person.ad_accounts[i % 3].id, fields: ['account_id'] }));
    const results = await h.graph.batch(person.access_token, items);
    expect(results.map((r) => (r.ok ? (r.body as any).account_id : null))).toEqual(items.map((_, i) => person.ad_accounts[i % 3].account_id));
    expect(h.callsTo('', 'POST')).toHaveLength(3);
  });

  it('recovers a pixel listing whose sub-request was dropped', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 3, pixels: 1 });
    await fault({ path: `/${person.ad_accounts[1].id}/adspixels`, drop: true, count: 1 });
    const pixels = await h.client.listPixels(person.access_token, person.ad_accounts.map((a: any) => a.id));
    expect(pixels[0]!.adAccountIds).toHaveLength(3);
    expect(h.callsTo('', 'POST')).toHaveLength(2);
  });
});

describe('errors', () => {
  const cases: Array<[string, Record<string, unknown>, PlatformErrorKind, { code?: number; subcode?: number }]> = [
    ['HTTP 500, code 1', { error: { code: 1 } }, 'unavailable', { code: 1 }],
    ['HTTP 503, code 2', { error: { code: 2, http_status: 503 } }, 'unavailable', { code: 2 }],
    ['a dropped connection', { drop: true }, 'unavailable', {}],
    ['an expired token (190/463)', { error: { code: 190, error_subcode: 463 } }, 'auth_expired', { code: 190, subcode: 463 }],
    ['an invalidated session (190/460)', { error: { code: 190, error_subcode: 460 } }, 'auth_invalid', { code: 190, subcode: 460 }],
    ['an invalid session key (102)', { error: { code: 102 } }, 'auth_invalid', { code: 102 }],
    ['a missing permission (200)', { error: { code: 200 } }, 'permission', { code: 200 }],
    ['an app permission (10)', { error: { code: 10 } }, 'permission', { code: 10 }],
    ['an invalid parameter (100)', { error: { code: 100, error_subcode: 2490408 } }, 'invalid_request', { code: 100, subcode: 2490408 }],
    ['a missing object (100/33)', { error: { code: 100, error_subcode: 33 } }, 'not_found', { code: 100, subcode: 33 }],
    ['unknown aliases (803)', { error: { code: 803 } }, 'not_found', { code: 803 }],
    ['the account score (17/2446079)', { error: { code: 17, error_subcode: 2446079 } }, 'rate_limited', { code: 17, subcode: 2446079 }],
    ['the app limit (4)', { error: { code: 4 } }, 'rate_limited', { code: 4 }],
    ['the ads_management quota (80004)', { error: { code: 80004, error_subcode: 2446079 } }, 'rate_limited', { code: 80004 }],
    ['too many calls from the account (613)', { error: { code: 613, error_subcode: 1487742 } }, 'rate_limited', { code: 613 }],
  ];

  it.each(cases)('maps %s to %s, retrying only what is retryable', async (_name, rule, kind, vendor) => {
    const h = harness({ tuning: { maxAttempts: 3 } });
    const person = await createUser();
    await fault({ path: '/me', count: null, ...rule });
    const err = await failure(h.client.me(person.access_token));
    expect(err.kind).toBe(kind);
    expect(err.details).toMatchObject(vendor);
    const retryable = kind === 'rate_limited' || kind === 'unavailable';
    expect(err.retryable).toBe(retryable);
    if (vendor.code !== undefined) expect(err.details.fbtraceId).toMatch(/\w+/);
    expect(h.callsTo('me')).toHaveLength(retryable ? 3 : 1);
    expect(h.delays).toEqual(retryable ? [500, 1000] : []);
  });

  it('gives up on a request that hangs after the time limit, as unavailable', async () => {
    const h = harness({ config: { requestTimeoutMs: 300 }, tuning: { maxAttempts: 1 } });
    const person = await createUser();
    await fault({ path: '/me', timeout_ms: 10_000 });
    const err = await failure(h.client.me(person.access_token));
    expect(err).toMatchObject({ kind: 'unavailable', retryable: true, message: 'Graph API request timed out' });
  });

  it.each([
    ['a time-out', { timeout_ms: 10_000 }],
    ['a dropped connection', { drop: true }],
    ['HTTP 500', { error: { code: 1 } }],
    ['a throttle (17/2446079)', { error: { code: 17, error_subcode: 2446079 } }],
  ])('recovers from %s by retrying a read', async (_name, rule) => {
    const h = harness({ config: { requestTimeoutMs: 300 } });
    const person = await createUser({ name: 'Again' });
    await fault({ path: '/me', count: 1, ...rule });
    expect(await h.client.me(person.access_token)).toMatchObject({ name: 'Again' });
    expect(h.callsTo('me')).toHaveLength(2);
    expect(h.delays).toEqual([500]);
  });

  it('does not resend a write whose connection dropped (it may have been applied), unless it is idempotent', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0].id;
    const rename = (name: string, idempotent?: boolean) =>
      h.graph.request({ method: 'POST', path: account, token: person.access_token, params: { name }, idempotent }, successSchema);

    await fault({ path: `/${account}`, method: 'POST', drop: true, count: 1 });
    expect(await failure(rename('First'))).toMatchObject({ kind: 'unavailable' });
    expect(h.callsTo(account, 'POST')).toHaveLength(1);

    await fault({ path: `/${account}`, method: 'POST', drop: true, count: 1 });
    await rename('Second', true);
    expect(h.callsTo(account, 'POST')).toHaveLength(3);
    expect((await h.client.getAdAccount(person.access_token, account)).name).toBe('Second');
  });

  it('resends a write the platform refused with a throttle: a refused call did nothing', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0].id;
    await fault({ path: `/${account}`, method: 'POST', error: { code: 80004, error_subcode: 2446079 }, count: 1 });
    await h.graph.request({ method: 'POST', path: account, token: person.access_token, params: { name: 'After throttle' } }, successSchema);
    expect(h.callsTo(account, 'POST')).toHaveLength(2);
  });

  it('stops retrying at the overall deadline', async () => {
    const h = harness({ tuning: { maxAttempts: 20, deadlineMs: 3000 } });
    const person = await createUser();
    await fault({ path: '/me', count: null, error: { code: 2 } });
    expect(await failure(h.client.me(person.access_token))).toMatchObject({ kind: 'unavailable' });
    // 500 + 1000 fit in 3 s; the next 2000 would not.
    expect(h.delays).toEqual([500, 1000]);
    expect(h.callsTo('me')).toHaveLength(3);
  });

  it('treats an answer of the wrong shape as unavailable and not retryable', async () => {
    const h = harness();
    const person = await createUser();
    const err = await failure(h.graph.request({ path: 'me', token: person.access_token, fields: ['id'] }, graphUserSchema.extend({ birthday: z.string() })));
    expect(err).toMatchObject({ kind: 'unavailable', retryable: false });
    expect(err.message).toContain('birthday');
    expect(h.callsTo('me')).toHaveLength(1);
  });

  it('stops at once when the caller aborts', async () => {
    const h = harness();
    const person = await createUser();
    await fault({ path: '/me', latency_ms: 2000 });
    const controller = new AbortController();
    const pending = h.client.me(person.access_token, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(h.callsTo('me')).toHaveLength(1);
  });
});

describe('throttling', () => {
  it('spaces calls out and then stops before the account score runs out, so the platform never refuses one', async () => {
    // A deadline longer than the score's 300 s window, so calls wait for the reset instead of failing fast.
    const h = harness({ tuning: { deadlineMs: 600_000 } });
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0];
    await control('PUT', '/__sim/rate-limits', { accounts: { [account.account_id]: { account_score_max: 10, account_score_decay_seconds: 300, account_block_seconds: 300 } } });

    for (let i = 0; i < 30; i += 1) await h.client.getAdAccount(person.access_token, account.id);

    expect(h.calls).toHaveLength(30);
    expect(h.calls.every((c) => c.status === 200)).toBe(true);
    // In each window of 10 points: at 80 % the next call waits 1625 ms (spacing grows from 500 ms at
    // 75 % to 5 s at 95 %); at 100 % the client waits for the reset the header names (~300 s).
    expect(h.delays.filter((d) => d < 5000)).toEqual([1625, 1625, 1625]);
    const resets = h.delays.filter((d) => d >= 5000);
    expect(resets).toHaveLength(2);
    for (const d of resets) expect(d).toBeGreaterThan(290_000);
  });

  it('waits out a block another process caused, for the time the platform named, then succeeds', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0];
    await control('PUT', '/__sim/rate-limits', { accounts: { [account.account_id]: { account_score_max: 5, account_score_decay_seconds: 60, account_block_seconds: 60 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await rawGraph('GET', account.id, person.access_token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 400]);

    expect(await h.client.getAdAccount(person.access_token, account.id)).toMatchObject({ id: account.id });
    expect(h.calls.map((c) => c.status)).toEqual([400, 200]);
    expect(h.delays).toEqual([60_000]);
  });

  it('refuses at once, without calling, when the quota resets after the deadline — and works again once the clock has moved', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0];
    await control('PUT', '/__sim/rate-limits', { accounts: { [account.account_id]: { ads_management_per_hour: 5, ads_management_per_active_ad: 0 } } });

    for (let i = 0; i < 5; i += 1) await h.client.getAdAccount(person.access_token, account.id);
    const err = await failure(h.client.getAdAccount(person.access_token, account.id));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterMs).toBeGreaterThan(50 * 60_000);
    expect(h.calls).toHaveLength(5);
    expect(h.calls.every((c) => c.status === 200)).toBe(true);

    await control('POST', '/__sim/clock', { advance: `${err.details.retryAfterMs}ms` });
    expect(await h.client.getAdAccount(person.access_token, account.id)).toMatchObject({ id: account.id });
    expect(h.calls).toHaveLength(6);
  });

  it('does not wait out an hour-long window such as ad-set budget changes, and does not block the account for it', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0].id;
    await fault({ path: `/${account}`, method: 'POST', error: { code: 613, error_subcode: 1487632 }, count: 1 });
    const err = await failure(h.graph.request({ method: 'POST', path: account, token: person.access_token, params: { name: 'x' } }, successSchema));
    expect(err).toMatchObject({ kind: 'rate_limited', retryable: true, details: { subcode: 1487632, retryAfterMs: 3_600_000 } });
    await h.client.getAdAccount(person.access_token, account);
    expect(h.delays).toEqual([]);
    expect(h.calls).toHaveLength(2);
  });

  it('holds later calls on a throttled account back until the block ends, while other accounts carry on', async () => {
    const h = harness({ tuning: { maxAttempts: 1 } });
    const person = await createUser({ ad_accounts: 2 });
    const [busy, calm] = person.ad_accounts;
    await control('PUT', '/__sim/rate-limits', { accounts: { [busy.account_id]: { account_score_max: 5, account_score_decay_seconds: 60, account_block_seconds: 60 } } });
    for (let i = 0; i < 6; i += 1) await rawGraph('GET', busy.id, person.access_token);

    const err = await failure(h.client.getAdAccount(person.access_token, busy.id));
    expect(err).toMatchObject({ kind: 'rate_limited', details: { code: 17, subcode: 2446079, retryAfterMs: 60_000 } });
    await h.client.getAdAccount(person.access_token, calm.id);
    expect(h.delays).toEqual([]);
    await h.client.getAdAccount(person.access_token, busy.id);
    expect(h.delays).toEqual([60_000]);
    expect(h.calls.map((c) => c.status)).toEqual([400, 200, 200]);
  });
});

describe('concurrency', () => {
  it('keeps at most 4 requests in flight on one ad account', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 1 });
    const account = person.ad_accounts[0].id;
    await fault({ path: `/${account}`, latency_ms: 40, count: null });
    const results = await Promise.all(Array.from({ length: 20 }, () => h.client.getAdAccount(person.access_token, account)));
    expect(results).toHaveLength(20);
    expect(h.calls).toHaveLength(20);
    expect(h.maxInFlightOn(account)).toBe(4);
  });

  it('keeps at most 8 requests in flight per token across accounts', async () => {
    const h = harness();
    const person = await createUser({ ad_accounts: 10 });
    await fault({ path: '/act_*', latency_ms: 40, count: null });
    const ids: string[] = person.ad_accounts.map((a: any) => a.id);
    await Promise.all(Array.from({ length: 40 }, (_, i) => h.client.getAdAccount(person.access_token, ids[i % ids.length]!)));
    expect(h.maxInFlight()).toBe(8);
    for (const id of ids) expect(h.maxInFlightOn(id)).toBeLessThanOrEqual(4);
  });

  it('does not count one token against another', async () => {
    const h = harness({ config: { maxConcurrencyPerToken: 2 } });
    const [one, two] = [await createUser({ ad_accounts: 0 }), await createUser({ ad_accounts: 0 })];
    await fault({ path: '/me', latency_ms: 40, count: null });
    await Promise.all(Array.from({ length: 8 }, (_, i) => h.client.me((i % 2 ? one : two).access_token)));
    expect(h.maxInFlight()).toBe(4);
  });
});

describe('logging', () => {
  it('logs method, path, status, duration and trace id, and never a token or secret', async () => {
    const h = harness({ tuning: { pageLimit: 2 } });
    const person = await createUser({ ad_accounts: 5, pixels: 1 });
    await h.client.listAdAccounts(person.access_token);
    await h.client.listPixels(person.access_token, person.ad_accounts.map((a: any) => a.id));
    await h.client.debugToken(person.access_token);
    await fault({ path: '/me', count: 1, error: { code: 2 } });
    await h.client.me(person.access_token);

    const entry = h.logs.find((l) => l.level === 'debug' && (l.obj as any).path === `/${VERSION}/me/adaccounts`)!;
    expect(entry.obj).toMatchObject({ method: 'GET', status: 200 });
    expect((entry.obj as any).durationMs).toBeGreaterThanOrEqual(0);
    expect((entry.obj as any).fbtraceId).toMatch(/\w+/);
    expect(h.logs.some((l) => l.level === 'warn' && (l.obj as any).code === 2)).toBe(true);

    const text = JSON.stringify(h.logs);
    for (const secret of [person.access_token, sim.appSecret, 'access_token', 'after=', 'next']) expect(text).not.toContain(secret);
  });
});

const live = {
  token: process.env.META_LIVE_TOKEN,
  appId: process.env.META_APP_ID,
  appSecret: process.env.META_APP_SECRET,
};

// Read-only calls against the real Graph API with a real person's token; opt-in.
describe.skipIf(!live.token || !live.appId || !live.appSecret)('against the real Graph API', () => {
  const client = () =>
    createMetaPlatformClient({
      graphUrl: process.env.META_GRAPH_URL || 'https://graph.facebook.com',
      apiVersion: process.env.META_API_VERSION || VERSION,
      appId: live.appId,
      appSecret: live.appSecret,
      requestTimeoutMs: 30_000,
      maxConcurrencyPerAccount: 4,
      maxConcurrencyPerToken: 8,
    });

  it('debugs the token and reads the person', async () => {
    const info = await client().debugToken(live.token!);
    expect(info.valid).toBe(true);
    expect(info.scopes.length).toBeGreaterThan(0);
    const me = await client().me(live.token!);
    expect(me.id).toBe(info.userId);
  });

  it('builds the dialog URL on www.facebook.com', () => {
    expect(client().oauthDialogUrl({ redirectUri: 'https://ads.example/cb', state: 's', scopes: ['ads_read'] })).toMatch(/^https:\/\/www\.facebook\.com\/v\d+\.0\/dialog\/oauth\?/);
  });

  it('lists ad accounts, pages and the pixels of a few accounts', async () => {
    const c = client();
    const accounts = await c.listAdAccounts(live.token!);
    for (const a of accounts) expect(a.id).toMatch(/^act_\d+$/);
    await c.listPages(live.token!);
    const pixels = await c.listPixels(live.token!, accounts.slice(0, 5).map((a) => a.id));
    for (const p of pixels) expect(p.adAccountIds.length).toBeGreaterThan(0);
  });
});
