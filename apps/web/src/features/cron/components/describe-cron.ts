import cronstrue from 'cronstrue';
// cronstrue carries English; other locales register themselves when imported.
import 'cronstrue/locales/zh_CN';
import type { TFunction } from 'i18next';
import { parseCron } from './cron-expression';

type T = TFunction<'cron'>;

/** A plain reading of a schedule in the interface language (cronstrue). Times are UTC, as the server evaluates them. */
export interface CronExplanation {
  text: string;
  /** The set times in the viewer's time zone ("local time 11:17"), when they differ from UTC. */
  local?: string;
}

/** Set times of a day read back in local time, at most. */
const MAX_FIXED_TIMES = 4;

const pad2 = (n: number) => String(n).padStart(2, '0');
const hhmm = (minutes: number) => `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;

function joinList(t: T, items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return items.slice(0, -1).join(t('explain.listSep')) + t('explain.listLast') + items.at(-1)!;
}

/** The cronstrue locale of an interface language. */
const cronstrueLocale = (language: string) => (language.startsWith('zh') ? 'zh_CN' : 'en');

/**
 * Explains a schedule the server accepts (null otherwise, or when cronstrue cannot read it).
 * `offsetMinutes` is the viewer's offset from UTC (dayjs().utcOffset()), used to add the local
 * reading of set times.
 */
export function describeCron(expr: string, t: T, language: string, offsetMinutes: number): CronExplanation | null {
  const cron = parseCron(expr);
  if (!cron) return null;
  let text: string;
  try {
    text = cronstrue.toString(expr.trim(), { locale: cronstrueLocale(language), use24HourTimeFormat: true });
  } catch {
    return null;
  }
  const { minute, hour, dayOfMonth, month, dayOfWeek } = cron.fields;
  // cron-parser expands `*` to every value (day of week 0–7, Sunday twice).
  const everyDay = month.length === 12 && dayOfMonth.length === 31 && dayOfWeek.length === 8;
  // "Every 15 minutes" is the same in any time zone; anything tied to hours or days is not.
  if (everyDay && hour.length === 24) return { text };
  text += t('explain.utc');
  if (offsetMinutes === 0 || minute.length * hour.length > MAX_FIXED_TIMES) return { text };
  const local = hour.flatMap((h) =>
    minute.map((m) => {
      const total = h * 60 + m + offsetMinutes;
      const shift = Math.floor(total / 1440);
      const mark = everyDay || shift === 0 ? '' : shift > 0 ? t('explain.nextDay') : t('explain.prevDay');
      return hhmm(((total % 1440) + 1440) % 1440) + mark;
    }),
  );
  return { text, local: t('explain.local', { times: joinList(t, local) }) };
}

/** A run's length for people: "850 ms", "4.2 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number, t: T): string {
  if (ms < 1000) return t('duration.ms', { n: Math.max(0, Math.round(ms)) });
  if (ms < 60_000) return t('duration.s', { n: ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000) });
  const s = Math.floor(ms / 1000);
  if (s < 3600) return t('duration.m', { m: Math.floor(s / 60), s: s % 60 });
  return t('duration.h', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}
