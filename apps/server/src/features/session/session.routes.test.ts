import { ADMIN_PATHS, REGULAR_PATHS } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex, verifyPassword } from '../../lib/passwords.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createRole, createUser } from '../../test/factories.ts';
import { createSessionService } from './session.service.ts';

const login = { maxFailures: 3, accountMaxFailures: 8, ipMaxFailures: 10, lockMs: 15 * 60_000, slowdownMs: 0 };
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { login } });
});
afterAll(() => t.close());

describe('login', () => {
  it('answers the user info with a token, and get_user_info the same object without it', async () => {
    const u = await createUser(t.db, { account: 'alice', name: 'Alice', is_admin: 1 });
    const res = await t.call('/api/login', { account: 'alice', pwd: md5Hex(u.password) });
    expect(res.code).toBe(0);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: u.id, account: 'alice', name: 'Alice', is_admin: 1, is_leader: 0, platform: 'dj', remark: '' });
    expect(res.data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.data.paths).toEqual(REGULAR_PATHS);
    expect(res.data.login_at).toBe('2026-11-01T08:00:00.000Z');

    const info = await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token: res.data.token });
    expect(info.code).toBe(0);
    expect(info.data).not.toHaveProperty('token');
    expect(info.data).toEqual(Object.fromEntries(Object.entries(res.data).filter(([k]) => k !== 'token')));
  });

  it('accepts the account in any letter case', async () => {
    const u = await createUser(t.db, { account: 'CaseUser' });
    expect((await t.call('/api/login', { account: 'caseuser', pwd: md5Hex(u.password) })).code).toBe(0);
  });

  it('gives one message for a wrong password and an unknown account', async () => {
    const u = await createUser(t.db);
    const wrong = await t.call('/api/login', { account: u.account, pwd: md5Hex('nope') }, { ip: '10.0.0.2' });
    const unknown = await t.call('/api/login', { account: 'no-such-user', pwd: md5Hex('nope') }, { ip: '10.0.0.2' });
    expect(wrong.code).toBe(-2);
    expect(unknown.code).toBe(-2);
    expect(wrong.message).toBe('账号或密码错误');
    expect(unknown.message).toBe(wrong.message);
    const en = await t.call('/api/login', { account: 'no-such-user2', pwd: md5Hex('nope') }, { lang: 'en-US,en;q=0.9', ip: '10.0.0.2' });
    expect(en.message).toBe('Wrong account or password.');
  });

  it('refuses a password that is not an md5 hex, naming the field', async () => {
    const res = await t.call('/api/login', { account: 'x', pwd: 'plain' });
    expect(res.code).toBe(-2);
    expect(res.data.errors).toEqual([{ field: 'pwd', message: expect.stringContaining('MD5') }]);
  });

  it('locks an account for the address that fails repeatedly, even for the right password, and unlocks after the lock time', async () => {
    const u = await createUser(t.db);
    for (let i = 0; i < 2; i++) {
      expect((await t.call('/api/login', { account: u.account, pwd: md5Hex('bad') }, { ip: '10.0.1.1' })).message).toBe('账号或密码错误');
    }
    const third = await t.call('/api/login', { account: u.account, pwd: md5Hex('bad') }, { ip: '10.0.1.1' });
    expect(third.code).toBe(-2);
    expect(third.message).toMatch(/登录失败次数过多，请 15 分钟后再试/);
    const right = await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.1.1' });
    expect(right.code).toBe(-2);
    expect(right.message).toMatch(/登录失败次数过多/);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.1.1' })).code).toBe(0);
    t.clock.set('2026-11-01T08:00:00Z');
  });

  it('lets the owner in from another address while someone else is locked out of the account', async () => {
    const u = await createUser(t.db, { account: 'admin-like' });
    for (let i = 0; i < 5; i++) await t.call('/api/login', { account: u.account, pwd: md5Hex('guess') }, { ip: '10.0.3.1' });
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.3.1' })).message).toMatch(/登录失败次数过多/);
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.3.2' })).code).toBe(0);
  });

  it('locks the account for everyone once failures from many addresses reach the account-wide limit', async () => {
    const u = await createUser(t.db);
    // 8 addresses, one failure each: no address reaches its own limit (3), the account reaches 8.
    for (let i = 0; i < 8; i++) await t.call('/api/login', { account: u.account, pwd: md5Hex('guess') }, { ip: `10.0.4.${i + 1}` });
    const right = await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.4.100' });
    expect(right.message).toMatch(/登录失败次数过多/);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.4.100' })).code).toBe(0);
    t.clock.set('2026-11-01T08:00:00Z');
  });

  it('locks an address that guesses across many accounts', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 9; i++) await t.call('/api/login', { account: `ghost${i}`, pwd: md5Hex('x') }, { ip });
    const tenth = await t.call('/api/login', { account: 'ghost-last', pwd: md5Hex('x') }, { ip });
    expect(tenth.message).toMatch(/登录失败次数过多/);
    const u = await createUser(t.db);
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip })).message).toMatch(/登录失败次数过多/);
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.9.9.10' })).code).toBe(0);
  });

  it('refuses a disabled account with a message that says so, only after the right password', async () => {
    const u = await createUser(t.db, { status: 'disabled' });
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex('wrong') }, { ip: '10.0.2.1' })).message).toBe('账号或密码错误');
    expect((await t.call('/api/login', { account: u.account, pwd: md5Hex(u.password) }, { ip: '10.0.2.1' })).message).toBe('该账号已停用，请联系管理员');
  });
});

describe('login throttling under parallel guesses', () => {
  /** The session service over the test database, counting the password checks it makes. */
  function countingService() {
    const counter = { verified: 0 };
    const sessions = createSessionService({
      db: t.db,
      clock: t.clock,
      config: { sessionIdleMs: 7 * 24 * 3600_000, login },
      verifyPassword: async (stored, md5) => {
        counter.verified++;
        return verifyPassword(stored, md5);
      },
    });
    return { sessions, counter };
  }
  const attempt = (sessions: ReturnType<typeof createSessionService>, account: string, pwd: string, ip: string) =>
    sessions.login({ account, pwd }, { ip, userAgent: null, requestId: 'r' }).then(
      () => 'ok',
      (err: { key?: string }) => err.key ?? String(err),
    );

  it('verifies at most LOGIN_MAX_FAILURES of 200 parallel wrong passwords for one account and address; the rest are refused as locked', async () => {
    const u = await createUser(t.db);
    const { sessions, counter } = countingService();
    const answers = await Promise.all(Array.from({ length: 200 }, () => attempt(sessions, u.account, md5Hex('guess'), '10.0.5.1')));
    expect(counter.verified).toBeGreaterThan(0);
    expect(counter.verified).toBeLessThanOrEqual(login.maxFailures);
    expect(answers.filter((a) => a === 'LOGIN_FAILED').length).toBeLessThanOrEqual(login.maxFailures);
    expect(answers.filter((a) => a === 'LOGIN_LOCKED').length).toBeGreaterThanOrEqual(200 - login.maxFailures);
    expect(answers.every((a) => a === 'LOGIN_FAILED' || a === 'LOGIN_LOCKED')).toBe(true);
    // The owner, from elsewhere, still gets in.
    expect(await attempt(sessions, u.account, md5Hex(u.password), '10.0.5.2')).toBe('ok');
  });

  it('verifies at most the account-wide limit of 200 parallel guesses from 200 addresses', async () => {
    const u = await createUser(t.db);
    const { sessions, counter } = countingService();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(sessions, u.account, md5Hex('guess'), `10.6.${i >> 8}.${i & 255}`)));
    expect(counter.verified).toBeLessThanOrEqual(login.accountMaxFailures);
    expect(answers.filter((a) => a === 'LOGIN_LOCKED').length).toBeGreaterThanOrEqual(200 - login.accountMaxFailures);
    t.clock.advance(15 * 60_000 + 1000);
    expect(await attempt(sessions, u.account, md5Hex(u.password), '10.0.6.1')).toBe('ok');
    t.clock.set('2026-11-01T08:00:00Z');
  });

  it('a successful login gives its reservation back: the pair forgets its failures, the account and address counts keep only the failures', async () => {
    const u = await createUser(t.db);
    const { sessions } = countingService();
    expect(await attempt(sessions, u.account, md5Hex('guess'), '10.0.7.1')).toBe('LOGIN_FAILED');
    expect(await attempt(sessions, u.account, md5Hex('guess'), '10.0.7.1')).toBe('LOGIN_FAILED');
    expect(await attempt(sessions, u.account, md5Hex(u.password), '10.0.7.1')).toBe('ok');
    const rows = await t.db.selectFrom('login_throttle').select(['key', 'failures', 'locked_until']).where('key', 'in', [`pair:${u.account}|10.0.7.1`, `acct:${u.account}`, 'ip:10.0.7.1']).orderBy('key').execute();
    expect(rows).toEqual([
      { key: `acct:${u.account}`, failures: 2, locked_until: null },
      { key: 'ip:10.0.7.1', failures: 2, locked_until: null },
    ]);
    // The pair starts again: three more failures before it locks.
    expect(await attempt(sessions, u.account, md5Hex('guess'), '10.0.7.1')).toBe('LOGIN_FAILED');
  });
});

describe('tokens', () => {
  it('are stored only as a hash', async () => {
    const u = await createUser(t.db);
    const token = await t.login(u.account, u.password);
    const rows = await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', u.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('end on logout', async () => {
    const u = await createUser(t.db);
    const token = await t.login(u.account, u.password);
    expect((await t.call('/api/logout', {}, { token })).code).toBe(0);
    const after = await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token });
    expect(after.code).toBe(401);
    expect(after.message).toBe('登录已失效，请重新登录');
  });

  it('expire after the idle time, and stay alive while used', async () => {
    const u = await createUser(t.db);
    const token = await t.login(u.account, u.password);
    t.clock.advance(6 * 24 * 3600_000);
    expect((await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token })).code).toBe(0);
    t.clock.advance(6 * 24 * 3600_000);
    expect((await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token })).code).toBe(0);
    t.clock.advance(7 * 24 * 3600_000 + 1000);
    expect((await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token })).code).toBe(401);
    t.clock.set('2026-11-01T08:00:00Z');
  });

  it('are refused when missing, malformed or unknown', async () => {
    expect((await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET' })).code).toBe(401);
    expect((await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token: 'forged' })).code).toBe(401);
    const res = await t.raw('/api/sys-users/get_user_info', { method: 'GET', headers: { authorization: 'Basic abc' } });
    expect(res.json().code).toBe(401);
  });
});

describe('paths in user info', () => {
  it('are every /admin path for a super admin', async () => {
    const u = await createUser(t.db, { is_admin: 9 });
    const info = await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token: await t.login(u.account, u.password) });
    expect(info.data.paths).toEqual(ADMIN_PATHS);
  });

  it('are the union of role paths with their groups for staff, and follow role edits at the next call', async () => {
    const r1 = await createRole(t.db, { paths: ['/sys/role'] });
    const r2 = await createRole(t.db, { paths: ['/index', '/sys/role'] });
    const u = await createUser(t.db);
    await t.db.insertInto('user_roles').values([{ user_id: u.id, role_id: r1.id }, { user_id: u.id, role_id: r2.id }]).execute();
    const token = await t.login(u.account, u.password);
    const info = await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token });
    expect(info.data.paths).toEqual(['/index', '/sys', '/sys/role']);
    await t.db.updateTable('roles').set({ paths: ['/auth', '/auth/site'] }).where('id', '=', r1.id).execute();
    const again = await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token });
    // Exactly the listed paths: the group /auth beside one of its pages grants that page, not the others.
    expect(again.data.paths).toEqual(['/index', '/auth', '/auth/site', '/sys', '/sys/role']);
    expect(again.data.asset_scope).toBe('own');
    await t.db.updateTable('roles').set({ asset_scope: 'company' }).where('id', '=', r1.id).execute();
    expect((await t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token })).data.asset_scope).toBe('company');
  });
});
