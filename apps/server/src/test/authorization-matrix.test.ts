import { ADMIN_PATHS, allEndpoints, ASSIGNABLE_PATHS, CODE_FORBIDDEN, CODE_UNAUTHORIZED } from '@ads/contracts';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createSessionService } from '../features/session/session.service.ts';
import type { ApiRoute } from '../plugins/auth.ts';
import { registerAuth } from '../plugins/auth.ts';
import { buildTestApp, driver, testConfig, type TestApp } from './build-test-app.ts';
import { createUser } from './factories.ts';

/**
 * Every /api route, taken from the app itself (the auth plugin records each route with the
 * permission it declares), called by five kinds of caller. A route added later is covered
 * without touching this file.
 */
let t: TestApp;
let routes: ApiRoute[];
let manager: Awaited<ReturnType<typeof createUser>>;
let superAdmin: Awaited<ReturnType<typeof createUser>>;
let nobody: Awaited<ReturnType<typeof createUser>>;
/** One staff user per regular path, holding exactly that path through a role. */
const holders = new Map<string, Awaited<ReturnType<typeof createUser>>>();

beforeAll(async () => {
  t = await buildTestApp();
  // HEAD twins of GET routes share their config and handler, and have no body to read the envelope from.
  // HEAD routes of their own (tus) are checked like the others, by their HTTP status.
  routes = t.app.apiRoutes.filter((r) => !(r.method === 'HEAD' && t.app.apiRoutes.some((g) => g.method === 'GET' && g.url === r.url)));
  manager = await createUser(t.db, { is_admin: 1 });
  superAdmin = await createUser(t.db, { is_admin: 9 });
  nobody = await createUser(t.db);
  for (const p of new Set(routes.flatMap((r) => r.paths))) {
    // /admin paths cannot be granted through roles: such a "holder" must still be refused.
    holders.set(p, await createUser(t.db, { paths: [p] }));
  }
});
afterAll(() => t.close());

const isAdminPath = (p: string) => p === '/admin' || p.startsWith('/admin/');
const kind = (r: ApiRoute) => (r.public ? 'public' : r.anyUser ? 'anyUser' : r.signed ? 'signed URL' : `paths ${r.paths.join(' | ')}`);

const sessions = new Map<string, string>();
/** A token of the user for calling route r: logout ends the session it is called with, so it gets its own. */
async function tokenOf(user: { account: string; password: string }, r?: ApiRoute) {
  if (r?.url === '/api/logout') return t.login(user.account, user.password);
  if (!sessions.has(user.account)) sessions.set(user.account, await t.login(user.account, user.password));
  return sessions.get(user.account)!;
}

async function callAs(r: ApiRoute, token: string | undefined, url = r.url) {
  const res = await t.app.inject({
    method: r.method as 'GET' | 'POST',
    url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(r.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(r.method === 'POST' ? { payload: '{}' } : {}),
  });
  const body = res.headers['content-type']?.toString().includes('application/json') && res.body ? res.json() : null;
  if (!r.binary) {
    expect(res.statusCode, `${r.method} ${url}`).toBe(200);
    // Only file downloads answer something else than the envelope, and never a refusal.
    return { code: body ? (body.code as number) : 0, body };
  }
  // Protocol and file routes (tus, signed files) answer HTTP statuses; a refusal is HTTP 401/403
  // with the envelope as its body (no body for HEAD).
  expect(res.statusCode, `${r.method} ${url}`).toBeLessThan(500);
  if (res.statusCode === CODE_UNAUTHORIZED || res.statusCode === CODE_FORBIDDEN) {
    if (body) expect(body.code, `${r.method} ${url}`).toBe(res.statusCode);
    return { code: res.statusCode, body };
  }
  expect(body?.code, `${r.method} ${url}: a refusal in the body of HTTP ${res.statusCode}`).not.toBeOneOf([CODE_UNAUTHORIZED, CODE_FORBIDDEN]);
  return { code: 0, body };
}

/** What an anonymous caller gets: 401 everywhere, except signed URLs, where the missing signature is a 403. */
function expectAnonymousRefusal(r: ApiRoute, res: { code: number; body: unknown }) {
  if (r.signed) {
    expect(res.code, `${r.method} ${r.url} (${kind(r)})`).toBe(CODE_FORBIDDEN);
    if (res.body) expect(res.body, `${r.method} ${r.url}`).toEqual({ code: CODE_FORBIDDEN, message: '链接无效或已过期，请刷新页面后重试', data: null });
  } else if (r.binary) {
    expect(res.code, `${r.method} ${r.url} (${kind(r)})`).toBe(CODE_UNAUTHORIZED);
    if (res.body) expect(res.body, `${r.method} ${r.url}`).toEqual({ code: CODE_UNAUTHORIZED, message: '请先登录', data: null });
  } else expect(res.body, `${r.method} ${r.url} (${kind(r)})`).toEqual({ code: CODE_UNAUTHORIZED, message: '请先登录', data: null });
}

describe('the route list', () => {
  it('holds every /api route of the app except the API docs, each with a declared permission', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    // A few known routes prove the list is really the app's (a broken collector would give an empty list).
    expect(urls).toEqual(expect.arrayContaining(['POST /api/login', 'GET /api/sys-users/get_user_info', 'POST /api/sys-users/list', 'GET /api/sys-menus/routes']));
    expect(urls.some((u) => u.includes('/api/docs'))).toBe(false);
    expect(new Set(urls).size).toBe(urls.length);
    for (const r of routes) {
      const declared = [r.public, r.anyUser, r.signed, r.paths.length > 0].filter(Boolean).length;
      expect(declared, `${r.method} ${r.url}`).toBeGreaterThanOrEqual(1);
      for (const p of r.paths) expect(ASSIGNABLE_PATHS.has(p) || ADMIN_PATHS.includes(p), `${r.url} declares unknown path ${p}`).toBe(true);
    }
  });
});

describe('the endpoint table', () => {
  it('is what the app serves: each call at its path and method with exactly the permission of the table', () => {
    for (const e of allEndpoints) {
      const r = routes.find((x) => x.url === `/api${e.path}` && x.method === e.method);
      expect(r, `${e.method} ${e.path} of the table is not served`).toBeDefined();
      const declared = r!.public ? 'public' : r!.anyUser ? 'user' : r!.paths;
      expect(declared, `${e.method} ${e.path}`).toEqual(e.allow);
    }
  });

  it('holds every JSON call of the app; only protocol, file and redirect routes stay outside it', () => {
    const inTable = new Set(allEndpoints.map((e) => `${e.method} /api${e.path}`));
    const outside = routes.filter((r) => !inTable.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`);
    // tus uploads and signed file URLs answer HTTP statuses and bytes; the OAuth callback answers a redirect to the browser.
    const expected = routes.filter((r) => r.binary || r.url === '/api/personal-accounts/oauth_callback').map((r) => `${r.method} ${r.url}`);
    expect(outside.sort()).toEqual(expected.sort());
  });
});

describe('every /api route', () => {
  it('refuses anonymous callers with 401 unless public', async () => {
    for (const r of routes) {
      const res = await callAs(r, undefined);
      if (r.public) expect(res.code, `${r.method} ${r.url} (${kind(r)})`).not.toBe(CODE_UNAUTHORIZED);
      else expectAnonymousRefusal(r, res);
    }
  });

  it('refuses anonymous callers whatever the spelling of the path (%-escapes, as the router decodes them)', async () => {
    for (const r of routes.filter((x) => !x.public)) {
      const url = r.url.replace('/api/', '/%61pi/');
      const { code } = await callAs(r, undefined, url);
      expect(code, url).toBe(r.signed ? CODE_FORBIDDEN : CODE_UNAUTHORIZED);
    }
  });

  it('refuses an unknown, forged or ended token with 401 unless public', async () => {
    const ended = await t.login(nobody.account, nobody.password);
    expect((await t.call('/api/logout', {}, { token: ended })).code).toBe(0);
    for (const r of routes.filter((x) => !x.public)) {
      for (const token of ['forged-token', ended, 'x'.repeat(5000)]) {
        const { code } = await callAs(r, token);
        // A signed URL ignores tokens: without its signature it is refused whoever calls.
        expect(code, `${r.method} ${r.url} with ${token.slice(0, 12)}`).toBe(r.signed ? CODE_FORBIDDEN : CODE_UNAUTHORIZED);
      }
    }
  });

  it('refuses a staff user without paths with 403 unless anyUser or public', async () => {
    for (const r of routes) {
      const { code } = await callAs(r, await tokenOf(nobody, r));
      if (r.public || r.anyUser) expect([CODE_UNAUTHORIZED, CODE_FORBIDDEN], `${r.method} ${r.url} (${kind(r)})`).not.toContain(code);
      else expect(code, `${r.method} ${r.url} (${kind(r)})`).toBe(CODE_FORBIDDEN);
    }
  });

  it('lets a staff user holding any one of the declared regular paths through, and never a holder of an /admin path', async () => {
    for (const r of routes.filter((x) => x.paths.length)) {
      for (const p of r.paths) {
        const { code } = await callAs(r, await tokenOf(holders.get(p)!, r));
        if (isAdminPath(p)) expect(code, `${r.method} ${r.url} as holder of ${p}`).toBe(CODE_FORBIDDEN);
        else expect([CODE_UNAUTHORIZED, CODE_FORBIDDEN], `${r.method} ${r.url} as holder of ${p}`).not.toContain(code);
      }
      // Holding some other path is not enough.
      const other = [...holders.keys()].find((p) => !r.paths.includes(p) && !isAdminPath(p));
      if (other) expect((await callAs(r, await tokenOf(holders.get(other)!, r))).code, `${r.method} ${r.url} as holder of ${other}`).toBe(CODE_FORBIDDEN);
    }
  });

  it('lets a manager call every route of a regular path, and refuses them routes of /admin paths only', async () => {
    for (const r of routes) {
      const { code } = await callAs(r, await tokenOf(manager, r));
      const regular = r.public || r.anyUser || r.paths.some((p) => !isAdminPath(p));
      if (regular) expect([CODE_UNAUTHORIZED, CODE_FORBIDDEN], `${r.method} ${r.url} (${kind(r)})`).not.toContain(code);
      else expect(code, `${r.method} ${r.url} (${kind(r)})`).toBe(CODE_FORBIDDEN);
    }
  });

  it('lets the super admin call every /admin route and the anyUser ones, and refuses them regular-path routes', async () => {
    for (const r of routes) {
      const { code } = await callAs(r, await tokenOf(superAdmin, r));
      const allowed = r.public || r.anyUser || r.paths.some(isAdminPath);
      if (allowed) expect([CODE_UNAUTHORIZED, CODE_FORBIDDEN], `${r.method} ${r.url} (${kind(r)})`).not.toContain(code);
      else expect(code, `${r.method} ${r.url} (${kind(r)})`).toBe(CODE_FORBIDDEN);
    }
  });

  it('refuses a disabled or deleted manager with 401 unless public, even with a token issued before', async () => {
    const disabled = await createUser(t.db, { is_admin: 1 });
    const deleted = await createUser(t.db, { is_admin: 1 });
    const tokens = [await t.login(disabled.account, disabled.password), await t.login(deleted.account, deleted.password)];
    await t.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', disabled.id).execute();
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', deleted.id).execute();
    for (const r of routes.filter((x) => !x.public)) {
      for (const token of tokens) expect((await callAs(r, token)).code, `${r.method} ${r.url}`).toBe(r.signed ? CODE_FORBIDDEN : CODE_UNAUTHORIZED);
    }
  });
});

describe('registering a route', () => {
  it('under /api without paths, anyUser or public throws at registration', async () => {
    const sessions = createSessionService({ db: t.db, clock: t.clock, config: testConfig() });
    const bare = Fastify({ logger: false });
    registerAuth(bare, sessions);
    expect(() => bare.post('/api/undeclared', async () => 'no')).toThrow(/declares no permission/);
    expect(() => bare.get('/api/empty-paths', { config: { paths: [] } }, async () => 'no')).toThrow(/declares no permission/);
    expect(() => bare.post('/api/fine', { config: { anyUser: true } }, async () => 'ok')).not.toThrow();
    // Outside /api (the web app and its assets) nothing needs declaring.
    expect(() => bare.get('/assets/x.js', async () => 'ok')).not.toThrow();
    await bare.close();

    // The same holds for the real app, for a route added in a plugin under the /api prefix.
    const app = await buildApp({ config: testConfig(), db: t.db, driver, clock: t.clock, logger: false });
    const registering = app.register(async (api) => {
      api.post('/sys-users/forgotten', async () => 'no');
    }, { prefix: '/api' });
    await expect(registering).rejects.toThrow(/POST \/api\/sys-users\/forgotten declares no permission/);
    await app.close().catch(() => {});
  });
});
