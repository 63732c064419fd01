import { sql, type Kysely } from 'kysely';

// Cancelled page posts (帖子管理): a scheduled post deleted on the platform before it went live
// keeps its row, with status `cancelled`, so the list and the audit log still show it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table page_posts drop constraint page_posts_status_check;
    alter table page_posts add constraint page_posts_status_check check (status in ('pending', 'creating', 'created', 'failed', 'cancelled'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The older check has no place for them: a cancelled post is gone from the platform, so failed is the nearest truth.
  await sql`
    update page_posts set status = 'failed', error = coalesce(error, '已取消'), error_en = coalesce(error_en, 'Cancelled') where status = 'cancelled';
    alter table page_posts drop constraint page_posts_status_check;
    alter table page_posts add constraint page_posts_status_check check (status in ('pending', 'creating', 'created', 'failed'));
  `.execute(db);
}
