// Time zones and the Graph API's time formats. Ad accounts live in their own zone: object
// times are printed with that zone's offset and Insights days are that zone's calendar days.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(ms: number, timeZone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour!, minute: out.minute!, second: out.second! };
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Offset of the zone from UTC at that instant, in minutes (east positive). */
export function offsetMinutes(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-05-01T10:00:00+0800`: ISO-8601 with a colon-less offset, as the Graph API prints times. */
export function formatGraphTime(ms: number, timeZone = 'UTC'): string {
  const p = localParts(ms, timeZone);
  const off = offsetMinutes(ms, timeZone);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

/** Local calendar date `YYYY-MM-DD` of an instant. */
export function localDate(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Local hour 0–23 of an instant. */
export function localHour(ms: number, timeZone: string): number {
  return localParts(ms, timeZone).hour;
}

const dayStarts = new Map<string, number>();

/** The instant a local date starts (00:00 local; DST-safe by iterating on the offset). */
export function startOfLocalDay(date: string, timeZone: string): number {
  // Pure and asked for every owner-day of every report: remember the answers (Intl is slow).
  const key = `${timeZone}|${date}`;
  const hit = dayStarts.get(key);
  if (hit !== undefined) return hit;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d);
  let guess = utcMidnight - offsetMinutes(utcMidnight, timeZone) * 60_000;
  guess = utcMidnight - offsetMinutes(guess, timeZone) * 60_000;
  if (dayStarts.size >= 100_000) dayStarts.clear();
  dayStarts.set(key, guess);
  return guess;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === value;
}

/** Calendar arithmetic on `YYYY-MM-DD` strings (zone-free). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Day of week of a date, 0 = Sunday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/**
 * Parses a Graph datetime parameter: ISO-8601 (with or without offset; no offset = UTC) or
 * unix seconds. Returns epoch ms or undefined when unparseable.
 */
export function parseGraphTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse wants `+08:00`; the Graph API prints `+0800`.
  const normalised = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(normalised) ? normalised : `${normalised}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

const offsetCache = new Map<string, number>();
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * The zone's offset, asking Intl once per quarter hour: every zone's offsets are whole
 * quarter hours and change on them, so the offset is constant within each.
 */
function quarterHourOffset(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const start = Math.floor(ms / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const key = `${timeZone}|${start}`;
  let off = offsetCache.get(key);
  if (off === undefined) {
    off = offsetMinutes(start, timeZone);
    if (offsetCache.size >= 100_000) offsetCache.clear();
    offsetCache.set(key, off);
  }
  return off;
}

/** `2026-05-01T10:00:00+08:00`: RFC 3339 with the zone's offset (what the company's sites send). */
export function formatIsoOffset(ms: number, timeZone = 'UTC'): string {
  const off = quarterHourOffset(ms, timeZone);
  const d = new Date(Math.floor(ms / 1000) * 1000 + off * 60_000);
  const abs = Math.abs(off);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${off < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
