// Calendar days and hours in named time zones (IANA), without a date library: ad accounts have
// their own zones and reports use REPORT_TIMEZONE, so both directions are needed.

const HOUR_MS = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(ms: number, tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(tz, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = part.value;
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), min: Number(p.minute), s: Number(p.second) };
}

/** Minutes the zone is ahead of UTC at this instant (Asia/Shanghai: 480). */
export function offsetMinutes(ms: number, tz: string): number {
  const p = partsOf(ms, tz);
  const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The zone's calendar day of an instant, `YYYY-MM-DD`. */
export function dayIn(ms: number, tz: string): string {
  const p = partsOf(ms, tz);
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

/** The instant a zone's local wall time `date` `hour`:00 happens (the later one when a DST change repeats it). */
export function localHourStart(date: string, hour: number, tz: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour);
  let t = wall - offsetMinutes(wall, tz) * 60_000;
  t = wall - offsetMinutes(t, tz) * 60_000;
  return t;
}

/** UTC instant the zone's day starts. */
export const startOfDay = (date: string, tz: string) => localHourStart(date, 0, tz);

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Every day from `since` to `until`, inclusive. */
export function daysBetween(since: string, until: string): string[] {
  const out: string[] = [];
  for (let d = since; d <= until; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The hour starts (UTC ms) of a zone's day: 23, 24 or 25 of them. */
export function hoursOfDay(date: string, tz: string): number[] {
  const start = startOfDay(date, tz);
  const end = startOfDay(addDays(date, 1), tz);
  const out: number[] = [];
  for (let t = start; t < end; t += HOUR_MS) out.push(t);
  return out;
}
