import { sql, type Kysely } from 'kysely';

/**
 * OAuth states are bound to the browser that started them (RFC 6749 §10.12): beside the state's
 * hash, the hash of a random value kept in an HttpOnly cookie of that browser. States made before
 * this migration have none and are refused (they last 10 minutes anyway).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_states add column browser_hash text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table oauth_states drop column browser_hash`.execute(db);
}
