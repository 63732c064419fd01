import { sql } from 'kysely';
import { defineJob } from './types.ts';

/** Finished runs are kept this long for the cron screen's history and people's task lists. */
export const JOB_RUN_RETENTION_DAYS = 90;
/** Rows per delete statement: a big backlog is removed in short transactions, not one long lock. */
const BATCH = 2000;

/**
 * Housekeeping of tables that only grow: sessions that can no longer be used (revoked, or idle
 * longer than SESSION_IDLE_DAYS, which session.resolve refuses anyway), login-throttle rows whose
 * window and lock are over, and job runs past their retention.
 */
export const cleanupSessionsJob = defineJob({
  name: 'cleanup-sessions',
  title: { zh: '清理过期会话与记录', en: 'Clean up sessions and old records' },
  description: {
    zh: '删除已结束或闲置过期的会话、过期的登录限流记录，以及 90 天前的任务运行记录。',
    en: 'Deletes ended or idle sessions, expired login-throttle entries and job runs older than 90 days.',
  },
  defaultSchedule: '17 3 * * *',
  retryLimit: 2,
  retryDelaySeconds: 60,
  expireInSeconds: 30 * 60,
  system: true,
  async run({ db, clock, config, progress, signal }) {
    const now = clock.now();
    const idleBefore = new Date(now.getTime() - config.sessionIdleMs);
    const throttleBefore = new Date(now.getTime() - config.login.lockMs);
    const runsBefore = new Date(now.getTime() - JOB_RUN_RETENTION_DAYS * 24 * 3600 * 1000);

    const steps = [
      {
        key: 'sessions',
        remove: () => sql`
          delete from sessions where id in (
            select id from sessions where revoked_at is not null or last_seen_at < ${idleBefore} limit ${BATCH})`,
      },
      {
        key: 'login_throttle',
        // Failures older than the window no longer count (session.service), and no lock holds.
        remove: () => sql`
          delete from login_throttle where key in (
            select key from login_throttle
            where first_failed_at < ${throttleBefore} and (locked_until is null or locked_until < ${now}) limit ${BATCH})`,
      },
      {
        key: 'job_runs',
        // Queued or running rows stay whatever their age: they are still someone's task.
        remove: () => sql`
          delete from job_runs where id in (
            select id from job_runs
            where status not in ('queued', 'running') and coalesce(finished_at, queued_at) < ${runsBefore} limit ${BATCH})`,
      },
    ] as const;

    const summary: Record<string, number> = {};
    for (const [i, step] of steps.entries()) {
      let removed = 0;
      for (;;) {
        signal.throwIfAborted();
        const res = await step.remove().execute(db);
        const n = Number(res.numAffectedRows ?? 0);
        removed += n;
        if (n < BATCH) break;
      }
      summary[step.key] = removed;
      await progress(i + 1, steps.length, step.key);
    }
    return { status: 'success', summary };
  },
});
