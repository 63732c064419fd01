import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * The statements the runner sends to pg-boss's job table itself, where pg-boss 10 has no call for
 * what is needed: taking a job per concurrency key, fairly between keys, and finding the active
 * jobs of processes that died. Everything else (send, complete, fail, cancel, cron, expiry) goes
 * through pg-boss. Written against pg-boss 10.4's schema (pinned exactly in package.json); its
 * fetchNextJob plan (src/plans.js) is the model of takeNext and is worth comparing on an upgrade.
 */

/** A pg-boss job as the runner takes it. */
export interface BossJob {
  id: string;
  name: string;
  data: { runId?: number } | null;
  /** Starts before this one (pg-boss counts a fetch of a job that had started before as a retry). */
  retryCount: number;
  retryLimit: number;
  /** The run's concurrency key; null for jobs that run one at a time. */
  singletonKey: string | null;
}

/** First key of the two-key advisory locks the runner takes (the second is the queue name's hash). */
const QUEUE_LOCK = 0x6a6f6273; // 'jobs'

/**
 * Serialises, until the transaction ends, whoever takes from or reclaims in this queue across all
 * processes: the check "no active run with this key, fewer than max active" and the update that
 * makes a job active then see the same state. pg-boss's unique index on active jobs per key
 * (policy 'singleton') stays the backstop.
 */
export async function lockQueue(trx: Db, name: string) {
  await sql`select pg_advisory_xact_lock(${QUEUE_LOCK}, hashtext(${name}))`.execute(trx);
}

/**
 * Takes the next job of a queue, as pg-boss's fetch does (state active, started_on now, a restart
 * counted as a retry), with two differences: a job whose key already has an active job is passed
 * over instead of failing the whole fetch on the unique index (pg-boss's fetch takes the oldest job
 * and returns nothing when its key is busy, so one busy key would block every other key), and the
 * keys take turns: among the oldest waiting job of each free key, the key that started longest ago
 * (or never) goes first, so one key with a hundred queued runs does not starve the others. With
 * `max`, nothing is taken while the queue has that many active jobs. Call it inside lockQueue's transaction.
 */
export async function takeNext(trx: Db, schema: string, name: string, max: number | undefined): Promise<BossJob | undefined> {
  const job = sql.table(`${schema}.job`);
  const { rows } = await sql<BossJob>`
    with heads as (
      select distinct on (coalesce(singleton_key, '')) id, coalesce(singleton_key, '') as k, priority, created_on
      from ${job}
      where name = ${name} and state < 'active' and start_after < now()
      order by coalesce(singleton_key, ''), priority desc, created_on, id
    ), next as (
      select h.id
      from heads h
      where not exists (select 1 from ${job} a where a.name = ${name} and a.state = 'active' and coalesce(a.singleton_key, '') = h.k)
        ${max === undefined ? sql`` : sql`and (select count(*) from ${job} a where a.name = ${name} and a.state = 'active') < ${max}`}
      order by h.priority desc,
        (select max(s.started_on) from ${job} s where s.name = ${name} and coalesce(s.singleton_key, '') = h.k) asc nulls first,
        h.created_on, h.id
      limit 1
    )
    update ${job} j set
      state = 'active',
      started_on = now(),
      retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
    from next
    where j.name = ${name} and j.id = next.id
    returning j.id::text as "id", j.name, j.data, j.retry_count as "retryCount", j.retry_limit as "retryLimit", j.singleton_key as "singletonKey"`.execute(trx);
  return rows[0];
}

/** An active pg-boss job whose process is gone, with the run it carries (if it has a row). */
export interface OrphanJob {
  id: string;
  name: string;
  retryCount: number;
  retryLimit: number;
  runId: number | null;
  runStatus: string | null;
  attempt: number | null;
  processId: string | null;
}

/**
 * Active jobs that no live process runs. `all`: every active job not run by `self` (one process
 * owns the database: whatever is active when it starts was left by a crash). Otherwise: jobs whose
 * run names a process that has not beaten for `windowMs` (or is no longer registered); a job
 * without a recorded process (claimed by a runner older than the registry) is left to pg-boss's
 * expiry, since nothing says its process is dead. `jobId` narrows it to one job, locked for update.
 */
export async function findOrphans(db: Db, schema: string, o: { self: string; all: boolean; windowMs: number; jobId?: string }): Promise<OrphanJob[]> {
  const { rows } = await sql<OrphanJob>`
    select j.id::text as "id", j.name, j.retry_count as "retryCount", j.retry_limit as "retryLimit",
      r.id as "runId", r.status as "runStatus", r.attempt, r.process_id as "processId"
    from ${sql.table(`${schema}.job`)} j
    left join job_runs r on r.boss_job_id = j.id::text
    where j.state = 'active'
      ${o.jobId === undefined ? sql`` : sql`and j.id = ${o.jobId}::uuid`}
      and ${
        o.all
          ? sql`coalesce(r.process_id, '') <> ${o.self}`
          : sql`r.process_id <> ${o.self} and not exists (
              select 1 from job_processes p where p.id = r.process_id and p.last_beat > now() - make_interval(secs => ${o.windowMs / 1000}))`
      }
    ${o.jobId === undefined ? sql`` : sql`for update of j`}`.execute(db);
  return rows.map((r) => ({ ...r, runId: r.runId === null ? null : Number(r.runId) }));
}
