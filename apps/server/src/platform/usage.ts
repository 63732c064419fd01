import type { z } from 'zod';
import { adAccountUsageSchema, appUsageSchema, businessUseCaseUsageSchema, insightsThrottleSchema } from './graph-schemas.ts';

// Client-side throttling from the usage headers (reference §16): every answer says how much of
// each quota is used; at ≥ 75 % we space our calls out, at ≥ 95 % we stop until the reset time
// the platform gave. Readings are kept per quota ("key"), so a busy ad account does not slow the
// others. Absence of a header means nothing (Meta sends them only once usage is noticeable).

/** Which business-use-case quota a call counts against; Insights has its own. */
export type UsageType = 'ads_management' | 'ads_insights';

/** What a call touches: the app always, an ad account when it is known. */
export interface UsageScope {
  /** Numeric ad account id (no `act_`). */
  accountId?: string;
  type: UsageType;
}

export interface ThrottlePolicy {
  /** Usage (%) from which calls on that quota are spaced out. */
  slowdownAtPct: number;
  /** Usage (%) from which calls stop until the quota's reset time. */
  stopAtPct: number;
  /** Spacing between calls at the slow-down threshold, growing linearly… */
  minSpacingMs: number;
  /** …to this just below the stop threshold. */
  maxSpacingMs: number;
  /** Pause at the stop threshold when the header gives no reset time (X-App-Usage never does). */
  defaultPauseMs: number;
  /**
   * How long a high reading counts without being confirmed by a newer answer. Meta stops sending
   * a header once usage is no longer noticeable, so a reading that is never refreshed would
   * otherwise slow that quota down forever.
   */
  readingTtlMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  slowdownAtPct: 75,
  stopAtPct: 95,
  minSpacingMs: 500,
  maxSpacingMs: 5000,
  defaultPauseMs: 60_000,
  readingTtlMs: 5 * 60_000,
};

interface Reading {
  key: string;
  pct: number;
  /** How long until the quota resets, when the header says; 0 = unknown. */
  resetMs: number;
}

function parseHeader<T extends z.ZodType>(headers: Headers, name: string, schema: T): z.infer<T> | undefined {
  const raw = headers.get(name);
  if (!raw) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const bare = (id: string) => id.replace(/^act_/, '');
const maxOf = (...values: Array<number | undefined>) => Math.max(0, ...values.filter((v): v is number => v !== undefined));

/** The quota keys a call counts against. */
function keysOf(scope: UsageScope): string[] {
  const keys = ['app', `app:${scope.type}`];
  if (scope.accountId) {
    const account = `account:${scope.accountId}`;
    keys.push(account, `${account}:${scope.type}`);
    if (scope.type === 'ads_insights') keys.push(`${account}:insights-throttle`);
  }
  return keys;
}

/** All readings one answer carries (reference §16 header formats). */
function readingsOf(headers: Headers, scope: UsageScope): Reading[] {
  const out: Reading[] = [];
  const app = parseHeader(headers, 'x-app-usage', appUsageSchema);
  if (app) out.push({ key: 'app', pct: maxOf(app.call_count, app.total_cputime, app.total_time), resetMs: 0 });

  // These two name no account: they describe the one the call was about.
  if (scope.accountId) {
    const account = parseHeader(headers, 'x-ad-account-usage', adAccountUsageSchema);
    if (account) out.push({ key: `account:${scope.accountId}`, pct: maxOf(account.acc_id_util_pct), resetMs: maxOf(account.reset_time_duration) * 1000 });
    const insights = parseHeader(headers, 'x-fb-ads-insights-throttle', insightsThrottleSchema);
    if (insights) {
      out.push({ key: 'app:ads_insights', pct: maxOf(insights.app_id_util_pct), resetMs: 0 });
      out.push({ key: `account:${scope.accountId}:insights-throttle`, pct: maxOf(insights.acc_id_util_pct), resetMs: 0 });
    }
  }

  // Keyed by the business object the quota belongs to; the id may or may not carry `act_` [U].
  const buc = parseHeader(headers, 'x-business-use-case-usage', businessUseCaseUsageSchema);
  for (const [id, entries] of Object.entries(buc ?? {})) {
    for (const e of entries) {
      out.push({
        key: `account:${bare(id)}:${e.type}`,
        pct: maxOf(e.call_count, e.total_cputime, e.total_time),
        resetMs: maxOf(e.estimated_time_to_regain_access) * 60_000,
      });
    }
  }
  return out;
}

/** In-process usage state of one client; safe to share by every call of that client. */
export class UsageTracker {
  /** High readings (≥ slow-down threshold) and when they were taken. */
  private readonly pct = new Map<string, { pct: number; at: number }>();
  private readonly blockedUntil = new Map<string, number>();
  private readonly nextSendAt = new Map<string, number>();

  constructor(
    private readonly policy: ThrottlePolicy,
    private readonly now: () => number,
  ) {}

  /**
   * Takes in the usage headers of an answer. Returns how long the platform asked us to stay away
   * from a quota that is (nearly) exhausted, when it said so — the retry-after of a throttle error.
   */
  record(headers: Headers, scope: UsageScope): number | undefined {
    const now = this.now();
    let retryAfterMs: number | undefined;
    for (const r of readingsOf(headers, scope)) {
      if (r.pct < this.policy.slowdownAtPct) {
        this.pct.delete(r.key);
        this.nextSendAt.delete(r.key);
        continue;
      }
      this.pct.set(r.key, { pct: r.pct, at: now });
      if (r.pct >= this.policy.stopAtPct) {
        this.block(r.key, now + (r.resetMs || this.policy.defaultPauseMs));
        if (r.resetMs > 0) retryAfterMs = Math.max(retryAfterMs ?? 0, r.resetMs);
      }
    }
    return retryAfterMs;
  }

  /** Keeps every call on the scope's account (or, without one, on the app) away until `until`. */
  blockScope(scope: UsageScope, until: number, appWide: boolean): void {
    this.block(appWide || !scope.accountId ? 'app' : `account:${scope.accountId}`, until);
  }

  /** Milliseconds a call must wait because a quota it counts against is stopped (0 = none). */
  blockedFor(scope: UsageScope): number {
    const now = this.now();
    return Math.max(0, ...keysOf(scope).map((k) => (this.blockedUntil.get(k) ?? 0) - now));
  }

  /**
   * Milliseconds to wait before sending. When no quota is stopped, this books the call's slot on
   * every quota above the slow-down threshold, so concurrent callers line up instead of bursting.
   */
  reserve(scope: UsageScope): number {
    const blocked = this.blockedFor(scope);
    if (blocked > 0) return blocked;
    const now = this.now();
    let wait = 0;
    for (const key of keysOf(scope)) {
      const reading = this.pct.get(key);
      if (reading === undefined) continue;
      if (now - reading.at > this.policy.readingTtlMs) {
        this.pct.delete(key);
        this.nextSendAt.delete(key);
        continue;
      }
      const at = Math.max(now, this.nextSendAt.get(key) ?? 0);
      this.nextSendAt.set(key, at + this.spacing(reading.pct));
      wait = Math.max(wait, at - now);
    }
    return wait;
  }

  private spacing(pct: number): number {
    const { slowdownAtPct, stopAtPct, minSpacingMs, maxSpacingMs } = this.policy;
    const share = Math.min(1, (pct - slowdownAtPct) / Math.max(1, stopAtPct - slowdownAtPct));
    return Math.round(minSpacingMs + (maxSpacingMs - minSpacingMs) * share);
  }

  private block(key: string, until: number): void {
    if (until > (this.blockedUntil.get(key) ?? 0)) this.blockedUntil.set(key, until);
  }
}
