import { sql, type Kysely } from 'kysely';

/**
 * Job texts and sync errors in English beside the Chinese ones: a run's message and error, and a
 * personal account's last sync error. The existing columns keep the Chinese text; the `_en`
 * columns hold the English one, or null when it is the same text (a file name, a platform's own
 * words) or the row predates this migration: readers then fall back to the Chinese column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table job_runs add column message_en text, add column error_en text;
    alter table personal_accounts add column last_sync_error_en text;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table personal_accounts drop column last_sync_error_en;
    alter table job_runs drop column error_en, drop column message_en;
  `.execute(db);
}
