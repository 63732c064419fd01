import { routeTable, type Role } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createRole, createUser } from '../../test/factories.ts';

let t: TestApp;
let managerToken: string;
let managerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const m = await createUser(t.db, { account: 'boss', is_admin: 1 });
  managerId = m.id;
  managerToken = await t.login(m.account, m.password);
});
afterAll(() => t.close());

const call = <T = any>(action: string, body?: unknown, token = managerToken, lang?: string) =>
  t.call<T>(`/api/sys-roles/${action}`, body, { token, ...(lang ? { lang } : {}) });
const userInfo = (token: string) => t.call('/api/sys-users/get_user_info', undefined, { method: 'GET', token });
const listRoles = async (body: object, token = managerToken) => {
  const res = await call<{ list: Role[]; total: number }>('list', { page_size: 500, ...body }, token);
  expect(res.code, res.message).toBe(0);
  return res.data;
};
const create = async (body: object, token = managerToken) => {
  const res = await call<{ id: number }>('create', body, token);
  expect(res.code, res.message).toBe(0);
  return res.data.id;
};
const addMember = (userId: number, roleId: number) => t.db.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();

describe('list', () => {
  it('answers roles with paths and member counts, filtered by name and paged', async () => {
    const ids = [];
    for (const name of ['Filter Alpha', 'filter beta', 'Filter 100%', 'Other']) ids.push(await create({ name, paths: ['/index'], remark: `r ${name}` }));
    const all = await listRoles({ name: 'FILTER' });
    expect(all.total).toBe(3);
    expect(all.list.map((r) => r.name)).toEqual(['Filter Alpha', 'filter beta', 'Filter 100%']);
    expect(all.list[0]).toEqual({
      id: ids[0],
      name: 'Filter Alpha',
      remark: 'r Filter Alpha',
      paths: ['/index'],
      member_count: 0,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect((await listRoles({ name: '%' })).list.map((r) => r.name)).toEqual(['Filter 100%']);

    const page2 = await call('list', { name: 'filter', page: 2, page_size: 2 });
    expect(page2.data.total).toBe(3);
    expect(page2.data.list.map((r: Role) => r.name)).toEqual(['Filter 100%']);
  });

  it('sorts by member count, counting only users that are not deleted', async () => {
    const none = await createRole(t.db, { name: 'MC none' });
    const one = await createRole(t.db, { name: 'MC one' });
    const two = await createRole(t.db, { name: 'MC two' });
    const [u1, u2, u3, gone] = [await createUser(t.db), await createUser(t.db), await createUser(t.db, { status: 'disabled' }), await createUser(t.db)];
    await addMember(u1.id, one.id);
    await addMember(u2.id, two.id);
    await addMember(u3.id, two.id);
    await addMember(gone.id, one.id);
    await addMember(gone.id, none.id);
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();

    const asc = await listRoles({ name: 'MC ', sort_field: 'member_count', sort_order: 'ascend' });
    expect(asc.list.map((r) => [r.name, r.member_count])).toEqual([['MC none', 0], ['MC one', 1], ['MC two', 2]]);
    const desc = await listRoles({ name: 'MC ', sort_field: 'member_count', sort_order: 'descend' });
    expect(desc.list.map((r) => r.name)).toEqual(['MC two', 'MC one', 'MC none']);
    const byName = await listRoles({ name: 'MC ', sort_field: 'name', sort_order: 'descend' });
    expect(byName.list.map((r) => r.name)).toEqual(['MC two', 'MC one', 'MC none']);
  });
});

describe('create and edit', () => {
  it('stores known paths once each, in route-table order, and audits the change', async () => {
    const id = await create({ name: 'Ordered', paths: ['/sys/role', '/index', '/sys/role', '/auth/pixel'] });
    const [role] = (await listRoles({ name: 'Ordered' })).list;
    expect(role!.paths).toEqual(['/index', '/auth/pixel', '/sys/role']);
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'role.create').where('entity_id', '=', String(id)).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_id: managerId, after: { name: 'Ordered', remark: '', paths: ['/index', '/auth/pixel', '/sys/role'] } });
  });

  it('refuses unknown paths and /admin paths by name', async () => {
    const unknown = await call('create', { name: 'Bad paths', paths: ['/index', '/nope', '/sys/role/x'] });
    expect(unknown).toMatchObject({ code: -2, message: '未知的页面路径：/nope, /sys/role/x' });
    for (const p of ['/admin', '/admin/order', '/admin/sys/cron']) {
      expect((await call('create', { name: 'Admin paths', paths: [p] })).message).toBe(`未知的页面路径：${p}`);
    }
    expect((await call('create', { name: 'Bad', paths: ['/nope'] }, managerToken, 'en')).message).toBe('Unknown page paths: /nope');
    const id = await create({ name: 'Edit to bad', paths: ['/index'] });
    expect((await call('edit', { id, name: 'Edit to bad', paths: ['/admin/index'] })).code).toBe(-2);
    expect((await listRoles({ name: 'Edit to bad' })).list[0]!.paths).toEqual(['/index']);
    expect(await t.db.selectFrom('roles').select('id').where('name', 'in', ['Bad paths', 'Admin paths', 'Bad']).execute()).toEqual([]);
  });

  it('refuses a name another role has, in any letter case', async () => {
    await create({ name: 'Unique Role', paths: [] });
    expect(await call('create', { name: 'unique role', paths: [] })).toMatchObject({ code: -2, message: '角色名「unique role」已存在' });
    const other = await create({ name: 'Another Role', paths: [] });
    expect((await call('edit', { id: other, name: 'UNIQUE ROLE', paths: [] })).message).toBe('角色名「UNIQUE ROLE」已存在');
    expect((await listRoles({ name: 'Another Role' })).total).toBe(1);
  });

  it('edits name, remark and paths; members get the new paths at their next get_user_info', async () => {
    const id = await create({ name: 'Editable', remark: 'old', paths: ['/index'] });
    const u = await createUser(t.db);
    await addMember(u.id, id);
    const token = await t.login(u.account, u.password);
    expect((await userInfo(token)).data.paths).toEqual(['/index']);

    expect((await call('edit', { id, name: 'Edited', paths: ['/sys/role'] })).code).toBe(0);
    const [role] = (await listRoles({ name: 'Edited' })).list;
    expect(role).toMatchObject({ id, name: 'Edited', remark: 'old', paths: ['/sys/role'], member_count: 1 });
    expect((await userInfo(token)).data.paths).toEqual(['/sys', '/sys/role']);
    expect((await t.call('/api/sys-roles/list', {}, { token })).code).toBe(0);

    expect((await call('edit', { id, name: 'Edited', remark: 'new', paths: [] })).code).toBe(0);
    expect((await userInfo(token)).data.paths).toEqual([]);
    expect((await t.call('/api/sys-roles/list', {}, { token })).code).toBe(403);
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'role.edit').where('entity_id', '=', String(id)).orderBy('id').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ before: { name: 'Editable', remark: 'old', paths: ['/index'] }, after: { name: 'Edited', remark: 'old', paths: ['/sys/role'] } });

    expect((await call('edit', { id: 999_999, name: 'Ghost', paths: [] })).message).toBe('角色不存在');
  });
});

describe('delete', () => {
  it('removes the role from its members, who lose its paths, and audits who had it', async () => {
    const keep = await create({ name: 'Keep me', paths: ['/index'] });
    const doomed = await create({ name: 'Doomed', paths: ['/sys/role'] });
    const u = await createUser(t.db);
    await addMember(u.id, keep);
    await addMember(u.id, doomed);
    const token = await t.login(u.account, u.password);
    expect((await userInfo(token)).data.paths).toEqual(['/index', '/sys', '/sys/role']);

    expect(await call('delete', { id: doomed })).toMatchObject({ code: 0, data: null });
    expect((await userInfo(token)).data.paths).toEqual(['/index']);
    const rows = await t.db.selectFrom('user_roles').select('role_id').where('user_id', '=', u.id).execute();
    expect(rows).toEqual([{ role_id: keep }]);
    const list = await t.call('/api/sys-users/list', { account: u.account }, { token: managerToken });
    expect(list.data.list[0].roles).toEqual([{ id: keep, name: 'Keep me' }]);
    expect((await listRoles({ name: 'Doomed' })).total).toBe(0);
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'role.delete').where('entity_id', '=', String(doomed)).executeTakeFirstOrThrow();
    expect(entry.before).toMatchObject({ name: 'Doomed', paths: ['/sys/role'], user_ids: [u.id] });

    expect((await call('delete', { id: doomed })).message).toBe('角色不存在');
  });
});

describe('a staff user with /sys/role', () => {
  let token: string;
  beforeAll(async () => {
    const s = await createUser(t.db, { paths: ['/sys/role', '/index', '/auth/pixel'] });
    token = await t.login(s.account, s.password);
  });

  it('may grant only paths they hold, a whole group only if they hold all of it', async () => {
    expect((await call('create', { name: 'Staff ok', paths: ['/index', '/auth/pixel'] }, token)).code).toBe(0);
    const lacking = await call('create', { name: 'Staff lacking', paths: ['/index', '/sys/accounts'] }, token);
    expect(lacking).toMatchObject({ code: -2, message: '不能授予自己没有的权限：/sys/accounts' });
    // Holding /sys/role gives the menu group /sys, but granting /sys would grant all of system management.
    const group = await call('create', { name: 'Staff group', paths: ['/sys'] }, token);
    expect(group).toMatchObject({ code: -2, message: '不能授予自己没有的权限：/sys/accounts, /sys/department' });
    expect((await call('create', { name: 'Staff group 2', paths: ['/auth'] }, token)).code).toBe(-2);
    const names = (await listRoles({ name: 'Staff ' })).list.map((r) => r.name);
    expect(names).toEqual(['Staff ok']);
  });

  it('may not widen, narrow or delete a role that grants paths they lack', async () => {
    const wide = await create({ name: 'Wide role', paths: ['/index', '/sys/accounts'] });
    expect((await call('edit', { id: wide, name: 'Wide role', paths: ['/index'] }, token)).code).toBe(-2);
    expect((await call('delete', { id: wide }, token)).code).toBe(-2);
    const mine = await create({ name: 'Narrow role', paths: ['/index'] });
    expect((await call('edit', { id: mine, name: 'Narrow role', paths: ['/index', '/operation/auth'] }, token)).message).toBe('不能授予自己没有的权限：/operation/auth');
    expect((await call('edit', { id: mine, name: 'Narrow role', paths: ['/auth/pixel'] }, token)).code).toBe(0);
    expect((await call('delete', { id: mine }, token)).code).toBe(0);
    expect((await listRoles({ name: 'Wide role' })).list[0]!.paths).toEqual(['/index', '/sys/accounts']);
  });
});

describe('GET /api/sys-menus/routes', () => {
  it('answers the route table to holders of /sys/role only', async () => {
    const res = await t.call('/api/sys-menus/routes', undefined, { method: 'GET', token: managerToken });
    expect(res.code).toBe(0);
    expect(res.data).toEqual(JSON.parse(JSON.stringify(routeTable)));
    expect(res.data[0]).toMatchObject({ path: '/admin', children: expect.any(Array) });
    const sys = res.data.find((r: { path: string }) => r.path === '/sys');
    expect(sys.children.map((c: { path: string; title: string }) => [c.path, c.title])).toEqual([['/sys/accounts', '账号管理'], ['/sys/department', '部门管理'], ['/sys/role', '角色管理']]);

    const editor = await createUser(t.db, { paths: ['/sys/role'] });
    expect((await t.call('/api/sys-menus/routes', undefined, { method: 'GET', token: await t.login(editor.account, editor.password) })).code).toBe(0);
    const other = await createUser(t.db, { paths: ['/sys/accounts'] });
    expect((await t.call('/api/sys-menus/routes', undefined, { method: 'GET', token: await t.login(other.account, other.password) })).code).toBe(403);
  });
});
