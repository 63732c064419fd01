import { sql, type Kysely } from 'kysely';

/**
 * A user's own preferences by key (column choices and saved column sets of list screens), so
 * they follow the user to another browser. Removed with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table user_preferences (
    user_id integer not null references users(id) on delete cascade,
    key text not null,
    value jsonb not null,
    updated_at timestamptz not null,
    primary key (user_id, key)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table user_preferences`.execute(db);
}
