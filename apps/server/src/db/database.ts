import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { DATE, INT8, NUMERIC, PGliteDialect, pgliteParsers } from './pglite-dialect.ts';
import type { DB } from './schema.ts';

export type Db = Kysely<DB>;

export interface Database {
  db: Db;
  driver: 'pglite' | 'pg';
  close(): Promise<void>;
}

// The same type parsing as the PGlite dialect, so both drivers hand code the same values.
const toNumber = (v: string) => Number(v);
const asText = (v: string) => v;

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database in dataDir. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string; pglite?: PGlite }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      // No JIT: report statements over a few hundred thousand rows pass jit_above_cost and then spend
      // 0.6 s compiling for 0.2 s of work, on every request (bench/README.md "Reports", "Orders").
      // No parallel plans: the server answers many people at once, and a statement that starts
      // workers pays their start and hand-over on every request and takes the cores the other
      // requests are waiting for — on 2 cores the report views answered twice as many requests
      // per second without them (bench/README.md "Reports", 2026-11-25).
      options: '-c jit=off -c max_parallel_workers_per_gather=0',
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8 || oid === NUMERIC) return toNumber;
          if (oid === DATE) return asText;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    // A connection PostgreSQL drops while it sits idle in the pool (restart, failover, a terminated
    // backend) is reported as a pool 'error'; without a listener that crashes the process. The pool
    // has already discarded the client and opens a new one for the next query.
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, driver: 'pg', close: () => db.destroy() };
  }

  let pglite = opts.pglite;
  let release = () => {};
  if (!pglite) {
    if (!opts.dataDir) throw new Error('dataDir is required for the embedded database');
    release = lockDataDir(opts.dataDir);
    try {
      pglite = await PGlite.create(path.join(opts.dataDir, 'pgdata'), { parsers: pgliteParsers });
    } catch (err) {
      release();
      throw err;
    }
  }
  const instance = pglite;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(instance) });
  return {
    db,
    driver: 'pglite',
    async close() {
      await db.destroy();
      if (!opts.pglite) await instance.close();
      release();
    },
  };
}

export { pgliteParsers };

/**
 * Two processes opening one PGlite directory get no error and one silently loses writes, so
 * the directory has one owner: a lock file holding the owner's pid. A stale lock (its
 * process gone) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The data directory ${dataDir} is in use by another server process (pid ${owner}). ` +
            'The embedded database allows one server at a time: stop the other process, use another DATA_DIR, ' +
            'or set DATABASE_URL to share a PostgreSQL server between processes.',
          { cause: err },
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the database answers (health checks). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
