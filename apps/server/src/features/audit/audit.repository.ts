import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** Appends one row to audit_logs. */
export async function insertAuditLog(db: Db, row: Insertable<DB['audit_logs']>) {
  await db.insertInto('audit_logs').values(row).execute();
}
