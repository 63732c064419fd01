import { derivePaths, IS_ADMIN_MANAGER, IS_ADMIN_SUPER, type LoginBody, type LoginResult, type UserInfo } from '@ads/contracts';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { dummyHashPromise, verifyPassword } from '../../lib/passwords.ts';
import { iso } from '../../lib/sql.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { writeAudit } from '../audit/audit.repository.ts';

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'sessionIdleMs' | 'login'>;
}

// last_seen_at moves at most once a minute, so a busy user does not write on every call.
const TOUCH_INTERVAL_MS = 60_000;

export interface ResolvedSession {
  actor: Actor;
  info: UserInfo;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createSessionService({ db, clock, config }: SessionServiceDeps) {
  /** Throttle keys: one per account and one per client address (API.md "Session"). */
  const keysOf = (account: string, ip: string) => [`acct:${account.toLowerCase()}`, `ip:${ip}`];

  async function assertNotLocked(keys: string[]) {
    const now = clock.now();
    const rows = await db.selectFrom('login_throttle').select(['locked_until']).where('key', 'in', keys).execute();
    const lockedUntil = rows
      .map((r) => r.locked_until?.getTime() ?? 0)
      .reduce((a, b) => Math.max(a, b), 0);
    if (lockedUntil > now.getTime()) {
      throw new AppError('LOGIN_LOCKED', { minutes: Math.ceil((lockedUntil - now.getTime()) / 60_000) });
    }
  }

  /** Counts a failure on each key; returns the highest count and whether a lock now holds. */
  async function recordFailure(account: string, ip: string): Promise<{ failures: number; locked: boolean }> {
    const now = clock.now();
    const windowStart = new Date(now.getTime() - config.login.lockMs);
    const lockUntil = new Date(now.getTime() + config.login.lockMs);
    let failures = 0;
    let locked = false;
    const [acctKey, ipKey] = keysOf(account, ip) as [string, string];
    for (const [key, max] of [
      [acctKey, config.login.maxFailures],
      [ipKey, config.login.ipMaxFailures],
    ] as const) {
      // Failures older than the window are forgotten; the count starts again.
      const row = await sql<{ failures: number; locked_until: Date | null }>`
        insert into login_throttle (key, failures, first_failed_at, locked_until)
        values (${key}, 1, ${now}, ${max <= 1 ? lockUntil : null})
        on conflict (key) do update set
          failures = case when login_throttle.first_failed_at < ${windowStart} then 1 else login_throttle.failures + 1 end,
          first_failed_at = case when login_throttle.first_failed_at < ${windowStart} then ${now} else login_throttle.first_failed_at end,
          locked_until = case
            when (case when login_throttle.first_failed_at < ${windowStart} then 1 else login_throttle.failures + 1 end) >= ${max}
            then ${lockUntil}::timestamptz else login_throttle.locked_until end
        returning failures, locked_until`.execute(db);
      const r = row.rows[0]!;
      if (key === acctKey) failures = r.failures;
      if (r.locked_until && r.locked_until.getTime() > now.getTime()) locked = true;
    }
    return { failures, locked };
  }

  // Two plain queries instead of one with a role subquery: every authenticated call pays this,
  // and the combined query cost more to plan than to run (bench/README.md).
  async function loadSessionRow(where: { tokenHash: string } | { userId: number }) {
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
            .then((r) => r && { ...r, session_id: 0, last_seen_at: clock.now() });
    if (!row) return undefined;
    // Managers and the super admin have fixed paths; only staff take theirs from roles.
    const role_paths =
      row.is_admin === IS_ADMIN_SUPER || row.is_admin === IS_ADMIN_MANAGER
        ? []
        : (
            await db
              .selectFrom('user_roles as ur')
              .innerJoin('roles as r', 'r.id', 'ur.role_id')
              .select('r.paths')
              .where('ur.user_id', '=', row.id)
              .execute()
          ).flatMap((r) => r.paths);
    return { ...row, role_paths };
  }

  function toResolved(row: NonNullable<Awaited<ReturnType<typeof loadSessionRow>>>): ResolvedSession {
    const paths = derivePaths(row.is_admin, row.role_paths);
    const info: UserInfo = {
      id: row.id,
      account: row.account,
      name: row.name,
      remark: row.remark,
      is_admin: row.is_admin,
      is_leader: row.is_leader,
      platform: row.platform,
      department_id: row.department_id,
      department_name: row.department_name,
      paths,
      login_at: iso(row.login_at),
    };
    const actor: Actor = {
      id: row.id,
      account: row.account,
      name: row.name,
      is_admin: row.is_admin,
      is_leader: row.is_leader,
      department_id: row.department_id,
      sessionId: row.session_id,
      paths,
      pathSet: new Set(paths),
    };
    return { actor, info };
  }

  return {
    /** Checks the password (after the throttle), opens a session and returns the user info with its token. */
    async login(body: LoginBody, meta: { ip: string; userAgent: string | null; requestId: string }): Promise<LoginResult> {
      const keys = keysOf(body.account, meta.ip);
      await assertNotLocked(keys);
      const user = await db
        .selectFrom('users')
        .select(['id', 'account', 'pwd_hash', 'status'])
        .where(sql`lower(account)`, '=', body.account.toLowerCase())
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      const ok = await verifyPassword(user?.pwd_hash ?? (await dummyHashPromise), body.pwd);
      if (!user || !ok) {
        const { failures, locked } = await recordFailure(body.account, meta.ip);
        await writeAudit(db, { actor: null, ip: meta.ip, requestId: meta.requestId }, {
          action: 'session.login_failed',
          entity_type: 'user',
          entity_id: user?.id ?? null,
          after: { account: body.account, failures },
        });
        if (locked) throw new AppError('LOGIN_LOCKED', { minutes: Math.ceil(config.login.lockMs / 60_000) });
        // Slow repeated guesses down before refusing them outright.
        if (failures >= 3 && config.login.slowdownMs > 0) await sleep(Math.min(config.login.slowdownMs * (failures - 2), 5000));
        throw new AppError('LOGIN_FAILED');
      }
      if (user.status !== 'enabled') throw new AppError('ACCOUNT_DISABLED');

      const token = newToken();
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('login_throttle').where('key', '=', keys[0]!).execute();
        await trx
          .insertInto('sessions')
          .values({ user_id: user.id, token_hash: hashToken(token), ip: meta.ip, user_agent: meta.userAgent?.slice(0, 300) ?? null, created_at: now, last_seen_at: now })
          .execute();
        await trx.updateTable('users').set({ login_at: now }).where('id', '=', user.id).execute();
        await writeAudit(trx, { actor: { id: user.id, account: user.account }, ip: meta.ip, requestId: meta.requestId }, {
          action: 'session.login',
          entity_type: 'user',
          entity_id: user.id,
        });
      });
      const resolved = await loadSessionRow({ userId: user.id });
      if (!resolved) throw new AppError('LOGIN_FAILED');
      return { ...toResolved(resolved).info, token };
    },

    /** The session behind a token, or null when unknown, revoked, idle too long, or its user cannot log in. */
    async resolve(token: string): Promise<ResolvedSession | null> {
      if (!token || token.length > 200) return null;
      const row = await loadSessionRow({ tokenHash: hashToken(token) });
      if (!row) return null;
      const now = clock.now().getTime();
      const idle = now - row.last_seen_at.getTime();
      if (idle > config.sessionIdleMs) return null;
      if (idle > TOUCH_INTERVAL_MS) {
        await db.updateTable('sessions').set({ last_seen_at: new Date(now) }).where('id', '=', row.session_id).execute();
      }
      return toResolved(row);
    },

    async logout(actor: Actor, meta: { ip: string; requestId: string }) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('sessions').set({ revoked_at: clock.now() }).where('id', '=', actor.sessionId).where('revoked_at', 'is', null).execute();
        await writeAudit(trx, { actor, ...meta }, { action: 'session.logout', entity_type: 'user', entity_id: actor.id });
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

/** Ends every open session of a user, except one (the caller's own, when they reset their own password). */
export async function revokeSessions(db: Db, userId: number, now: Date, exceptSessionId?: number) {
  let q = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}
