import { errors } from '../errors.ts';
import { between, rng } from '../random.ts';

// Breakdowns (reference §12): each ad's totals are split between breakdown values by shares
// that depend on the ad's targeting and the seed, with integer parts that add up exactly, so
// a breakdown never changes a total. The hourly breakdowns are not shares: the engine groups
// the model's ad-hours by the hour they fall in.

export const HOURLY_ADVERTISER = 'hourly_stats_aggregated_by_advertiser_time_zone';
export const HOURLY_AUDIENCE = 'hourly_stats_aggregated_by_audience_time_zone';

export const BREAKDOWNS = ['age', 'gender', 'country', 'publisher_platform', HOURLY_ADVERTISER, HOURLY_AUDIENCE] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];
export type HourlyBreakdown = typeof HOURLY_ADVERTISER | typeof HOURLY_AUDIENCE;

export const isHourly = (b: Breakdown): b is HourlyBreakdown => b === HOURLY_ADVERTISER || b === HOURLY_AUDIENCE;

/** Combinations answered; others fail like the Graph API's invalid combinations (2 / 1504041). */
const ALLOWED = new Set(['age', 'gender', 'age,gender', 'country', 'publisher_platform', HOURLY_ADVERTISER, HOURLY_AUDIENCE]);

/** `"07:00:00 - 07:59:59"`: how the hourly breakdowns label an hour. */
export function hourLabel(hour: number): string {
  const hh = String(hour).padStart(2, '0');
  return `${hh}:00:00 - ${hh}:59:59`;
}

/**
 * A representative time zone of a country's audience [U]: the audience-zone breakdown files an
 * hour under the viewers' clock, taken as the first targeted country's main zone.
 */
const COUNTRY_ZONES: Record<string, string> = {
  US: 'America/Chicago', CA: 'America/Toronto', MX: 'America/Mexico_City', BR: 'America/Sao_Paulo', GB: 'Europe/London',
  DE: 'Europe/Berlin', FR: 'Europe/Paris', ES: 'Europe/Madrid', IT: 'Europe/Rome', NL: 'Europe/Amsterdam', TR: 'Europe/Istanbul',
  IN: 'Asia/Kolkata', ID: 'Asia/Jakarta', TH: 'Asia/Bangkok', VN: 'Asia/Ho_Chi_Minh', PH: 'Asia/Manila', MY: 'Asia/Kuala_Lumpur',
  SG: 'Asia/Singapore', HK: 'Asia/Hong_Kong', TW: 'Asia/Taipei', JP: 'Asia/Tokyo', KR: 'Asia/Seoul', CN: 'Asia/Shanghai',
  AU: 'Australia/Sydney', NZ: 'Pacific/Auckland', AE: 'Asia/Dubai', SA: 'Asia/Riyadh', ZA: 'Africa/Johannesburg',
};

export function audienceZone(targeting: Record<string, unknown>, fallback: string): string {
  const geo = (targeting.geo_locations ?? {}) as { countries?: unknown };
  const first = Array.isArray(geo.countries) ? String(geo.countries[0] ?? '') : '';
  return COUNTRY_ZONES[first] ?? fallback;
}

export function parseBreakdowns(list: string[] | undefined): Breakdown[] {
  if (!list || list.length === 0) return [];
  for (const b of list) if (!(BREAKDOWNS as readonly string[]).includes(b)) throw errors.invalidEnum('breakdowns', BREAKDOWNS);
  const sorted = [...new Set(list)].sort() as Breakdown[];
  if (!ALLOWED.has(sorted.join(','))) throw errors.invalidBreakdowns(sorted);
  return sorted;
}

const AGE_BUCKETS: Array<[string, number, number, number]> = [
  ['18-24', 18, 24, 0.18],
  ['25-34', 25, 34, 0.3],
  ['35-44', 35, 44, 0.22],
  ['45-54', 45, 54, 0.15],
  ['55-64', 55, 64, 0.1],
  ['65+', 65, 200, 0.05],
];
const PLATFORMS: Array<[string, number]> = [
  ['facebook', 0.55],
  ['instagram', 0.38],
  ['audience_network', 0.05],
  ['messenger', 0.02],
];

/** Values of one dimension and their weights for an ad with this targeting. */
function shares(dim: Exclude<Breakdown, HourlyBreakdown>, targeting: Record<string, unknown>, seed: number, adId: string): Array<[string, number]> {
  const next = rng(seed, 'breakdown', dim, adId);
  const jitter = () => between(next, 0.7, 1.3);
  if (dim === 'age') {
    const min = Number(targeting.age_min ?? 18);
    const max = Number(targeting.age_max ?? 65);
    const buckets = AGE_BUCKETS.filter(([, lo, hi]) => hi >= min && lo <= max);
    return buckets.map(([label, , , w]) => [label, w * jitter()]);
  }
  if (dim === 'gender') {
    const genders = Array.isArray(targeting.genders) ? targeting.genders.map(Number) : [];
    if (genders.length === 1) return [[genders[0] === 1 ? 'male' : 'female', 1]];
    return [
      ['male', 0.55 * jitter()],
      ['female', 0.42 * jitter()],
      ['unknown', 0.03],
    ];
  }
  if (dim === 'country') {
    const geo = (targeting.geo_locations ?? {}) as { countries?: unknown };
    const countries = Array.isArray(geo.countries) && geo.countries.length > 0 ? geo.countries.map(String) : ['US'];
    return countries.map((c, i) => [c, (1 / (i + 1)) * jitter()]);
  }
  const platforms = Array.isArray(targeting.publisher_platforms) ? targeting.publisher_platforms.map(String) : PLATFORMS.map(([p]) => p);
  return PLATFORMS.filter(([p]) => platforms.includes(p)).map(([p, w]) => [p, w * jitter()]);
}

/** Splits an integer into parts proportional to weights (largest remainder), summing exactly. */
export function splitInteger(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => (total * w) / sum);
  const parts = raw.map(Math.floor);
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (rest <= 0) break;
    parts[i]! += 1;
    rest -= 1;
  }
  return parts;
}

/** Every combination of breakdown values for an ad, with its weight. */
export function combinations(dims: Breakdown[], targeting: Record<string, unknown>, seed: number, adId: string): Array<{ values: Record<string, string>; weight: number }> {
  let combos: Array<{ values: Record<string, string>; weight: number }> = [{ values: {}, weight: 1 }];
  for (const dim of dims) {
    if (isHourly(dim)) continue;
    const s = shares(dim, targeting, seed, adId);
    const total = s.reduce((a, [, w]) => a + w, 0) || 1;
    combos = combos.flatMap((c) => s.map(([value, w]) => ({ values: { ...c.values, [dim]: value }, weight: (c.weight * w) / total })));
  }
  return combos;
}
