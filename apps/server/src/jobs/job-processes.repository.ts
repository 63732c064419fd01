import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** job_processes: the job-runner processes sharing the database, each beating on database time. */

/** Registers the process, or beats: a process presumed dead and removed registers again. */
export async function beat(db: Db, p: { id: string; host: string; pid: number }) {
  await sql`
    insert into job_processes (id, host, pid, started_at, last_beat) values (${p.id}, ${p.host}, ${p.pid}, now(), now())
    on conflict (id) do update set last_beat = now()`.execute(db);
}

/** Forgets processes that have not beaten for `windowMs` (their runs have been reclaimed or are next), or, with `all`, every other process. */
export async function forgetDeadProcesses(db: Db, self: string, o: { all: boolean; windowMs: number }) {
  let q = db.deleteFrom('job_processes').where('id', '<>', self);
  if (!o.all) q = q.where('last_beat', '<', sql<Date>`now() - make_interval(secs => ${o.windowMs / 1000})`);
  await q.execute();
}

export async function unregister(db: Db, id: string) {
  await db.deleteFrom('job_processes').where('id', '=', id).execute();
}
