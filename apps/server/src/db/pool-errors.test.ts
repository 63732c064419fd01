import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, driver, type TestApp } from '../test/build-test-app.ts';

// PostgreSQL only: PGlite runs in-process and has no connections to lose.
describe.runIf(driver === 'pg')('a PostgreSQL connection lost while idle in the pool', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('does not crash the server, and the next call gets a fresh connection', async () => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.db);
    const victim = rows[0]!.pid;
    // The connection is idle in the pool now; end it from the server side, as a restart or failover would.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      expect((await admin.query('select pg_terminate_backend($1) as ok', [victim])).rows[0].ok).toBe(true);
      // Wait until the backend is gone: its goodbye to the pool was sent before it exited. (Without a pool
      // 'error' listener the pool re-emits it as an uncaught exception, which fails this run.)
      let alive = 1;
      for (let i = 0; i < 1000 && alive; i++) alive = (await admin.query('select count(*)::int as n from pg_stat_activity where pid = $1', [victim])).rows[0].n;
      expect(alive).toBe(0);
    } finally {
      await admin.end();
    }
    const health = await t.call('/api/health', undefined, { method: 'GET' });
    expect(health).toMatchObject({ code: 0, data: { db: 'ok', driver: 'pg' } });
    const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.db);
    expect(again.rows[0]!.pid).not.toBe(victim);
  });
});
