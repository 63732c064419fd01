import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { generatePassword, hashPassword, md5Hex } from '../lib/passwords.ts';

export interface SeededUser {
  account: string;
  password: string;
  generated: boolean;
}

/**
 * On an empty database, creates `admin` (is_admin 9) and `manager` (is_admin 1) with the
 * passwords from the environment or generated ones (returned so the caller prints them once).
 * An advisory lock makes concurrent first starts create them once.
 */
export async function seedInitialUsers(db: Db, opts: { adminPassword?: string; managerPassword?: string }): Promise<SeededUser[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(727001)`.execute(trx);
    const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (existing) return [];
    const seeded: SeededUser[] = [];
    for (const [account, name, isAdmin, given] of [
      ['admin', '超级管理员', IS_ADMIN_SUPER, opts.adminPassword],
      ['manager', '管理员', IS_ADMIN_MANAGER, opts.managerPassword],
    ] as const) {
      const password = given ?? generatePassword();
      await trx
        .insertInto('users')
        .values({ account, name, is_admin: isAdmin, pwd_hash: await hashPassword(md5Hex(password)), remark: 'created at first start' })
        .execute();
      seeded.push({ account, password, generated: !given });
    }
    await trx
      .insertInto('audit_logs')
      .values({ action: 'system.seed', entity_type: 'user', after: JSON.stringify({ accounts: seeded.map((s) => s.account) }) })
      .execute();
    return seeded;
  });
}
