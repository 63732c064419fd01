import { sql, type Kysely } from 'kysely';

// Scheduled page posts (帖子管理, issue 8): a post made unpublished with a time at which the
// platform publishes it by itself (Meta: published=false + scheduled_publish_time).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table page_posts add column scheduled_at timestamptz;`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table page_posts drop column scheduled_at;`.execute(db);
}
