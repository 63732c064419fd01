import { derivePaths, groupWithPages, REGULAR_PATHS } from '@ads/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../../test/build-test-app.ts';
import type { Database } from '../database.ts';
import * as m0006 from './0006_role_scopes.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

/** What a role's paths granted before 0006: a stored group granted its whole subtree. */
function grantedBefore(paths: string[]) {
  return derivePaths(0, paths.flatMap((p) => (REGULAR_PATHS.includes(p) ? groupWithPages(p) : [p])));
}

it('expands stored group paths into the group and its pages, so that nobody loses access, and audits each change', async () => {
  const db = database.db;
  // Back to the schema before 0006, with roles as they were stored then.
  await m0006.down(db as never);
  const before: Record<string, string[]> = {
    optimizer: ['/index', '/advertising', '/material', '/analyse'],
    clerk: ['/index', '/auth', '/operation'],
    mixed: ['/advertising', '/advertising/user', '/sys/role'],
    pages: ['/index', '/sys/role'],
    empty: [],
  };
  for (const [name, paths] of Object.entries(before)) await sql`insert into roles (name, paths) values (${name}, ${paths}::text[])`.execute(db);
  await m0006.up(db as never);

  const rows = await sql<{ name: string; paths: string[]; asset_scope: string }>`select name, paths, asset_scope from roles order by id`.execute(db);
  const after = Object.fromEntries(rows.rows.map((r) => [r.name, r.paths]));
  expect(after.clerk).toEqual(['/index', '/auth', '/auth/pixel', '/auth/homepage', '/auth/site', '/auth/account', '/auth/personage', '/operation', '/operation/auth', '/operation/account']);
  expect(after.mixed).toEqual(['/advertising', ...groupWithPages('/advertising').slice(1), '/sys/role']);
  expect(after.pages).toEqual(['/index', '/sys/role']);
  expect(after.empty).toEqual([]);
  // Under the new rule (a role grants exactly its paths) every role grants what it granted before.
  for (const [name, paths] of Object.entries(before)) expect(derivePaths(0, after[name]!), name).toEqual(grantedBefore(paths));
  expect(rows.rows.every((r) => r.asset_scope === 'own')).toBe(true);

  const audit = await sql<{ entity_id: string; before: { paths: string[] }; after: { paths: string[] } }>`
    select a.entity_id, a.before, a.after from audit_logs a where a.action = 'role.expand_groups' order by a.id`.execute(db);
  const ids = Object.fromEntries((await sql<{ id: number; name: string }>`select id, name from roles`.execute(db)).rows.map((r) => [r.name, String(r.id)]));
  expect(audit.rows.map((r) => r.entity_id)).toEqual([ids.optimizer, ids.clerk, ids.mixed]);
  expect(audit.rows[1]).toMatchObject({ before: { paths: before.clerk }, after: { paths: after.clerk } });

  // A role may only be 'own' or 'company'.
  await expect(sql`update roles set asset_scope = 'everything' where name = 'clerk'`.execute(db)).rejects.toThrow();

  // down puts the stored group paths back.
  await m0006.down(db as never);
  const restored = await sql<{ name: string; paths: string[] }>`select name, paths from roles order by id`.execute(db);
  expect(Object.fromEntries(restored.rows.map((r) => [r.name, r.paths]))).toEqual(before);
  await m0006.up(db as never);
});
