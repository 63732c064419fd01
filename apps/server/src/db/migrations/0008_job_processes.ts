import { sql, type Kysely } from 'kysely';

/**
 * The job runner's process registry and what the runner records per run beyond 0003:
 * - job_processes: one row per running job-runner process (a server start), beating every few
 *   seconds; a run whose process stopped beating is reclaimed by a live process (jobs/README.md).
 * - job_runs.process_id: the process running (or that last ran) the run's current attempt.
 * - job_runs.concurrency_key: enqueue(..., { key }): runs of a job with one key never overlap.
 * - job_runs.start_at: enqueue(..., { startAt }) or a continuation: the run starts no earlier.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table job_processes (
      id text primary key,
      host text not null,
      pid integer not null,
      started_at timestamptz not null default now(),
      -- Database time: processes on several machines compare beats on one clock.
      last_beat timestamptz not null default now()
    );
    alter table job_runs
      add column process_id text,
      add column concurrency_key text,
      add column start_at timestamptz;
    -- The runner's poll looks for queued runs whose start time has come (by the job clock).
    create index job_runs_start_at_idx on job_runs (start_at) where status = 'queued' and start_at is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index job_runs_start_at_idx;
    alter table job_runs drop column start_at, drop column concurrency_key, drop column process_id;
    drop table job_processes;
  `.execute(db);
}
