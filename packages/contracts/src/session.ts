import { z } from 'zod';
import { idSchema } from './envelope.ts';
import { text } from './text.ts';

export const platformSchema = z.enum(['dj', 'ec']);
export type Platform = z.infer<typeof platformSchema>;

const md5HexSchema = text().regex(/^[0-9a-f]{32}$/, 'md5');

export const loginBodySchema = z.object({
  account: text().trim().min(1).max(64),
  /** Lower-case MD5 hex of the password (SPEC.md §5). */
  pwd: md5HexSchema,
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/**
 * Which authorization assets (personal accounts, ad accounts, pages, pixels, sites on the /auth
 * and /operation screens) a role's members see: `own` their data scope (PRODUCT.md "Data scope"),
 * `company` all of them, as a manager does (for those assets only). Only managers set `company`.
 */
export const assetScopeSchema = z.enum(['own', 'company']);
export type AssetScope = z.infer<typeof assetScopeSchema>;

/** Session user info of SPEC.md §3, as get_user_info answers it. */
export const userInfoSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  remark: z.string(),
  is_admin: z.number().int(),
  is_leader: z.number().int(),
  platform: z.string(),
  department_id: z.number().int().nullable(),
  department_name: z.string().nullable(),
  paths: z.array(z.string()),
  login_at: z.string().nullable(),
  /** `company` when one of the user's roles gives the company's authorization assets (managers see them anyway). */
  asset_scope: assetScopeSchema.optional(),
  /** The reporting time zone (IANA name): report days and date presets are computed in it. */
  report_timezone: z.string().optional(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginResultSchema = userInfoSchema.extend({ token: z.string() });
export type LoginResult = z.infer<typeof loginResultSchema>;

export const resetPasswdBodySchema = z.object({ currentUserId: idSchema });
export const resetPasswdResultSchema = z.object({ new_passwd: z.string() });

export { md5HexSchema };
