import type { JobLastRun, JobRun, Lang, Task, TaskStatus } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { AnyJobDefinition } from '../../jobs/types.ts';
import { iso } from '../../lib/sql.ts';

/** job_runs as people read them: their tasks (/tasks) and the cron screen's history (/sys-cron/runs). */

export interface RunFilters {
  jobName?: string | undefined;
  status?: TaskStatus | undefined;
  sortField?: 'id' | 'queued_at' | 'started_at' | 'finished_at' | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
  page: number;
  pageSize: number;
}

/**
 * Whose runs a caller sees: undefined = all; otherwise the runs they started, plus every run of
 * `jobNames` (a manager's regular jobs).
 */
export type RunScope = { userId: number; jobNames: readonly string[] } | undefined;

function base(db: Db, f: Omit<RunFilters, 'page' | 'pageSize'>, scope: RunScope) {
  let q = db.selectFrom('job_runs as r').leftJoin('users as u', 'u.id', 'r.created_by');
  if (f.jobName) q = q.where('r.job_name', '=', f.jobName);
  if (f.status) q = q.where('r.status', '=', f.status);
  if (scope) {
    const { userId, jobNames } = scope;
    q = jobNames.length ? q.where((eb) => eb.or([eb('r.created_by', '=', userId), eb('r.job_name', 'in', jobNames)])) : q.where('r.created_by', '=', userId);
  }
  return q;
}

const columns = [
  'r.id',
  'r.job_name',
  'r.trigger',
  'r.created_by',
  'u.name as created_by_name',
  'r.data',
  'r.status',
  'r.progress_done',
  'r.progress_total',
  'r.message',
  'r.message_en',
  'r.summary',
  'r.error',
  'r.error_en',
  'r.attempt',
  'r.queued_at',
  'r.started_at',
  'r.finished_at',
  'r.start_at',
] as const;

type RunRow = Awaited<ReturnType<typeof findRunRow>> & object;

export async function listRuns(db: Db, f: RunFilters, scope: RunScope) {
  const q = base(db, f, scope);
  const field = f.sortField ?? 'id';
  const dir = f.sortOrder === 'ascend' ? 'asc' : 'desc';
  const [rows, count] = await Promise.all([
    q
      .select(columns)
      .orderBy(`r.${field}`, (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('r.id', 'desc')
      .limit(f.pageSize)
      .offset((f.page - 1) * f.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The latest run of each of these jobs (the cron screen's "last run" column). */
export async function lastRunsOf(db: Db, names: readonly string[]) {
  if (!names.length) return [];
  return db
    .selectFrom('job_runs')
    .distinctOn('job_name')
    .select(['job_name', 'status', 'started_at', 'finished_at', 'message', 'message_en', 'error', 'error_en'])
    .where('job_name', 'in', names)
    .orderBy('job_name')
    .orderBy('id', 'desc')
    .execute();
}

export async function findRunRow(db: Db, id: number) {
  return db.selectFrom('job_runs as r').leftJoin('users as u', 'u.id', 'r.created_by').select(columns).where('r.id', '=', id).executeTakeFirst();
}

/**
 * A stored text in the reader's language: the English column when English is wanted and it holds
 * a text, else the Chinese one (rows written before migration 0005, texts the same in both).
 */
export const inLang = (lang: Lang, zh: string | null, en: string | null | undefined): string | null => (lang === 'en' && en != null ? en : zh);

const asRecord = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function toTask(r: RunRow, lang: Lang, registry: ReadonlyMap<string, AnyJobDefinition>): Task {
  return {
    id: r.id,
    job_name: r.job_name,
    // A job removed from the registry keeps its history under its name.
    title: registry.get(r.job_name)?.title[lang] ?? r.job_name,
    status: r.status,
    progress_done: r.progress_done,
    progress_total: r.progress_total,
    message: inLang(lang, r.message, r.message_en),
    summary: asRecord(r.summary),
    error: inLang(lang, r.error, r.error_en),
    created_by: r.created_by,
    created_by_name: r.created_by_name,
    trigger: r.trigger,
    queued_at: r.queued_at.toISOString(),
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    start_at: iso(r.start_at),
  };
}

export function durationMs(r: { started_at: Date | null; finished_at: Date | null }): number | null {
  return r.started_at && r.finished_at ? Math.max(0, r.finished_at.getTime() - r.started_at.getTime()) : null;
}

export function toJobRun(r: RunRow, lang: Lang, registry: ReadonlyMap<string, AnyJobDefinition>): JobRun {
  return { ...toTask(r, lang, registry), attempt: r.attempt, duration_ms: durationMs(r), data: asRecord(r.data) };
}

/** A job's latest run as the cron screen shows it: a failure says why, otherwise what the job reported. */
export function toLastRun(r: Awaited<ReturnType<typeof lastRunsOf>>[number], lang: Lang): JobLastRun {
  const message = inLang(lang, r.message, r.message_en);
  const error = inLang(lang, r.error, r.error_en);
  return {
    status: r.status,
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    duration_ms: durationMs(r),
    message: r.status === 'failed' ? (error ?? message ?? null) : (message ?? null),
  };
}
