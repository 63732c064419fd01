import { adminOverviewSchema, homeOverviewSchema } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createPersonalAccount, createScopeOrg, createUser } from '../../test/factories.ts';
import { createMaterial } from '../../test/materials.ts';

// The landing pages: what the home page (/index) and the super admin's overview (/admin/index) count.
let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ['/index', '/material/upload']);
  for (const k of ['manager', 'leader', 's1', 's4'] as const) tokens[k] = await t.login(org[k].account, org[k].password);
  const admin = await createUser(t.db, { is_admin: 9, account: 'root9', password: 'root-pass-9' });
  tokens.admin = await t.login(admin.account, 'root-pass-9');

  await createAdAccount(t.db, { name: 'A s1', users: [org.s1.id], hosted: true });
  await createAdAccount(t.db, { name: 'A s1 closed', users: [org.s1.id], account_status: 2 });
  await createAdAccount(t.db, { name: 'A s4', users: [org.s4.id] });
  await createPersonalAccount(t.db, { owner_user_id: org.s1.id });
  // Expires in two days: "expiring" by the clock although stored as valid.
  await createPersonalAccount(t.db, { owner_user_id: org.s1.id, token_expires_at: new Date(t.clock.now().getTime() + 2 * DAY) });
  await createPersonalAccount(t.db, { owner_user_id: org.s4.id, status: 'invalid' });
  await createMaterial(t.db, { uploader_id: org.s1.id, department_id: org.departments.d1, platform: 'dj' });
  await createMaterial(t.db, { uploader_id: org.s1.id, department_id: org.departments.d1, platform: 'ec', kind: 'image' });
  await createMaterial(t.db, { uploader_id: org.s4.id, department_id: org.departments.d2, platform: 'dj' });
});
afterAll(() => t.close());

const home = async (who: string) => {
  const res = await t.call('/api/overview/home', {}, { token: tokens[who] });
  expect(res.code, res.message).toBe(0);
  return homeOverviewSchema.parse(res.data);
};

describe('home overview (/index)', () => {
  it('counts what the caller would list on each screen: staff their own', async () => {
    const s1 = await home('s1');
    expect(s1.ad_accounts).toEqual({ total: 2, active: 1, hosted: 1 });
    expect(s1.personal_accounts).toEqual({ total: 2, valid: 1, expiring: 1, invalid: 0 });
    expect(s1.materials).toEqual({ total: 2, dj: 1, ec: 1 });
    const s4 = await home('s4');
    expect(s4.ad_accounts.total).toBe(1);
    expect(s4.personal_accounts).toEqual({ total: 1, valid: 0, expiring: 0, invalid: 1 });
    expect(s4.materials.total).toBe(1);
  });

  it('gives a leader their department subtree and a manager everything', async () => {
    expect((await home('leader')).ad_accounts.total).toBe(2);
    const manager = await home('manager');
    expect(manager.ad_accounts).toEqual({ total: 3, active: 2, hosted: 1 });
    expect(manager.personal_accounts.total).toBe(3);
    expect(manager.materials).toEqual({ total: 3, dj: 2, ec: 1 });
  });

  it('is refused to the super admin, whose landing is /admin/index', async () => {
    expect((await t.call('/api/overview/home', {}, { token: tokens.admin })).code).toBe(403);
  });
});

describe('admin overview (/admin/index)', () => {
  it('counts the whole company and lists every job with its last run', async () => {
    const res = await t.call('/api/overview/admin', {}, { token: tokens.admin });
    expect(res.code, res.message).toBe(0);
    const o = adminOverviewSchema.parse(res.data);
    // Seven staff of the scope org (the super admins themselves are not counted).
    const staff = await t.db.selectFrom('users').select('id').where('is_admin', '!=', 9).where('deleted_at', 'is', null).execute();
    expect(o.users.total).toBe(staff.length);
    expect(o.users.managers).toBeGreaterThanOrEqual(1);
    expect(o.users.leaders).toBe(1);
    expect(o.departments).toBe(3);
    expect(o.ad_accounts).toEqual({ total: 3, active: 2, hosted: 1 });
    expect(o.personal_accounts).toEqual({ total: 3, valid: 1, expiring: 1, invalid: 1 });
    expect(o.materials).toEqual({ total: 3, dj: 2, ec: 1 });
    expect(o.jobs.map((j) => j.name)).toContain('cleanup-sessions');
    expect(o.jobs.every((j) => j.last_run === null)).toBe(true);
  });

  it('is the super admin\'s alone', async () => {
    expect((await t.call('/api/overview/admin', {}, { token: tokens.manager })).code).toBe(403);
    expect((await t.call('/api/overview/admin', {}, { token: tokens.s1 })).code).toBe(403);
  });
});
