import type { AssignMode } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/**
 * One side of an association table (user_ad_accounts, page_ad_accounts, page_users,
 * pixel_ad_accounts), edited for one row of the other side.
 */
export interface LinkEdit {
  table: 'user_ad_accounts' | 'page_ad_accounts' | 'page_users' | 'pixel_ad_accounts';
  /** The fixed side: column and id (e.g. ad_account_id = 7). */
  owner: { column: string; id: number };
  /** The side being edited. */
  target: string;
  ids: readonly number[];
  mode: AssignMode;
  /**
   * Targets the caller may touch (null = all). "replace" keeps links to targets outside it: a
   * leader replacing an account's users must not drop people of other departments.
   */
  reach: readonly number[] | null;
  /** Extra columns every row of this edit carries and is filtered by (pixel links: source = 'manual'). */
  fixed?: Record<string, string>;
  now: Date;
}

/** Applies an add / replace / remove edit; answers the linked ids before and after (for the audit log). */
export async function editLinks(trx: Db, e: LinkEdit): Promise<{ before: number[]; after: number[] }> {
  const fixed = Object.entries(e.fixed ?? {});
  const where = sql.join([sql`${sql.ref(e.owner.column)} = ${e.owner.id}`, ...fixed.map(([k, v]) => sql`${sql.ref(k)} = ${v}`)], sql` and `);
  const rows = await sql<{ id: number }>`select ${sql.ref(e.target)} as id from ${sql.table(e.table)} where ${where}`.execute(trx);
  const before = rows.rows.map((r) => r.id).sort((a, b) => a - b);
  const wanted = new Set(e.ids);
  const reach = e.reach ? new Set(e.reach) : null;
  let after: Set<number>;
  if (e.mode === 'add') after = new Set([...before, ...wanted]);
  else if (e.mode === 'remove') after = new Set(before.filter((id) => !wanted.has(id)));
  else after = new Set([...before.filter((id) => reach !== null && !reach.has(id)), ...wanted]);

  const removed = before.filter((id) => !after.has(id));
  const added = [...after].filter((id) => !before.includes(id));
  if (removed.length) {
    await sql`delete from ${sql.table(e.table)} where ${where} and ${sql.ref(e.target)} in (${sql.join(removed)})`.execute(trx);
  }
  if (added.length) {
    const columns = [e.owner.column, e.target, ...fixed.map(([k]) => k), 'created_at'];
    const values = added.map((id) => sql`(${sql.join([e.owner.id, id, ...fixed.map(([, v]) => v), e.now])})`);
    await sql`insert into ${sql.table(e.table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)} on conflict do nothing`.execute(trx);
  }
  return { before, after: [...after].sort((a, b) => a - b) };
}
