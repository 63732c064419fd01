import { sql, type Kysely } from 'kysely';

/**
 * The order facts of the reports (ad_order_daily ⋈ ads) are scoped on the ad mirror:
 * `ads.ad_account_id in (…) or ads.owner_user_id in (…)` (ad-reports.repository.ts orderFacts).
 * ads had an index on the account but none on the owner, so the OR could not combine two index
 * scans and every staff or leader request read all ads (a sequential scan of 50,000 ads in the
 * issue 7/9 benchmark, bench/README.md "Orders").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index ads_owner_idx on ads (owner_user_id) where owner_user_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index ads_owner_idx`.execute(db);
}
