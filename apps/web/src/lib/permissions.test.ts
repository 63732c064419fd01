import { IS_ADMIN_MANAGER, IS_ADMIN_STAFF, IS_ADMIN_SUPER, type DepartmentNode } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { buildDepartment } from '@/testing/factories';
import { assignableDepartmentId, canAssignToUsers, canChangeDepartment, canCreateDepartmentUnder, canGrantPaths, canGrantRole, canManageUser, subtreeIds } from './permissions';

const tree: DepartmentNode[] = [
  buildDepartment({ id: 1, children: [buildDepartment({ id: 2, parent_id: 1, children: [buildDepartment({ id: 3, parent_id: 2 })] })] }),
  buildDepartment({ id: 4 }),
];
const manager = { id: 1, is_admin: IS_ADMIN_MANAGER, department_id: null, paths: [] };
const leader = { id: 2, is_admin: IS_ADMIN_STAFF, department_id: 2, paths: ['/sys', '/sys/accounts', '/index'] };

describe('what the /sys screens offer (mirroring the server)', () => {
  it('never offers changes to the super admin; staff manage only staff (and themselves)', () => {
    expect(canManageUser(manager, { id: 9, is_admin: IS_ADMIN_SUPER })).toBe(false);
    expect(canManageUser(manager, { id: 5, is_admin: IS_ADMIN_MANAGER })).toBe(true);
    expect(canManageUser(leader, { id: 5, is_admin: IS_ADMIN_MANAGER })).toBe(false);
    expect(canManageUser(leader, { id: 6, is_admin: IS_ADMIN_STAFF })).toBe(true);
    expect(canManageUser(leader, { id: 2, is_admin: IS_ADMIN_STAFF })).toBe(true);
  });

  it('leaves leaders, and holders of a company asset scope, to managers: nobody manages a wider scope than their own', () => {
    const companyRoles = new Set([70]);
    expect(canManageUser(leader, { id: 6, is_admin: IS_ADMIN_STAFF, is_leader: 1 })).toBe(false);
    expect(canManageUser(manager, { id: 6, is_admin: IS_ADMIN_STAFF, is_leader: 1 })).toBe(true);
    expect(canManageUser(leader, { id: 2, is_admin: IS_ADMIN_STAFF, is_leader: 1 })).toBe(true);
    expect(canManageUser(leader, { id: 7, is_admin: IS_ADMIN_STAFF, roles: [{ id: 70 }] }, companyRoles)).toBe(false);
    expect(canManageUser(leader, { id: 7, is_admin: IS_ADMIN_STAFF, roles: [{ id: 71 }] }, companyRoles)).toBe(true);
    expect(canManageUser({ ...leader, asset_scope: 'company' }, { id: 7, is_admin: IS_ADMIN_STAFF, roles: [{ id: 70 }] }, companyRoles)).toBe(true);
    expect(canGrantRole(leader, { paths: ['/index'], asset_scope: 'company' })).toBe(false);
    expect(canGrantRole(leader, { paths: ['/index'], asset_scope: 'own' })).toBe(true);
    expect(canGrantRole(manager, { paths: ['/index'], asset_scope: 'company' })).toBe(true);
  });

  it('lets a company asset scope assign assets to anyone, as managers do', () => {
    const staff = { id: 3, is_admin: IS_ADMIN_STAFF, is_leader: 0, department_id: 2, paths: [] };
    expect(canAssignToUsers(staff)).toBe(false);
    expect(canAssignToUsers({ ...staff, asset_scope: 'company' })).toBe(true);
    expect(assignableDepartmentId(staff)).toBe(2);
    expect(assignableDepartmentId({ ...staff, asset_scope: 'company' })).toBeUndefined();
  });

  it('lets non-managers change only departments strictly below their own', () => {
    expect(subtreeIds(tree, 2)).toEqual([2, 3]);
    expect(canChangeDepartment(leader, tree, 2)).toBe(false);
    expect(canChangeDepartment(leader, tree, 3)).toBe(true);
    expect(canChangeDepartment(leader, tree, 4)).toBe(false);
    expect(canCreateDepartmentUnder(leader, tree, 2)).toBe(true);
    expect(canCreateDepartmentUnder(leader, tree, null)).toBe(false);
    expect(canCreateDepartmentUnder(manager, tree, null)).toBe(true);
  });

  it('lets non-managers grant only paths they hold: a role grants exactly its paths, a group path alone only the group entry', () => {
    expect(canGrantPaths(leader, ['/sys/accounts'])).toBe(true);
    expect(canGrantPaths(leader, ['/sys'])).toBe(true);
    expect(canGrantPaths(leader, ['/sys', '/sys/accounts', '/sys/department', '/sys/role'])).toBe(false);
    expect(canGrantPaths(leader, ['/auth'])).toBe(false);
    expect(canGrantPaths(manager, ['/sys', '/auth'])).toBe(true);
  });
});
