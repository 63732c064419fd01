import { IS_ADMIN_MANAGER, IS_ADMIN_STAFF, IS_ADMIN_SUPER, type DepartmentNode } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { buildDepartment } from '@/testing/factories';
import { canChangeDepartment, canCreateDepartmentUnder, canGrantPaths, canManageUser, subtreeIds } from './permissions';

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

  it('lets non-managers change only departments strictly below their own', () => {
    expect(subtreeIds(tree, 2)).toEqual([2, 3]);
    expect(canChangeDepartment(leader, tree, 2)).toBe(false);
    expect(canChangeDepartment(leader, tree, 3)).toBe(true);
    expect(canChangeDepartment(leader, tree, 4)).toBe(false);
    expect(canCreateDepartmentUnder(leader, tree, 2)).toBe(true);
    expect(canCreateDepartmentUnder(leader, tree, null)).toBe(false);
    expect(canCreateDepartmentUnder(manager, tree, null)).toBe(true);
  });

  it('lets non-managers grant only pages they hold, a group counting as all its pages', () => {
    expect(canGrantPaths(leader, ['/sys/accounts'])).toBe(true);
    expect(canGrantPaths(leader, ['/sys'])).toBe(false);
    expect(canGrantPaths(manager, ['/sys', '/auth'])).toBe(true);
  });
});
