import {
  departmentNodeSchema,
  roleSchema,
  simpleUserSchema,
  sysUserSchema,
  type DepartmentNode,
  type Role,
  type SimpleUser,
  type SysUser,
} from '@ads/contracts';

/** Test data builders: every object is parsed by the contract schema, so mocks cannot drift. */

let nextId = 100;
const id = () => ++nextId;
const instant = '2026-03-01T08:30:00.000Z';

export function buildUser(overrides: Partial<SysUser> = {}): SysUser {
  const n = overrides.id ?? id();
  return sysUserSchema.parse({
    id: n,
    account: `user${n}`,
    name: `User ${n}`,
    remark: '',
    is_admin: 0,
    is_leader: 0,
    platform: 'dj',
    department_id: null,
    department_name: null,
    roles: [],
    status: 'enabled',
    login_at: null,
    created_at: instant,
    ...overrides,
  });
}

export function buildRole(overrides: Partial<Role> = {}): Role {
  const n = overrides.id ?? id();
  return roleSchema.parse({
    id: n,
    name: `Role ${n}`,
    remark: '',
    paths: [],
    asset_scope: 'own',
    editable: true,
    member_count: 0,
    created_at: instant,
    updated_at: instant,
    ...overrides,
  });
}

export function buildDepartment(overrides: Partial<DepartmentNode> = {}): DepartmentNode {
  const n = overrides.id ?? id();
  return departmentNodeSchema.parse({
    id: n,
    name: `Department ${n}`,
    parent_id: null,
    sort: 0,
    leader_id: null,
    leader_name: null,
    member_count: 0,
    children: [],
    ...overrides,
  });
}

export function buildSimpleUser(overrides: Partial<SimpleUser> = {}): SimpleUser {
  const n = overrides.id ?? id();
  return simpleUserSchema.parse({ id: n, account: `user${n}`, name: `User ${n}`, ...overrides });
}
