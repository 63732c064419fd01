import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { createAdAccount, createPage, createPersonalAccount, createPixel, createScopeOrg, createUser } from './factories.ts';

/**
 * A role's asset_scope (issue 11): 'company' shows its members every authorization asset on the
 * /auth and /operation screens (personal accounts, ad accounts, pages, pixels), and lets them act
 * on them where their paths allow, as a manager does; business data (materials) keeps their own
 * scope. Every asset list says how many matching rows lie outside the caller's scope.
 */
const ASSET_PATHS = ['/auth', '/auth/account', '/auth/personage', '/auth/homepage', '/auth/pixel', '/operation', '/operation/account', '/operation/auth'];

let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
let clerk: Awaited<ReturnType<typeof createUser>>;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ASSET_PATHS);
  // An authorization clerk of department D2 whose role sees the company's assets.
  const role = await t.db.insertInto('roles').values({ name: 'Company assets', paths: ASSET_PATHS, asset_scope: 'company' }).returning('id').executeTakeFirstOrThrow();
  clerk = await createUser(t.db, { department_id: org.departments.d2 });
  await t.db.insertInto('user_roles').values({ user_id: clerk.id, role_id: role.id }).execute();
  // The same company scope on a role that opens only materials screens.
  const materialsOnly = await t.db.insertInto('roles').values({ name: 'Company assets, materials screens', paths: ['/material', '/material/upload'], asset_scope: 'company' }).returning('id').executeTakeFirstOrThrow();
  const cutter = await createUser(t.db, { department_id: org.departments.d2 });
  await t.db.insertInto('user_roles').values({ user_id: cutter.id, role_id: materialsOnly.id }).execute();
  for (const [k, u] of Object.entries({ ...org, clerk, cutter })) if (k !== 'departments') tokens[k] = await t.login((u as { account: string }).account, (u as { password: string }).password);

  ids.a1 = (await createAdAccount(t.db, { name: 'Acc s1', users: [org.s1.id] })).id;
  ids.a4 = (await createAdAccount(t.db, { name: 'Acc s4', users: [org.s4.id] })).id;
  ids.aNone = (await createAdAccount(t.db, { name: 'Acc nobody' })).id;
  ids.pa1 = (await createPersonalAccount(t.db, { name: 'FB s1', owner_user_id: org.s1.id })).id;
  ids.pa4 = (await createPersonalAccount(t.db, { name: 'FB s4', owner_user_id: org.s4.id })).id;
  ids.paNone = (await createPersonalAccount(t.db, { name: 'FB nobody' })).id;
  ids.page1 = (await createPage(t.db, { name: 'Page s1', ad_accounts: [ids.a1] })).id;
  ids.page4 = (await createPage(t.db, { name: 'Page s4', users: [org.s4.id] })).id;
  ids.px1 = (await createPixel(t.db, { name: 'Pixel s1', ad_accounts: [ids.a1] })).id;
  ids.px4 = (await createPixel(t.db, { name: 'Pixel s4', ad_accounts: [ids.a4] })).id;
});
afterAll(() => t.close());

const LISTS = { ad: '/api/ad-accounts/list', personal: '/api/personal-accounts/list', pages: '/api/pages/list', pixels: '/api/pixels/list' } as const;

async function seen(who: string, list: keyof typeof LISTS, body: object = {}) {
  const res = await t.call<{ list: { name: string }[]; total: number; outside_scope: number }>(LISTS[list], body, { token: tokens[who] });
  expect(res.code, res.message).toBe(0);
  return { names: res.data.list.map((r) => r.name).sort(), total: res.data.total, outside: res.data.outside_scope };
}

describe('asset lists', () => {
  it('show staff their own assets and say how many others the company has', async () => {
    expect(await seen('s1', 'ad')).toEqual({ names: ['Acc s1'], total: 1, outside: 2 });
    expect(await seen('s1', 'personal')).toEqual({ names: ['FB s1'], total: 1, outside: 2 });
    expect(await seen('s1', 'pages')).toEqual({ names: ['Page s1'], total: 1, outside: 1 });
    expect(await seen('s1', 'pixels')).toEqual({ names: ['Pixel s1'], total: 1, outside: 1 });
    // Counted under the same filters.
    expect(await seen('s1', 'ad', { keyword: 'nobody' })).toEqual({ names: [], total: 0, outside: 1 });
    expect(await seen('s1', 'personal', { keyword: 'zzz' })).toEqual({ names: [], total: 0, outside: 0 });
    // Someone without any asset of their own sees the whole company as outside.
    expect(await seen('s2', 'ad')).toEqual({ names: [], total: 0, outside: 3 });
  });

  it('show a leader their department subtree, and the rest as outside', async () => {
    expect(await seen('leader', 'ad')).toEqual({ names: ['Acc s1'], total: 1, outside: 2 });
    expect(await seen('leader', 'personal')).toEqual({ names: ['FB s1'], total: 1, outside: 2 });
  });

  it('show a company asset scope every asset, nothing outside, as a manager sees them', async () => {
    for (const who of ['clerk', 'manager']) {
      expect(await seen(who, 'ad'), who).toEqual({ names: ['Acc nobody', 'Acc s1', 'Acc s4'], total: 3, outside: 0 });
      expect(await seen(who, 'personal'), who).toEqual({ names: ['FB nobody', 'FB s1', 'FB s4'], total: 3, outside: 0 });
      expect(await seen(who, 'pages'), who).toEqual({ names: ['Page s1', 'Page s4'], total: 2, outside: 0 });
      expect(await seen(who, 'pixels'), who).toEqual({ names: ['Pixel s1', 'Pixel s4'], total: 2, outside: 0 });
    }
    const res = await t.raw('/api/ad-accounts/export', { token: tokens.clerk, payload: {} });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    expect(wb.worksheets[0]!.rowCount).toBe(4);
  });

  it('do not widen the materials screens: the same scope on a materials-only role shows its own ad accounts to push to', async () => {
    expect(await seen('cutter', 'ad')).toEqual({ names: [], total: 0, outside: 3 });
  });
});

describe('acting on assets with a company asset scope', () => {
  it('assigns ad accounts, pages and personal accounts to anyone, and clears an owner, like a manager', async () => {
    const call = (path: string, body: object, who = 'clerk') => t.call(path, body, { token: tokens[who] });
    expect((await call('/api/ad-accounts/assign_users', { ad_account_ids: [ids.a4], user_ids: [org.s1.id], mode: 'add' })).code).toBe(0);
    expect((await call('/api/ad-accounts/edit', { id: ids.aNone, remark: 'checked' })).data).toMatchObject({ remark: 'checked' });
    expect((await call('/api/pages/associate', { page_ids: [ids.page4], user_ids: [org.s2.id], mode: 'add' })).code).toBe(0);
    expect((await call('/api/pixels/associate', { pixel_ids: [ids.px4], ad_account_ids: [ids.aNone], mode: 'add' })).code).toBe(0);
    expect((await call('/api/personal-accounts/set_owner', { ids: [ids.paNone], owner_user_id: org.s3.id })).code).toBe(0);
    expect((await call('/api/personal-accounts/set_owner', { ids: [ids.paNone], owner_user_id: null })).code).toBe(0);
    expect((await call('/api/personal-accounts/set_hosted', { ids: [ids.pa4], hosted: true })).code).toBe(0);
    const links = await t.db.selectFrom('user_ad_accounts').select('user_id').where('ad_account_id', '=', ids.a4!).orderBy('user_id').execute();
    expect(links.map((l) => l.user_id)).toEqual([org.s1.id, org.s4.id].sort((a, b) => a - b));

    // Staff of their own scope cannot do the same.
    expect((await call('/api/ad-accounts/edit', { id: ids.aNone, remark: 'x' }, 's1')).code).toBe(403);
    expect((await call('/api/personal-accounts/set_hosted', { ids: [ids.pa4], hosted: false }, 's1')).code).toBe(403);
    expect((await call('/api/pages/associate', { page_ids: [ids.page4], user_ids: [org.s1.id], mode: 'add' }, 's1')).code).toBe(403);
  });
});
