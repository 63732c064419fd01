import { z } from 'zod';
import { idBodySchema, pageResultSchema } from '../envelope.ts';
import type { RouteEntry } from '../routes.ts';
import { loginBodySchema, loginResultSchema, resetPasswdBodySchema, resetPasswdResultSchema, userInfoSchema } from '../session.ts';
import {
  batchSaveUserRoleBodySchema,
  createDepartmentBodySchema,
  createRoleBodySchema,
  createUserBodySchema,
  createUserResultSchema,
  departmentNodeSchema,
  editDepartmentBodySchema,
  editRoleBodySchema,
  editUserBodySchema,
  exportUsersBodySchema,
  listRolesBodySchema,
  listUsersBodySchema,
  roleSchema,
  simpleListBodySchema,
  simpleUserSchema,
  sysUserSchema,
} from '../sys.ts';
import { define } from './define.ts';
import { SESSION_CALLS } from './session-calls.ts';

/** The answer of calls that write and answer nothing but success. */
export const noDataSchema = z.null();
/** `{ id }` of the row a create or edit wrote. */
export const idResultSchema = z.object({ id: z.number().int() });
/** How many rows a batch call changed. */
export const updatedResultSchema = z.object({ updated: z.number().int() });

const routeEntrySchema: z.ZodType<RouteEntry> = z.lazy(() =>
  z.object({
    path: z.string(),
    title: z.string(),
    title_en: z.string(),
    sort: z.number().int(),
    hidden: z.boolean().optional(),
    activeMenu: z.string().optional(),
    children: z.array(routeEntrySchema).optional(),
  }),
);

export const healthSchema = z.object({ db: z.literal('ok'), driver: z.string(), uptime_s: z.number().int() });

// The accounts screen reads the department tree and role names for its pickers and filters.
const ACCOUNTS = ['/sys/accounts'] as const;
const DEPARTMENT_WRITE = ['/sys/department'] as const;
const DEPARTMENT_READ = ['/sys/department', ...ACCOUNTS] as const;
const ROLE_WRITE = ['/sys/role'] as const;
const ROLE_READ = ['/sys/role', ...ACCOUNTS] as const;

/** Login, logout, the session user (SPEC.md §7, API.md "Session") and health. */
export const session = {
  login: define({ ...SESSION_CALLS.login, body: loginBodySchema, answer: loginResultSchema, allow: 'public', tag: 'session', summary: 'Log in with account and MD5 password' }),
  logout: define({ ...SESSION_CALLS.logout, answer: noDataSchema, allow: 'user', tag: 'session', summary: 'End the current session' }),
  get_user_info: define({ ...SESSION_CALLS.get_user_info, answer: userInfoSchema, allow: 'user', tag: 'session', summary: 'The current user with permitted paths' }),
  health: define({ path: '/health', method: 'GET', answer: healthSchema, allow: 'public', tag: 'system' }),
  /** Liveness without touching the database (load balancers; the bench's baseline route). */
  live: define({ path: '/health/live', method: 'GET', answer: z.object({ live: z.literal(true) }), allow: 'public', tag: 'system' }),
};

/** sys-users of SPEC.md §7 / API.md "System management". */
export const sysUsers = {
  list: define({ path: '/sys-users/list', body: listUsersBodySchema, answer: pageResultSchema(sysUserSchema), allow: ACCOUNTS, tag: 'sys-users' }),
  export: define({ path: '/sys-users/export', body: exportUsersBodySchema, answer: 'xlsx', allow: ACCOUNTS, tag: 'sys-users' }),
  create_account: define({ path: '/sys-users/create_account', body: createUserBodySchema, answer: createUserResultSchema, allow: ACCOUNTS, tag: 'sys-users' }),
  edit_account: define({ path: '/sys-users/edit_account', body: editUserBodySchema, answer: sysUserSchema, allow: ACCOUNTS, tag: 'sys-users' }),
  delete_user: define({ path: '/sys-users/delete_user', body: idBodySchema, answer: noDataSchema, allow: ACCOUNTS, tag: 'sys-users' }),
  /** Anyone may reset their own password; the service checks /sys/accounts for anyone else's. */
  reset_passwd: define({ ...SESSION_CALLS.reset_passwd, body: resetPasswdBodySchema, answer: resetPasswdResultSchema, allow: 'user', tag: 'sys-users' }),
  /** Pickers everywhere; the service limits whom each caller finds. */
  simple_list: define({ path: '/sys-users/simple_list', body: simpleListBodySchema.nullable(), answer: z.array(simpleUserSchema), allow: 'user', tag: 'sys-users' }),
  batch_save_user_role: define({ path: '/sys-users/batch_save_user_role', body: batchSaveUserRoleBodySchema, answer: updatedResultSchema, allow: ACCOUNTS, tag: 'sys-users' }),
};

export const sysDepartments = {
  tree: define({ path: '/sys-departments/tree', answer: z.array(departmentNodeSchema), allow: DEPARTMENT_READ, tag: 'sys-departments' }),
  create: define({ path: '/sys-departments/create', body: createDepartmentBodySchema, answer: idResultSchema, allow: DEPARTMENT_WRITE, tag: 'sys-departments' }),
  edit: define({ path: '/sys-departments/edit', body: editDepartmentBodySchema, answer: idResultSchema, allow: DEPARTMENT_WRITE, tag: 'sys-departments' }),
  delete: define({ path: '/sys-departments/delete', body: idBodySchema, answer: noDataSchema, allow: DEPARTMENT_WRITE, tag: 'sys-departments' }),
};

export const sysRoles = {
  list: define({ path: '/sys-roles/list', body: listRolesBodySchema, answer: pageResultSchema(roleSchema), allow: ROLE_READ, tag: 'sys-roles' }),
  create: define({ path: '/sys-roles/create', body: createRoleBodySchema, answer: idResultSchema, allow: ROLE_WRITE, tag: 'sys-roles' }),
  edit: define({ path: '/sys-roles/edit', body: editRoleBodySchema, answer: idResultSchema, allow: ROLE_WRITE, tag: 'sys-roles' }),
  delete: define({ path: '/sys-roles/delete', body: idBodySchema, answer: noDataSchema, allow: ROLE_WRITE, tag: 'sys-roles' }),
};

export const sysMenus = {
  /** The route table, shown by the role editor as a tree. */
  routes: define({ path: '/sys-menus/routes', method: 'GET', answer: z.array(routeEntrySchema), allow: ROLE_WRITE, tag: 'sys-menus' }),
};
