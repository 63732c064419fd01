import type { DepartmentNode, Role, SimpleUser, SysUser } from '@ads/contracts';
import { buildRole, buildUser } from './factories';
import { MockRefusal, type Handlers } from './mock-api';

/** The password the fake server "generates" when none is given. */
export const GENERATED_PASSWORD = 'Gen-7f3K9q2L';
export const RESET_PASSWORD = 'Rst-4hT8w1Zp';

function page<T>(rows: T[], body: { page: number; page_size: number }) {
  return { list: rows.slice((body.page - 1) * body.page_size, body.page * body.page_size), total: rows.length };
}

function walk(tree: DepartmentNode[], fn: (n: DepartmentNode, siblings: DepartmentNode[]) => void) {
  for (const n of [...tree]) {
    fn(n, tree);
    walk(n.children, fn);
  }
}

/**
 * A small in-memory stand-in for the /sys endpoints: enough behaviour (filters, paging,
 * create/edit/delete, the server's refusals) for screens to be exercised end to end.
 */
export function sysBackend(seed: { users?: SysUser[]; roles?: Role[]; departments?: DepartmentNode[]; simpleUsers?: SimpleUser[] } = {}) {
  const db = {
    users: [...(seed.users ?? [])],
    roles: [...(seed.roles ?? [])],
    departments: structuredClone(seed.departments ?? []),
    simpleUsers: [...(seed.simpleUsers ?? [])],
  };
  const findDepartment = (id: number) => {
    let found: { node: DepartmentNode; siblings: DepartmentNode[] } | undefined;
    walk(db.departments, (n, siblings) => {
      if (n.id === id) found = { node: n, siblings };
    });
    return found;
  };

  const handlers: Handlers = {
    '/sys-users/list': (b) => {
      const rows = db.users.filter(
        (u) =>
          (!b.account || u.account.includes(b.account)) &&
          (!b.name || u.name.includes(b.name)) &&
          (b.department_id === undefined || u.department_id === b.department_id) &&
          (b.role_id === undefined || u.roles.some((r) => r.id === b.role_id)) &&
          (b.is_admin === undefined || u.is_admin === b.is_admin) &&
          (!b.status || u.status === b.status),
      );
      return page(rows, b);
    },
    '/sys-users/export': () => 'xlsx',
    '/sys-users/create_account': (b) => {
      if (db.users.some((u) => u.account === b.account)) return new MockRefusal(`The account "${b.account}" already exists.`);
      const user = buildUser({
        account: b.account,
        name: b.name,
        remark: b.remark ?? '',
        is_admin: b.is_admin ?? 0,
        is_leader: b.is_leader ?? 0,
        platform: b.platform ?? 'dj',
        department_id: b.department_id ?? null,
        roles: db.roles.filter((r) => b.role_ids?.includes(r.id)).map((r) => ({ id: r.id, name: r.name })),
      });
      db.users.unshift(user);
      return b.pwd ? { id: user.id } : { id: user.id, new_passwd: GENERATED_PASSWORD };
    },
    '/sys-users/edit_account': (b) => {
      const i = db.users.findIndex((u) => u.id === b.id);
      if (i < 0) return new MockRefusal('The user does not exist or was deleted.');
      const { role_ids, ...rest } = b;
      const next = { ...db.users[i]!, ...rest };
      if (role_ids) next.roles = db.roles.filter((r) => role_ids.includes(r.id)).map((r) => ({ id: r.id, name: r.name }));
      db.users[i] = next;
      return next;
    },
    '/sys-users/delete_user': (b) => {
      db.users = db.users.filter((u) => u.id !== b.id);
      return null;
    },
    '/sys-users/reset_passwd': () => ({ new_passwd: RESET_PASSWORD }),
    '/sys-users/simple_list': (b) => db.simpleUsers.filter((u) => !b?.keyword || u.name.includes(b.keyword) || u.account.includes(b.keyword)),
    '/sys-users/batch_save_user_role': (b) => ({ updated: b.user_ids.length }),

    '/sys-departments/tree': () => db.departments,
    '/sys-departments/create': (b) => {
      const id = Math.max(0, ...db.users.map((u) => u.id), ...collectIds(db.departments)) + 1;
      const node: DepartmentNode = { id, name: b.name, parent_id: b.parent_id ?? null, sort: b.sort ?? 0, leader_id: b.leader_id ?? null, leader_name: null, member_count: 0, children: [] };
      (b.parent_id ? findDepartment(b.parent_id)!.node.children : db.departments).push(node);
      return { id };
    },
    '/sys-departments/edit': (b) => {
      const found = findDepartment(b.id);
      if (!found) return new MockRefusal('The department does not exist.');
      Object.assign(found.node, { ...(b.name !== undefined && { name: b.name }), ...(b.sort !== undefined && { sort: b.sort }) });
      if (b.leader_id !== undefined) {
        found.node.leader_id = b.leader_id;
        found.node.leader_name = db.simpleUsers.find((u) => u.id === b.leader_id)?.name ?? null;
      }
      return { id: b.id };
    },
    '/sys-departments/delete': (b) => {
      const found = findDepartment(b.id);
      if (!found) return new MockRefusal('The department does not exist.');
      if (found.node.children.length)
        return new MockRefusal(`This department still has ${found.node.children.length} sub-departments. Move or delete them first.`);
      if (found.node.member_count)
        return new MockRefusal(`This department still has ${found.node.member_count} members. Move them to another department first.`);
      found.siblings.splice(found.siblings.indexOf(found.node), 1);
      return null;
    },

    '/sys-roles/list': (b) => page(db.roles.filter((r) => !b.name || r.name.includes(b.name)), b),
    '/sys-roles/create': (b) => {
      const role = buildRole({ name: b.name, remark: b.remark ?? '', paths: b.paths, asset_scope: b.asset_scope ?? 'own' });
      db.roles.push(role);
      return { id: role.id };
    },
    '/sys-roles/edit': (b) => {
      const role = db.roles.find((r) => r.id === b.id);
      if (!role) return new MockRefusal('The role does not exist.');
      Object.assign(role, { name: b.name, remark: b.remark ?? role.remark, paths: b.paths, asset_scope: b.asset_scope ?? role.asset_scope });
      return { id: b.id };
    },
    '/sys-roles/delete': (b) => {
      db.roles = db.roles.filter((r) => r.id !== b.id);
      return null;
    },
  };
  return { db, handlers };
}

function collectIds(tree: DepartmentNode[]): number[] {
  return tree.flatMap((n) => [n.id, ...collectIds(n.children)]);
}
