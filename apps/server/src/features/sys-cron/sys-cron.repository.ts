import type { Db } from '../../db/database.ts';

/** The cron screen's overrides of job schedules (job_settings). */

export async function settingsOf(db: Db, names: readonly string[]) {
  if (!names.length) return [];
  return db
    .selectFrom('job_settings as s')
    .leftJoin('users as u', 'u.id', 's.updated_by')
    .select(['s.name', 's.schedule', 's.enabled', 's.updated_at', 'u.name as updated_by_name'])
    .where('s.name', 'in', names)
    .execute();
}

/** A job's stored override, locked for the rest of the transaction. */
export async function lockSetting(db: Db, name: string) {
  return db.selectFrom('job_settings').select(['schedule', 'enabled']).where('name', '=', name).forUpdate().executeTakeFirst();
}

export async function upsertSetting(db: Db, name: string, values: { schedule: string | null; enabled: boolean; updated_by: number; updated_at: Date }) {
  await db
    .insertInto('job_settings')
    .values({ name, ...values })
    .onConflict((oc) => oc.column('name').doUpdateSet(values))
    .execute();
}
