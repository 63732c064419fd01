import type { UsageType } from '../graph/context.ts';
import { errors } from '../errors.ts';
import type { RateLimitSettings } from '../store/state.ts';
import { SlidingWindow } from './sliding-window.ts';

// Rate limits of reference §16, metered from real counters on the sim clock:
// - the app (platform) limit: calls per rolling hour → X-App-Usage, code 4;
// - the per-ad-account short-window score (reads 1 point, writes 3) → X-Ad-Account-Usage,
//   code 17 / 2446079 with a block period once exceeded;
// - business-use-case quotas per ad account per rolling hour (ads_management, ads_insights),
//   growing with the number of active ads → X-Business-Use-Case-Usage, codes 80004 / 80000.
// Refused calls are not counted, so a throttled client recovers once the window moves on.

const HOUR = 3_600_000;

/** For settings saved before the ad-creation throttle existed. */
const DEFAULT_AD_CREATIONS_PER_HOUR = 1000;

interface AccountMeters {
  score: SlidingWindow;
  scoreWindowMs: number;
  blockedUntil: number;
  management: SlidingWindow;
  insights: SlidingWindow;
  /** Ads created (not calls): the ad-creation throttle. */
  adCreations: SlidingWindow;
}

type AccountLimits = Omit<RateLimitSettings, 'accounts' | 'tier' | 'app_calls_per_hour'>;

const pct = (used: number, limit: number) => (limit > 0 ? Math.min(100, Math.round((used / limit) * 10000) / 100) : 100);

export class RateLimiter {
  private app = new SlidingWindow(HOUR);
  private appInsights = new SlidingWindow(HOUR);
  private accounts = new Map<string, AccountMeters>();

  constructor(
    private readonly settings: () => RateLimitSettings,
    /** Active ads of an account raise its business-use-case quotas. */
    private readonly activeAds: (accountId: string) => number,
  ) {}

  /** Forgets all counters (reset, or new budgets). */
  clear(): void {
    this.app = new SlidingWindow(HOUR);
    this.appInsights = new SlidingWindow(HOUR);
    this.accounts.clear();
  }

  /** Counts one call against the app limit, or throws code 4 when the hour's budget is spent. */
  admitApp(now: number): void {
    const limit = this.settings().app_calls_per_hour;
    if (this.app.sum(now) + 1 > limit) throw errors.appLimit(this.headers(now));
    this.app.add(now);
  }

  /** Counts one call against an ad account, or throws 17 / 80004 / 80000. */
  admitAccount(now: number, accountId: string, type: UsageType, isWrite: boolean): void {
    const limits = this.limitsFor(accountId);
    const meters = this.meters(accountId, limits);
    const usage = { accountId, type };
    const cost = isWrite ? 3 : 1;

    if (now < meters.blockedUntil) throw errors.accountScoreLimit(this.headers(now, usage));
    if (meters.score.sum(now) + cost > limits.account_score_max) {
      meters.blockedUntil = now + limits.account_block_seconds * 1000;
      throw errors.accountScoreLimit(this.headers(now, usage));
    }
    const window = type === 'ads_insights' ? meters.insights : meters.management;
    if (window.sum(now) + 1 > this.bucQuota(accountId, type, limits)) throw errors.bucThrottle(type, this.headers(now, usage));

    meters.score.add(now, cost);
    window.add(now);
    if (type === 'ads_insights') this.appInsights.add(now);
  }

  /**
   * The ad-creation throttle (reference §5, code 613 / 1487225): `count` more ads on the account
   * within the rolling hour, or a throttle error with the minutes until there is room. Only
   * `commit` counts them (a validate-only call checks without creating anything).
   */
  admitAdCreations(now: number, accountId: string, count: number, commit: boolean): void {
    const limits = this.limitsFor(accountId);
    const window = this.meters(accountId, limits).adCreations;
    const limit = limits.ad_creations_per_hour ?? DEFAULT_AD_CREATIONS_PER_HOUR;
    if (window.sum(now) + count > limit) {
      throw errors.adCreationLimit(limit, Math.max(1, Math.ceil(window.msUntilRoomFor(now, limit, count) / 60_000)));
    }
    if (commit) window.add(now, count);
  }

  /** The usage headers for a response (the account ones only when the call touched one). */
  headers(now: number, usage?: { accountId: string; type: UsageType }): Record<string, string> {
    const s = this.settings();
    const appPct = pct(this.app.sum(now), s.app_calls_per_hour);
    // We meter calls only; CPU and time shares are reported in proportion to them.
    const headers: Record<string, string> = {
      'x-app-usage': JSON.stringify({ call_count: Math.round(appPct), total_cputime: Math.round(appPct * 0.6), total_time: Math.round(appPct * 0.7) }),
    };
    if (!usage) return headers;

    const limits = this.limitsFor(usage.accountId);
    const m = this.meters(usage.accountId, limits);
    const scoreUsed = m.score.sum(now);
    const blockedMs = Math.max(0, m.blockedUntil - now);
    const resetMs = blockedMs || m.score.msUntilRoomFor(now, 0, 0);
    headers['x-ad-account-usage'] = JSON.stringify({
      acc_id_util_pct: blockedMs > 0 ? 100 : pct(scoreUsed, limits.account_score_max),
      reset_time_duration: Math.ceil(resetMs / 1000),
      ads_api_access_tier: s.tier,
    });

    const entry = (type: UsageType) => {
      const window = type === 'ads_insights' ? m.insights : m.management;
      const quota = this.bucQuota(usage.accountId, type, limits);
      const used = pct(window.sum(now), quota);
      const regainMs = window.msUntilRoomFor(now, quota);
      return {
        type,
        call_count: Math.round(used),
        total_cputime: Math.round(used * 0.6),
        total_time: Math.round(used * 0.7),
        estimated_time_to_regain_access: Math.ceil(regainMs / 60_000),
        ads_api_access_tier: s.tier,
      };
    };
    headers['x-business-use-case-usage'] = JSON.stringify({ [usage.accountId]: [entry(usage.type)] });
    if (usage.type === 'ads_insights') {
      headers['x-fb-ads-insights-throttle'] = JSON.stringify({
        app_id_util_pct: pct(this.appInsights.sum(now), s.ads_insights_per_hour),
        acc_id_util_pct: pct(m.insights.sum(now), this.bucQuota(usage.accountId, 'ads_insights', limits)),
        ads_api_access_tier: s.tier,
      });
    }
    return headers;
  }

  private limitsFor(accountId: string): AccountLimits {
    const { accounts, tier: _tier, app_calls_per_hour: _app, ...defaults } = this.settings();
    return { ...defaults, ...accounts[accountId] };
  }

  private bucQuota(accountId: string, type: UsageType, limits: AccountLimits): number {
    const ads = this.activeAds(accountId);
    return type === 'ads_insights'
      ? limits.ads_insights_per_hour + limits.ads_insights_per_active_ad * ads
      : limits.ads_management_per_hour + limits.ads_management_per_active_ad * ads;
  }

  private meters(accountId: string, limits: AccountLimits): AccountMeters {
    const windowMs = limits.account_score_decay_seconds * 1000;
    let m = this.accounts.get(accountId);
    if (!m || m.scoreWindowMs !== windowMs) {
      m = {
        score: new SlidingWindow(windowMs),
        scoreWindowMs: windowMs,
        blockedUntil: 0,
        management: new SlidingWindow(HOUR),
        insights: new SlidingWindow(HOUR),
        adCreations: new SlidingWindow(HOUR),
      };
      this.accounts.set(accountId, m);
    }
    return m;
  }
}
