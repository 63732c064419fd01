import type { DepartmentNode } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createDepartment, createUser } from '../../test/factories.ts';

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
  t.call<T>(`/api/sys-departments/${action}`, body, { token, ...(lang ? { lang } : {}) });

async function tree(token = managerToken): Promise<DepartmentNode[]> {
  const res = await call<DepartmentNode[]>('tree', undefined, token);
  expect(res.code).toBe(0);
  return res.data;
}

/** The node with this id anywhere in the tree. */
function find(nodes: DepartmentNode[], id: number): DepartmentNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = find(n.children, id);
    if (hit) return hit;
  }
  return undefined;
}

const create = async (body: object, token = managerToken) => {
  const res = await call<{ id: number }>('create', body, token);
  expect(res.code, res.message).toBe(0);
  return res.data.id;
};

describe('tree', () => {
  it('nests departments, orders siblings by sort then name, and counts members and names leaders', async () => {
    const leader = await createUser(t.db, { name: '王经理' });
    const company = await create({ name: 'Tree Co', leader_id: leader.id });
    const sales = await create({ name: 'Sales', parent_id: company, sort: 2 });
    const dev = await create({ name: 'Dev', parent_id: company, sort: 1 });
    const art = await create({ name: 'Art', parent_id: company, sort: 1 });
    const backend = await create({ name: 'Backend', parent_id: dev });
    await createUser(t.db, { department_id: dev });
    await createUser(t.db, { department_id: dev, status: 'disabled' });
    const gone = await createUser(t.db, { department_id: dev });
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    await createUser(t.db, { department_id: backend });

    const node = find(await tree(), company)!;
    expect(node).toEqual({
      id: company,
      name: 'Tree Co',
      parent_id: null,
      sort: 0,
      leader_id: leader.id,
      leader_name: '王经理',
      member_count: 0,
      children: [
        { id: art, name: 'Art', parent_id: company, sort: 1, leader_id: null, leader_name: null, member_count: 0, children: [] },
        {
          id: dev,
          name: 'Dev',
          parent_id: company,
          sort: 1,
          leader_id: null,
          leader_name: null,
          // Disabled members count, deleted ones do not; members of sub-departments are counted there.
          member_count: 2,
          children: [{ id: backend, name: 'Backend', parent_id: dev, sort: 0, leader_id: null, leader_name: null, member_count: 1, children: [] }],
        },
        { id: sales, name: 'Sales', parent_id: company, sort: 2, leader_id: null, leader_name: null, member_count: 0, children: [] },
      ],
    });
  });

  it('answers the call without a body', async () => {
    const res = await t.raw('/api/sys-departments/tree', { token: managerToken });
    expect(res.json()).toMatchObject({ code: 0, data: expect.any(Array) });
  });
});

describe('create', () => {
  it('creates a department and audits it', async () => {
    const id = await create({ name: '  Audit Dept  ', sort: 5 });
    expect(find(await tree(), id)).toMatchObject({ name: 'Audit Dept', sort: 5, parent_id: null });
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'department.create').where('entity_id', '=', String(id)).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_id: managerId, actor_account: 'boss', entity_type: 'department', before: null, after: expect.objectContaining({ name: 'Audit Dept' }) });
  });

  it('refuses a name a sibling already has in any letter case, at the top level too, but allows it elsewhere', async () => {
    const parent = await create({ name: 'Clash parent' });
    await create({ name: 'Sales', parent_id: parent });
    const clash = await call('create', { name: 'SALES', parent_id: parent });
    expect(clash).toMatchObject({ code: -2, message: '同级下已有名为「SALES」的部门' });
    const other = await create({ name: 'Clash other' });
    await create({ name: 'Sales', parent_id: other });
    await create({ name: 'Top twin' });
    expect((await call('create', { name: 'top twin' })).message).toBe('同级下已有名为「top twin」的部门');
    expect((await call('create', { name: 'top twin' }, managerToken, 'en')).message).toBe('A department named "top twin" already exists at this level.');
    const rows = await t.db.selectFrom('departments').select('id').where('name', 'ilike', 'top twin').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses an unknown parent or leader', async () => {
    expect(await call('create', { name: 'Orphan', parent_id: 999_999 })).toMatchObject({ code: -2, message: '部门不存在' });
    expect(await call('create', { name: 'Leaderless', leader_id: 999_999 })).toMatchObject({ code: -2, message: '负责人不存在或已停用' });
    expect(await t.db.selectFrom('departments').select('id').where('name', 'in', ['Orphan', 'Leaderless']).execute()).toEqual([]);
  });
});

describe('edit', () => {
  it('renames, re-sorts and moves a department', async () => {
    const a = await create({ name: 'Move A' });
    const b = await create({ name: 'Move B' });
    const child = await create({ name: 'Mover', parent_id: a });
    expect((await call('edit', { id: child, name: 'Moved', sort: 3, parent_id: b })).code).toBe(0);
    const nodes = await tree();
    expect(find(nodes, a)!.children).toEqual([]);
    expect(find(nodes, b)!.children).toEqual([expect.objectContaining({ id: child, name: 'Moved', sort: 3, parent_id: b })]);
    expect((await call('edit', { id: child, parent_id: null })).code).toBe(0);
    expect(nodes.some((n) => n.id === child)).toBe(false);
    expect((await tree()).some((n) => n.id === child)).toBe(true);

    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'department.edit').where('entity_id', '=', String(child)).orderBy('id').executeTakeFirstOrThrow();
    expect(entry.before).toMatchObject({ name: 'Mover', parent_id: a });
    expect(entry.after).toMatchObject({ name: 'Moved', parent_id: b });
  });

  it('refuses moving a department under itself or one of its descendants', async () => {
    const top = await create({ name: 'Cycle top' });
    const mid = await create({ name: 'Cycle mid', parent_id: top });
    const leaf = await create({ name: 'Cycle leaf', parent_id: mid });
    for (const parent of [top, mid, leaf]) {
      const res = await call('edit', { id: top, parent_id: parent });
      expect(res).toMatchObject({ code: -2, message: '不能把部门移动到它自己或它的下级部门之下' });
    }
    expect((await call('edit', { id: top, parent_id: leaf }, managerToken, 'en')).message).toBe('A department cannot be moved under itself or one of its sub-departments.');
    expect(find(await tree(), top)).toMatchObject({ parent_id: null, children: [expect.objectContaining({ id: mid })] });
  });

  it('refuses a rename or a move that clashes with a sibling', async () => {
    const p = await create({ name: 'Sib parent' });
    await create({ name: 'One', parent_id: p });
    const two = await create({ name: 'Two', parent_id: p });
    expect((await call('edit', { id: two, name: 'one' })).message).toBe('同级下已有名为「one」的部门');
    const elsewhere = await create({ name: 'Two' });
    expect((await call('edit', { id: elsewhere, parent_id: p })).message).toBe('同级下已有名为「Two」的部门');
    expect(find(await tree(), elsewhere)).toMatchObject({ parent_id: null });
  });

  it('sets and clears the leader, and refuses an unknown or deleted one', async () => {
    const d = await create({ name: 'Lead me' });
    const leader = await createUser(t.db, { name: 'Lead' });
    expect((await call('edit', { id: d, leader_id: leader.id })).code).toBe(0);
    expect(find(await tree(), d)).toMatchObject({ leader_id: leader.id, leader_name: 'Lead' });
    // Appointing a leader sets their is_leader flag, so their data scope follows.
    const flagged = await t.db.selectFrom('users').select('is_leader').where('id', '=', leader.id).executeTakeFirstOrThrow();
    expect(flagged.is_leader).toBe(1);
    expect(await call('edit', { id: d, leader_id: 999_999 })).toMatchObject({ code: -2, message: '负责人不存在或已停用' });
    const gone = await createUser(t.db);
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    expect((await call('edit', { id: d, leader_id: gone.id })).message).toBe('负责人不存在或已停用');
    expect(find(await tree(), d)).toMatchObject({ leader_id: leader.id });
    expect((await call('edit', { id: d, leader_id: null })).code).toBe(0);
    expect(find(await tree(), d)).toMatchObject({ leader_id: null, leader_name: null });
  });

  it('refuses an unknown department or parent', async () => {
    expect((await call('edit', { id: 999_999, name: 'x' })).message).toBe('部门不存在');
    const d = await create({ name: 'Parentless' });
    expect((await call('edit', { id: d, parent_id: 999_999 })).message).toBe('部门不存在');
  });
});

describe('delete', () => {
  it('is refused while sub-departments remain, saying how many', async () => {
    const p = await create({ name: 'Has kids' });
    await create({ name: 'Kid 1', parent_id: p });
    await create({ name: 'Kid 2', parent_id: p });
    expect(await call('delete', { id: p })).toMatchObject({ code: -2, message: '该部门下还有 2 个子部门，请先移走或删除子部门' });
    expect((await call('delete', { id: p }, managerToken, 'en')).message).toBe('This department still has 2 sub-departments. Move or delete them first.');
    expect(find(await tree(), p)!.children).toHaveLength(2);
  });

  it('is refused while members remain, saying how many (deleted users do not count)', async () => {
    const d = await create({ name: 'Has people' });
    for (let i = 0; i < 3; i++) await createUser(t.db, { department_id: d });
    const gone = await createUser(t.db, { department_id: d });
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    expect(await call('delete', { id: d })).toMatchObject({ code: -2, message: '该部门下还有 3 名成员，请先将成员调到其他部门' });
    expect((await call('delete', { id: d }, managerToken, 'en')).message).toBe('This department still has 3 members. Move them to another department first.');
    expect(find(await tree(), d)).toBeDefined();
  });

  it('removes an empty department, releasing deleted former members, and audits it', async () => {
    const d = await create({ name: 'Empty soon' });
    const gone = await createUser(t.db, { department_id: d });
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    expect(await call('delete', { id: d })).toMatchObject({ code: 0, data: null });
    expect(find(await tree(), d)).toBeUndefined();
    expect((await t.db.selectFrom('users').select('department_id').where('id', '=', gone.id).executeTakeFirstOrThrow()).department_id).toBeNull();
    const entry = await t.db.selectFrom('audit_logs').selectAll().where('action', '=', 'department.delete').where('entity_id', '=', String(d)).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_id: managerId, before: expect.objectContaining({ name: 'Empty soon' }), after: null });
    expect((await call('delete', { id: d })).message).toBe('部门不存在');
  });
});

describe('scope of a staff user with /sys/department', () => {
  // root > A (the staff user's department) > A1; root > B.
  let root: number, a: number, a1: number, b: number;
  let token: string;

  beforeAll(async () => {
    root = (await createDepartment(t.db, { name: 'Scope root' })).id;
    a = (await createDepartment(t.db, { name: 'Scope A', parent_id: root })).id;
    a1 = (await createDepartment(t.db, { name: 'Scope A1', parent_id: a })).id;
    b = (await createDepartment(t.db, { name: 'Scope B', parent_id: root })).id;
    const s = await createUser(t.db, { department_id: a, paths: ['/sys/department'] });
    token = await t.login(s.account, s.password);
  });

  it('sees only the part of the tree they manage, its root naming the departments above it; managers see it all', async () => {
    const nodes = await tree(token);
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({ id: a, name: 'Scope A', parent_id: root, ancestors: [{ id: root, name: 'Scope root' }], children: [expect.objectContaining({ id: a1, name: 'Scope A1' })] });
    expect(nodes[0]!.children[0]!.ancestors).toBeUndefined();
    expect(find(nodes, b)).toBeUndefined();
    expect(find(nodes, root)).toBeUndefined();
    const all = await tree();
    expect(find(all, root)!.children.map((n) => n.id)).toEqual(expect.arrayContaining([a, b]));
    expect(JSON.stringify(all)).not.toContain('ancestors');
    // Someone without a department manages no department.
    const loner = await createUser(t.db, { paths: ['/sys/department'] });
    expect(await tree(await t.login(loner.account, loner.password))).toEqual([]);
  });

  it('agrees with the accounts list: the people the tree counts are the people listed', async () => {
    const hr = await createUser(t.db, { department_id: a, is_leader: 1, paths: ['/sys/accounts', '/sys/department'] });
    const hrToken = await t.login(hr.account, hr.password);
    await createUser(t.db, { department_id: a1 });
    await createUser(t.db, { department_id: b });
    const nodes = await tree(hrToken);
    const ids: number[] = [];
    const walk = (n: DepartmentNode): number => (ids.push(n.id), n.member_count + n.children.reduce((sum, c) => sum + walk(c), 0));
    const counted = nodes.reduce((sum, n) => sum + walk(n), 0);
    const listed = await t.call<{ list: { department_id: number | null }[]; total: number }>('/api/sys-users/list', { page_size: 500 }, { token: hrToken });
    expect(listed.code).toBe(0);
    expect(listed.data.total).toBe(counted);
    expect(listed.data.list.every((u) => u.department_id !== null && ids.includes(u.department_id))).toBe(true);
  });

  it('may read the tree and create departments below their own, nowhere else', async () => {
    expect(find(await tree(token), a1)).toBeDefined();
    expect((await call('create', { name: 'Under A' }, token)).code).toBe(403);
    expect((await call('create', { name: 'Under B', parent_id: b }, token)).code).toBe(403);
    expect((await call('create', { name: 'Under root', parent_id: root }, token)).code).toBe(403);
    expect((await call('create', { name: 'Under A', parent_id: a }, token)).code).toBe(0);
    expect((await call('create', { name: 'Under A1', parent_id: a1 }, token)).code).toBe(0);
    const names = await t.db.selectFrom('departments').select('name').where('name', 'like', 'Under%').orderBy('name').execute();
    expect(names.map((n) => n.name)).toEqual(['Under A', 'Under A1']);
  });

  it('may change departments strictly below their own, never their own, and move them only within the subtree', async () => {
    expect((await call('edit', { id: a1, sort: 7 }, token)).code).toBe(0);
    expect((await call('edit', { id: a, name: 'Renamed A' }, token)).code).toBe(403);
    expect((await call('edit', { id: b, name: 'Renamed B' }, token)).code).toBe(403);
    expect((await call('edit', { id: root, name: 'Renamed root' }, token)).code).toBe(403);
    expect((await call('edit', { id: a1, parent_id: b }, token)).code).toBe(403);
    expect((await call('edit', { id: a1, parent_id: null }, token)).code).toBe(403);
    const nodes = await tree();
    expect(find(nodes, a)).toMatchObject({ name: 'Scope A', parent_id: root });
    expect(find(nodes, a1)).toMatchObject({ parent_id: a, sort: 7 });
    expect(find(nodes, b)).toMatchObject({ name: 'Scope B' });
  });

  it('may delete only below their own department', async () => {
    const spare = await create({ name: 'Spare B child', parent_id: b });
    expect((await call('delete', { id: spare }, token)).code).toBe(403);
    const mine = await create({ name: 'Spare A child', parent_id: a });
    expect((await call('delete', { id: mine }, token)).code).toBe(0);
    expect(find(await tree(), spare)).toBeDefined();
    expect(find(await tree(), mine)).toBeUndefined();
  });

  it('may not appoint leaders (only managers grant leadership), inside their subtree or out; a disabled user is no leader at all', async () => {
    const inside = await createUser(t.db, { department_id: a1 });
    const outside = await createUser(t.db, { department_id: b });
    const off = await createUser(t.db, { department_id: a1, status: 'disabled' });
    expect((await call('edit', { id: a1, leader_id: outside.id }, token)).message).toBe('只有管理员可以任命部门负责人（任命会赋予其负责人身份）');
    expect((await call('edit', { id: a1, leader_id: inside.id }, token)).message).toBe('只有管理员可以任命部门负责人（任命会赋予其负责人身份）');
    expect((await call('edit', { id: a1, leader_id: off.id }, token)).message).toBe('负责人不存在或已停用');
    expect((await call('edit', { id: a1, leader_id: off.id })).message).toBe('负责人不存在或已停用');
    expect(find(await tree(), a1)).toMatchObject({ leader_id: null });
  });

  it('needs /sys/department to change anything; /sys/accounts only reads the tree', async () => {
    const reader = await createUser(t.db, { department_id: a, paths: ['/sys/accounts'] });
    const readerToken = await t.login(reader.account, reader.password);
    expect(find(await tree(readerToken), a)).toBeDefined();
    expect((await call('create', { name: 'Reader dept', parent_id: a }, readerToken)).code).toBe(403);
    expect((await call('edit', { id: a1, sort: 1 }, readerToken)).code).toBe(403);
    const loner = await createUser(t.db, { paths: ['/sys/department'] });
    const lonerToken = await t.login(loner.account, loner.password);
    expect((await call('create', { name: 'Loner dept' }, lonerToken)).code).toBe(403);
    expect((await call('create', { name: 'Loner dept', parent_id: a }, lonerToken)).code).toBe(403);
  });
});

describe('appointing leaders (only managers grant leadership)', () => {
  let top: number, child: number;
  let staff: Awaited<ReturnType<typeof createUser>>, staffToken: string;
  let colleague: Awaited<ReturnType<typeof createUser>>;
  const isLeader = async (id: number) => (await t.db.selectFrom('users').select('is_leader').where('id', '=', id).executeTakeFirstOrThrow()).is_leader;

  beforeAll(async () => {
    top = (await createDepartment(t.db, { name: 'Appoint top' })).id;
    child = (await createDepartment(t.db, { name: 'Appoint child', parent_id: top })).id;
    staff = await createUser(t.db, { department_id: top, paths: ['/sys/department'] });
    colleague = await createUser(t.db, { department_id: child });
    staffToken = await t.login(staff.account, staff.password);
  });

  it('refuses a staff member appointing themself leader of a new department', async () => {
    const res = await call('create', { name: 'Self-led', parent_id: top, leader_id: staff.id }, staffToken);
    expect(res).toMatchObject({ code: -2, message: '只有管理员可以任命部门负责人（任命会赋予其负责人身份）' });
    expect(await isLeader(staff.id)).toBe(0);
    expect(await t.db.selectFrom('departments').select('id').where('name', '=', 'Self-led').execute()).toEqual([]);
  });

  it('refuses a staff member appointing themself or a colleague leader of an existing department', async () => {
    expect((await call('edit', { id: child, leader_id: staff.id }, staffToken)).code).toBe(-2);
    expect((await call('edit', { id: child, leader_id: colleague.id }, staffToken, 'en')).message).toBe(
      'Only managers can appoint a department leader (the appointment makes them a leader).',
    );
    expect(await isLeader(staff.id)).toBe(0);
    expect(await isLeader(colleague.id)).toBe(0);
    expect(find(await tree(), child)).toMatchObject({ leader_id: null });
    // Other changes of that department stay open to them.
    expect((await call('edit', { id: child, sort: 4 }, staffToken)).code).toBe(0);
  });

  it('lets a manager appoint, which makes the appointee a leader', async () => {
    expect((await call('edit', { id: child, leader_id: colleague.id })).code).toBe(0);
    expect(await isLeader(colleague.id)).toBe(1);
    // A non-manager may still clear the appointment below their own department (the flag stays: a manager clears it).
    expect((await call('edit', { id: child, leader_id: null }, staffToken)).code).toBe(0);
    expect(find(await tree(), child)).toMatchObject({ leader_id: null });
    expect(await isLeader(colleague.id)).toBe(1);
  });
});
