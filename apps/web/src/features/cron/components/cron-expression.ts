// cron-parser at the server's version (apps/server/src/jobs/schedule.ts), used the same way: what
// the server accepts is accepted here, and next runs are the times it fires.
import cronParser, { type CronExpression } from 'cron-parser';

/** Schedules are evaluated in UTC, as on the server. */
const SCHEDULE_TZ = 'UTC';

const CRON_FIELDS = ['minute', 'hour', 'dom', 'month', 'dow'] as const;
export type CronField = (typeof CRON_FIELDS)[number];

export type CronCheck =
  | { status: 'valid' }
  /** Not five fields (the server wants minute hour day month weekday, no seconds). */
  | { status: 'fieldCount' }
  /** Refused by cron-parser; `field` names the field to blame when one is. */
  | { status: 'invalid'; field?: CronField };

const fieldsOf = (expr: string) => expr.trim().split(/\s+/);

/** The parsed schedule, or the parser's error. */
function parse(expr: string, currentDate?: Date): CronExpression | Error {
  try {
    return cronParser.parseExpression(expr, { tz: SCHEDULE_TZ, currentDate });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** The parsed schedule (iterating from `from`, else now) of an expression the server accepts, else null. */
export function parseCron(expr: string, from?: Date): CronExpression | null {
  if (fieldsOf(expr).length !== CRON_FIELDS.length) return null;
  const parsed = parse(expr, from);
  return parsed instanceof Error ? null : parsed;
}

/** Checks an expression exactly as the server does (isValidCron), saying which field is wrong when it can. */
export function checkCron(expr: string): CronCheck {
  const fields = fieldsOf(expr);
  if (fields.length !== CRON_FIELDS.length) return { status: 'fieldCount' };
  const error = parse(expr);
  if (!(error instanceof Error)) return { status: 'valid' };
  // cron-parser's messages do not name the field: the first one refused on its own (the others
  // left as `*`) is to blame. A day no chosen month has ("30 2") is refused only in combination.
  const index = fields.findIndex((_, i) => parse(fields.map((f, j) => (j === i ? f : '*')).join(' ')) instanceof Error);
  const field = CRON_FIELDS[index] ?? (/day of month/i.test(error.message) ? 'dom' : undefined);
  return field ? { status: 'invalid', field } : { status: 'invalid' };
}

/** The next (up to) `count` times the schedule fires strictly after `from`; fewer when it stops firing. */
export function nextRuns(expr: string, from: Date, count: number): Date[] {
  const schedule = parseCron(expr, from);
  const out: Date[] = [];
  if (!schedule) return out;
  try {
    while (out.length < count) out.push(schedule.next().toDate());
  } catch {
    // No further time within cron-parser's search limit (such as day 31 of February and April).
  }
  return out;
}
