import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createPersonalAccount, createScopeOrg, createUser } from '../../test/factories.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
/** Ad accounts by who they are assigned to. */
const acc: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ['/auth/account']);
  for (const [k, u] of Object.entries(org)) if (k !== 'departments') tokens[k] = await t.login((u as any).account, (u as any).password);
  const hosting = await createUser(t.db, { paths: ['/operation/account'] });
  tokens.hosting = await t.login(hosting.account, hosting.password);

  // 100 USD spent in each currency, so the USD total is exact: 9200 EUR cents, 15000 JPY, 10000 USD cents.
  acc.s1 = (await createAdAccount(t.db, { name: 'Alpha s1', currency: 'EUR', amount_spent_minor: 9200, balance_minor: 920, users: [org.s1.id] })).id;
  acc.s2 = (await createAdAccount(t.db, { name: 'Beta s2', currency: 'JPY', amount_spent_minor: 30000, balance_minor: 1500, users: [org.s2.id] })).id;
  acc.s3 = (await createAdAccount(t.db, { name: 'Gamma s3', currency: 'USD', amount_spent_minor: 5000, balance_minor: 100, users: [org.s3.id] })).id;
  acc.s4 = (await createAdAccount(t.db, { name: 'Delta s4', currency: 'USD', users: [org.s4.id] })).id;
  acc.none = (await createAdAccount(t.db, { name: 'Epsilon nobody', currency: 'USD', account_status: 2 })).id;
  acc.leader = (await createAdAccount(t.db, { name: 'Zeta leader', currency: 'USD', platform: 'ec', users: [org.leader.id] })).id;
});
afterAll(() => t.close());

const names = (res: any) => res.data.list.map((a: any) => a.name).sort();
const list = (who: string, body: object = {}) => t.call('/api/ad-accounts/list', body, { token: tokens[who] });

describe('ad-accounts/list', () => {
  it('shows staff their assigned accounts, leaders their department subtree, managers everything', async () => {
    expect(names(await list('s1'))).toEqual(['Alpha s1']);
    expect(names(await list('s4'))).toEqual(['Delta s4']);
    expect(names(await list('leader'))).toEqual(['Alpha s1', 'Beta s2', 'Gamma s3', 'Zeta leader']);
    expect((await list('manager')).data.total).toBe(6);
  });

  it('also shows staff the accounts their own personal accounts reach, but not unreachable ones', async () => {
    const owner = await createUser(t.db, { paths: ['/auth/account'] });
    const ownerToken = await t.login(owner.account, owner.password);
    const reached = await createAdAccount(t.db, { name: 'Reached by my token' });
    const lost = await createAdAccount(t.db, { name: 'No longer reached' });
    const pa = await createPersonalAccount(t.db, { owner_user_id: owner.id, ad_accounts: [reached.id, lost.id] });
    await t.db.updateTable('personal_account_ad_accounts').set({ reachable: false }).where('personal_account_id', '=', pa.id).where('ad_account_id', '=', lost.id).execute();
    const res = await t.call('/api/ad-accounts/list', {}, { token: ownerToken });
    expect(names(res)).toEqual(['Reached by my token']);
    // Other staff do not see it.
    expect(names(await list('s1'))).toEqual(['Alpha s1']);
    await t.db.deleteFrom('personal_account_ad_accounts').where('personal_account_id', '=', pa.id).execute();
    await t.db.deleteFrom('ad_accounts').where('id', 'in', [reached.id, lost.id]).execute();
  });

  it('answers amounts in major units of the account currency and USD totals of every matching row', async () => {
    const res = await list('leader', { page_size: 1 });
    expect(res.data.list).toHaveLength(1);
    expect(res.data.total).toBe(4);
    // 92 EUR + 30000 JPY + 50 USD = 100 + 200 + 50 USD at the reference rates.
    expect(res.data.summary).toEqual({ amount_spent_usd: 350, balance_usd: 21 });
    const alpha = (await list('s1')).data.list[0];
    expect(alpha).toMatchObject({ currency: 'EUR', amount_spent: 92, balance: 9.2, spend_cap: null, users: [{ id: org.s1.id, name: expect.any(String) }], personal_accounts: [] });
  });

  it('sorts money by its USD value across currencies', async () => {
    const res = await list('leader', { sort_field: 'amount_spent', sort_order: 'descend' });
    expect(res.data.list.map((a: any) => a.name)).toEqual(['Beta s2', 'Alpha s1', 'Gamma s3', 'Zeta leader']);
  });

  it('filters by keyword (name or act_ id), status, currency, platform, user, assignment and personal account', async () => {
    const alpha = await t.db.selectFrom('ad_accounts').select(['platform_id', 'account_id']).where('id', '=', acc.s1!).executeTakeFirstOrThrow();
    expect(names(await list('manager', { keyword: alpha.platform_id }))).toEqual(['Alpha s1']);
    expect(names(await list('manager', { keyword: alpha.account_id }))).toEqual(['Alpha s1']);
    expect(names(await list('manager', { keyword: 'gam' }))).toEqual(['Gamma s3']);
    expect(names(await list('manager', { account_status: 2 }))).toEqual(['Epsilon nobody']);
    expect(names(await list('manager', { currency: 'jpy' }))).toEqual(['Beta s2']);
    expect(names(await list('manager', { platform: 'ec' }))).toEqual(['Zeta leader']);
    expect(names(await list('manager', { user_id: org.s4.id }))).toEqual(['Delta s4']);
    expect(names(await list('manager', { unassigned: true }))).toEqual(['Epsilon nobody']);
    const pa = await createPersonalAccount(t.db, { name: 'Reacher', owner_user_id: org.manager.id, ad_accounts: [acc.s3!] });
    expect(names(await list('manager', { personal_account_id: pa.id }))).toEqual(['Gamma s3']);
    const gamma = (await list('manager', { personal_account_id: pa.id })).data.list[0];
    expect(gamma.personal_accounts).toEqual([{ id: pa.id, name: 'Reacher', status: 'valid' }]);
    // A filter never widens the scope.
    expect(names(await list('s1', { user_id: org.s4.id }))).toEqual([]);
  });

  it('exports the rows the caller sees as xlsx', async () => {
    const res = await t.raw('/api/ad-accounts/export', { token: tokens.leader, payload: {}, headers: { 'content-type': 'application/json', 'accept-language': 'en' } });
    expect(res.headers['content-disposition']).toContain('ad-accounts.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(3).value).toBe('Name');
    expect(ws.actualRowCount).toBe(5);
  });

  it('exports only the shown columns, in their order', async () => {
    const res = await t.raw('/api/ad-accounts/export', {
      token: tokens.manager,
      payload: { keyword: 'Beta', columns: ['balance', 'name', 'users'] },
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const values = (n: number) => (ws.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['Balance', 'ID', 'Ad account ID', 'Name', 'Users']);
    expect(ws.actualRowCount).toBe(2);
    expect(values(2)[3]).toBe('Beta s2');
    const bad = await t.call('/api/ad-accounts/export', { columns: ['name', 'token'] }, { token: tokens.manager });
    expect(bad.code).toBe(-2);
  });
});

describe('ad-accounts actions', () => {
  const assign = (who: string, body: object) => t.call('/api/ad-accounts/assign_users', body, { token: tokens[who] });
  const usersOf = async (id: number) => (await t.db.selectFrom('user_ad_accounts').select('user_id').where('ad_account_id', '=', id).orderBy('user_id').execute()).map((r) => r.user_id);

  it('lets managers assign anyone and records each change in the audit log', async () => {
    const res = await assign('manager', { ad_account_ids: [acc.none], user_ids: [org.s4.id, org.s1.id], mode: 'add' });
    expect(res.data).toEqual({ updated: 1 });
    expect(await usersOf(acc.none!)).toEqual([org.s1.id, org.s4.id].sort((a, b) => a - b));
    const audit = await t.db.selectFrom('audit_logs').select(['before', 'after']).where('action', '=', 'ad_account.assign_users').where('entity_id', '=', String(acc.none)).executeTakeFirstOrThrow();
    expect(audit).toEqual({ before: { user_ids: [] }, after: { user_ids: [org.s1.id, org.s4.id].sort((a, b) => a - b) } });
    await assign('manager', { ad_account_ids: [acc.none], user_ids: [org.s1.id], mode: 'remove' });
    expect(await usersOf(acc.none!)).toEqual([org.s4.id]);
    await assign('manager', { ad_account_ids: [acc.none], user_ids: [], mode: 'replace' });
    expect(await usersOf(acc.none!)).toEqual([]);
  });

  it('lets leaders assign their visible accounts to people of their subtree only; "replace" keeps others', async () => {
    expect((await assign('leader', { ad_account_ids: [acc.s1], user_ids: [org.s3.id], mode: 'add' })).code).toBe(0);
    expect((await assign('leader', { ad_account_ids: [acc.s1], user_ids: [org.s4.id], mode: 'add' })).code).toBe(403);
    expect((await assign('leader', { ad_account_ids: [acc.s4], user_ids: [org.s1.id], mode: 'add' })).code).toBe(403);
    // A manager shares s1's account with s4 (another department): the leader's replace must not drop s4.
    await assign('manager', { ad_account_ids: [acc.s1], user_ids: [org.s4.id], mode: 'add' });
    expect((await assign('leader', { ad_account_ids: [acc.s1], user_ids: [org.s2.id], mode: 'replace' })).code).toBe(0);
    expect(await usersOf(acc.s1!)).toEqual([org.s2.id, org.s4.id].sort((a, b) => a - b));
    // The leader does not see who outside their department shares the account; the manager does.
    const usersSeenBy = async (who: string) => (await list(who, { keyword: 'Alpha' })).data.list[0].users.map((u: any) => u.id);
    expect(await usersSeenBy('leader')).toEqual([org.s2.id]);
    expect(await usersSeenBy('manager')).toEqual([org.s2.id, org.s4.id].sort((a, b) => a - b));
    // Restore for the tests below.
    await assign('manager', { ad_account_ids: [acc.s1], user_ids: [org.s1.id], mode: 'replace' });
  });

  it('refuses staff assigning anyone, unknown ids and deleted users', async () => {
    expect((await assign('s1', { ad_account_ids: [acc.s1], user_ids: [org.s1.id], mode: 'add' })).code).toBe(403);
    expect((await assign('manager', { ad_account_ids: [999999], user_ids: [], mode: 'add' })).message).toBe('广告账户不存在');
    const gone = await createUser(t.db);
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    const res = await assign('manager', { ad_account_ids: [acc.s1], user_ids: [gone.id], mode: 'add' });
    expect(res).toMatchObject({ code: -2, message: '用户不存在或已删除' });
  });

  it('sets platform, hosting and remark on accounts in scope only', async () => {
    expect((await t.call('/api/ad-accounts/set_platform', { ad_account_ids: [acc.s1], platform: 'dj' }, { token: tokens.s1 })).data).toEqual({ updated: 1 });
    expect((await t.call('/api/ad-accounts/set_platform', { ad_account_ids: [acc.s1, acc.s2], platform: 'dj' }, { token: tokens.s1 })).code).toBe(403);
    expect(names(await list('manager', { platform: 'dj' }))).toEqual(['Alpha s1']);

    expect((await t.call('/api/ad-accounts/set_hosted', { ad_account_ids: [acc.s1], hosted: true }, { token: tokens.s1 })).code).toBe(0);
    const hosted = await t.db.selectFrom('ad_accounts').select(['hosted', 'hosted_at']).where('id', '=', acc.s1!).executeTakeFirstOrThrow();
    expect(hosted.hosted).toBe(true);
    expect(hosted.hosted_at).toEqual(t.clock.now());
    expect(names(await list('s1', { hosted: true }))).toEqual(['Alpha s1']);
    // /operation/account (广告托管) holders may host but not assign; with no accounts of their own, nothing is in scope.
    expect((await t.call('/api/ad-accounts/set_hosted', { ad_account_ids: [acc.s1], hosted: false }, { token: tokens.hosting })).code).toBe(403);
    expect((await t.call('/api/ad-accounts/assign_users', { ad_account_ids: [acc.s1], user_ids: [], mode: 'add' }, { token: tokens.hosting })).code).toBe(403);

    const edited = await t.call('/api/ad-accounts/edit', { id: acc.s1, remark: '  main EU account ' }, { token: tokens.s1 });
    expect(edited.data).toMatchObject({ id: acc.s1, remark: 'main EU account', platform: 'dj', hosted: true });
    expect((await t.call('/api/ad-accounts/edit', { id: acc.s4, remark: 'x' }, { token: tokens.leader })).code).toBe(403);
    const actions = await t.db.selectFrom('audit_logs').select('action').where('entity_type', '=', 'ad_account').where('entity_id', '=', String(acc.s1)).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['ad_account.set_platform', 'ad_account.set_hosted', 'ad_account.edit']));
  });
});
