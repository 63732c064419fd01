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
  // The runner's own texts were English only before: move them to the English column and put the
  // Chinese wording where Chinese is now expected.
  await sql`
    update job_runs set error_en = error, error = '运行中断：服务器已关闭' where error = 'Interrupted: the server shut down';
    update job_runs set error_en = error, error = regexp_replace(error, '^Timed out after ([0-9]+) s$', '运行超时（\\1 秒）') where error ~ '^Timed out after [0-9]+ s$';
    update job_runs set error_en = 'The run failed', error = '运行失败' where error = 'failed';
    update job_runs set message_en = message, message = regexp_replace(message, '^Attempt ([0-9]+) failed; it will be retried$', '第 \\1 次运行失败，将重试') where message ~ '^Attempt [0-9]+ failed; it will be retried$';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table personal_accounts drop column last_sync_error_en;
    alter table job_runs drop column error_en, drop column message_en;
  `.execute(db);
}
