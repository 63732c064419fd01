import { both, type Bilingual } from '@ads/contracts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { AdPlatformClient } from '../platform/types.ts';

/** What a job run may use. Jobs take time from `clock`, never Date.now(). */
export interface JobContext<TData> {
  data: TData;
  db: Db;
  platform: AdPlatformClient;
  clock: Clock;
  config: Config;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** The job_runs row of this run (the task a screen follows). */
  runId: number;
  /**
   * Records progress a screen can show; cheap enough to call per item. The message is shown in
   * the reader's language: give both (`both(key, params)`), or a plain string for a text that is
   * the same in both (a file name).
   */
  progress(done: number, total: number, message?: string | Bilingual): Promise<void>;
  /** Aborted when the server shuts down, the run is cancelled or it outlives expireInSeconds: stop at the next safe point. */
  signal: AbortSignal;
  /** Queues runs of other jobs (a dispatcher fanning out per-key runs); absent where a run is driven by hand (tests). */
  enqueue?: Jobs['enqueue'];
}

/**
 * How a run ended. Throwing is for the unexpected and is retried (retryLimit); answering
 * `failed` says the job itself judged the run a failure that a retry would not fix (an invalid
 * token, say), so it is recorded as failed at once.
 */
export interface JobResult {
  status: 'success' | 'skipped' | 'failed';
  summary?: Record<string, unknown>;
  /** For people, in both languages (a plain string: the same text in both). */
  message?: string | Bilingual;
  /**
   * A follow-up run of the same job, queued together with this run's record: a run that had to
   * stop for a platform limit names the data to go on with and when (by the job's clock). It runs
   * no earlier than `at` (pg-boss startAfter), for the same person as this run; `message` is shown
   * on the queued task meanwhile.
   */
  continuation?: { data: unknown; at: Date; message?: string | Bilingual };
}

/**
 * An error whose text a person reads, in both languages: thrown by a job (or a service it calls),
 * the runner records both. `message` is the Chinese text, for logs.
 */
export class JobError extends Error {
  constructor(readonly text: Bilingual) {
    super(text.zh);
    this.name = 'JobError';
  }
}

/**
 * What a thrown error says to people, in both languages: an AppError is formatted from its key
 * (its `message` is only the key), a JobError carries both; anything else is its message, which
 * is the same in both (a platform's or a library's own words).
 */
export function errorTexts(err: unknown): Bilingual {
  if (err instanceof AppError) return both(err.key, err.params);
  if (err instanceof JobError) return err.text;
  const text = err instanceof Error ? err.message || err.name : String(err);
  return { zh: text, en: text };
}

/** A background job (STYLE.md §6). Every job is listed in jobs/registry.ts. */
export interface JobDefinition<TData = Record<string, never>> {
  /** kebab-case; also the pg-boss queue name. */
  name: string;
  /** Titles for people (task lists, cron screen). */
  title: { zh: string; en: string };
  /** What the job does, for the cron screen; give both languages for a real job. */
  description: string | { zh: string; en: string };
  /** Cron expression (5 fields, UTC) for periodic jobs; null = only on demand. Scheduled runs get `{}` as data. */
  defaultSchedule: string | null;
  /** Retries after a failure or a crash mid-run (the run is picked up again after a restart). Default 2. */
  retryLimit?: number;
  /** Wait before a retry; doubles with each attempt. Default 30. */
  retryDelaySeconds?: number;
  /** A run taking longer than this is considered dead and retried; its signal is aborted. Default 900 (15 min), at most 23 h. */
  expireInSeconds?: number;
  /** Maintenance only the super admin follows (cron screen); managers' task lists leave its runs out. */
  system?: boolean;
  /**
   * Without it, one run of the job at a time across all processes. With `perKey`, runs queued with
   * different keys (`enqueue(..., { key })`) run at once and runs with one key never overlap; runs
   * without a key (schedule ticks, run now) share one key. `max` bounds the job's runs at once
   * across all processes. Waiting keys take turns: the key that started longest ago goes first.
   */
  concurrency?: { perKey: true; max?: number };
  run(ctx: JobContext<TData>): Promise<JobResult>;
}

/** A job of any data type, as the registry and the runner hold them (run() is a method, so its data type widens). */
export type AnyJobDefinition = JobDefinition<unknown>;

/** Declares a job; the identity function, there for the types (STYLE.md §6). */
export function defineJob<TData = Record<string, never>>(def: JobDefinition<TData>): JobDefinition<TData> {
  return def;
}

/** How a run is queued (Jobs.enqueue). */
export interface EnqueueOptions {
  /** The person whose task it is (their task list shows it). */
  createdBy?: number | null;
  /** Reuse the run already queued or running with this key instead of queueing another. */
  singletonKey?: string;
  /** Only for a job with `concurrency.perKey`: runs with the same key never overlap (`ad_account:123`). */
  key?: string;
  /** Start no earlier than this, by the job clock (start tasks, scheduled publishing); the task shows it meanwhile. */
  startAt?: Date;
  /** Queue inside this transaction: the run exists only if it commits. */
  trx?: Db;
}

/** The job engine the rest of the server uses. */
export interface Jobs {
  /** Every job this engine knows, by name (jobs/registry.ts in production). */
  readonly registry: ReadonlyMap<string, AnyJobDefinition>;
  /**
   * Queues a run; answers the job_runs id. With `singletonKey`, a run already queued or running
   * for the key is reused. With `trx`, the run is queued inside that transaction and exists only if
   * it commits (on PGlite, enqueueing without it while a transaction is open would wait forever).
   */
  enqueue<TData>(name: string, data: TData, opts?: EnqueueOptions): Promise<number>;
  /**
   * Cancels a queued or running run: a queued one never starts, a running one has its signal
   * aborted (here at once, on another server within a few seconds). Answers false when the run had already ended.
   */
  cancel(runId: number): Promise<boolean>;
  /** Re-reads job_settings and applies the schedule in force of one job (or all) to the engine. */
  applySchedules(name?: string): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
