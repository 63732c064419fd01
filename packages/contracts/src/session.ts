import { z } from 'zod';
import { idSchema } from './envelope.ts';

export const platformSchema = z.enum(['dj', 'ec']);
export type Platform = z.infer<typeof platformSchema>;

const md5HexSchema = z.string().regex(/^[0-9a-f]{32}$/, 'md5');

export const loginBodySchema = z.object({
  account: z.string().trim().min(1).max(64),
  /** Lower-case MD5 hex of the password (SPEC.md §5). */
  pwd: md5HexSchema,
});
export type LoginBody = z.infer<typeof loginBodySchema>;

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
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginResultSchema = userInfoSchema.extend({ token: z.string() });
export type LoginResult = z.infer<typeof loginResultSchema>;

export const resetPasswdBodySchema = z.object({ currentUserId: idSchema });
export const resetPasswdResultSchema = z.object({ new_passwd: z.string() });

export { md5HexSchema };
