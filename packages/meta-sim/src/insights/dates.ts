import { errors } from '../errors.ts';
import { addDays, daysBetween, isDate, localDate, weekday } from '../time.ts';

// Insights date handling (reference §12): presets, ranges and time increments, all in the ad
// account's time zone.

export interface DateRange {
  since: string;
  until: string;
}

export const DATE_PRESETS = [
  'today', 'yesterday', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'maximum',
  'data_maximum', 'last_3d', 'last_7d', 'last_14d', 'last_28d', 'last_30d', 'last_90d', 'last_week_mon_sun',
  'last_week_sun_sat', 'this_week_mon_today', 'this_week_sun_today',
] as const;

/** Longest range Insights answers: 37 months. */
const MAX_RANGE_DAYS = 37 * 31;

const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
const addMonths = (date: string, months: number) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + months, 1));
  return d.toISOString().slice(0, 10);
};
const quarterStart = (date: string) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return `${y}-${String(Math.floor((m - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
};

export function presetRange(preset: string, now: number, timeZone: string): DateRange {
  const today = localDate(now, timeZone);
  const yesterday = addDays(today, -1);
  const lastN = /^last_(\d+)d$/.exec(preset);
  if (lastN) return { since: addDays(today, -Number(lastN[1])), until: yesterday };
  switch (preset) {
    case 'today':
      return { since: today, until: today };
    case 'yesterday':
      return { since: yesterday, until: yesterday };
    case 'this_month':
      return { since: monthStart(today), until: today };
    case 'last_month':
      return { since: addMonths(today, -1), until: addDays(monthStart(today), -1) };
    case 'this_quarter':
      return { since: quarterStart(today), until: today };
    case 'last_quarter': {
      const start = addMonths(quarterStart(today), -3);
      return { since: start, until: addDays(quarterStart(today), -1) };
    }
    case 'this_year':
      return { since: `${today.slice(0, 4)}-01-01`, until: today };
    case 'last_year': {
      const y = Number(today.slice(0, 4)) - 1;
      return { since: `${y}-01-01`, until: `${y}-12-31` };
    }
    case 'maximum':
    case 'data_maximum':
      return { since: addMonths(monthStart(today), -37), until: today };
    case 'last_week_mon_sun': {
      const thisMonday = addDays(today, -((weekday(today) + 6) % 7));
      return { since: addDays(thisMonday, -7), until: addDays(thisMonday, -1) };
    }
    case 'last_week_sun_sat': {
      const thisSunday = addDays(today, -weekday(today));
      return { since: addDays(thisSunday, -7), until: addDays(thisSunday, -1) };
    }
    case 'this_week_mon_today':
      return { since: addDays(today, -((weekday(today) + 6) % 7)), until: today };
    case 'this_week_sun_today':
      return { since: addDays(today, -weekday(today)), until: today };
    default:
      throw errors.invalidEnum('date_preset', DATE_PRESETS);
  }
}

export function validateRange(range: unknown): DateRange {
  const r = range as Partial<DateRange> | undefined;
  if (!r || typeof r.since !== 'string' || typeof r.until !== 'string' || !isDate(r.since) || !isDate(r.until)) {
    throw errors.invalidParameter('time_range must be {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}', { data: { blame_field_specs: [['time_range']] } });
  }
  if (r.since > r.until) throw errors.invalidParameter('time_range since must not be after until', { data: { blame_field_specs: [['time_range']] } });
  if (daysBetween(r.since, r.until) > MAX_RANGE_DAYS) throw errors.invalidParameter('time_range is longer than 37 months');
  return { since: r.since, until: r.until };
}

/** Splits a range into rows: `all_days`, `monthly`, or N days (1–90) per row. */
export function splitRange(range: DateRange, increment: string | undefined): DateRange[] {
  if (increment === undefined || increment === 'all_days') return [range];
  if (increment === 'monthly') {
    const out: DateRange[] = [];
    for (let start = range.since; start <= range.until; start = addMonths(monthStart(start), 1)) {
      const end = addDays(addMonths(monthStart(start), 1), -1);
      out.push({ since: start, until: end < range.until ? end : range.until });
    }
    return out;
  }
  const n = Number(increment);
  if (!Number.isInteger(n) || n < 1 || n > 90) throw errors.invalidParameter('time_increment must be all_days, monthly or 1–90', { data: { blame_field_specs: [['time_increment']] } });
  const out: DateRange[] = [];
  for (let start = range.since; start <= range.until; start = addDays(start, n)) {
    const end = addDays(start, n - 1);
    out.push({ since: start, until: end < range.until ? end : range.until });
  }
  return out;
}
