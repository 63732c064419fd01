import { both, perLang, type Bilingual } from '@ads/contracts';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { AdPlatformClient } from '../platform/types.ts';
import { bossDb, bossTransaction } from './boss-db.ts';
import {
  cancelledAmong,
  cancelRun,
  claimRun,
  findRunByBossJob,
  finishRun,
  insertManualRun,
  insertScheduledRun,
  runStatus,
  writeProgress,
  type RunOutcome,
  type RunText,
} from './job-runs.repository.ts';
import { effectiveSchedule, isValidCron, SCHEDULE_TZ } from './schedule.ts';
import { errorTexts, type AnyJobDefinition, type JobContext, type JobResult, type Jobs } from './types.ts';

/** pg-boss keeps its tables in their own schema, apart from ours. */
export const BOSS_SCHEMA = 'pgboss';

export const JOB_DEFAULTS = { retryLimit: 2, retryDelaySeconds: 30, expireInSeconds: 15 * 60 } as const;

export type JobLogger = JobContext<unknown>['log'];

export interface JobRunnerOptions {
  /** Run jobs in this process. Off (JOBS_ENABLED=false), the process still queues runs and edits schedules; other processes run them. */
  workers: boolean;
  /** Runs at once in this process (JOBS_CONCURRENCY); one job never runs twice at once anywhere. */
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
  job: PgBoss.JobWithMetadata<BossPayload>;
  controller: AbortController;
  runId: number | undefined;
  cancelled: boolean;
  done: Promise<void>;
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
 * Queue policy: every job's queue is 'singleton', and runs carry no pg-boss singleton key, so
 * pg-boss's unique index lets at most one run of a job be active across all servers, while any
 * number may wait. 'stately' would also prevent overlap, but it keeps only one *queued* job per
 * key and silently drops further sends: a person's "sync account 7" queued behind "sync account 3"
 * would be lost. Piled-up schedule ticks, the one case where dropping is right, are coalesced
 * here instead: when a scheduled run starts, the ticks still waiting behind it are cancelled.
 *
 * Workers: instead of pg-boss's work(), a loop here fetches from each job's queue while this
 * process has a free slot (JOBS_CONCURRENCY overall, one per job). pg-boss's fetch claims a job
 * with FOR UPDATE SKIP LOCKED, so two servers never take the same job. Owning the loop lets
 * stop() wait for runs, abort them, and leave a run that ignores its signal to pg-boss's expiry
 * (pg-boss's own stop would mark it failed while it still runs), and it gives runs an AbortSignal.
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
    boss: {},
    ...deps.options,
  };

  let boss: PgBoss | null = null;
  let stopping = false;
  let loop: Promise<void> | null = null;
  let cancelTimer: NodeJS.Timeout | null = null;
  const running = new Set<ActiveRun>();
  const runningNames = new Set<string>();
  let wakeUp: (() => void) | null = null;

  const retryLimitOf = (def: AnyJobDefinition) => def.retryLimit ?? JOB_DEFAULTS.retryLimit;
  const expireOf = (def: AnyJobDefinition) => def.expireInSeconds ?? JOB_DEFAULTS.expireInSeconds;

  function wake() {
    wakeUp?.();
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
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

  /** Takes the job_runs row for this attempt; undefined = the run must not start (cancelled or already ended). */
  async function claim(b: PgBoss, entry: ActiveRun, attempt: number): Promise<{ id: number; data: unknown } | undefined> {
    const { def, job } = entry;
    const now = clock.now();
    const runId = job.data?.runId;
    if (typeof runId === 'number') return claimRun(db, runId, attempt, now);
    const existing = await findRunByBossJob(db, job.id);
    if (existing) return claimRun(db, existing.id, attempt, now);
    const row = await insertScheduledRun(db, { jobName: def.name, bossJobId: job.id, attempt, now });
    await coalesceTicks(b, def.name, job.id).catch((err: unknown) => log.warn({ err, job: def.name }, 'could not coalesce schedule ticks'));
    return row;
  }

  /**
   * Queues a run's continuation inside `trx` (with the run's result): a manual run of the same job,
   * for the same person, held by pg-boss until `at` (a delay by our clock; pg-boss counts it on
   * database time).
   */
  async function queueContinuation(b: PgBoss, trx: Db, def: AnyJobDefinition, fromRunId: number, next: NonNullable<JobResult['continuation']>) {
    const from = await trx.selectFrom('job_runs').select('created_by').where('id', '=', fromRunId).executeTakeFirst();
    const bossJobId = randomUUID();
    const now = clock.now();
    const run = await insertManualRun(trx, { jobName: def.name, data: next.data, createdBy: from?.created_by ?? null, singletonKey: null, bossJobId, now, message: next.message ?? null });
    const delaySeconds = Math.max(0, Math.ceil((next.at.getTime() - now.getTime()) / 1000));
    const sent = await b.send(def.name, { runId: run.id } satisfies BossPayload, { id: bossJobId, db: bossTransaction(trx), ...(delaySeconds > 0 && { startAfter: delaySeconds }) });
    if (!sent) throw new Error(`pg-boss refused the continuation of "${def.name}"`);
    return run.id;
  }

  /** Why a run no longer owns its row (0 rows updated): cancelled by a person, or taken over after expiry. */
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
    const { def, job, controller } = entry;
    // pg-boss counts a fetch of a job that had started before as a retry.
    const attempt = job.retryCount + 1;
    const row = await claim(b, entry, attempt);
    if (!row) {
      await b.complete(def.name, job.id, { skipped: 'cancelled or already finished' });
      return;
    }
    const runId = row.id;
    entry.runId = runId;
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
      data: row.data ?? {},
      db,
      platform,
      clock,
      config,
      log: runLog,
      runId,
      progress: (done, total, message) => progress.report(done, total, message),
      signal: controller.signal,
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

  function launch(b: PgBoss, def: AnyJobDefinition, job: PgBoss.JobWithMetadata<BossPayload>) {
    const entry: ActiveRun = { def, job, controller: new AbortController(), runId: undefined, cancelled: false, done: Promise.resolve() };
    running.add(entry);
    runningNames.add(def.name);
    entry.done = execute(b, entry)
      // Bookkeeping failed (the database went away): the pg-boss job stays active and is retried after it expires.
      .catch((err: unknown) => log.error({ err, job: def.name, bossJobId: job.id }, 'job run bookkeeping failed'))
      .finally(() => {
        running.delete(entry);
        runningNames.delete(def.name);
        wake();
      });
  }

  async function pollLoop(b: PgBoss) {
    const defs = [...registry.values()];
    let cursor = 0;
    while (!stopping) {
      // Round robin from a moving start, so a busy job cannot starve the others of slots.
      for (let i = 0; i < defs.length; i++) {
        if (stopping || running.size >= opts.concurrency) break;
        const def = defs[(cursor + i) % defs.length]!;
        // The singleton queue would refuse a second active run anyway; skip the round trip.
        if (runningNames.has(def.name)) continue;
        try {
          const [job] = await b.fetch<BossPayload>(def.name, { includeMetadata: true });
          // Taken just as stop() began: it runs, and stop() waits for it like any other.
          if (job) launch(b, def, job);
        } catch (err) {
          log.error({ err, job: def.name }, 'job fetch failed');
        }
      }
      cursor = (cursor + 1) % Math.max(1, defs.length);
      if (!stopping) await sleep(opts.pollIntervalMs);
    }
  }

  async function checkCancelled() {
    const byId = new Map([...running].filter((e) => e.runId !== undefined && !e.cancelled).map((e) => [e.runId!, e]));
    if (!byId.size) return;
    for (const id of await cancelledAmong(db, [...byId.keys()])) {
      const entry = byId.get(id)!;
      entry.cancelled = true;
      entry.controller.abort(new JobAbortError('cancelled', 'the run was cancelled'));
    }
  }

  return {
    registry,
    get boss() {
      return boss;
    },
    get activeCount() {
      return running.size;
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
      } catch (err) {
        boss = null;
        await b.stop({ graceful: false, close: false }).catch(() => {});
        throw err;
      }
      stopping = false;
      if (opts.workers) {
        loop = pollLoop(b).catch((err: unknown) => log.error({ err }, 'job loop stopped'));
        cancelTimer = setInterval(() => void checkCancelled().catch((err: unknown) => log.warn({ err }, 'cancel check failed')), opts.cancelCheckIntervalMs);
        cancelTimer.unref();
      }
      log.info({ jobs: registry.size, workers: opts.workers, concurrency: opts.concurrency }, 'job engine started');
    },

    async stop() {
      const b = boss;
      if (!b) return;
      stopping = true;
      wake();
      if (cancelTimer) clearInterval(cancelTimer);
      cancelTimer = null;
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
      if (running.size) log.warn({ running: [...running].map((e) => e.def.name) }, 'jobs did not stop; they are retried after they expire');
      // Our loop does not use pg-boss workers, so its graceful stop has nothing to wait for.
      await within(b.stop({ graceful: true, timeout: 1000, close: false }), 5000);
      boss = null;
      log.info({}, 'job engine stopped');
    },

    async enqueue<TData>(name: string, data: TData, o: { createdBy?: number | null; singletonKey?: string; trx?: Db } = {}) {
      if (!registry.has(name)) throw new Error(`unknown job "${name}" (jobs/registry.ts)`);
      const b = requireBoss();
      const bossJobId = randomUUID();
      // The row and the pg-boss job commit together: no run without its record, no record that never runs.
      const queue = async (trx: Db) => {
        const run = await insertManualRun(trx, { jobName: name, data, createdBy: o.createdBy ?? null, singletonKey: o.singletonKey ?? null, bossJobId, now: clock.now() });
        if (run.reused) return run.id;
        const sent = await b.send(name, { runId: run.id } satisfies BossPayload, { id: bossJobId, db: bossTransaction(trx) });
        if (!sent) throw new Error(`pg-boss refused a job for "${name}"`);
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
  };
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
      if (!registry.has(name)) throw new Error(`unknown job "${name}" (jobs/registry.ts)`);
      const run = await insertManualRun(o.trx ?? deps.db, { jobName: name, data, createdBy: o.createdBy ?? null, singletonKey: o.singletonKey ?? null, bossJobId: null, now: deps.clock.now() });
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
