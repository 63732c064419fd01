import { bilingual, type Bilingual, type TaskStatus } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { JobRunStatus } from '../db/schema.ts';

/** job_runs: one row per run of a job, the record the cron screen and the task lists read. */

export const LIVE_STATUSES: readonly JobRunStatus[] = ['queued', 'running'];

const MAX_TEXT = 2000;
/** Messages and errors are for people; a huge stack or payload stays in the log. */
export const clip = (text: string | null | undefined, max = MAX_TEXT) => (text == null ? null : text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A text for people: both languages, or a plain string that is the same in both. */
export type RunText = string | Bilingual;

/**
 * A text as its two columns: the Chinese one, and the English one only where it differs (null =
 * read the Chinese column, as for rows written before there was an English column).
 */
export function textColumns(text: RunText | null): { zh: string | null; en: string | null } {
  if (text == null) return { zh: null, en: null };
  const { zh, en } = bilingual(text);
  const zhText = clip(zh);
  const enText = clip(en);
  return { zh: zhText, en: enText === zhText ? null : enText };
}

const messageColumns = (text: RunText | null) => {
  const { zh, en } = textColumns(text);
  return { message: zh, message_en: en };
};
const errorColumns = (text: RunText | null) => {
  const { zh, en } = textColumns(text);
  return { error: zh, error_en: en };
};

export interface NewManualRun {
  jobName: string;
  data: unknown;
  createdBy: number | null;
  singletonKey: string | null;
  bossJobId: string | null;
  now: Date;
  /** Shown on the queued task (a continuation says when it starts). */
  message?: RunText | null;
  /** Runs of the job with the same key never overlap (a job with concurrency.perKey). */
  concurrencyKey?: string | null;
  /** Starts no earlier than this, by the job clock. */
  startAt?: Date | null;
}

/**
 * Inserts a queued manual run, or answers the live run holding the same singleton key. The
 * partial unique index job_runs_singleton_key makes this safe between servers: a concurrent
 * insert of the same key waits for the first to commit, then does nothing.
 */
export async function insertManualRun(db: Db, run: NewManualRun): Promise<{ id: number; reused: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const message = textColumns(run.message ?? null);
    // Raw SQL: the conflict target must repeat the index predicate literally for PostgreSQL to infer it.
    const inserted = await sql<{ id: number }>`
      insert into job_runs (job_name, trigger, created_by, data, status, boss_job_id, singleton_key, queued_at, message, message_en, concurrency_key, start_at)
      values (${run.jobName}, 'manual', ${run.createdBy}, ${JSON.stringify(run.data ?? {})}::jsonb, 'queued', ${run.bossJobId}, ${run.singletonKey}, ${run.now}, ${message.zh}, ${message.en},
        ${run.concurrencyKey ?? null}, ${run.startAt ?? null})
      on conflict (job_name, singleton_key) where singleton_key is not null and status in ('queued', 'running') do nothing
      returning id`.execute(db);
    if (inserted.rows[0]) return { id: Number(inserted.rows[0].id), reused: false };
    const live = await db
      .selectFrom('job_runs')
      .select('id')
      .where('job_name', '=', run.jobName)
      .where('singleton_key', '=', run.singletonKey)
      .where('status', 'in', LIVE_STATUSES)
      .executeTakeFirst();
    if (live) return { id: live.id, reused: true };
    // The live run ended between the two statements: try the insert again.
  }
  throw new Error(`could not queue ${run.jobName}: singleton key ${run.singletonKey} keeps changing hands`);
}

/** A scheduled run: created when a worker takes the pg-boss job, since the schedule itself inserts no row. */
export async function insertScheduledRun(db: Db, run: { jobName: string; bossJobId: string; attempt: number; now: Date; processId: string }) {
  return db
    .insertInto('job_runs')
    .values({
      job_name: run.jobName,
      trigger: 'schedule',
      created_by: null,
      data: JSON.stringify({}),
      status: 'running',
      attempt: run.attempt,
      boss_job_id: run.bossJobId,
      queued_at: run.now,
      started_at: run.now,
      process_id: run.processId,
    })
    .returning(['id', 'data', 'concurrency_key'])
    .executeTakeFirstOrThrow();
}

export async function findRunByBossJob(db: Db, bossJobId: string) {
  return db.selectFrom('job_runs').select(['id', 'status']).where('boss_job_id', '=', bossJobId).executeTakeFirst();
}

/**
 * Marks a run as started by this attempt in this process. Answers undefined when the run must not
 * start: it was cancelled, or it already ended (a retry of a run whose result was recorded before a crash).
 */
export async function claimRun(db: Db, id: number, attempt: number, now: Date, processId: string) {
  return db
    .updateTable('job_runs')
    .set({ status: 'running', attempt, started_at: now, finished_at: null, process_id: processId })
    .where('id', '=', id)
    .where('status', 'in', LIVE_STATUSES)
    .returning(['id', 'data', 'concurrency_key'])
    .executeTakeFirst();
}

/** Progress of the current attempt; 0 rows updated means the attempt no longer owns the run. */
export async function writeProgress(db: Db, id: number, attempt: number, p: { done: number; total: number; message?: RunText | undefined }) {
  const res = await db
    .updateTable('job_runs')
    .set({ progress_done: p.done, progress_total: p.total, ...(p.message !== undefined && messageColumns(p.message)) })
    .where('id', '=', id)
    .where('attempt', '=', attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export interface RunOutcome {
  status: Exclude<JobRunStatus, 'running'>;
  message?: RunText | null;
  summary?: Record<string, unknown> | null;
  error?: RunText | null;
  finishedAt: Date | null;
}

/** Records how an attempt ended, unless the run was cancelled or taken over by a later attempt meanwhile. */
export async function finishRun(db: Db, id: number, attempt: number, o: RunOutcome) {
  const res = await db
    .updateTable('job_runs')
    .set({
      status: o.status,
      finished_at: o.finishedAt,
      ...(o.message !== undefined && messageColumns(o.message)),
      ...(o.summary !== undefined && { summary: o.summary === null ? null : JSON.stringify(o.summary) }),
      ...(o.error !== undefined && errorColumns(o.error)),
    })
    .where('id', '=', id)
    .where('attempt', '=', attempt)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function runStatus(db: Db, id: number): Promise<TaskStatus | undefined> {
  return (await db.selectFrom('job_runs').select('status').where('id', '=', id).executeTakeFirst())?.status;
}

/** Cancels a queued or running run; answers what it was, or undefined when it had already ended. */
export async function cancelRun(db: Db, id: number, now: Date) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('job_runs').select(['id', 'job_name', 'status', 'boss_job_id']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before || !LIVE_STATUSES.includes(before.status)) return undefined;
    await trx.updateTable('job_runs').set({ status: 'cancelled', finished_at: now }).where('id', '=', id).execute();
    return before;
  });
}

/** Where these runs stand now: a run may have been cancelled (possibly through another server) or reclaimed from this process. */
export async function runOwners(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('job_runs').select(['id', 'status', 'attempt', 'process_id']).where('id', 'in', ids).execute();
}

/**
 * Promotes runs whose start time has come by the job clock: pg-boss holds them until a start time
 * counted on database time, which the job clock may have passed sooner (a moved clock, or clocks
 * that disagree). Only jobs never started are touched: a retry keeps its delay.
 */
export async function promoteDueRuns(db: Db, bossSchema: string, now: Date): Promise<number> {
  const res = await sql`
    update ${sql.table(`${bossSchema}.job`)} j set start_after = now()
    from job_runs r
    where r.status = 'queued' and r.start_at is not null and r.start_at <= ${now}
      and j.name = r.job_name and j.id = r.boss_job_id::uuid and j.state = 'created' and j.start_after > now()`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
