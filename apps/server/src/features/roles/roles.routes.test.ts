import { groupWithPages, routeTable, type Role } from '@ads/contracts';
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
      asset_scope: 'own',
      editable: true,
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
    expect((await call('create', { name: 'Staff ok', paths: ['/index', '/auth', '/auth/pixel'] }, token)).code).toBe(0);
    const lacking = await call('create', { name: 'Staff lacking', paths: ['/index', '/sys/accounts'] }, token);
    expect(lacking).toMatchObject({ code: -2, message: '不能授予自己没有的权限：/sys/accounts' });
    // A whole group is stored as the group and all its pages: holding /sys/role (and so /sys) is not enough.
    const group = await call('create', { name: 'Staff group', paths: groupWithPages('/sys') }, token);
    expect(group).toMatchObject({ code: -2, message: '不能授予自己没有的权限：/sys/accounts, /sys/department' });
    expect((await call('create', { name: 'Staff group 2', paths: groupWithPages('/auth') }, token)).code).toBe(-2);
    // A group path alone grants the menu entry only (SPEC.md §6), which they hold.
    expect((await call('create', { name: 'Staff menu', paths: ['/sys'] }, token)).code).toBe(0);
    const names = (await listRoles({ name: 'Staff ' })).list.map((r) => r.name);
    expect(names).toEqual(['Staff ok', 'Staff menu']);
  });

  it('grants exactly the listed paths: a group path beside one page does not reach the group’s other pages', async () => {
    const id = await create({ name: 'Ad data only', paths: ['/advertising', '/advertising/user'] });
    const u = await createUser(t.db);
    await addMember(u.id, id);
    const userToken = await t.login(u.account, u.password);
    expect((await userInfo(userToken)).data.paths).toEqual(['/advertising', '/advertising/user']);
    // The group entry does not open the pages of the group, nor their endpoints.
    const viaGroup = await createUser(t.db, { paths: ['/auth'] });
    const groupToken = await t.login(viaGroup.account, viaGroup.password);
    expect((await userInfo(groupToken)).data.paths).toEqual(['/auth']);
    expect((await t.call('/api/pixels/list', {}, { token: groupToken })).code).toBe(403);
    expect((await t.call('/api/ad-accounts/list', {}, { token: groupToken })).code).toBe(403);
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

describe('a department-level holder of /sys/role', () => {
  // Department A > A1, and B. The holder H sits in A.
  let a: number, a1: number, b: number;
  let token: string;
  let inA: number, inA1: number, inB: number, leaderA: number;

  beforeAll(async () => {
    a = (await t.db.insertInto('departments').values({ name: 'Role A' }).returning('id').executeTakeFirstOrThrow()).id;
    a1 = (await t.db.insertInto('departments').values({ name: 'Role A1', parent_id: a }).returning('id').executeTakeFirstOrThrow()).id;
    b = (await t.db.insertInto('departments').values({ name: 'Role B' }).returning('id').executeTakeFirstOrThrow()).id;
    const h = await createUser(t.db, { department_id: a, paths: ['/sys/role', '/index', '/auth/pixel'] });
    token = await t.login(h.account, h.password);
    inA = (await createUser(t.db, { department_id: a })).id;
    inA1 = (await createUser(t.db, { department_id: a1 })).id;
    inB = (await createUser(t.db, { department_id: b })).id;
    leaderA = (await createUser(t.db, { department_id: a, is_leader: 1 })).id;
  });

  it('may create roles, and edit or delete those whose members all lie in the departments they manage', async () => {
    const mine = await create({ name: 'Dept own role', paths: ['/index'] }, token);
    await addMember(inA, mine);
    await addMember(inA1, mine);
    expect((await call('edit', { id: mine, name: 'Dept own role', paths: ['/index', '/auth', '/auth/pixel'] }, token)).code).toBe(0);
    const [row] = (await listRoles({ name: 'Dept own role' }, token)).list;
    expect(row).toMatchObject({ paths: ['/index', '/auth', '/auth/pixel'], editable: true });
    expect((await call('delete', { id: mine }, token)).code).toBe(0);
  });

  it('may not edit or delete a role another department uses, nor one a leader holds', async () => {
    const shared = await create({ name: 'Shared role', paths: ['/index'] });
    await addMember(inA, shared);
    await addMember(inB, shared);
    const edit = await call('edit', { id: shared, name: 'Shared role', paths: [] }, token);
    expect(edit).toMatchObject({ code: -2, message: '角色「Shared role」有 1 名成员不在您管理的范围内，只有管理员可以修改或删除它' });
    expect((await call('delete', { id: shared }, token, 'en')).message).toBe('The role "Shared role" has 1 members outside the people you manage; only managers can change or delete it.');
    expect((await listRoles({ name: 'Shared role' }, token)).list[0]).toMatchObject({ paths: ['/index'], member_count: 2, editable: false });

    const led = await create({ name: 'Leader role', paths: ['/index'] });
    await addMember(leaderA, led);
    expect((await call('edit', { id: led, name: 'Leader role', paths: [] }, token)).code).toBe(-2);
    expect((await call('delete', { id: led }, token)).code).toBe(-2);
    expect((await listRoles({ name: 'Leader role' })).list[0]).toMatchObject({ paths: ['/index'], editable: true });
    // Managers may.
    expect((await call('edit', { id: shared, name: 'Shared role', paths: [] })).code).toBe(0);
    expect((await call('delete', { id: led })).code).toBe(0);
  });
});

describe('asset_scope', () => {
  it('defaults to own, and only managers give a role the company’s authorization assets', async () => {
    const own = await create({ name: 'Scope default', paths: ['/index'] });
    expect((await listRoles({ name: 'Scope default' })).list[0]).toMatchObject({ id: own, asset_scope: 'own' });
    const company = await create({ name: 'Scope company', paths: ['/auth', '/auth/account'], asset_scope: 'company' });
    expect((await listRoles({ name: 'Scope company' })).list[0]).toMatchObject({ asset_scope: 'company' });
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'role.create').where('entity_id', '=', String(company)).executeTakeFirstOrThrow();
    expect(entry.after).toMatchObject({ asset_scope: 'company' });
    // Editing without asset_scope keeps it; a manager may change it.
    expect((await call('edit', { id: company, name: 'Scope company', paths: ['/auth', '/auth/account', '/auth/pixel'] })).code).toBe(0);
    expect((await listRoles({ name: 'Scope company' })).list[0]).toMatchObject({ asset_scope: 'company', paths: ['/auth', '/auth/pixel', '/auth/account'] });
    expect((await call('edit', { id: own, name: 'Scope default', paths: ['/index'], asset_scope: 'company' })).code).toBe(0);
    expect((await call('edit', { id: own, name: 'Scope default', paths: ['/index'], asset_scope: 'own' })).code).toBe(0);
    expect((await call('create', { name: 'Scope bad', paths: [], asset_scope: 'all' })).code).toBe(-2);

    const s = await createUser(t.db, { paths: ['/sys/role', '/index', '/auth/account'] });
    const token = await t.login(s.account, s.password);
    const refused = await call('create', { name: 'Scope by staff', paths: ['/index'], asset_scope: 'company' }, token);
    expect(refused).toMatchObject({ code: -2, message: '只有管理员可以让角色查看全公司的授权资产' });
    expect((await call('create', { name: 'Scope by staff', paths: ['/index'], asset_scope: 'company' }, token, 'en')).message).toBe('Only managers can give a role the company’s authorization assets.');
    // Nor take it away, nor delete such a role, nor turn theirs into one.
    expect((await call('edit', { id: company, name: 'Scope company', paths: ['/auth', '/auth/account'], asset_scope: 'own' }, token)).code).toBe(-2);
    expect((await call('delete', { id: company }, token)).code).toBe(-2);
    const mine = await create({ name: 'Scope staff own', paths: ['/index'] }, token);
    expect((await call('edit', { id: mine, name: 'Scope staff own', paths: ['/index'], asset_scope: 'company' }, token)).code).toBe(-2);
    expect((await listRoles({ name: 'Scope ' }, token)).list.map((r) => [r.name, r.asset_scope, r.editable])).toEqual([
      ['Scope default', 'own', true],
      ['Scope company', 'company', false],
      ['Scope staff own', 'own', true],
    ]);
    expect(await t.db.selectFrom('roles').select('name').where('name', '=', 'Scope by staff').execute()).toEqual([]);
  });
});
