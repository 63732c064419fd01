import { derivePaths, type LoginBody, type LoginResult, type UserInfo } from '@ads/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { dummyHashPromise, verifyPassword as defaultVerifyPassword } from '../../lib/passwords.ts';
import { iso } from '../../lib/sql.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { writeAudit } from '../audit/audit.service.ts';
import {
  clearThrottle,
  ensureThrottleRows,
  findLoginUser,
  giveBackThrottle,
  loadSessionUser,
  lockThrottleRows,
  openSession,
  revokeSession,
  revokeUserSessions,
  setThrottle,
  touchSession,
} from './session.repository.ts';

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'sessionIdleMs' | 'login'> & Partial<Pick<Config, 'reportTimezone'>>;
  /** The password check (argon2); replaceable so tests can count how many checks happen. */
  verifyPassword?: (stored: string, md5hex: string) => Promise<boolean>;
}

// last_seen_at moves at most once a minute, so a busy user does not write on every call.
const TOUCH_INTERVAL_MS = 60_000;

export interface ResolvedSession {
  actor: Actor;
  info: UserInfo;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A login_throttle row and its limit; `release` is what a successful login does to it. */
interface ThrottleKey {
  key: string;
  max: number;
  release: 'clear' | 'decrement';
}

export function createSessionService({ db, clock, config, verifyPassword = defaultVerifyPassword }: SessionServiceDeps) {
  /**
   * Throttle keys (API.md "Session"), each with its own limit: the account from this address locks
   * quickly, the account from anywhere only at a much higher count (so nobody locks `admin` out
   * by typing its name a few times, while guessing spread over many addresses stays bounded), and
   * the address across all accounts.
   */
  function keysOf(account: string, ip: string): ThrottleKey[] {
    const acct = account.toLowerCase();
    return [
      { key: `pair:${acct}|${ip}`, max: config.login.maxFailures, release: 'clear' },
      { key: `acct:${acct}`, max: config.login.accountMaxFailures, release: 'decrement' },
      { key: `ip:${ip}`, max: config.login.ipMaxFailures, release: 'decrement' },
    ];
  }

  const lockedMinutes = (until: number) => Math.max(1, Math.ceil((until - clock.now().getTime()) / 60_000));

  /**
   * Reserves one attempt on every key before the password is checked, in one transaction holding
   * the keys' rows: the attempt counts as a failure until it succeeds, so parallel guesses cannot
   * all pass a check made before any of them is counted. Refuses (LOGIN_LOCKED) when a key is
   * locked; a key whose count reaches its limit locks now, and the attempt that reached it is still
   * checked. Answers the counts after this attempt.
   */
  async function reserveAttempt(keys: ThrottleKey[]): Promise<Map<string, number>> {
    const now = clock.now();
    const windowStart = new Date(now.getTime() - config.login.lockMs);
    const lockUntil = new Date(now.getTime() + config.login.lockMs);
    const sorted = [...keys].sort((a, b) => a.key.localeCompare(b.key));
    const outcome = await db.transaction().execute(async (trx) => {
      // Rows exist before they are locked; inserted in key order, as they are locked, so two attempts never wait on each other in a circle.
      await ensureThrottleRows(trx, sorted.map((k) => k.key), now);
      const rows = await lockThrottleRows(trx, sorted.map((k) => k.key));
      const lockedUntil = Math.max(0, ...rows.map((r) => r.locked_until?.getTime() ?? 0));
      if (lockedUntil > now.getTime()) return { locked: lockedUntil, counts: null } as const;
      const counts = new Map<string, number>();
      for (const k of sorted) {
        const row = rows.find((r) => r.key === k.key)!;
        // Failures older than the window are forgotten; the count starts again.
        const fresh = row.first_failed_at < windowStart || (row.locked_until !== null && row.locked_until.getTime() <= now.getTime());
        const failures = fresh ? 1 : row.failures + 1;
        counts.set(k.key, failures);
        await setThrottle(trx, k.key, { failures, first_failed_at: fresh ? now : row.first_failed_at, locked_until: failures >= k.max ? lockUntil : null });
      }
      return { locked: 0, counts } as const;
    });
    if (!outcome.counts) throw new AppError('LOGIN_LOCKED', { minutes: lockedMinutes(outcome.locked) });
    return outcome.counts;
  }

  /**
   * A successful login gives back its reservation: the pair's failures are forgotten, the
   * account-wide and address counts lose the attempt (and a lock it alone caused).
   */
  async function releaseAttempt(trx: Db, keys: ThrottleKey[]) {
    for (const k of keys) {
      if (k.release === 'clear') await clearThrottle(trx, k.key);
      else await giveBackThrottle(trx, k.key, k.max);
    }
  }

  async function loadSessionRow(where: { tokenHash: string } | { userId: number }) {
    return loadSessionUser(db, where, clock.now());
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
      asset_scope: row.asset_scope,
      // Date presets and report days are computed in this zone on the web (PRODUCT.md "Metrics").
      report_timezone: config.reportTimezone ?? 'UTC',
    };
    const actor: Actor = {
      id: row.id,
      account: row.account,
      name: row.name,
      is_admin: row.is_admin,
      is_leader: row.is_leader,
      department_id: row.department_id,
      asset_scope: row.asset_scope,
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
      const counts = await reserveAttempt(keys);
      const user = await findLoginUser(db, body.account);
      const ok = await verifyPassword(user?.pwd_hash ?? (await dummyHashPromise), body.pwd);
      if (!user || !ok) {
        // The reservation already counted this failure.
        const failures = counts.get(keys[0]!.key) ?? 0;
        await writeAudit(db, { actor: null, ip: meta.ip, requestId: meta.requestId }, {
          action: 'session.login_failed',
          entity_type: 'user',
          entity_id: user?.id ?? null,
          after: { account: body.account, failures },
        });
        if (keys.some((k) => (counts.get(k.key) ?? 0) >= k.max)) throw new AppError('LOGIN_LOCKED', { minutes: Math.ceil(config.login.lockMs / 60_000) });
        // Slow repeated guesses down before refusing them outright.
        if (failures >= 3 && config.login.slowdownMs > 0) await sleep(Math.min(config.login.slowdownMs * (failures - 2), 5000));
        throw new AppError('LOGIN_FAILED');
      }
      if (user.status !== 'enabled') {
        // The right password is no guess: the attempt is given back.
        await releaseAttempt(db, keys);
        throw new AppError('ACCOUNT_DISABLED');
      }

      const token = newToken();
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await releaseAttempt(trx, keys);
        await openSession(trx, { user_id: user.id, token_hash: hashToken(token), ip: meta.ip, user_agent: meta.userAgent?.slice(0, 300) ?? null, created_at: now, last_seen_at: now });
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
        await touchSession(db, row.session_id, new Date(now));
      }
      return toResolved(row);
    },

    async logout(actor: Actor, meta: { ip: string; requestId: string }) {
      await db.transaction().execute(async (trx) => {
        await revokeSession(trx, actor.sessionId, clock.now());
        await writeAudit(trx, { actor, ...meta }, { action: 'session.logout', entity_type: 'user', entity_id: actor.id });
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

/** Ends every open session of a user, except one (the caller's own, when they reset their own password). */
export async function revokeSessions(db: Db, userId: number, now: Date, exceptSessionId?: number) {
  await revokeUserSessions(db, userId, now, exceptSessionId);
}
