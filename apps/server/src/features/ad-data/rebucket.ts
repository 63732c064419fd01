import { dayIn, hoursOfDay } from '../../lib/tz.ts';

// Re-bucketing (docs/ad-data-design.md §2): the platform reports days in the ad account's time
// zone; reports use REPORT_TIMEZONE days. An account day overlaps at most two report days. Each
// metric of an account day is split over them in proportion to what the hourly rows say happened
// there — spend by hourly spend, impressions by hourly impressions, clicks by hourly clicks,
// purchase values with their purchases, the rest (purchases, landing views, video) by hourly
// spend, then impressions, then hours —
// with integer largest-remainder rounding, so the parts sum exactly to the platform's figure and
// any range of whole account days matches the platform.

/** The facts of an ad-day as ad_insights_daily holds them (account currency minor units). */
export const DAILY_FACT_KEYS = [
  'spend_minor',
  'impressions',
  'clicks',
  'link_clicks',
  'landing_page_views',
  'purchases',
  'purchase_value_minor',
  'add_to_cart',
  'initiate_checkout',
  'video_plays',
  'video_p25',
  'video_p50',
  'video_p75',
  'video_p95',
  'video_p100',
  'thruplays',
  'video_watch_ms',
] as const;
export type DailyFactKey = (typeof DAILY_FACT_KEYS)[number];
export type DailyFacts = Record<DailyFactKey, number>;

export interface HourFacts {
  /** UTC ms of the hour's start. */
  hour: number;
  spend_minor: number;
  impressions: number;
  clicks: number;
}

export const zeroFacts = (): DailyFacts => Object.fromEntries(DAILY_FACT_KEYS.map((k) => [k, 0])) as DailyFacts;

/**
 * Splits an integer over weights, largest remainder first (ties: the earlier part), so the parts
 * are integers that sum exactly to `total`. All-zero weights give everything to nobody: the caller
 * passes a fallback weight set instead.
 */
export function splitLargestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) throw new RangeError('weights must not all be zero');
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map((x) => Math.floor(x));
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/** The first weight set that is not all zero. */
function firstNonZero(...sets: number[][]): number[] {
  return sets.find((s) => s.some((w) => w > 0)) ?? sets[sets.length - 1]!;
}

/**
 * An ad's account days → its report days. `days`: account date → facts; `hours`: its hourly rows
 * (any range; those of each account day are picked by time). Answers report day → facts.
 */
export function rebucketAd(accountTz: string, reportTz: string, days: ReadonlyMap<string, DailyFacts>, hours: readonly HourFacts[]): Map<string, DailyFacts> {
  const out = new Map<string, DailyFacts>();
  const add = (day: string, key: DailyFactKey, value: number) => {
    let f = out.get(day);
    if (!f) out.set(day, (f = zeroFacts()));
    f[key] += value;
  };
  const byHour = new Map(hours.map((h) => [h.hour, h]));
  for (const [date, facts] of days) {
    const starts = hoursOfDay(date, accountTz);
    // Report days this account day overlaps, in order, with the hours that fall in each.
    const targets: { day: string; hours: number[] }[] = [];
    for (const t of starts) {
      const day = dayIn(t, reportTz);
      const last = targets[targets.length - 1];
      if (last?.day === day) last.hours.push(t);
      else targets.push({ day, hours: [t] });
    }
    if (targets.length === 1) {
      for (const k of DAILY_FACT_KEYS) if (facts[k]) add(targets[0]!.day, k, facts[k]);
      continue;
    }
    const sumOf = (key: 'spend_minor' | 'impressions' | 'clicks') => targets.map((g) => g.hours.reduce((n, t) => n + (byHour.get(t)?.[key] ?? 0), 0));
    const spend = sumOf('spend_minor');
    const impressions = sumOf('impressions');
    const clicks = sumOf('clicks');
    const hoursCount = targets.map((g) => g.hours.length);
    const general = firstNonZero(spend, impressions, hoursCount);
    const weightsOf: Partial<Record<DailyFactKey, number[]>> = {
      spend_minor: firstNonZero(spend, impressions, hoursCount),
      impressions: firstNonZero(impressions, spend, hoursCount),
      clicks: firstNonZero(clicks, impressions, hoursCount),
    };
    // A purchase's value goes where the purchase went: split on its own, a day's value could land
    // on a report day that shows no purchase (a value with a count of 0 on screen).
    let purchaseParts: number[] | undefined;
    for (const k of DAILY_FACT_KEYS) {
      if (!facts[k]) continue;
      const weights = k === 'purchase_value_minor' && purchaseParts ? purchaseParts : (weightsOf[k] ?? general);
      const parts = splitLargestRemainder(facts[k], weights);
      if (k === 'purchases') purchaseParts = parts;
      parts.forEach((v, i) => {
        if (v) add(targets[i]!.day, k, v);
      });
    }
  }
  return out;
}
