import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER, type AssetScope } from '@ads/contracts';
import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

// ---------------------------------------------------------------------------------------------
// Login throttle (session.service.ts reserveAttempt / releaseAttempt).

/** Creates the throttle rows that do not exist yet, in the order given (callers sort the keys). */
export async function ensureThrottleRows(trx: Db, keys: readonly string[], now: Date) {
  await trx
    .insertInto('login_throttle')
    .values(keys.map((key) => ({ key, failures: 0, first_failed_at: now, locked_until: null })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** The throttle rows of `keys`, locked for this transaction in key order. */
export function lockThrottleRows(trx: Db, keys: readonly string[]) {
  return trx
    .selectFrom('login_throttle')
    .select(['key', 'failures', 'first_failed_at', 'locked_until'])
    .where('key', 'in', [...keys])
    .orderBy('key')
    .forUpdate()
    .execute();
}

export async function setThrottle(trx: Db, key: string, values: { failures: number; first_failed_at: Date; locked_until: Date | null }) {
  await trx.updateTable('login_throttle').set(values).where('key', '=', key).execute();
}

export async function clearThrottle(trx: Db, key: string) {
  await trx.deleteFrom('login_throttle').where('key', '=', key).execute();
}

/** One failure fewer, and no lock when the count drops below `max`. */
export async function giveBackThrottle(trx: Db, key: string, max: number) {
  await sql`
    update login_throttle set
      failures = greatest(failures - 1, 0),
      locked_until = case when failures - 1 < ${max} then null else locked_until end
    where key = ${key}`.execute(trx);
}

// ---------------------------------------------------------------------------------------------
// Users and sessions.

/** The (not deleted) user of an account name, in any letter case. */
export function findLoginUser(db: Db, account: string) {
  return db
    .selectFrom('users')
    .select(['id', 'account', 'pwd_hash', 'status'])
    .where(sql`lower(account)`, '=', account.toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * The enabled user behind a session token (with the session) or an id (session 0, seen `now`),
 * with the paths and asset scope of their roles. Two plain queries instead of one with a role
 * subquery: every authenticated call pays this, and the combined query cost more to plan than
 * to run (bench/README.md).
 */
export async function loadSessionUser(db: Db, where: { tokenHash: string } | { userId: number }, now: Date) {
  const q = db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .select(['u.id', 'u.account', 'u.name', 'u.remark', 'u.is_admin', 'u.is_leader', 'u.platform', 'u.department_id', 'u.login_at', 'd.name as department_name'])
    .where('u.deleted_at', 'is', null)
    .where('u.status', '=', 'enabled');
  const row =
    'tokenHash' in where
      ? await q
          .innerJoin('sessions as s', 's.user_id', 'u.id')
          .select(['s.id as session_id', 's.last_seen_at'])
          .where('s.token_hash', '=', where.tokenHash)
          .where('s.revoked_at', 'is', null)
          .executeTakeFirst()
      : await q
          .where('u.id', '=', where.userId)
          .executeTakeFirst()
          .then((r) => r && { ...r, session_id: 0, last_seen_at: now });
  if (!row) return undefined;
  // Managers and the super admin have fixed paths and see everything; only staff take theirs from roles.
  const roles =
    row.is_admin === IS_ADMIN_SUPER || row.is_admin === IS_ADMIN_MANAGER
      ? []
      : await db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id').select(['r.paths', 'r.asset_scope']).where('ur.user_id', '=', row.id).execute();
  const role_paths = roles.flatMap((r) => r.paths);
  const asset_scope: AssetScope = roles.some((r) => r.asset_scope === 'company') ? 'company' : 'own';
  return { ...row, role_paths, asset_scope };
}

/** Stores a new session and the user's login time. */
export async function openSession(trx: Db, values: Insertable<DB['sessions']> & { user_id: number; created_at: Date }) {
  await trx.insertInto('sessions').values(values).execute();
  await trx.updateTable('users').set({ login_at: values.created_at }).where('id', '=', values.user_id).execute();
}

export async function touchSession(db: Db, id: number, at: Date) {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function revokeSession(trx: Db, id: number, now: Date) {
  await trx.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Ends every open session of a user, except one. */
export async function revokeUserSessions(db: Db, userId: number, now: Date, exceptSessionId?: number) {
  let q = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}
