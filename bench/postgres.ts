import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './cleanup.ts';
import { assertLoopback } from './server.ts';

/** The PostgreSQL server to create the throwaway database on (BENCH_PG_URL; loopback only). */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000, query_timeout: 30_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  url: string;
  name: string;
  drop: () => Promise<void>;
}

/**
 * Creates ads_bench_<random> and returns its URL, or the reason PostgreSQL cannot be used.
 * The database is dropped WITH (FORCE) by `drop` or by the cleanup on any exit.
 */
export async function createBenchDatabase(opts: { keep?: boolean } = {}): Promise<BenchDatabase | { unavailable: string }> {
  assertLoopback(PG_ADMIN_URL.replace(/^postgres(ql)?:/, 'http:'));
  const name = `ads_bench_${randomBytes(5).toString('hex')}`;
  try {
    await withClient((c) => c.query(`create database "${name}"`));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { unavailable: `${PG_ADMIN_URL}: ${e.message || e.code || String(err)}` };
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  if (opts.keep) return { url: url.toString(), name, drop: async () => {} };
  const handle = onCleanup(`drop database ${name}`, async () => {
    await withClient((c) => c.query(`drop database if exists "${name}" with (force)`));
  });
  return { url: url.toString(), name, drop: handle.now };
}

/**
 * BENCH_KEEP_DB=1: the report / orders database is kept after the run (for EXPLAIN, or to measure
 * again); BENCH_REUSE_DB=<name>: a database kept so is measured again without generating anything.
 * Neither is dropped: `dropdb -h 127.0.0.1 -U postgres <name>` when done.
 */
export const KEEP_DB = process.env.BENCH_KEEP_DB === '1';
export const REUSE_DB = process.env.BENCH_REUSE_DB || undefined;

export function existingBenchDatabase(name: string): BenchDatabase {
  if (!/^ads_bench_[0-9a-f]+$/.test(name)) throw new Error(`BENCH_REUSE_DB must name a kept ads_bench_… database, not ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: async () => {} };
}
