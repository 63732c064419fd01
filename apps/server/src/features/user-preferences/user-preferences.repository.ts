import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface PreferenceRow {
  key: string;
  value: unknown;
  updated_at: Date;
}

/** One preference of a user, or undefined. */
export async function findPreference(db: Db, userId: number, key: string): Promise<PreferenceRow | undefined> {
  return db.selectFrom('user_preferences').select(['key', 'value', 'updated_at']).where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
}

/** How many keys a user holds. */
export async function countPreferences(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('user_preferences').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Writes a preference (insert or replace). */
export async function upsertPreference(db: Db, userId: number, key: string, value: unknown, now: Date): Promise<PreferenceRow> {
  return db
    .insertInto('user_preferences')
    .values({ user_id: userId, key, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: sql`excluded.value`, updated_at: sql`excluded.updated_at` }))
    .returning(['key', 'value', 'updated_at'])
    .executeTakeFirstOrThrow();
}
