import { sql, type Kysely } from 'kysely';

/**
 * Report indexes led by the data-scope columns (issue 7 benchmark, bench/README.md "Reports").
 * Reports filter the fact tables by a range of days and `ad_account_id in (…) or owner_user_id in (…)`
 * (lib/scope.ts). With `day` first, every listed account or person scans the index over the whole
 * range of days for all accounts (a scalar-array condition on a second column runs once per
 * element): a leader with 100 ad accounts read the range a hundred times. Led by the account or the
 * person, each reads exactly its own days. The day-led account index stays for the ranges read
 * without scope (managers); the day-led owner index is replaced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index campaign_stats_daily_account_day_idx on campaign_stats_daily (ad_account_id, day);
    create index campaign_stats_daily_owner_day_idx on campaign_stats_daily (owner_user_id, day);
    drop index campaign_stats_daily_day_owner_idx;
    create index ad_stats_daily_account_day_idx on ad_stats_daily (ad_account_id, day);
    create index ad_stats_daily_owner_day_idx on ad_stats_daily (owner_user_id, day);
    drop index ad_stats_daily_day_owner_idx;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index ad_stats_daily_day_owner_idx on ad_stats_daily (day, owner_user_id);
    drop index ad_stats_daily_owner_day_idx;
    drop index ad_stats_daily_account_day_idx;
    create index campaign_stats_daily_day_owner_idx on campaign_stats_daily (day, owner_user_id);
    drop index campaign_stats_daily_owner_day_idx;
    drop index campaign_stats_daily_account_day_idx;
  `.execute(db);
}
