import { sql, type Kysely } from 'kysely';

/**
 * Background jobs: one job_runs row per run (what the cron screen's history and a person's task
 * list show) and job_settings for the schedule overrides of the cron screen. The queue itself is
 * pg-boss's, in its own `pgboss` schema, which pg-boss creates and migrates when the runner starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table job_runs (
      id bigserial primary key,
      job_name text not null,
      trigger text not null check (trigger in ('schedule', 'manual')),
      created_by integer references users(id),
      data jsonb,
      status text not null default 'queued'
        check (status in ('queued', 'running', 'success', 'skipped', 'failed', 'cancelled')),
      progress_done integer not null default 0,
      progress_total integer not null default 0,
      message text,
      summary jsonb,
      error text,
      attempt integer not null default 0,
      -- The pg-boss job carrying this run; a retry (after a failure or a crash) keeps the same id.
      boss_job_id text,
      -- enqueue(..., { singletonKey }): while a run with the key is queued or running, it is reused.
      singleton_key text,
      queued_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    create index job_runs_job_idx on job_runs (job_name, id desc);
    create index job_runs_status_idx on job_runs (status, id desc);
    create index job_runs_created_by_idx on job_runs (created_by, id desc) where created_by is not null;
    create index job_runs_queued_at_idx on job_runs (queued_at);
    create unique index job_runs_boss_job_key on job_runs (boss_job_id) where boss_job_id is not null;
    -- At most one live run per singleton key: concurrent enqueues from several servers cannot both insert.
    create unique index job_runs_singleton_key on job_runs (job_name, singleton_key)
      where singleton_key is not null and status in ('queued', 'running');

    create table job_settings (
      name text primary key,
      -- null = the job's default schedule.
      schedule text,
      enabled boolean not null default true,
      updated_by integer references users(id),
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table job_settings; drop table job_runs;`.execute(db);
}
