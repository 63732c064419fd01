import { describe, expect, it } from 'vitest';
import { DEFAULT_THROTTLE_POLICY, UsageTracker } from './usage.ts';

const headers = (h: Record<string, unknown>) => new Headers(Object.entries(h).map(([k, v]) => [k, JSON.stringify(v)] as [string, string]));

function tracker() {
  let now = 1_000_000;
  const t = new UsageTracker(DEFAULT_THROTTLE_POLICY, () => now);
  return { t, advance: (ms: number) => (now += ms) };
}

const account = { accountId: '42', type: 'ads_management' } as const;
const other = { accountId: '43', type: 'ads_management' } as const;

describe('UsageTracker', () => {
  it('lets calls through while usage is below 75 %', () => {
    const { t } = tracker();
    t.record(headers({ 'x-app-usage': { call_count: 74, total_cputime: 10, total_time: 10 }, 'x-ad-account-usage': { acc_id_util_pct: 70, reset_time_duration: 30 } }), account);
    expect(t.reserve(account)).toBe(0);
    expect(t.reserve(account)).toBe(0);
  });

  it('spaces calls out from 75 %, more the closer usage gets to 95 %', () => {
    const { t } = tracker();
    t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 75, reset_time_duration: 30 } }), account);
    expect([t.reserve(account), t.reserve(account), t.reserve(account)]).toEqual([0, 500, 1000]);
    t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 85, reset_time_duration: 30 } }), account);
    expect(t.reserve(account)).toBe(1500);
    expect(t.reserve(account)).toBe(1500 + 2750);
    // Another account's quota is its own.
    expect(t.reserve(other)).toBe(0);
  });

  it('forgets a high reading that no answer has confirmed for readingTtlMs, since Meta drops the header when usage falls', () => {
    const { t, advance } = tracker();
    t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 90, reset_time_duration: 30 } }), account);
    expect([t.reserve(account), t.reserve(account)]).toEqual([0, 3875]);
    // A newer answer with the same reading keeps it alive past the first reading's age.
    advance(DEFAULT_THROTTLE_POLICY.readingTtlMs - 1000);
    t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 90, reset_time_duration: 30 } }), account);
    advance(2000);
    expect(t.reserve(account)).toBe(0);
    expect(t.reserve(account)).toBe(3875);
    // Then answers stop carrying the header: the reading lapses and calls flow again.
    advance(DEFAULT_THROTTLE_POLICY.readingTtlMs + 1);
    t.record(new Headers(), account);
    expect([t.reserve(account), t.reserve(account)]).toEqual([0, 0]);
  });

  it('stops at 95 % until the reset time the header gave, and reports it as the retry-after', () => {
    const { t, advance } = tracker();
    const retryAfter = t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 100, reset_time_duration: 60 } }), account);
    expect(retryAfter).toBe(60_000);
    expect(t.reserve(account)).toBe(60_000);
    advance(59_000);
    expect(t.blockedFor(account)).toBe(1000);
    advance(1000);
    expect(t.blockedFor(account)).toBe(0);
  });

  it('reads business-use-case usage per account and type, with or without act_, in minutes', () => {
    const { t } = tracker();
    const retryAfter = t.record(
      headers({ 'x-business-use-case-usage': { act_42: [{ type: 'ads_insights', call_count: 99, total_cputime: 1, total_time: 1, estimated_time_to_regain_access: 4 }] } }),
      { type: 'ads_management' },
    );
    expect(retryAfter).toBe(240_000);
    expect(t.blockedFor({ accountId: '42', type: 'ads_insights' })).toBe(240_000);
    // Management calls on the same account are not held back by the Insights quota.
    expect(t.blockedFor(account)).toBe(0);
  });

  it('stops the whole app on X-App-Usage, for a default pause since that header names no reset time', () => {
    const { t } = tracker();
    expect(t.record(headers({ 'x-app-usage': { call_count: 96, total_cputime: 1, total_time: 1 } }), account)).toBeUndefined();
    expect(t.blockedFor(other)).toBe(DEFAULT_THROTTLE_POLICY.defaultPauseMs);
    expect(t.blockedFor({ type: 'ads_management' })).toBe(DEFAULT_THROTTLE_POLICY.defaultPauseMs);
  });

  it('reads the Insights throttle header for Insights calls of that account', () => {
    const { t } = tracker();
    const insights = { accountId: '42', type: 'ads_insights' } as const;
    t.record(headers({ 'x-fb-ads-insights-throttle': { app_id_util_pct: 10, acc_id_util_pct: 97 } }), insights);
    expect(t.blockedFor(insights)).toBe(DEFAULT_THROTTLE_POLICY.defaultPauseMs);
    expect(t.blockedFor(account)).toBe(0);
  });

  it('forgets a slowdown once usage drops again, and ignores malformed headers', () => {
    const { t } = tracker();
    t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 90 } }), account);
    t.record(new Headers({ 'x-ad-account-usage': '{not json', 'x-app-usage': '[]' }), account);
    expect(t.reserve(account)).toBe(0);
    expect(t.reserve(account)).toBeGreaterThan(0);
    t.record(headers({ 'x-ad-account-usage': { acc_id_util_pct: 20 } }), account);
    expect(t.reserve(account)).toBe(0);
    expect(t.reserve(account)).toBe(0);
  });

  it('blocks a scope on demand: its account, or the app for app-wide throttles', () => {
    const { t } = tracker();
    t.blockScope(account, 1_005_000, false);
    expect(t.blockedFor(account)).toBe(5000);
    expect(t.blockedFor(other)).toBe(0);
    t.blockScope(account, 1_002_000, true);
    expect(t.blockedFor(other)).toBe(2000);
  });
});
