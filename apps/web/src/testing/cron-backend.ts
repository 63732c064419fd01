import { cronJobSchema, jobRunSchema, taskSchema, type CronJob, type JobRun, type Task } from '@ads/contracts';
import { MockRefusal, type Handlers } from './mock-api';

const instant = '2026-03-01T08:30:00.000Z';
let nextRunId = 500;

/** A registered job as /sys-cron/list answers it (contract-checked). */
export function buildCronJob(overrides: Partial<CronJob> = {}): CronJob {
  return cronJobSchema.parse({
    name: 'cleanup-sessions',
    title: 'Clean up sessions and old records',
    description: 'Deletes ended or idle sessions.',
    schedule: '17 3 * * *',
    default_schedule: '17 3 * * *',
    enabled: true,
    overridden: false,
    last_run: null,
    next_run_at: '2026-03-02T03:17:00.000Z',
    updated_by_name: null,
    updated_at: null,
    ...overrides,
  });
}

/** A run as /sys-cron/runs answers it (contract-checked). */
export function buildJobRun(overrides: Partial<JobRun> = {}): JobRun {
  return jobRunSchema.parse({
    id: overrides.id ?? ++nextRunId,
    job_name: 'cleanup-sessions',
    title: 'Clean up sessions and old records',
    status: 'success',
    progress_done: 0,
    progress_total: 0,
    message: null,
    summary: null,
    error: null,
    created_by: null,
    created_by_name: null,
    trigger: 'schedule',
    queued_at: instant,
    started_at: instant,
    finished_at: instant,
    attempt: 1,
    duration_ms: 0,
    data: {},
    ...overrides,
  });
}

const FINISHED = new Set(['success', 'skipped', 'failed', 'cancelled']);

/**
 * An in-memory stand-in for /sys-cron/* and the task calls the screen follows runs with: run now
 * queues a run that stays queued until the test moves it on (`advance`), as the real engine would.
 */
export function cronBackend(seed: { jobs?: CronJob[]; runs?: JobRun[] } = {}) {
  const db = { jobs: structuredClone(seed.jobs ?? []), runs: structuredClone(seed.runs ?? []) };

  const lastRunOf = (name: string): CronJob['last_run'] => {
    const run = db.runs.filter((r) => r.job_name === name).sort((a, b) => b.id - a.id)[0];
    return run ? { status: run.status, started_at: run.started_at, finished_at: run.finished_at, duration_ms: run.duration_ms, message: run.error ?? run.message } : null;
  };
  const asTask = ({ attempt: _a, duration_ms: _d, data: _data, ...task }: JobRun): Task => taskSchema.parse(task);
  const find = (id: number) => db.runs.find((r) => r.id === id);

  const handlers: Handlers = {
    '/sys-cron/list': () => ({ list: db.jobs, total: db.jobs.length }),
    '/sys-cron/update': (b) => {
      const job = db.jobs.find((j) => j.name === b.name);
      if (!job) return new MockRefusal(`There is no job named "${b.name}".`, { errors: [{ field: 'name', message: 'unknown job' }] });
      if (b.schedule !== undefined) {
        job.schedule = b.schedule ?? job.default_schedule;
        job.overridden = b.schedule !== null;
      }
      if (b.enabled !== undefined) job.enabled = b.enabled;
      job.next_run_at = job.enabled && job.schedule ? '2026-03-02T06:30:00.000Z' : null;
      job.updated_by_name = 'Root';
      job.updated_at = instant;
      return job;
    },
    '/sys-cron/run_now': (b) => {
      const job = db.jobs.find((j) => j.name === b.name);
      if (!job) return new MockRefusal(`There is no job named "${b.name}".`);
      const run = buildJobRun({ job_name: job.name, title: job.title, status: 'queued', trigger: 'manual', created_by: 2, created_by_name: 'Root', started_at: null, finished_at: null, duration_ms: null });
      db.runs.push(run);
      job.last_run = lastRunOf(job.name);
      return { task_id: run.id };
    },
    '/sys-cron/runs': (b) => {
      const rows = db.runs.filter((r) => (!b.name || r.job_name === b.name) && (!b.status || r.status === b.status));
      const field = b.sort_field ?? 'id';
      const dir = b.sort_order === 'ascend' ? 1 : -1;
      rows.sort((x, y) => dir * String(x[field] ?? '').localeCompare(String(y[field] ?? ''), undefined, { numeric: true }) || y.id - x.id);
      return { list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length };
    },
    '/tasks/get': (b) => {
      const run = find(b.id);
      return run ? asTask(run) : new MockRefusal('No such task');
    },
    '/tasks/cancel': (b) => {
      const run = find(b.id);
      if (!run) return new MockRefusal('No such task');
      if (!FINISHED.has(run.status)) Object.assign(run, { status: 'cancelled', finished_at: instant });
      return asTask(run);
    },
  };

  return {
    handlers,
    db,
    /** Moves a run on, as the job engine would, and updates its job's last run. */
    advance(id: number, patch: Partial<JobRun>) {
      const run = find(id);
      if (!run) throw new Error(`no run ${id}`);
      Object.assign(run, patch);
      const job = db.jobs.find((j) => j.name === run.job_name);
      if (job) job.last_run = lastRunOf(job.name);
    },
  };
}
