// cron-parser is the parser pg-boss evaluates schedules with (same major, deduplicated by npm),
// so a schedule we accept is one pg-boss fires, and "next run" is computed the way it fires.
import cronParser from 'cron-parser';
import type { AnyJobDefinition } from './types.ts';

/** Schedules are evaluated in UTC: the server's time zone for jobs (jobs/types.ts). */
export const SCHEDULE_TZ = 'UTC';

/**
 * Whether `expr` is a schedule we accept: exactly five fields (pg-boss checks schedules once a
 * minute, so a seconds field would mislead) that cron-parser understands.
 */
export function isValidCron(expr: string): boolean {
  if (expr.trim().split(/\s+/).length !== 5) return false;
  try {
    cronParser.parseExpression(expr, { tz: SCHEDULE_TZ });
    return true;
  } catch {
    return false;
  }
}

/** The next time the schedule fires strictly after `from`. */
export function nextRunAt(expr: string, from: Date): Date | null {
  try {
    return cronParser.parseExpression(expr, { currentDate: from, tz: SCHEDULE_TZ }).next().toDate();
  } catch {
    return null;
  }
}

export interface JobSetting {
  schedule: string | null;
  enabled: boolean;
}

/** The schedule in force: the cron screen's override, else the job's default; null = does not fire. */
export function effectiveSchedule(def: AnyJobDefinition, setting: JobSetting | undefined): { schedule: string | null; enabled: boolean; firing: string | null } {
  const schedule = setting?.schedule ?? def.defaultSchedule;
  const enabled = setting?.enabled ?? true;
  return { schedule, enabled, firing: enabled && schedule ? schedule : null };
}
