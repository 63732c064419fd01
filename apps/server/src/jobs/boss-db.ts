import { CompiledQuery } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Db } from '../db/database.ts';

/**
 * pg-boss talks to the database through the app's Kysely instance instead of a pool of its own.
 * On PGlite that is a must: the embedded database has one connection, which the PGlite dialect
 * hands to one user at a time, so pg-boss can never interleave with a Kysely transaction. On
 * PostgreSQL the pool gives each call its own connection, as pg-boss's own pool would.
 *
 * Every call holds one connection for its duration (db.connection()): pg-boss sends some work as
 * one text `BEGIN; …; COMMIT;` (parameterless, so the simple protocol runs it whole on both
 * drivers), and its migrations even fail on purpose inside such a text to detect a race with
 * another server. A failure mid-text leaves the session in an aborted transaction; it is rolled
 * back on that same connection before anything else may use it.
 */
export function bossDb(db: Db): PgBoss.Db {
  return {
    executeSql: (text, values) =>
      db.connection().execute(async (conn) => {
        try {
          const result = await conn.executeQuery(CompiledQuery.raw(text, values ?? []));
          return { rows: result.rows as unknown[] };
        } catch (err) {
          if (/^\s*begin\b/i.test(text)) await conn.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
          throw err;
        }
      }),
  };
}

/** pg-boss calls inside a Kysely transaction (send with `db`): the job and our row commit together. */
export function bossTransaction(trx: Db): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({ rows: (await trx.executeQuery(CompiledQuery.raw(text, values ?? []))).rows as unknown[] }),
  };
}
