import { groupWithPages, SYS_USER_SORT_FIELDS } from '@ads/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../lib/passwords.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createDepartment, createRole, createUser } from '../../test/factories.ts';

let t: TestApp;
let manager: Awaited<ReturnType<typeof createUser>>;
let managerToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  manager = await createUser(t.db, { account: 'boss', name: 'Boss', is_admin: 1 });
  managerToken = await t.login(manager.account, manager.password);
});
afterAll(() => t.close());

const call = <T = any>(path: string, body?: unknown, token = managerToken, lang?: string) => t.call<T>(`/api/sys-users/${path}`, body, { token, ...(lang ? { lang } : {}) });
const userInfo = (token: string) => t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token });
const tryLogin = (account: string, password: string) => t.call('/api/login', { account, pwd: md5Hex(password) });
const roleIdsOf = async (userId: number) =>
  (await t.db.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).orderBy('role_id').execute()).map((r) => r.role_id);
const auditOf = (action: string, entityId: number) =>
  t.db.selectFrom('audit_logs').selectAll().where('action', '=', action).where('entity_id', '=', String(entityId)).orderBy('id').execute();
const listIds = async (body: object, token = managerToken) => {
  const res = await call<{ list: { id: number }[]; total: number }>('list', { page_size: 500, ...body }, token);
  expect(res.code).toBe(0);
  return res.data.list.map((u) => u.id);
};

describe('list', () => {
  it('answers rows in the API.md shape with department and role names, never a password hash', async () => {
    const dept = await createDepartment(t.db, { name: '投放一部' });
    const role = await createRole(t.db, { name: 'Shape role', paths: ['/index'] });
    const u = await createUser(t.db, { account: 'shape-user', name: '形状', department_id: dept.id, is_leader: 1 });
    await t.db.insertInto('user_roles').values({ user_id: u.id, role_id: role.id }).execute();

    const res = await call('list', { department_id: dept.id });
    expect(res.status).toBe(200);
    expect(res.code).toBe(0);
    expect(res.data.total).toBe(1);
    expect(res.data.list).toEqual([
      {
        id: u.id,
        account: 'shape-user',
        name: '形状',
        remark: '',
        is_admin: 0,
        is_leader: 1,
        platform: 'dj',
        department_id: dept.id,
        department_name: '投放一部',
        roles: [{ id: role.id, name: 'Shape role' }],
        status: 'enabled',
        login_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    ]);
    expect(JSON.stringify(res.data)).not.toMatch(/argon2|pwd/);
  });

  it('filters by account, name, department, role, is_admin and status, ignoring letter case and never showing deleted users', async () => {
    const d1 = await createDepartment(t.db);
    const d2 = await createDepartment(t.db);
    const r1 = await createRole(t.db);
    const a = await createUser(t.db, { account: 'flt-Alpha', name: '张三', department_id: d1.id });
    const b = await createUser(t.db, { account: 'flt-beta', name: 'Bob', department_id: d2.id, is_admin: 1 });
    const c = await createUser(t.db, { account: 'flt-gamma', name: 'Carol', status: 'disabled' });
    const pct = await createUser(t.db, { account: 'flt-pct', name: '100%纯' });
    const gone = await createUser(t.db, { account: 'flt-gone', name: 'Gone', department_id: d1.id });
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    await t.db.insertInto('user_roles').values({ user_id: a.id, role_id: r1.id }).execute();

    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    expect(sorted(await listIds({ account: 'FLT-' }))).toEqual([a.id, b.id, c.id, pct.id]);
    expect(await listIds({ account: 'flt-al' })).toEqual([a.id]);
    expect(await listIds({ name: 'BO', account: 'flt' })).toEqual([b.id]);
    expect(await listIds({ name: '张' })).toEqual([a.id]);
    // % and _ are matched literally, not as wildcards.
    expect(await listIds({ name: '%', account: 'flt' })).toEqual([pct.id]);
    expect(await listIds({ account: 'flt_' })).toEqual([]);
    expect(await listIds({ department_id: d1.id })).toEqual([a.id]);
    expect(await listIds({ role_id: r1.id })).toEqual([a.id]);
    expect(await listIds({ is_admin: 1, account: 'flt' })).toEqual([b.id]);
    expect(await listIds({ status: 'disabled', account: 'flt' })).toEqual([c.id]);
    expect(sorted(await listIds({ account: 'flt', is_admin: 0, status: 'enabled' }))).toEqual([a.id, pct.id]);
    const total = await call('list', { account: 'flt', page_size: 1 });
    expect(total.data.total).toBe(4);
    expect(total.data.list).toHaveLength(1);
  });

  it('pages through the matching rows with a constant total', async () => {
    const dept = await createDepartment(t.db);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createUser(t.db, { department_id: dept.id })).id);
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await call('list', { department_id: dept.id, page, page_size: 2 });
      expect(res.code).toBe(0);
      expect(res.data.total).toBe(5);
      pages.push(res.data.list.map((u: { id: number }) => u.id));
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1, 0]);
    // Default order: newest id first.
    expect(pages.flat()).toEqual([...ids].reverse());
  });

  it('sorts by every allowed field in both directions, users never seen last', async () => {
    const dept = await createDepartment(t.db);
    const x = await createUser(t.db, { account: 'sort-b', name: 'Zed', department_id: dept.id });
    // Names share their letter case so the order does not depend on the database's collation.
    const y = await createUser(t.db, { account: 'sort-c', name: 'Amy', department_id: dept.id });
    const z = await createUser(t.db, { account: 'sort-a', name: 'Mia', department_id: dept.id });
    const set = (id: number, v: { login_at: string | null; created_at: string }) => t.db.updateTable('users').set(v).where('id', '=', id).execute();
    await set(x.id, { login_at: '2026-10-02T00:00:00Z', created_at: '2026-01-03T00:00:00Z' });
    await set(y.id, { login_at: null, created_at: '2026-01-01T00:00:00Z' });
    await set(z.id, { login_at: '2026-10-01T00:00:00Z', created_at: '2026-01-02T00:00:00Z' });

    const expected: Record<(typeof SYS_USER_SORT_FIELDS)[number], [number[], number[]]> = {
      id: [[x.id, y.id, z.id], [z.id, y.id, x.id]],
      account: [[z.id, x.id, y.id], [y.id, x.id, z.id]],
      name: [[y.id, z.id, x.id], [x.id, z.id, y.id]],
      login_at: [[z.id, x.id, y.id], [x.id, z.id, y.id]],
      created_at: [[y.id, z.id, x.id], [x.id, z.id, y.id]],
    };
    expect(Object.keys(expected).sort()).toEqual([...SYS_USER_SORT_FIELDS].sort());
    for (const field of SYS_USER_SORT_FIELDS) {
      const [asc, desc] = expected[field];
      expect(await listIds({ department_id: dept.id, sort_field: field, sort_order: 'ascend' }), `${field} ascend`).toEqual(asc);
      expect(await listIds({ department_id: dept.id, sort_field: field, sort_order: 'descend' }), `${field} descend`).toEqual(desc);
    }
  });

  it('refuses a sort field outside the allowed ones', async () => {
    const res = await call('list', { sort_field: 'pwd_hash' });
    expect(res.code).toBe(-2);
    expect(res.data.errors).toEqual([{ field: 'sort_field', message: expect.any(String) }]);
  });
});

describe('create_account', () => {
  it('creates a user with the given password and the documented defaults', async () => {
    const res = await call('create_account', { account: 'new.user', name: 'New User', pwd: md5Hex('first-pass') });
    expect(res.code).toBe(0);
    expect(res.data).toEqual({ id: expect.any(Number) });
    const row = (await call('list', { account: 'new.user' })).data.list[0];
    expect(row).toMatchObject({ id: res.data.id, account: 'new.user', name: 'New User', remark: '', is_admin: 0, is_leader: 0, platform: 'dj', department_id: null, roles: [], status: 'enabled' });
    expect((await tryLogin('new.user', 'first-pass')).code).toBe(0);
  });

  it('generates a password when none is given, returns it once, and that password logs in', async () => {
    const res = await call('create_account', { account: 'gen-pass', name: 'Gen' });
    expect(res.code).toBe(0);
    expect(res.data.new_passwd).toMatch(/^[A-Za-z0-9]{12}$/);
    const login = await tryLogin('gen-pass', res.data.new_passwd);
    expect(login.code).toBe(0);
    expect(login.data.name).toBe('Gen');
    const list = await call('list', { account: 'gen-pass' });
    expect(JSON.stringify(list.data)).not.toContain(res.data.new_passwd);
  });

  it('refuses a duplicate account in any letter case, naming it, and keeps the first', async () => {
    expect((await call('create_account', { account: 'Dup.User', name: 'One', pwd: md5Hex('x1') })).code).toBe(0);
    const dup = await call('create_account', { account: 'dup.user', name: 'Two', pwd: md5Hex('x2') });
    expect(dup.code).toBe(-2);
    expect(dup.message).toBe('账号「dup.user」已存在');
    // The form can show it beside the account field.
    expect(dup.data.errors).toEqual([{ field: 'account', message: '账号「dup.user」已存在' }]);
    const en = await call('create_account', { account: 'DUP.USER', name: 'Two' }, managerToken, 'en');
    expect(en.message).toBe('The account "DUP.USER" already exists.');
    const rows = await t.db.selectFrom('users').select('name').where('account', 'ilike', 'dup.user').execute();
    expect(rows).toEqual([{ name: 'One' }]);
  });

  it('lets the account name of a deleted user be used again', async () => {
    const first = await call('create_account', { account: 'reuse-me', name: 'First', pwd: md5Hex('a') });
    expect((await call('delete_user', { id: first.data.id })).code).toBe(0);
    const second = await call('create_account', { account: 'Reuse-Me', name: 'Second', pwd: md5Hex('b') });
    expect(second.code).toBe(0);
    expect(second.data.id).not.toBe(first.data.id);
    expect((await tryLogin('reuse-me', 'b')).data.name).toBe('Second');
  });

  it('sets department, roles, level and platform, and refuses unknown departments or roles without creating anyone', async () => {
    const dept = await createDepartment(t.db, { name: 'Create dept' });
    const r1 = await createRole(t.db, { name: 'Create r1' });
    const r2 = await createRole(t.db, { name: 'Create r2' });
    const res = await call('create_account', {
      account: 'full-user', name: 'Full', remark: ' note ', is_admin: 1, is_leader: 1, platform: 'ec', department_id: dept.id, role_ids: [r2.id, r1.id, r2.id], pwd: md5Hex('p'),
    });
    expect(res.code).toBe(0);
    const row = (await call('list', { account: 'full-user' })).data.list[0];
    expect(row).toMatchObject({ remark: 'note', is_admin: 1, is_leader: 1, platform: 'ec', department_id: dept.id, department_name: 'Create dept', roles: [{ id: r1.id, name: 'Create r1' }, { id: r2.id, name: 'Create r2' }] });

    const noDept = await call('create_account', { account: 'no-dept', name: 'X', department_id: 999_999 });
    expect(noDept).toMatchObject({ code: -2, message: '部门不存在' });
    const noRole = await call('create_account', { account: 'no-role', name: 'X', role_ids: [r1.id, 999_999] });
    expect(noRole).toMatchObject({ code: -2, message: '角色不存在' });
    expect(await t.db.selectFrom('users').select('id').where('account', 'in', ['no-dept', 'no-role']).execute()).toEqual([]);
  });

  it('refuses invalid fields by name', async () => {
    const res = await call('create_account', { account: '中 文', name: '', pwd: 'plain' });
    expect(res.code).toBe(-2);
    expect([...new Set(res.data.errors.map((e: { field: string }) => e.field))].sort()).toEqual(['account', 'name', 'pwd']);
  });

  it('writes an audit entry with the actor and the new user, without any password hash', async () => {
    const res = await call('create_account', { account: 'audited', name: 'Audited', pwd: md5Hex('secret') });
    const [entry] = await auditOf('user.create', res.data.id);
    expect(entry).toMatchObject({ actor_id: manager.id, actor_account: 'boss', entity_type: 'user', before: null });
    expect(entry!.after).toMatchObject({ account: 'audited', name: 'Audited', is_admin: 0, status: 'enabled', role_ids: [] });
    expect(JSON.stringify(entry)).not.toMatch(/argon2|pwd|hash/i);
    expect(JSON.stringify(entry)).not.toContain(md5Hex('secret'));
  });
});

describe('edit_account', () => {
  it('changes the given fields, keeps the others, and answers the updated row', async () => {
    const dept = await createDepartment(t.db, { name: 'Edit dept' });
    const r1 = await createRole(t.db, { name: 'Edit r1' });
    const r2 = await createRole(t.db, { name: 'Edit r2' });
    const u = await createUser(t.db, { account: 'edit-me', name: 'Before' });
    await t.db.insertInto('user_roles').values({ user_id: u.id, role_id: r1.id }).execute();

    const res = await call('edit_account', { id: u.id, account: 'edited', name: 'After', is_leader: 1, platform: 'ec', department_id: dept.id, role_ids: [r2.id] });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ id: u.id, account: 'edited', name: 'After', remark: '', is_admin: 0, is_leader: 1, platform: 'ec', department_id: dept.id, department_name: 'Edit dept', roles: [{ id: r2.id, name: 'Edit r2' }], status: 'enabled' });
    expect((await call('list', { account: 'edited' })).data.list[0]).toEqual(res.data);
    expect((await tryLogin('edited', u.password)).code).toBe(0);

    const cleared = await call('edit_account', { id: u.id, department_id: null, role_ids: [], remark: 'moved out' });
    expect(cleared.data).toMatchObject({ department_id: null, department_name: null, roles: [], remark: 'moved out', name: 'After' });

    const [entry] = (await auditOf('user.edit', u.id)).slice(0);
    expect(entry!.before).toMatchObject({ account: 'edit-me', name: 'Before', role_ids: [r1.id] });
    expect(entry!.after).toMatchObject({ account: 'edited', name: 'After', role_ids: [r2.id], department_id: dept.id });
    expect(JSON.stringify(entry)).not.toMatch(/argon2|pwd|hash/i);
  });

  it('disabling a user ends their sessions at once; enabling lets them log in again', async () => {
    const u = await createUser(t.db);
    const token = await t.login(u.account, u.password);
    expect((await userInfo(token)).code).toBe(0);
    expect((await call('edit_account', { id: u.id, status: 'disabled' })).code).toBe(0);
    expect((await userInfo(token)).code).toBe(401);
    expect((await tryLogin(u.account, u.password)).message).toBe('该账号已停用，请联系管理员');
    expect((await call('edit_account', { id: u.id, status: 'enabled' })).code).toBe(0);
    expect((await userInfo(token)).code).toBe(401);
    expect((await tryLogin(u.account, u.password)).code).toBe(0);
  });

  it('does not let anyone disable themself or change their own admin level', async () => {
    const disable = await call('edit_account', { id: manager.id, status: 'disabled' });
    expect(disable).toMatchObject({ code: -2, message: '不能停用自己的账号' });
    const demote = await call('edit_account', { id: manager.id, is_admin: 0 });
    expect(demote).toMatchObject({ code: -2, message: '不能修改自己的管理员身份' });
    expect((await userInfo(managerToken)).data).toMatchObject({ is_admin: 1 });
    // Sending one's unchanged level along with other fields is fine.
    expect((await call('edit_account', { id: manager.id, is_admin: 1, remark: 'me' })).code).toBe(0);
  });

  it('refuses an account name another user has, and an unknown or deleted user', async () => {
    const a = await createUser(t.db, { account: 'taken-name' });
    const b = await createUser(t.db);
    const res = await call('edit_account', { id: b.id, account: 'TAKEN-name' });
    expect(res).toMatchObject({ code: -2, message: '账号「TAKEN-name」已存在' });
    expect((await call('edit_account', { id: 999_999, name: 'x' })).message).toBe('用户不存在或已删除');
    expect((await call('delete_user', { id: a.id })).code).toBe(0);
    expect((await call('edit_account', { id: a.id, name: 'x' })).message).toBe('用户不存在或已删除');
  });
});

describe('delete_user', () => {
  it('soft-deletes: the row stays, the user leaves lists, roles and leadership, and their token ends', async () => {
    const dept = await createDepartment(t.db);
    const u = await createUser(t.db, { account: 'to-delete', department_id: dept.id, paths: ['/index'] });
    await t.db.updateTable('departments').set({ leader_id: u.id }).where('id', '=', dept.id).execute();
    const token = await t.login(u.account, u.password);

    const res = await call('delete_user', { id: u.id });
    expect(res).toMatchObject({ code: 0, data: null });
    expect((await userInfo(token)).code).toBe(401);
    expect((await tryLogin(u.account, u.password)).message).toBe('账号或密码错误');
    expect(await listIds({ account: 'to-delete' })).toEqual([]);
    expect((await call('simple_list', { keyword: 'to-delete' })).data).toEqual([]);
    const row = await t.db.selectFrom('users').select(['deleted_at']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeInstanceOf(Date);
    expect(await roleIdsOf(u.id)).toEqual([]);
    expect((await t.db.selectFrom('departments').select('leader_id').where('id', '=', dept.id).executeTakeFirstOrThrow()).leader_id).toBeNull();
    const [entry] = await auditOf('user.delete', u.id);
    expect(entry).toMatchObject({ actor_id: manager.id, after: null });
    expect(entry!.before).toMatchObject({ account: 'to-delete' });

    expect((await call('delete_user', { id: u.id })).message).toBe('用户不存在或已删除');
  });

  it('refuses deleting oneself', async () => {
    const res = await call('delete_user', { id: manager.id });
    expect(res).toMatchObject({ code: -2, message: '不能删除自己的账号' });
    expect((await userInfo(managerToken)).code).toBe(0);
  });
});

describe('reset_passwd', () => {
  it('of oneself answers a new password, ends one’s other sessions and keeps the current one', async () => {
    const u = await createUser(t.db);
    const current = await t.login(u.account, u.password);
    const other = await t.login(u.account, u.password);

    const res = await t.call('/api/sys-users/reset_passwd', { currentUserId: u.id }, { token: current });
    expect(res.code).toBe(0);
    expect(res.data.new_passwd).toMatch(/^[A-Za-z0-9]{12}$/);
    expect((await userInfo(current)).code).toBe(0);
    expect((await userInfo(other)).code).toBe(401);
    expect((await tryLogin(u.account, u.password)).code).toBe(-2);
    expect((await tryLogin(u.account, res.data.new_passwd)).code).toBe(0);
    const [entry] = await auditOf('user.reset_password', u.id);
    expect(entry).toMatchObject({ actor_id: u.id, before: null, after: null });
  });

  it('of someone else needs /sys/accounts', async () => {
    const staff = await createUser(t.db, { paths: ['/index'] });
    const victim = await createUser(t.db);
    const res = await t.call('/api/sys-users/reset_passwd', { currentUserId: victim.id }, { token: await t.login(staff.account, staff.password) });
    expect(res.code).toBe(403);
    expect((await tryLogin(victim.account, victim.password)).code).toBe(0);
  });

  it('of someone else by a manager ends all of that user’s sessions', async () => {
    const u = await createUser(t.db);
    const t1 = await t.login(u.account, u.password);
    const t2 = await t.login(u.account, u.password);
    const res = await call('reset_passwd', { currentUserId: u.id });
    expect(res.code).toBe(0);
    expect((await userInfo(t1)).code).toBe(401);
    expect((await userInfo(t2)).code).toBe(401);
    expect((await userInfo(managerToken)).code).toBe(0);
    expect((await tryLogin(u.account, res.data.new_passwd)).code).toBe(0);
    const [entry] = await auditOf('user.reset_password', u.id);
    expect(entry).toMatchObject({ actor_id: manager.id });
    expect(JSON.stringify(entry)).not.toContain(res.data.new_passwd);
    expect((await call('reset_passwd', { currentUserId: 999_999 })).message).toBe('用户不存在或已删除');
  });
});

describe('simple_list', () => {
  it('lets a manager find every enabled person by account or name, without disabled, deleted or super admin users', async () => {
    const dept = await createDepartment(t.db);
    const a = await createUser(t.db, { account: 'pick-a', name: 'Zoe Picker', department_id: dept.id });
    const b = await createUser(t.db, { account: 'pick-b', name: 'adam' });
    const c = await createUser(t.db, { account: 'x-other', name: 'Pickle Rick', department_id: dept.id });
    await createUser(t.db, { account: 'pick-off', status: 'disabled' });
    await createUser(t.db, { account: 'pick-root', is_admin: 9 });
    const gone = await createUser(t.db, { account: 'pick-gone' });
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();

    const res = await call('simple_list', { keyword: 'PICK' });
    expect(res.code).toBe(0);
    expect(res.data).toEqual([
      { id: b.id, account: 'pick-b', name: 'adam' },
      { id: c.id, account: 'x-other', name: 'Pickle Rick' },
      { id: a.id, account: 'pick-a', name: 'Zoe Picker' },
    ]);
    expect((await call('simple_list', { department_id: dept.id })).data.map((u: { id: number }) => u.id)).toEqual([c.id, a.id]);
    expect((await call('simple_list', { keyword: 'pick', department_id: dept.id })).data).toHaveLength(2);
    const all = await t.call('/api/sys-users/simple_list', undefined, { token: managerToken });
    expect(all.code).toBe(0);
    expect(all.data.map((u: { account: string }) => u.account)).toEqual(expect.arrayContaining(['pick-a', 'pick-b', 'boss']));
    expect(JSON.stringify(all.data)).not.toMatch(/pick-off|pick-root|pick-gone/);
  });

  describe('for everyone else, within what they may see or act for', () => {
    // D > D1, and E. leader L of D; staff s, t in D; u in D1; e in E; a company-wide authorization clerk c in E.
    let people: Record<'leader' | 's' | 'tt' | 'u' | 'e' | 'clerk' | 'hr' | 'editor' | 'cutter', Awaited<ReturnType<typeof createUser>>>;
    const pick = async (who: { account: string; password: string }, body?: object) => {
      const res = await t.call<{ id: number; account: string }[]>('/api/sys-users/simple_list', body, { token: await t.login(who.account, who.password) });
      expect(res.code).toBe(0);
      return res.data.map((u) => u.account).filter((a) => a.startsWith('sl-')).sort();
    };

    beforeAll(async () => {
      const d = (await createDepartment(t.db, { name: 'SL D' })).id;
      const d1 = (await createDepartment(t.db, { name: 'SL D1', parent_id: d })).id;
      const e = (await createDepartment(t.db, { name: 'SL E' })).id;
      const companyRole = await t.db.insertInto('roles').values({ name: 'sl-company', paths: ['/auth', '/auth/account'], asset_scope: 'company' }).returning('id').executeTakeFirstOrThrow();
      people = {
        leader: await createUser(t.db, { account: 'sl-leader', department_id: d, is_leader: 1, paths: ['/auth/account'] }),
        s: await createUser(t.db, { account: 'sl-s', department_id: d, paths: ['/auth/account'] }),
        tt: await createUser(t.db, { account: 'sl-t', department_id: d }),
        u: await createUser(t.db, { account: 'sl-u', department_id: d1 }),
        e: await createUser(t.db, { account: 'sl-e', department_id: e }),
        clerk: await createUser(t.db, { account: 'sl-clerk', department_id: e }),
        hr: await createUser(t.db, { account: 'sl-hr', department_id: d1, paths: ['/sys/department'] }),
        editor: await createUser(t.db, { account: 'sl-editor', department_id: e, paths: ['/material', '/material/upload'] }),
        cutter: await createUser(t.db, { account: 'sl-cutter', department_id: d, paths: ['/advertising', '/advertising/video'] }),
      };
      await t.db.insertInto('user_roles').values({ user_id: people.clerk.id, role_id: companyRole.id }).execute();
    });

    it('shows staff themself only', async () => {
      expect(await pick(people.s)).toEqual(['sl-s']);
      expect(await pick(people.tt, { keyword: 'sl-' })).toEqual(['sl-t']);
    });

    it('shows a leader the people of their department subtree', async () => {
      expect(await pick(people.leader)).toEqual(['sl-cutter', 'sl-hr', 'sl-leader', 'sl-s', 'sl-t', 'sl-u']);
    });

    it('shows a holder of /sys/department or /sys/accounts the people of the departments they manage', async () => {
      expect(await pick(people.hr)).toEqual(['sl-hr', 'sl-u']);
    });

    it('shows a company-wide authorization clerk everyone (they assign assets to anyone)', async () => {
      expect(await pick(people.clerk)).toEqual(['sl-clerk', 'sl-cutter', 'sl-e', 'sl-editor', 'sl-hr', 'sl-leader', 'sl-s', 'sl-t', 'sl-u']);
    });

    it('shows the editors a material may be credited to, to whoever works on materials', async () => {
      // The editor holds /material/upload; the cutter works on materials (/advertising/video) and may credit them.
      expect(await pick(people.cutter, { purpose: 'editor' })).toEqual(['sl-cutter', 'sl-editor']);
      expect(await pick(people.cutter)).toEqual(['sl-cutter']);
      // Without a materials screen, the purpose widens nothing.
      expect(await pick(people.s, { purpose: 'editor' })).toEqual(['sl-s']);
      expect((await call('simple_list', { purpose: 'nobody' }, managerToken)).code).toBe(-2);
    });
  });
});

describe('batch_save_user_role', () => {
  it('makes every listed user’s roles exactly role_ids and audits each change', async () => {
    const [r1, r2, r3, r4] = [await createRole(t.db), await createRole(t.db), await createRole(t.db), await createRole(t.db)];
    const u1 = await createUser(t.db);
    const u2 = await createUser(t.db);
    const bystander = await createUser(t.db);
    await t.db.insertInto('user_roles').values([{ user_id: u1.id, role_id: r1.id }, { user_id: u2.id, role_id: r2.id }, { user_id: u2.id, role_id: r3.id }, { user_id: bystander.id, role_id: r1.id }]).execute();

    const res = await call('batch_save_user_role', { user_ids: [u1.id, u2.id, u1.id], role_ids: [r4.id, r2.id] });
    expect(res).toMatchObject({ code: 0, data: { updated: 2 } });
    expect(await roleIdsOf(u1.id)).toEqual([r2.id, r4.id]);
    expect(await roleIdsOf(u2.id)).toEqual([r2.id, r4.id]);
    expect(await roleIdsOf(bystander.id)).toEqual([r1.id]);
    const [entry] = await auditOf('user.set_roles', u2.id);
    expect(entry).toMatchObject({ actor_id: manager.id, before: { role_ids: [r2.id, r3.id] }, after: { role_ids: [r2.id, r4.id] } });

    expect((await call('batch_save_user_role', { user_ids: [u1.id], role_ids: [] })).code).toBe(0);
    expect(await roleIdsOf(u1.id)).toEqual([]);
  });

  it('changes nobody when one user or one role is unknown', async () => {
    const r1 = await createRole(t.db);
    const r2 = await createRole(t.db);
    const u1 = await createUser(t.db);
    const u2 = await createUser(t.db);
    await t.db.insertInto('user_roles').values([{ user_id: u1.id, role_id: r1.id }, { user_id: u2.id, role_id: r1.id }]).execute();

    const unknownUser = await call('batch_save_user_role', { user_ids: [u1.id, 999_999, u2.id], role_ids: [r2.id] });
    expect(unknownUser).toMatchObject({ code: -2, message: '用户不存在或已删除' });
    const unknownRole = await call('batch_save_user_role', { user_ids: [u1.id, u2.id], role_ids: [r2.id, 999_999] });
    expect(unknownRole).toMatchObject({ code: -2, message: '角色不存在' });
    expect(await roleIdsOf(u1.id)).toEqual([r1.id]);
    expect(await roleIdsOf(u2.id)).toEqual([r1.id]);
    expect(await auditOf('user.set_roles', u1.id)).toEqual([]);
  });
});

async function readXlsx(buf: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ExcelJS.Buffer);
  const ws = wb.worksheets[0]!;
  const width = ws.getRow(1).cellCount;
  const rows: unknown[][] = [];
  // Empty cells read back as holes; show them as '' like the screen would.
  ws.eachRow((row) => rows.push(Array.from({ length: width }, (_, i) => (row.values as unknown[])[i + 1] ?? '')));
  return { name: ws.name, rows };
}

describe('export', () => {
  it('answers an xlsx of all matching rows with a header row, named in the caller’s language', async () => {
    const dept = await createDepartment(t.db, { name: '导出部' });
    const role = await createRole(t.db, { name: '导出角色' });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createUser(t.db, { account: `exp-${i}`, name: `导出${i}`, department_id: dept.id })).id);
    await t.db.insertInto('user_roles').values({ user_id: ids[0]!, role_id: role.id }).execute();
    await t.db.updateTable('users').set({ login_at: '2026-10-05T06:07:08Z', remark: '备注' }).where('id', '=', ids[0]!).execute();

    // page_size is ignored: an export has every matching row.
    const res = await t.raw('/api/sys-users/export', { token: managerToken, payload: { department_id: dept.id, page_size: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent('账号列表.xlsx')}`);
    const { name, rows } = await readXlsx(res.rawPayload);
    expect(name).toBe('账号');
    expect(rows[0]).toEqual(['ID', '账号', '姓名', '部门', '角色', '身份', '负责人', '平台', '状态', '最近登录', '创建时间', '备注']);
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).map((r) => r[0])).toEqual(ids);
    expect(rows[1]).toEqual([ids[0], 'exp-0', '导出0', '导出部', '导出角色', '员工', '', 'dj', '启用', '2026-10-05 06:07:08', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), '备注']);

    const en = await t.raw('/api/sys-users/export', { token: managerToken, payload: { department_id: dept.id }, headers: { 'accept-language': 'en' } });
    expect(en.headers['content-disposition']).toContain("filename*=UTF-8''accounts.xlsx");
    const enSheet = await readXlsx(en.rawPayload);
    expect(enSheet.rows[0]![1]).toBe('Account');
    expect(enSheet.rows[1]![5]).toBe('Staff');
  });

  it('holds only the shown columns, in the order asked, and refuses unknown or repeated column keys', async () => {
    const dept = await createDepartment(t.db, { name: '列部' });
    const u = await createUser(t.db, { account: 'cols-0', name: '列0', department_id: dept.id });
    const res = await t.raw('/api/sys-users/export', { token: managerToken, payload: { department_id: dept.id, columns: ['status', 'account', 'department'] } });
    expect(res.statusCode).toBe(200);
    const { rows } = await readXlsx(res.rawPayload);
    // `account` is the table's account column: the id and the account name.
    expect(rows).toEqual([
      ['状态', 'ID', '账号', '部门'],
      ['启用', u.id, 'cols-0', '列部'],
    ]);
    for (const columns of [['account', 'password'], ['name', 'name'], []]) {
      const bad = await t.call('/api/sys-users/export', { department_id: dept.id, columns }, { token: managerToken });
      expect(bad.code).toBe(-2);
      expect(bad.data.errors[0].field).toMatch(/^columns/);
    }
  });
});

describe('audit_logs', () => {
  it('cannot be changed or deleted, even directly in the database', async () => {
    const [row] = await t.db.selectFrom('audit_logs').selectAll().orderBy('id').limit(1).execute();
    expect(row).toBeDefined();
    await expect(t.db.updateTable('audit_logs').set({ action: 'forged' }).where('id', '=', row!.id).execute()).rejects.toThrow(/append-only/);
    await expect(t.db.deleteFrom('audit_logs').where('id', '=', row!.id).execute()).rejects.toThrow(/append-only/);
    const again = await t.db.selectFrom('audit_logs').selectAll().where('id', '=', row!.id).executeTakeFirst();
    expect(again).toEqual(row);
  });
});

describe('data scope of a staff user with /sys/accounts', () => {
  // Department tree: root > A > A1, root > B. The staff user S sits in A.
  let deptA: number, deptA1: number, deptB: number;
  let s: Awaited<ReturnType<typeof createUser>>, sToken: string;
  let peer: { id: number }, a1: Awaited<ReturnType<typeof createUser>>, b1: Awaited<ReturnType<typeof createUser>>, loner: { id: number }, mgrA: { id: number }, root: Awaited<ReturnType<typeof createUser>>;
  let okRole: number, sysRole: number, groupRole: number, menuRole: number;

  beforeAll(async () => {
    const top = await createDepartment(t.db, { name: 'Scope root' });
    deptA = (await createDepartment(t.db, { name: 'Scope A', parent_id: top.id })).id;
    deptA1 = (await createDepartment(t.db, { name: 'Scope A1', parent_id: deptA })).id;
    deptB = (await createDepartment(t.db, { name: 'Scope B', parent_id: top.id })).id;
    s = await createUser(t.db, { account: 'scope-s', department_id: deptA, paths: ['/sys/accounts', '/index'] });
    sToken = await t.login(s.account, s.password);
    peer = await createUser(t.db, { account: 'scope-peer', department_id: deptA });
    a1 = await createUser(t.db, { account: 'scope-a1', department_id: deptA1 });
    b1 = await createUser(t.db, { account: 'scope-b1', department_id: deptB });
    loner = await createUser(t.db, { account: 'scope-loner' });
    mgrA = await createUser(t.db, { account: 'scope-mgr', department_id: deptA, is_admin: 1 });
    root = await createUser(t.db, { account: 'scope-root', is_admin: 9 });
    okRole = (await createRole(t.db, { name: 'scope-ok', paths: ['/index'] })).id;
    sysRole = (await createRole(t.db, { name: 'scope-sys-role', paths: ['/sys/role'] })).id;
    // A whole group, as the role editor stores it: the group and every page of it.
    groupRole = (await createRole(t.db, { name: 'scope-sys-group', paths: groupWithPages('/sys') })).id;
    menuRole = (await createRole(t.db, { name: 'scope-sys-menu', paths: ['/sys'] })).id;
  });

  it('lists only themself and the users of their department subtree; managers see everyone', async () => {
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    const res = await call('list', { account: 'scope-', page_size: 500 }, sToken);
    expect(sorted(res.data.list.map((u: { id: number }) => u.id))).toEqual(sorted([s.id, peer.id, a1.id, mgrA.id]));
    expect(res.data.total).toBe(4);
    expect(await listIds({ department_id: deptB }, sToken)).toEqual([]);
    expect(sorted(await listIds({ account: 'scope-' }))).toEqual(sorted([s.id, peer.id, a1.id, b1.id, loner.id, mgrA.id, root.id]));

    const exported = await t.raw('/api/sys-users/export', { token: sToken, payload: { account: 'scope-' } });
    const { rows } = await readXlsx(exported.rawPayload);
    expect(sorted(rows.slice(1).map((r) => r[0] as number))).toEqual(sorted([s.id, peer.id, a1.id, mgrA.id]));
  });

  it('creates staff only inside their subtree, never managers, and only with roles whose paths they hold', async () => {
    expect((await call('create_account', { account: 'scope-new1', name: 'N', department_id: deptA1, role_ids: [okRole] }, sToken)).code).toBe(0);
    expect((await call('create_account', { account: 'scope-new2', name: 'N', department_id: deptB }, sToken)).code).toBe(403);
    expect((await call('create_account', { account: 'scope-new3', name: 'N' }, sToken)).code).toBe(403);
    expect((await call('create_account', { account: 'scope-new4', name: 'N', department_id: null }, sToken)).code).toBe(403);
    const mgr = await call('create_account', { account: 'scope-new5', name: 'N', department_id: deptA, is_admin: 1 }, sToken);
    expect(mgr).toMatchObject({ code: -2, message: '只有管理员可以设置管理员身份' });
    const grant = await call('create_account', { account: 'scope-new6', name: 'N', department_id: deptA, role_ids: [sysRole] }, sToken);
    expect(grant).toMatchObject({ code: -2, message: '不能授予自己没有的权限：/sys/role' });
    // A whole group is its pages: holding /sys/accounts (and so the menu group /sys) is not enough.
    const group = await call('create_account', { account: 'scope-new7', name: 'N', department_id: deptA, role_ids: [groupRole] }, sToken);
    expect(group).toMatchObject({ code: -2, message: '不能授予自己没有的权限：/sys/department, /sys/role' });
    // A stored group path alone grants the group entry, which they hold.
    expect((await call('create_account', { account: 'scope-new8', name: 'N', department_id: deptA, role_ids: [menuRole] }, sToken)).code).toBe(0);
    const created = await t.db.selectFrom('users').select('account').where('account', 'like', 'scope-new%').orderBy('account').execute();
    expect(created).toEqual([{ account: 'scope-new1' }, { account: 'scope-new8' }]);
  });

  it('edits users in their subtree only, within the same limits', async () => {
    expect((await call('edit_account', { id: a1.id, name: 'A1 renamed' }, sToken)).data.name).toBe('A1 renamed');
    expect((await call('edit_account', { id: b1.id, name: 'x' }, sToken)).code).toBe(403);
    expect((await call('edit_account', { id: loner.id, name: 'x' }, sToken)).code).toBe(403);
    expect((await call('edit_account', { id: mgrA.id, name: 'x' }, sToken))).toMatchObject({ code: -2, message: '无权管理该用户' });
    expect((await call('edit_account', { id: root.id, name: 'x' }, sToken))).toMatchObject({ code: -2, message: '超级管理员账号不能在此修改' });
    expect((await call('edit_account', { id: a1.id, department_id: deptB }, sToken)).code).toBe(403);
    expect((await call('edit_account', { id: a1.id, department_id: null }, sToken)).code).toBe(403);
    expect((await call('edit_account', { id: a1.id, is_admin: 1 }, sToken)).message).toBe('只有管理员可以设置管理员身份');
    expect((await call('edit_account', { id: a1.id, role_ids: [sysRole] }, sToken)).message).toBe('不能授予自己没有的权限：/sys/role');
    expect((await call('edit_account', { id: a1.id, role_ids: [groupRole] }, sToken)).code).toBe(-2);
    expect((await call('edit_account', { id: s.id, role_ids: [groupRole] }, sToken)).code).toBe(-2);
    expect(await roleIdsOf(a1.id)).toEqual([]);
    const b1Row = await t.db.selectFrom('users').select(['name', 'department_id']).where('id', '=', b1.id).executeTakeFirstOrThrow();
    expect(b1Row).toEqual({ name: `User ${b1.account}`, department_id: deptB });

    // A role someone already has may stay even if the editor lacks its paths.
    await t.db.insertInto('user_roles').values({ user_id: a1.id, role_id: sysRole }).execute();
    expect((await call('edit_account', { id: a1.id, role_ids: [sysRole, okRole] }, sToken)).code).toBe(0);
    expect(await roleIdsOf(a1.id)).toEqual([okRole, sysRole].sort((x, y) => x - y));
  });

  it('filters by a department including its sub-departments', async () => {
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
    const inSubtree = await t.db.selectFrom('users').select('id').where('department_id', 'in', [deptA, deptA1]).where('deleted_at', 'is', null).execute();
    expect(inSubtree.map((u) => u.id)).toEqual(expect.arrayContaining([s.id, peer.id, a1.id, mgrA.id]));
    expect(sorted(await listIds({ department_id: deptA }))).toEqual(sorted(inSubtree.map((u) => u.id)));
    expect(await listIds({ department_id: deptA1, account: 'scope-a1' })).toEqual([a1.id]);
  });

  it('does not let a staff user make themself a leader, while a manager may', async () => {
    const res = await call('edit_account', { id: s.id, is_leader: 1 }, sToken);
    expect(res).toMatchObject({ code: -2, message: '不能修改自己的负责人身份，请联系管理员' });
    expect((await call('edit_account', { id: s.id, name: 'Still me' }, sToken)).code).toBe(0);
    expect((await call('edit_account', { id: s.id, is_leader: 1 })).data.is_leader).toBe(1);
    expect((await call('edit_account', { id: s.id, is_leader: 0 })).data.is_leader).toBe(0);
  });

  it('resets passwords, assigns roles and deletes only inside their subtree', async () => {
    expect((await call('reset_passwd', { currentUserId: b1.id }, sToken)).code).toBe(403);
    expect((await tryLogin(b1.account, b1.password)).code).toBe(0);
    expect((await call('reset_passwd', { currentUserId: mgrA.id }, sToken)).code).toBe(-2);
    expect((await call('reset_passwd', { currentUserId: a1.id }, sToken)).code).toBe(0);

    const batch = await call('batch_save_user_role', { user_ids: [peer.id, b1.id], role_ids: [okRole] }, sToken);
    expect(batch.code).toBe(403);
    expect(await roleIdsOf(peer.id)).toEqual([]);
    expect((await call('batch_save_user_role', { user_ids: [peer.id], role_ids: [groupRole] }, sToken)).code).toBe(-2);
    expect((await call('batch_save_user_role', { user_ids: [peer.id], role_ids: [okRole] }, sToken)).code).toBe(0);
    expect(await roleIdsOf(peer.id)).toEqual([okRole]);

    expect((await call('delete_user', { id: b1.id }, sToken)).code).toBe(403);
    expect((await call('delete_user', { id: mgrA.id }, sToken)).code).toBe(-2);
    expect((await call('delete_user', { id: root.id }, sToken)).code).toBe(-2);
    const alive = await t.db.selectFrom('users').select('id').where('id', 'in', [b1.id, mgrA.id, root.id]).where('deleted_at', 'is', null).execute();
    expect(alive).toHaveLength(3);
    expect((await call('delete_user', { id: peer.id }, sToken)).code).toBe(0);
  });

  it('protects the super admin from managers: no edit, delete or reset', async () => {
    const rootToken = await t.login(root.account, root.password);
    expect(await call('edit_account', { id: root.id, name: 'hijack' })).toMatchObject({ code: -2, message: '超级管理员账号不能在此修改' });
    expect(await call('edit_account', { id: root.id, status: 'disabled' })).toMatchObject({ code: -2, message: '超级管理员账号不能在此修改' });
    expect(await call('delete_user', { id: root.id })).toMatchObject({ code: -2, message: '超级管理员账号不能在此修改' });
    expect(await call('reset_passwd', { currentUserId: root.id })).toMatchObject({ code: -2, message: '超级管理员账号不能在此修改' });
    expect(await call('batch_save_user_role', { user_ids: [root.id], role_ids: [okRole] })).toMatchObject({ code: -2, message: '超级管理员账号不能在此修改' });
    expect((await userInfo(rootToken)).data).toMatchObject({ is_admin: 9, name: `User ${root.account}` });
    expect((await tryLogin(root.account, root.password)).code).toBe(0);
    expect(await roleIdsOf(root.id)).toEqual([]);
    // The super admin may still reset their own password.
    expect((await t.call('/api/sys-users/reset_passwd', { currentUserId: root.id }, { token: rootToken })).code).toBe(0);
  });
});

describe('leadership and wider scopes (only managers grant them; nobody manages a wider scope than their own)', () => {
  // Department D > D1. leader L leads D; staff S (with /sys/accounts) and peer P sit in D; P1 in D1.
  let d: number, d1: number;
  let leader: Awaited<ReturnType<typeof createUser>>, s: Awaited<ReturnType<typeof createUser>>, sToken: string;
  let peer: Awaited<ReturnType<typeof createUser>>, p1: Awaited<ReturnType<typeof createUser>>, subLeader: Awaited<ReturnType<typeof createUser>>;
  let leaderToken: string;
  let okRole: number;
  const isLeader = async (id: number) => (await t.db.selectFrom('users').select('is_leader').where('id', '=', id).executeTakeFirstOrThrow()).is_leader;

  beforeAll(async () => {
    d = (await createDepartment(t.db, { name: 'Lead D' })).id;
    d1 = (await createDepartment(t.db, { name: 'Lead D1', parent_id: d })).id;
    leader = await createUser(t.db, { account: 'lead-l', department_id: d, is_leader: 1, paths: ['/sys/accounts', '/index'] });
    await t.db.updateTable('departments').set({ leader_id: leader.id }).where('id', '=', d).execute();
    s = await createUser(t.db, { account: 'lead-s', department_id: d, paths: ['/sys/accounts', '/index'] });
    peer = await createUser(t.db, { account: 'lead-peer', department_id: d });
    p1 = await createUser(t.db, { account: 'lead-p1', department_id: d1 });
    subLeader = await createUser(t.db, { account: 'lead-sub', department_id: d1, is_leader: 1 });
    sToken = await t.login(s.account, s.password);
    leaderToken = await t.login(leader.account, leader.password);
    okRole = (await createRole(t.db, { name: 'lead-ok', paths: ['/index'] })).id;
  });

  it('refuses a staff member creating a leader stand-in account', async () => {
    const res = await call('create_account', { account: 'lead-standin', name: 'Stand-in', department_id: d, is_leader: 1, pwd: md5Hex('standin-pass') }, sToken);
    expect(res).toMatchObject({ code: -2, message: '只有管理员可以设置负责人身份' });
    expect(await t.db.selectFrom('users').select('id').where('account', '=', 'lead-standin').execute()).toEqual([]);
    expect((await tryLogin('lead-standin', 'standin-pass')).code).toBe(-2);
    // A leader cannot either; a non-leader account is fine.
    expect((await call('create_account', { account: 'lead-standin2', name: 'X', department_id: d, is_leader: 1 }, leaderToken)).code).toBe(-2);
    expect((await call('create_account', { account: 'lead-plain', name: 'Plain', department_id: d1, is_leader: 0 }, sToken)).code).toBe(0);
  });

  it('refuses a staff member or a leader promoting a colleague to leader', async () => {
    const res = await call('edit_account', { id: peer.id, is_leader: 1 }, sToken);
    expect(res).toMatchObject({ code: -2, message: '只有管理员可以设置负责人身份' });
    expect((await call('edit_account', { id: peer.id, is_leader: 1 }, sToken, 'en')).message).toBe('Only managers can make someone a leader.');
    expect((await call('edit_account', { id: p1.id, is_leader: 1 }, leaderToken)).code).toBe(-2);
    expect(await isLeader(peer.id)).toBe(0);
    expect(await isLeader(p1.id)).toBe(0);
    // Sending the unchanged flag along with other fields is fine.
    expect((await call('edit_account', { id: peer.id, is_leader: 0, remark: 'still staff' }, sToken)).code).toBe(0);
    // A manager may.
    expect((await call('edit_account', { id: peer.id, is_leader: 1 })).data.is_leader).toBe(1);
    expect((await call('edit_account', { id: peer.id, is_leader: 0 })).data.is_leader).toBe(0);
  });

  it('refuses a staff member resetting their leader’s password, or otherwise managing a leader', async () => {
    const reset = await call('reset_passwd', { currentUserId: leader.id }, sToken);
    expect(reset).toMatchObject({ code: -2, message: '该用户的数据范围比您的更大（负责人、管理员或可查看全公司授权资产），只有管理员可以管理' });
    expect(reset.data).toBeNull();
    expect((await tryLogin(leader.account, leader.password)).code).toBe(0);
    expect((await call('edit_account', { id: leader.id, name: 'hijack' }, sToken)).code).toBe(-2);
    expect((await call('edit_account', { id: leader.id, status: 'disabled' }, sToken)).code).toBe(-2);
    expect((await call('batch_save_user_role', { user_ids: [leader.id], role_ids: [okRole] }, sToken)).code).toBe(-2);
    expect((await call('delete_user', { id: leader.id }, sToken)).code).toBe(-2);
    const row = await t.db.selectFrom('users').select(['name', 'status', 'deleted_at']).where('id', '=', leader.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: `User ${leader.account}`, status: 'enabled', deleted_at: null });
    expect(await roleIdsOf(leader.id)).not.toContain(okRole);
  });

  it('lets a leader manage the non-leaders of their subtree, not another leader in it', async () => {
    expect((await call('edit_account', { id: p1.id, name: 'P1 renamed' }, leaderToken)).data.name).toBe('P1 renamed');
    expect((await call('reset_passwd', { currentUserId: p1.id }, leaderToken)).code).toBe(0);
    expect((await call('reset_passwd', { currentUserId: subLeader.id }, leaderToken)).code).toBe(-2);
    expect((await call('edit_account', { id: subLeader.id, is_leader: 0 }, leaderToken)).code).toBe(-2);
    expect(await isLeader(subLeader.id)).toBe(1);
    expect((await tryLogin(subLeader.account, subLeader.password)).code).toBe(0);
    // Their own row stays theirs, but not their leader flag.
    expect((await call('edit_account', { id: leader.id, remark: 'me' }, leaderToken)).code).toBe(0);
    expect((await call('edit_account', { id: leader.id, is_leader: 0 }, leaderToken)).code).toBe(-2);
  });

  it('lets a manager reset a leader’s password and edit them', async () => {
    expect((await call('reset_passwd', { currentUserId: subLeader.id })).code).toBe(0);
    expect((await call('edit_account', { id: subLeader.id, remark: 'by a manager' })).code).toBe(0);
  });
});

describe('company asset scope on accounts', () => {
  let dept: number;
  let s: Awaited<ReturnType<typeof createUser>>, sToken: string;
  let companyRole: number, clerkRole: number;

  beforeAll(async () => {
    dept = (await createDepartment(t.db, { name: 'Asset scope dept' })).id;
    s = await createUser(t.db, { account: 'as-s', department_id: dept, paths: ['/sys/accounts', '/index', '/auth', '/auth/account'] });
    sToken = await t.login(s.account, s.password);
    companyRole = (await t.db.insertInto('roles').values({ name: 'as-company', paths: ['/index'], asset_scope: 'company' }).returning('id').executeTakeFirstOrThrow()).id;
    clerkRole = (await t.db.insertInto('roles').values({ name: 'as-clerk', paths: ['/sys/accounts', '/index'], asset_scope: 'company' }).returning('id').executeTakeFirstOrThrow()).id;
  });

  it('may be granted only by someone who has it (managers do)', async () => {
    const peer = await createUser(t.db, { account: 'as-peer', department_id: dept });
    const refused = await call('edit_account', { id: peer.id, role_ids: [companyRole] }, sToken);
    expect(refused).toMatchObject({ code: -2, message: '不能授予查看全公司授权资产的角色：as-company' });
    expect((await call('create_account', { account: 'as-new', name: 'N', department_id: dept, role_ids: [companyRole] }, sToken)).code).toBe(-2);
    expect((await call('batch_save_user_role', { user_ids: [peer.id], role_ids: [companyRole] }, sToken)).code).toBe(-2);
    expect(await roleIdsOf(peer.id)).toEqual([]);
    expect((await call('edit_account', { id: peer.id, role_ids: [companyRole] })).code).toBe(0);

    // A holder of /sys/accounts who has it may pass it on within their departments.
    const clerk = await createUser(t.db, { account: 'as-clerk', department_id: dept });
    await t.db.insertInto('user_roles').values({ user_id: clerk.id, role_id: clerkRole }).execute();
    const clerkToken = await t.login(clerk.account, clerk.password);
    const other = await createUser(t.db, { account: 'as-other', department_id: dept });
    expect((await call('edit_account', { id: other.id, role_ids: [companyRole] }, clerkToken)).code).toBe(0);
  });

  it('makes its holder someone only managers (or holders of it) manage', async () => {
    const holder = await createUser(t.db, { account: 'as-holder', department_id: dept });
    await t.db.insertInto('user_roles').values({ user_id: holder.id, role_id: companyRole }).execute();
    expect(await call('reset_passwd', { currentUserId: holder.id }, sToken)).toMatchObject({ code: -2, message: '该用户的数据范围比您的更大（负责人、管理员或可查看全公司授权资产），只有管理员可以管理' });
    expect((await call('edit_account', { id: holder.id, role_ids: [] }, sToken)).code).toBe(-2);
    expect((await call('delete_user', { id: holder.id }, sToken)).code).toBe(-2);
    expect(await roleIdsOf(holder.id)).toEqual([companyRole]);
    expect((await tryLogin(holder.account, holder.password)).code).toBe(0);
    expect((await call('reset_passwd', { currentUserId: holder.id })).code).toBe(0);
  });
});
