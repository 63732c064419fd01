import { both, perLang, type Bilingual } from '@ads/contracts';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { AdPlatformClient } from '../platform/types.ts';
import { bossDb, bossTransaction } from './boss-db.ts';
import { findOrphans, lockQueue, takeNext, type BossJob, type OrphanJob } from './boss-queue.ts';
import { beat, forgetDeadProcesses, unregister } from './job-processes.repository.ts';
import {
  cancelRun,
  claimRun,
  findRunByBossJob,
  finishRun,
  insertManualRun,
  insertScheduledRun,
  promoteDueRuns,
  runOwners,
  runStatus,
  writeProgress,
  type RunOutcome,
  type RunText,
} from './job-runs.repository.ts';
import { effectiveSchedule, isValidCron, SCHEDULE_TZ } from './schedule.ts';
import { errorTexts, type AnyJobDefinition, type EnqueueOptions, type JobContext, type JobResult, type Jobs } from './types.ts';

/** pg-boss keeps its tables in their own schema, apart from ours. */
export const BOSS_SCHEMA = 'pgboss';

export const JOB_DEFAULTS = { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 15 * 60 } as const;

export type JobLogger = JobContext<unknown>['log'];

export interface JobRunnerOptions {
  /** Run jobs in this process. Off (JOBS_ENABLED=false), the process still queues runs and edits schedules; other processes run them. */
  workers: boolean;
  /**
   * Runs at once in this process (JOBS_CONCURRENCY). A job without per-key concurrency has at most
   * one run anywhere; a per-key job takes at most all slots but one here, so other jobs still start.
   */
  concurrency: number;
  /** How often each job's queue is checked when idle; a run queued by this process starts at once. */
  pollIntervalMs: number;
  /** How often running runs are checked for a cancel made through another server. */
  cancelCheckIntervalMs: number;
  /** At most one progress write per run in this interval (the last report always lands). */
  progressIntervalMs: number;
  /** stop(): how long running jobs may take to finish before their signal is aborted. */
  stopTimeoutMs: number;
  /** After a signal is aborted, how long a run may take to stop before it is given up on. */
  abortGraceMs: number;
  /** How often this process beats (JOBS_HEARTBEAT_MS) and looks for runs of processes that stopped beating. */
  heartbeatIntervalMs: number;
  /** A process that has not beaten for this many intervals is presumed dead, and its runs are reclaimed. */
  missedBeats: number;
  /**
   * 'all-at-start' (PGlite: this process owns the database): every run left active is an orphan
   * and is reclaimed when the engine starts. 'heartbeat' (PostgreSQL, several processes): runs of
   * processes that stopped beating are reclaimed by any live one.
   */
  reclaim: 'all-at-start' | 'heartbeat';
  /** pg-boss settings (tests shorten its maintenance interval). */
  boss: Partial<PgBoss.ConstructorOptions>;
}

export interface JobRunnerDeps {
  db: Db;
  platform: AdPlatformClient;
  clock: Clock;
  config: Config;
  log: JobLogger;
  registry: readonly AnyJobDefinition[];
  options?: Partial<JobRunnerOptions>;
}

export interface JobRunner extends Jobs {
  /** The pg-boss instance while started (tests and diagnostics). */
  readonly boss: PgBoss | null;
  /** Runs in progress in this process. */
  readonly activeCount: number;
  /** This process's id in job_processes (and job_runs.process_id of its runs), new at each start. */
  readonly processId: string;
}

/** What the pg-boss job carries: the job_runs id of a queued run; scheduled runs carry nothing. */
interface BossPayload {
  runId?: number;
}

type AbortKind = 'shutdown' | 'cancelled' | 'timeout' | 'superseded';

/** The reason a run's signal was aborted (signal.reason). */
export class JobAbortError extends Error {
  constructor(
    readonly kind: AbortKind,
    message: string,
  ) {
    super(message);
    this.name = 'AbortError';
  }
}

interface ActiveRun {
  def: AnyJobDefinition;
  job: BossJob;
  controller: AbortController;
  runId: number;
  attempt: number;
  data: unknown;
  cancelled: boolean;
  done: Promise<void>;
}

/** A job taken from its queue with its run claimed, in one transaction. */
interface Taken {
  job: BossJob;
  runId: number;
  attempt: number;
  data: unknown;
  /** A schedule tick that started now: the ticks queued behind it are redundant. */
  newTick: boolean;
}

const nonNegativeInt = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.min(2_147_483_647, Math.floor(n))) : 0);

/** Checks the registry once, at startup: a bad job definition is a programming error. */
export function toRegistry(defs: readonly AnyJobDefinition[]): ReadonlyMap<string, AnyJobDefinition> {
  const map = new Map<string, AnyJobDefinition>();
  for (const def of defs) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(def.name) || def.name.length > 64) throw new Error(`job name "${def.name}" must be kebab-case, at most 64 characters`);
    if (map.has(def.name)) throw new Error(`job "${def.name}" is registered twice`);
    if (def.defaultSchedule !== null && !isValidCron(def.defaultSchedule)) throw new Error(`job "${def.name}": invalid default schedule "${def.defaultSchedule}"`);
    if (def.expireInSeconds !== undefined && !(def.expireInSeconds >= 1 && def.expireInSeconds < 23 * 3600)) throw new Error(`job "${def.name}": expireInSeconds must be between 1 and 23 hours`);
    const max = def.concurrency?.max;
    if (max !== undefined && !(Number.isInteger(max) && max >= 1)) throw new Error(`job "${def.name}": concurrency.max must be a positive integer`);
    map.set(def.name, def);
  }
  return map;
}

/** Resolves with the promise, or rejects `ms` after the signal is aborted if the promise has not settled by then. */
function settleOrAbandon<T>(promise: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(new JobAbortError('timeout', `did not stop within ${ms} ms after its signal was aborted`)), ms);
    };
    const cleanup = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        cleanup();
        resolve(v);
      },
      (e: unknown) => {
        cleanup();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** deadlock_detected, serialization_failure: PostgreSQL aborted one side of a race; trying again is safe. */
const TRANSIENT = new Set(['40P01', '40001']);

async function retryTransient<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || !TRANSIENT.has((err as { code?: string }).code ?? '')) throw err;
      await new Promise((res) => setTimeout(res, 20 * i + Math.random() * 50));
    }
  }
}

/** Waits for a promise at most `ms`; answers whether it settled. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Progress of one run, written at most once per interval: jobs may report per item, the screen
 * polls every second or so, and PGlite has one connection for everyone. The latest report is
 * kept and written when the interval allows; flush() writes what is left when the run ends.
 * Reporting never waits for the database, so a job may report inside its own transaction.
 */
class ProgressWriter {
  private pending: { done: number; total: number; message?: RunText } | null = null;
  private lastWrite = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (p: { done: number; total: number; message?: RunText }) => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  report(done: number, total: number, message?: RunText): Promise<void> {
    const keepMessage = message ?? this.pending?.message;
    this.pending = { done: nonNegativeInt(done), total: nonNegativeInt(total), ...(keepMessage !== undefined && { message: keepMessage }) };
    const wait = this.lastWrite + this.intervalMs - performance.now();
    if (wait <= 0) this.writePending();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.writePending();
      }, wait);
      this.timer.unref();
    }
    return Promise.resolve();
  }

  private writePending() {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.lastWrite = performance.now();
    this.chain = this.chain.then(() => this.write(p)).catch(() => {});
  }

  async flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writePending();
    await this.chain;
  }
}

/**
 * The job engine: pg-boss over our own database connection, with our job_runs rows as the record
 * people read. jobs/README.md says how to write jobs, and what is guaranteed and how it is tested.
 *
 * Queue policy: every job's queue is 'singleton': pg-boss's unique index lets at most one job per
 * (queue, singleton key) be active across all servers, while any number may wait. A job without
 * per-key concurrency sends no key, so one run of it is active at a time; a per-key job sends the
 * run's key, so runs with one key never overlap and runs with different keys may. 'stately' would
 * also prevent overlap, but it keeps only one *queued* job per key and silently drops further
 * sends: a person's "sync account 7" queued behind "sync account 3" would be lost. Piled-up
 * schedule ticks, the one case where dropping is right, are coalesced here instead: when a
 * scheduled run starts, the ticks still waiting behind it are cancelled.
 *
 * Workers: instead of pg-boss's work() and fetch(), a loop here takes jobs from each queue while
 * this process has a free slot (boss-queue.ts: per key, keys taking turns, under an advisory lock
 * per queue) and claims the run's row in the same transaction, naming this process. Owning the
 * loop lets stop() wait for runs, abort them, and leave a run that ignores its signal to pg-boss's
 * expiry (pg-boss's own stop would mark it failed while it still runs), and it gives runs an AbortSignal.
 *
 * Orphans: a process that dies mid-run leaves its job active, which would block its key until
 * pg-boss expires it (hours for long jobs). Each worker process registers in job_processes and
 * beats; runs of a process that stopped beating (or, on PGlite, every run active at start) are
 * put back in the queue at once as a retry.
 */
export function createJobs(deps: JobRunnerDeps): JobRunner {
  const { db, platform, clock, config, log } = deps;
  const registry = toRegistry(deps.registry);
  const opts: JobRunnerOptions = {
    workers: config.jobs.enabled,
    concurrency: config.jobs.concurrency,
    pollIntervalMs: 2000,
    cancelCheckIntervalMs: 2000,
    progressIntervalMs: 500,
    stopTimeoutMs: 10_000,
    abortGraceMs: 2000,
    heartbeatIntervalMs: config.jobs.heartbeatMs,
    missedBeats: 6,
    reclaim: 'heartbeat',
    boss: {},
    ...deps.options,
  };
  const windowMs = () => opts.heartbeatIntervalMs * opts.missedBeats;

  let boss: PgBoss | null = null;
  let stopping = false;
  let loop: Promise<void> | null = null;
  let cancelTimer: NodeJS.Timeout | null = null;
  let beatTimer: NodeJS.Timeout | null = null;
  let beating: Promise<void> | null = null;
  let processId = randomUUID();
  const self = () => ({ id: processId, host: os.hostname(), pid: process.pid });
  const running = new Set<ActiveRun>();
  const runningByName = new Map<string, number>();
  let wakeUp: (() => void) | null = null;
  let wokenWhileBusy = false;

  const retryLimitOf = (def: AnyJobDefinition) => def.retryLimit ?? JOB_DEFAULTS.retryLimit;
  const expireOf = (def: AnyJobDefinition) => def.expireInSeconds ?? JOB_DEFAULTS.expireInSeconds;
  /** Runs of a job this process may hold at once: one without per-key concurrency; else all slots but one (and its max). */
  const localCap = (def: AnyJobDefinition) => (def.concurrency?.perKey ? Math.min(def.concurrency.max ?? Infinity, Math.max(1, opts.concurrency - 1)) : 1);

  function wake() {
    if (wakeUp) wakeUp();
    else wokenWhileBusy = true;
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      // A wake-up that came while the loop was busy: look again at once.
      if (wokenWhileBusy) {
        wokenWhileBusy = false;
        return resolve();
      }
      const done = () => {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      wakeUp = done;
    });
  }

  function requireBoss(): PgBoss {
    if (!boss) throw new Error('the job engine is not started');
    return boss;
  }

  async function ensureQueue(b: PgBoss, def: AnyJobDefinition) {
    const queue: PgBoss.Queue = {
      name: def.name,
      policy: 'singleton',
      retryLimit: retryLimitOf(def),
      retryDelay: def.retryDelaySeconds ?? JOB_DEFAULTS.retryDelaySeconds,
      retryBackoff: (def.retryDelaySeconds ?? JOB_DEFAULTS.retryDelaySeconds) > 0,
      expireInSeconds: expireOf(def),
    };
    // createQueue keeps an existing queue as it is; updateQueue brings its settings to the definition's.
    // Servers starting together may create the same new queue at once: pg-boss's create_queue then
    // deadlocks (partition DDL), and PostgreSQL picks a victim; the retry finds the queue there.
    await retryTransient(() => b.createQueue(def.name, queue));
    await retryTransient(() => b.updateQueue(def.name, queue));
  }

  async function applySchedules(name?: string) {
    const b = boss;
    if (!b) return; // start() applies them all
    const defs = name ? [registry.get(name)].filter((d): d is AnyJobDefinition => Boolean(d)) : [...registry.values()];
    if (!defs.length) return;
    const settings = await db
      .selectFrom('job_settings')
      .select(['name', 'schedule', 'enabled'])
      .where('name', 'in', defs.map((d) => d.name))
      .execute();
    for (const def of defs) {
      const { firing } = effectiveSchedule(def, settings.find((s) => s.name === def.name));
      if (firing) await b.schedule(def.name, firing, {}, { tz: SCHEDULE_TZ });
      else await b.unschedule(def.name);
    }
    if (!name) {
      // A job removed from the registry must stop firing.
      for (const s of await b.getSchedules()) if (!registry.has(s.name)) await b.unschedule(s.name);
    }
  }

  /** When a scheduled run starts, the ticks that queued up behind the previous run are redundant. */
  async function coalesceTicks(b: PgBoss, name: string, jobId: string) {
    // pg-boss has no call to list waiting jobs; its job table is read directly, read-only.
    const waiting = await sql<{ id: string }>`
      select id::text as id from ${sql.table(`${BOSS_SCHEMA}.job`)}
      where name = ${name} and state = 'created' and id <> ${jobId}::uuid and not coalesce(data ? 'runId', false)`.execute(db);
    if (waiting.rows.length) {
      await b.cancel(name, waiting.rows.map((r) => r.id));
      log.info({ job: name, ticks: waiting.rows.length }, 'skipped schedule ticks that waited behind a running job');
    }
  }

  /**
   * Takes the next job of a queue and claims its run for this process, in one transaction: a job is
   * never active without its row naming the process that runs it (which is what the reclaim of
   * orphans goes by). Answers null when there is nothing to run; a job whose run must not start
   * (cancelled, or already finished before a crash) is completed on the way.
   */
  async function take(b: PgBoss, def: AnyJobDefinition): Promise<Taken | null> {
    return db.transaction().execute(async (trx) => {
      await lockQueue(trx, def.name);
      const job = await takeNext(trx, BOSS_SCHEMA, def.name, def.concurrency?.max);
      if (!job) return null;
      const attempt = job.retryCount + 1;
      const now = clock.now();
      const runId = job.data?.runId;
      let newTick = false;
      let row: { id: number; data: unknown } | undefined;
      if (typeof runId === 'number') row = await claimRun(trx, runId, attempt, now, processId);
      else {
        const existing = await findRunByBossJob(trx, job.id);
        if (existing) row = await claimRun(trx, existing.id, attempt, now, processId);
        else {
          row = await insertScheduledRun(trx, { jobName: def.name, bossJobId: job.id, attempt, now, processId });
          newTick = true;
        }
      }
      if (!row) {
        await b.complete(def.name, job.id, { skipped: 'cancelled or already finished' }, { db: bossTransaction(trx) });
        return null;
      }
      return { job, runId: row.id, attempt, data: row.data, newTick };
    });
  }

  /**
   * Queues a run's continuation inside `trx` (with the run's result): a manual run of the same job,
   * for the same person and with the same key, held until `at` (by the job clock: pg-boss holds it
   * for the delay counted on database time, and the poll promotes it once the job clock reaches `at`).
   */
  async function queueContinuation(b: PgBoss, trx: Db, def: AnyJobDefinition, fromRunId: number, next: NonNullable<JobResult['continuation']>) {
    const from = await trx.selectFrom('job_runs').select(['created_by', 'concurrency_key']).where('id', '=', fromRunId).executeTakeFirst();
    const bossJobId = randomUUID();
    const now = clock.now();
    const key = from?.concurrency_key ?? null;
    const run = await insertManualRun(trx, { jobName: def.name, data: next.data, createdBy: from?.created_by ?? null, singletonKey: null, bossJobId, now, message: next.message ?? null, concurrencyKey: key, startAt: next.at });
    const delaySeconds = Math.max(0, Math.ceil((next.at.getTime() - now.getTime()) / 1000));
    const sent = await b.send(def.name, { runId: run.id } satisfies BossPayload, { id: bossJobId, db: bossTransaction(trx), ...(key !== null && { singletonKey: key }), ...(delaySeconds > 0 && { startAfter: delaySeconds }) });
    if (!sent) throw new Error(`pg-boss refused the continuation of "${def.name}"`);
    return run.id;
  }

  /** Why a run no longer owns its row (0 rows updated): cancelled by a person, or taken over (reclaimed, expired). */
  async function onLostRow(entry: ActiveRun, runId: number) {
    const status = await runStatus(db, runId);
    if (status === 'cancelled') {
      entry.cancelled = true;
      entry.controller.abort(new JobAbortError('cancelled', 'the run was cancelled'));
    } else {
      entry.controller.abort(new JobAbortError('superseded', 'another attempt took the run over'));
    }
    return status;
  }

  async function execute(b: PgBoss, entry: ActiveRun) {
    const { def, job, controller, runId, attempt } = entry;
    const base = { job: def.name, runId, attempt };
    const runLog: JobLogger = {
      info: (o, m) => log.info({ ...base, ...o }, m),
      warn: (o, m) => log.warn({ ...base, ...o }, m),
      error: (o, m) => log.error({ ...base, ...o }, m),
    };
    const progress = new ProgressWriter(async (p) => {
      if ((await writeProgress(db, runId, attempt, p)) === 0) await onLostRow(entry, runId);
    }, opts.progressIntervalMs);

    const expireIn = expireOf(def);
    const timeout = setTimeout(() => controller.abort(new JobAbortError('timeout', `timed out after ${expireIn} s`)), expireIn * 1000);
    timeout.unref();
    const ctx: JobContext<unknown> = {
      data: entry.data ?? {},
      db,
      platform,
      clock,
      config,
      log: runLog,
      runId,
      progress: (done, total, message) => progress.report(done, total, message),
      signal: controller.signal,
      enqueue: (name, data, o) => engine.enqueue(name, data, o),
    };

    let result: JobResult | undefined;
    let error: unknown;
    try {
      // The run is given up on if it ignores its aborted signal; pg-boss's expiry then decides.
      result = await settleOrAbandon(Promise.resolve().then(() => def.run(ctx)), controller.signal, opts.abortGraceMs);
    } catch (err) {
      error = err;
    } finally {
      clearTimeout(timeout);
    }
    if (!error && !(result && ['success', 'skipped', 'failed'].includes(result.status))) error = new Error(`the job returned no valid result (${JSON.stringify(result)?.slice(0, 100)})`);
    await progress.flush();

    const reason = controller.signal.aborted ? (controller.signal.reason as unknown) : undefined;
    const kind = reason instanceof JobAbortError ? reason.kind : undefined;
    if (entry.cancelled || kind === 'cancelled') {
      // The cancel already recorded the row; the queue job ends without a retry.
      await b.complete(def.name, job.id, { cancelled: true });
      runLog.info({}, 'job run cancelled');
      return;
    }
    if (kind === 'superseded') return; // the pg-boss job belongs to the later attempt now

    // A run that returns has finished, even if its signal was aborted meanwhile: what it returns is
    // recorded. A run that throws (on abort: signal.throwIfAborted()) is retried.
    if (result && !error) {
      const outcome: RunOutcome = {
        status: result.status,
        message: result.message ?? null,
        summary: result.summary ?? null,
        error: result.status === 'failed' ? (result.message ?? both('JOB_FAILED')) : null,
        finishedAt: clock.now(),
      };
      const next = result.continuation;
      let finished: number;
      let continuationId: number | undefined;
      if (next) {
        try {
          // The result and its continuation commit together: no paused run without the run that goes on.
          [finished, continuationId] = await db.transaction().execute(async (trx) => {
            const n = await finishRun(trx, runId, attempt, outcome);
            return [n, n ? await queueContinuation(b, trx, def, runId, next) : undefined] as const;
          });
        } catch (err) {
          runLog.error({ err }, 'could not queue the continuation of the run; recording its result alone');
          const notQueued = both('JOB_CONTINUATION_NOT_QUEUED', { message: outcome.message ?? '', error: errorTexts(err) });
          finished = await finishRun(db, runId, attempt, { ...outcome, message: perLang((lang) => notQueued[lang].trim()) });
        }
      } else {
        finished = await finishRun(db, runId, attempt, outcome);
      }
      if (!finished && (await onLostRow(entry, runId)) !== 'cancelled') return;
      await b.complete(def.name, job.id, { runId, status: result.status, ...(continuationId !== undefined && { continuationRunId: continuationId }) });
      runLog.info({ status: result.status, summary: result.summary, continuationRunId: continuationId, continueAt: next?.at }, 'job run finished');
      return;
    }

    // In both languages: an AppError thrown by the job is formatted from its key, not recorded as the key.
    const why: Bilingual = kind === 'shutdown' ? both('JOB_INTERRUPTED') : kind === 'timeout' ? both('JOB_TIMED_OUT', { seconds: expireIn }) : errorTexts(error ?? reason);
    // pg-boss retries while retry_count < retry_limit; say the same on the row.
    const willRetry = job.retryCount < job.retryLimit;
    const finished = await finishRun(db, runId, attempt, {
      status: willRetry ? 'queued' : 'failed',
      error: why,
      message: willRetry ? both('JOB_ATTEMPT_FAILED', { attempt }) : null,
      finishedAt: willRetry ? null : clock.now(),
    });
    if (!finished && (await onLostRow(entry, runId)) !== 'cancelled') return;
    if (!finished) {
      await b.complete(def.name, job.id, { cancelled: true });
      return;
    }
    await b.fail(def.name, job.id, { message: why.zh });
    runLog[willRetry ? 'warn' : 'error']({ err: error ?? reason, willRetry }, 'job run failed');
  }

  function launch(b: PgBoss, def: AnyJobDefinition, taken: Taken) {
    const entry: ActiveRun = { def, job: taken.job, controller: new AbortController(), runId: taken.runId, attempt: taken.attempt, data: taken.data, cancelled: false, done: Promise.resolve() };
    running.add(entry);
    runningByName.set(def.name, (runningByName.get(def.name) ?? 0) + 1);
    entry.done = execute(b, entry)
      // Bookkeeping failed (the database went away): the pg-boss job stays active, and is reclaimed
      // once this process stops beating, or retried after it expires.
      .catch((err: unknown) => log.error({ err, job: def.name, bossJobId: taken.job.id }, 'job run bookkeeping failed'))
      .finally(() => {
        running.delete(entry);
        const n = (runningByName.get(def.name) ?? 1) - 1;
        if (n > 0) runningByName.set(def.name, n);
        else runningByName.delete(def.name);
        wake();
      });
    if (taken.newTick) void coalesceTicks(b, def.name, taken.job.id).catch((err: unknown) => log.warn({ err, job: def.name }, 'could not coalesce schedule ticks'));
  }

  async function pollLoop(b: PgBoss) {
    const defs = [...registry.values()];
    let cursor = 0;
    while (!stopping) {
      try {
        // Runs queued to start at a time the job clock has reached.
        await promoteDueRuns(db, BOSS_SCHEMA, clock.now());
      } catch (err) {
        log.warn({ err }, 'could not promote runs whose start time has come');
      }
      // Passes over the jobs while slots are free and a pass takes something: one run per job per
      // pass, from a moving start, so a busy job cannot starve the others of slots.
      for (let took = true; took && !stopping && running.size < opts.concurrency; ) {
        took = false;
        for (let i = 0; i < defs.length; i++) {
          if (stopping || running.size >= opts.concurrency) break;
          const def = defs[(cursor + i) % defs.length]!;
          // Its queue would give nothing more (one at a time), or this process holds its share.
          if ((runningByName.get(def.name) ?? 0) >= localCap(def)) continue;
          try {
            const taken = await take(b, def);
            // Taken just as stop() began: it runs, and stop() waits for it like any other.
            if (taken) {
              launch(b, def, taken);
              took = true;
            }
          } catch (err) {
            log.error({ err, job: def.name }, 'job fetch failed');
          }
        }
        cursor = (cursor + 1) % Math.max(1, defs.length);
      }
      if (!stopping) await sleep(opts.pollIntervalMs);
    }
  }

  /** Cancels what was cancelled elsewhere, and stops what was reclaimed from this process (presumed dead while it was only slow). */
  async function checkOwnership() {
    const byId = new Map([...running].filter((e) => !e.cancelled && !e.controller.signal.aborted).map((e) => [e.runId, e]));
    if (!byId.size) return;
    for (const row of await runOwners(db, [...byId.keys()])) {
      const entry = byId.get(row.id)!;
      if (row.status === 'cancelled') {
        entry.cancelled = true;
        entry.controller.abort(new JobAbortError('cancelled', 'the run was cancelled'));
      } else if (row.status !== 'running' || row.attempt !== entry.attempt || row.process_id !== processId) {
        log.warn({ job: entry.def.name, runId: entry.runId, attempt: entry.attempt }, 'the run was taken over elsewhere; stopping it here');
        entry.controller.abort(new JobAbortError('superseded', 'another attempt took the run over'));
      }
    }
  }

  /**
   * Puts one orphaned job back in its queue, re-checked under the queue's lock: its run goes back to
   * queued for a retry that may start at once (or fails, out of retries), in one transaction with
   * pg-boss's job. A run whose row already ended (cancelled) just completes its job.
   */
  async function reclaimOne(b: PgBoss, seen: OrphanJob, all: boolean) {
    return db.transaction().execute(async (trx) => {
      await lockQueue(trx, seen.name);
      const [o] = await findOrphans(trx, BOSS_SCHEMA, { self: processId, all, windowMs: windowMs(), jobId: seen.id });
      if (!o || o.runId !== seen.runId || o.attempt !== seen.attempt) return false;
      const bossTrx = { db: bossTransaction(trx) };
      if (o.runId !== null && o.runStatus !== 'running' && o.runStatus !== 'queued') {
        await b.complete(o.name, o.id, { reclaimed: true, runStatus: o.runStatus }, bossTrx);
        return true;
      }
      const willRetry = o.retryCount < o.retryLimit;
      if (o.runId !== null && o.attempt !== null) {
        await finishRun(trx, o.runId, o.attempt, {
          status: willRetry ? 'queued' : 'failed',
          error: both('JOB_PROCESS_LOST'),
          message: willRetry ? both('JOB_ATTEMPT_FAILED', { attempt: o.attempt }) : null,
          finishedAt: willRetry ? null : clock.now(),
        });
      }
      await b.fail(o.name, o.id, { message: both('JOB_PROCESS_LOST').zh, process: o.processId }, bossTrx);
      // Not the job's own failure: no retry delay.
      if (willRetry) await sql`update ${sql.table(`${BOSS_SCHEMA}.job`)} set start_after = now() where name = ${o.name} and id = ${o.id}::uuid and state = 'retry'`.execute(trx);
      log.warn({ job: o.name, runId: o.runId, attempt: o.attempt, deadProcess: o.processId, willRetry }, 'reclaimed a run whose process stopped');
      return true;
    });
  }

  async function reclaimOrphans(b: PgBoss, all: boolean) {
    let reclaimed = 0;
    for (const o of await findOrphans(db, BOSS_SCHEMA, { self: processId, all, windowMs: windowMs() })) {
      try {
        if (await reclaimOne(b, o, all)) reclaimed++;
      } catch (err) {
        log.error({ err, job: o.name, runId: o.runId }, 'could not reclaim an orphaned run');
      }
    }
    await forgetDeadProcesses(db, processId, { all, windowMs: windowMs() });
    if (reclaimed) wake();
    return reclaimed;
  }

  async function heartbeat(b: PgBoss) {
    try {
      await beat(db, self());
      if (opts.reclaim === 'heartbeat') await reclaimOrphans(b, false);
    } catch (err) {
      log.warn({ err }, 'job heartbeat failed');
    }
  }

  let engine: JobRunner;
  return (engine = {
    registry,
    get boss() {
      return boss;
    },
    get activeCount() {
      return running.size;
    },
    get processId() {
      return processId;
    },

    async start() {
      if (boss) return;
      const b = new PgBoss({
        db: bossDb(db),
        schema: BOSS_SCHEMA,
        migrate: true,
        // Maintenance (expiring runs of crashed servers, archiving) and cron are for processes that run jobs;
        // pg-boss lets only one process per interval do either.
        supervise: opts.workers,
        schedule: opts.workers,
        ...opts.boss,
      });
      b.on('error', (err) => log.error({ err }, 'job engine error'));
      await b.start();
      try {
        for (const def of registry.values()) await ensureQueue(b, def);
        boss = b;
        await applySchedules();
        if (opts.workers) {
          processId = randomUUID();
          await beat(db, self());
          // Before taking anything: what a dead process left active goes back to the queue first.
          const reclaimed = await reclaimOrphans(b, opts.reclaim === 'all-at-start');
          if (reclaimed) log.warn({ reclaimed }, 'runs left active by a stopped process were put back in the queue');
        }
      } catch (err) {
        boss = null;
        await b.stop({ graceful: false, close: false }).catch(() => {});
        throw err;
      }
      stopping = false;
      if (opts.workers) {
        loop = pollLoop(b).catch((err: unknown) => log.error({ err }, 'job loop stopped'));
        cancelTimer = setInterval(() => void checkOwnership().catch((err: unknown) => log.warn({ err }, 'cancel check failed')), opts.cancelCheckIntervalMs);
        cancelTimer.unref();
        beatTimer = setInterval(() => {
          // One beat at a time: a slow database must not pile them up.
          beating ??= heartbeat(b).finally(() => {
            beating = null;
          });
        }, opts.heartbeatIntervalMs);
        beatTimer.unref();
      }
      log.info({ jobs: registry.size, workers: opts.workers, concurrency: opts.concurrency, processId: opts.workers ? processId : undefined }, 'job engine started');
    },

    async stop() {
      const b = boss;
      if (!b) return;
      stopping = true;
      wake();
      if (cancelTimer) clearInterval(cancelTimer);
      cancelTimer = null;
      if (beatTimer) clearInterval(beatTimer);
      beatTimer = null;
      // A fetch against a database that went away may never answer: do not wait on it for long.
      if (loop) await within(loop, opts.pollIntervalMs + 1000);
      loop = null;
      const all = () => Promise.allSettled([...running].map((e) => e.done));
      if (running.size) {
        log.info({ running: [...running].map((e) => e.def.name) }, 'waiting for running jobs');
        await within(all(), opts.stopTimeoutMs);
      }
      if (running.size) {
        for (const e of running) e.controller.abort(new JobAbortError('shutdown', 'the server is shutting down'));
        await within(all(), opts.abortGraceMs + 2000);
      }
      if (beating) await within(beating, 2000);
      if (running.size) log.warn({ running: [...running].map((e) => e.def.name) }, 'jobs did not stop; they are reclaimed once this process stops beating, or retried after they expire');
      // A process with runs left keeps its registration: it goes stale, and the runs are reclaimed.
      else if (opts.workers) await within(unregister(db, processId).catch(() => {}), 2000);
      // Our loop does not use pg-boss workers, so its graceful stop has nothing to wait for.
      await within(b.stop({ graceful: true, timeout: 1000, close: false }), 5000);
      boss = null;
      log.info({}, 'job engine stopped');
    },

    async enqueue<TData>(name: string, data: TData, o: EnqueueOptions = {}) {
      const def = checkEnqueue(registry, name, o);
      const b = requireBoss();
      const bossJobId = randomUUID();
      const now = clock.now();
      const delaySeconds = o.startAt ? Math.max(0, Math.ceil((o.startAt.getTime() - now.getTime()) / 1000)) : 0;
      // The row and the pg-boss job commit together: no run without its record, no record that never runs.
      const queue = async (trx: Db) => {
        const run = await insertManualRun(trx, {
          jobName: name,
          data,
          createdBy: o.createdBy ?? null,
          singletonKey: o.singletonKey ?? null,
          bossJobId,
          now,
          concurrencyKey: o.key ?? null,
          startAt: o.startAt ?? null,
        });
        if (run.reused) return run.id;
        const sent = await b.send(name, { runId: run.id } satisfies BossPayload, {
          id: bossJobId,
          db: bossTransaction(trx),
          ...(o.key !== undefined && { singletonKey: o.key }),
          // pg-boss counts the delay on database time; the poll promotes the run when the job clock gets there first.
          ...(delaySeconds > 0 && { startAfter: delaySeconds }),
        });
        if (!sent) throw new Error(`pg-boss refused a job for "${def.name}"`);
        return run.id;
      };
      const id = o.trx ? await queue(o.trx) : await db.transaction().execute(queue);
      // A run queued here starts without waiting for the next poll (inside a caller's transaction the
      // fetch simply finds nothing until it commits).
      wake();
      return id;
    },

    async cancel(runId: number) {
      const before = await cancelRun(db, runId, clock.now());
      if (!before) return false;
      const local = [...running].find((e) => e.runId === runId);
      if (local) {
        local.cancelled = true;
        local.controller.abort(new JobAbortError('cancelled', 'the run was cancelled'));
      } else if (before.status === 'queued' && before.boss_job_id && boss) {
        // Only a job that is still waiting: cancelling an active one in pg-boss would let another
        // server start the job while this run winds down. A run that wins the race sees the row cancelled and does not start.
        await boss.cancel(before.job_name, before.boss_job_id).catch((err: unknown) => log.warn({ err, runId }, 'could not cancel the queued job'));
      }
      return true;
    },

    applySchedules,
  });
}

/** The job of an enqueue, checked: a known name, and a key only for a job that runs per key. */
function checkEnqueue(registry: ReadonlyMap<string, AnyJobDefinition>, name: string, o: EnqueueOptions): AnyJobDefinition {
  const def = registry.get(name);
  if (!def) throw new Error(`unknown job "${name}" (jobs/registry.ts)`);
  if (o.key !== undefined) {
    if (!def.concurrency?.perKey) throw new Error(`job "${name}" does not run per key (concurrency.perKey): it cannot be queued with a key`);
    if (!o.key || o.key.length > 200) throw new Error(`job "${name}": a key is 1–200 characters`);
  }
  if (o.startAt !== undefined && !Number.isFinite(o.startAt.getTime())) throw new Error(`job "${name}": startAt is not a valid date`);
  return def;
}

/**
 * Jobs for an app built without the engine (tests, tools): enqueue records the run as queued and
 * nothing runs it; cancel works on the record. main.ts always passes the real engine.
 */
export function createRecordingJobs(deps: { db: Db; clock: Clock; registry: readonly AnyJobDefinition[] }): Jobs {
  const registry = toRegistry(deps.registry);
  return {
    registry,
    async enqueue(name, data, o = {}) {
      checkEnqueue(registry, name, o);
      const run = await insertManualRun(o.trx ?? deps.db, {
        jobName: name,
        data,
        createdBy: o.createdBy ?? null,
        singletonKey: o.singletonKey ?? null,
        bossJobId: null,
        now: deps.clock.now(),
        concurrencyKey: o.key ?? null,
        startAt: o.startAt ?? null,
      });
      return run.id;
    },
    async cancel(runId) {
      return Boolean(await cancelRun(deps.db, runId, deps.clock.now()));
    },
    async applySchedules() {},
    async start() {},
    async stop() {},
  };
}
