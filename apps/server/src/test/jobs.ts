import {
  sql,
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { vi } from 'vitest';
import type { Config } from '../config.ts';
import { openDatabase, type Database, type Db } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { createJobs, type JobRunner, type JobRunnerOptions } from '../jobs/runner.ts';
import type { JobLogger } from '../jobs/runner.ts';
import type { AnyJobDefinition } from '../jobs/types.ts';
import { fixedClock, type Clock } from '../lib/clock.ts';
import type { AdPlatformClient } from '../platform/types.ts';
import { driver, testConfig } from './build-test-app.ts';

/** Helpers for tests of the job engine and of features that run jobs. */

/** Jobs in these tests never reach the platform; one that tries fails loudly. */
export const noPlatform = new Proxy({} as AdPlatformClient, {
  get: (_t, prop) => (prop === 'then' ? undefined : () => Promise.reject(new Error(`no platform in this test (${String(prop)})`))),
});

/** A logger that keeps warnings and errors, so a test can show them when it fails. */
export function testLog(): JobLogger & { entries: { level: string; msg?: string | undefined; obj: object }[] } {
  const entries: { level: string; msg?: string | undefined; obj: object }[] = [];
  return {
    entries,
    info: () => {},
    warn: (obj, msg) => entries.push({ level: 'warn', msg, obj }),
    error: (obj, msg) => entries.push({ level: 'error', msg, obj }),
  };
}

/** Short intervals, so a test waits milliseconds, not seconds. */
export const FAST: Partial<JobRunnerOptions> = {
  pollIntervalMs: 50,
  cancelCheckIntervalMs: 100,
  progressIntervalMs: 100,
  stopTimeoutMs: 3000,
  abortGraceMs: 300,
  // A process silent for 2 s is presumed dead: long enough for a busy test machine, short enough to wait for.
  heartbeatIntervalMs: 200,
  missedBeats: 10,
};

export function testRunner(
  db: Db,
  registry: readonly AnyJobDefinition[],
  o: { clock?: Clock; config?: Partial<Config>; options?: Partial<JobRunnerOptions>; log?: JobLogger } = {},
): JobRunner {
  return createJobs({
    db,
    platform: noPlatform,
    clock: o.clock ?? fixedClock('2026-11-01T08:00:00Z'),
    config: testConfig(o.config),
    log: o.log ?? testLog(),
    registry,
    // As main.ts does: on PGlite one process owns the database, so what is active at start is orphaned.
    options: { workers: true, concurrency: 2, reclaim: driver === 'pglite' ? 'all-at-start' : 'heartbeat', ...FAST, ...o.options },
  });
}

/** A promise the test settles: a job waits on it, so the test decides when the job goes on. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Polls until the run's row matches; answers the row. */
export async function waitForRun(db: Db, id: number, match: (row: Awaited<ReturnType<typeof readRun>> & object) => boolean, timeout = 10_000) {
  return vi.waitFor(
    async () => {
      const row = await readRun(db, id);
      if (!row || !match(row)) throw new Error(`run ${id} is ${JSON.stringify(row)}`);
      return row;
    },
    { timeout, interval: 25 },
  );
}

export function readRun(db: Db, id: number) {
  return db.selectFrom('job_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A second handle on the same database that can be cut off at once, as if its server process
 * died: after freeze() every query through it fails before reaching the database. It borrows
 * connections from `parent`, so on PGlite it shares the single connection's queue.
 */
export function freezableDb(parent: Db): { db: Db; freeze(): void } {
  let frozen = false;
  const dead = () => new Error('simulated crash: this server is gone');
  class Conn implements DatabaseConnection {
    constructor(
      private readonly inner: DatabaseConnection,
      readonly release: () => void,
    ) {}
    executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
      if (frozen) return Promise.reject(dead());
      return this.inner.executeQuery<R>(q);
    }
    streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
      throw new Error('not supported');
    }
  }
  const driver: Driver = {
    async init() {},
    acquireConnection() {
      if (frozen) return Promise.reject(dead());
      return new Promise<DatabaseConnection>((resolve, reject) => {
        parent
          .getExecutor()
          .provideConnection(
            (inner) =>
              new Promise<void>((released) => {
                resolve(new Conn(inner, released));
              }),
          )
          .catch(reject);
      });
    },
    async beginTransaction(conn) {
      await conn.executeQuery(CompiledQuery.raw('begin'));
    },
    async commitTransaction(conn) {
      await conn.executeQuery(CompiledQuery.raw('commit'));
    },
    async rollbackTransaction(conn) {
      await conn.executeQuery(CompiledQuery.raw('rollback'));
    },
    async releaseConnection(conn) {
      (conn as Conn).release();
    },
    async destroy() {},
  };
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return {
    db,
    freeze() {
      frozen = true;
    },
  };
}

/** A second pool on the PostgreSQL database of `db`, as another server process would open (pg only). */
export async function secondPool(db: Db): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('secondPool needs DATABASE_URL');
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  const u = new URL(url);
  u.pathname = `/${rows[0]!.name}`;
  return openDatabase({ databaseUrl: u.toString() });
}
