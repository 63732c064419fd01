import { z } from 'zod';
import { exportColumnsSchema, idSchema, numberInput, pageBodySchema } from './envelope.ts';
import { ACCOUNT_MAX, ACCOUNT_MIN, ACCOUNT_PATTERN, NAME_MAX, REMARK_MAX } from './rules.ts';
import { assetScopeSchema, md5HexSchema, platformSchema } from './session.ts';
import { text } from './text.ts';

export const userStatusSchema = z.enum(['enabled', 'disabled']);
export type UserStatus = z.infer<typeof userStatusSchema>;

const flag = z.union([z.literal(0), z.literal(1)]);
const nameSchema = text().trim().min(1).max(NAME_MAX);
const remarkSchema = text().trim().max(REMARK_MAX);

export const accountNameSchema = text()
  .trim()
  .min(ACCOUNT_MIN)
  .max(ACCOUNT_MAX)
  .regex(ACCOUNT_PATTERN, 'account_chars');

export const roleRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** A row of /sys-users/list (API.md "System management"). */
export const sysUserSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  remark: z.string(),
  is_admin: z.number().int(),
  is_leader: z.number().int(),
  platform: z.string(),
  department_id: z.number().int().nullable(),
  department_name: z.string().nullable(),
  roles: z.array(roleRefSchema),
  status: userStatusSchema,
  login_at: z.string().nullable(),
  created_at: z.string(),
});
export type SysUser = z.infer<typeof sysUserSchema>;

export const SYS_USER_SORT_FIELDS = ['id', 'account', 'name', 'login_at', 'created_at'] as const;

export const listUsersBodySchema = pageBodySchema.extend({
  sort_field: z.enum(SYS_USER_SORT_FIELDS).optional(),
  account: text().trim().max(64).optional(),
  name: text().trim().max(64).optional(),
  department_id: idSchema.optional(),
  role_id: idSchema.optional(),
  is_admin: z.union([z.literal(0), z.literal(1), z.literal(9)]).optional(),
  status: userStatusSchema.optional(),
});
export type ListUsersBody = z.infer<typeof listUsersBodySchema>;
/** The account table's columns an export can hold (keyed as the web table's, in its order). */
export const SYS_USER_EXPORT_COLUMNS = ['account', 'name', 'department', 'roles', 'level', 'leader', 'platform', 'status', 'login_at', 'created_at', 'remark'] as const;
export const exportUsersBodySchema = listUsersBodySchema.extend({ columns: exportColumnsSchema(SYS_USER_EXPORT_COLUMNS) });

export const createUserBodySchema = z.object({
  account: accountNameSchema,
  name: nameSchema,
  /** MD5 hex of the initial password; without it the server generates one. */
  pwd: md5HexSchema.optional(),
  remark: remarkSchema.optional(),
  is_admin: flag.optional(),
  is_leader: flag.optional(),
  platform: platformSchema.optional(),
  department_id: idSchema.nullable().optional(),
  role_ids: z.array(idSchema).max(100).optional(),
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const editUserBodySchema = z.object({
  id: idSchema,
  account: accountNameSchema.optional(),
  name: nameSchema.optional(),
  remark: remarkSchema.optional(),
  is_admin: flag.optional(),
  is_leader: flag.optional(),
  platform: platformSchema.optional(),
  department_id: idSchema.nullable().optional(),
  role_ids: z.array(idSchema).max(100).optional(),
  status: userStatusSchema.optional(),
});
export type EditUserBody = z.infer<typeof editUserBodySchema>;

export const createUserResultSchema = z.object({ id: z.number().int(), new_passwd: z.string().optional() });

/**
 * Who a picker looks for. Without `purpose`: the people the caller may see or act for (their data
 * scope, whom they may assign assets to, the people of the departments they manage). `editor`:
 * also everyone who may work on materials (holds /material/upload), to credit a material's editor.
 */
export const simpleListPurposeSchema = z.enum(['editor']);
export const simpleListBodySchema = z
  .object({ keyword: text().trim().max(64).optional(), department_id: idSchema.optional(), purpose: simpleListPurposeSchema.optional() })
  .optional();
export type SimpleListBody = z.infer<typeof simpleListBodySchema>;
export const simpleUserSchema = z.object({ id: z.number().int(), account: z.string(), name: z.string() });
export type SimpleUser = z.infer<typeof simpleUserSchema>;

export const batchSaveUserRoleBodySchema = z.object({
  user_ids: z.array(idSchema).min(1).max(500),
  role_ids: z.array(idSchema).max(100),
});

/** A department above the part of the tree a non-manager sees: named, never shown as a node. */
export const departmentRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** A node of /sys-departments/tree. */
export interface DepartmentNode {
  id: number;
  name: string;
  parent_id: number | null;
  sort: number;
  leader_id: number | null;
  leader_name: string | null;
  member_count: number;
  children: DepartmentNode[];
  /**
   * Only on the roots of a non-manager's tree (their managed subtree): the departments above it,
   * top first, to show as its path (read-only). Managers get the whole tree, without it.
   */
  ancestors?: { id: number; name: string }[];
}
export const departmentNodeSchema: z.ZodType<DepartmentNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    parent_id: z.number().int().nullable(),
    sort: z.number().int(),
    leader_id: z.number().int().nullable(),
    leader_name: z.string().nullable(),
    member_count: z.number().int(),
    children: z.array(departmentNodeSchema),
    ancestors: z.array(departmentRefSchema).optional(),
  }),
);

const sortSchema = numberInput(z.number().int().min(0).max(100_000));
export const createDepartmentBodySchema = z.object({
  name: nameSchema,
  parent_id: idSchema.nullable().optional(),
  sort: sortSchema.optional(),
  leader_id: idSchema.nullable().optional(),
});
export type CreateDepartmentBody = z.infer<typeof createDepartmentBodySchema>;
export const editDepartmentBodySchema = createDepartmentBodySchema.partial().extend({ id: idSchema });
export type EditDepartmentBody = z.infer<typeof editDepartmentBodySchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string(),
  /** Exactly the paths it grants (SPEC.md §6); a group path alone grants the group entry, not its pages. */
  paths: z.array(z.string()),
  asset_scope: assetScopeSchema,
  /** Whether the caller may edit or delete it (what it grants, and who holds it, are within their reach). */
  editable: z.boolean(),
  member_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const ROLE_SORT_FIELDS = ['id', 'name', 'member_count', 'created_at', 'updated_at'] as const;
export const listRolesBodySchema = pageBodySchema.extend({
  sort_field: z.enum(ROLE_SORT_FIELDS).optional(),
  name: text().trim().max(64).optional(),
});
export type ListRolesBody = z.infer<typeof listRolesBodySchema>;

const rolePathsSchema = z.array(text().max(100)).max(200);
export const createRoleBodySchema = z.object({
  name: nameSchema,
  remark: remarkSchema.optional(),
  paths: rolePathsSchema,
  /** Default `own`; on edit, absent keeps the stored value. */
  asset_scope: assetScopeSchema.optional(),
});
export type CreateRoleBody = z.infer<typeof createRoleBodySchema>;
export const editRoleBodySchema = createRoleBodySchema.extend({ id: idSchema });
export type EditRoleBody = z.infer<typeof editRoleBodySchema>;
