import { sql, type Kysely } from 'kysely';

/**
 * The cohort facts' dirty log (issue 9 "Benchmark": webhook ingest ≥ 5,000 orders/s). The order
 * intake no longer recomputes ad_order_daily in its own transaction: it appends the (ad platform
 * id, REPORT_TIMEZONE day) pairs it affected here, and a refresher (the refresh-cohorts job soon
 * after an intake and every minute, and readers for their own range) recomputes the logged pairs
 * and removes exactly the log rows it read, so a pair logged by a write that commits meanwhile
 * stays logged. Appending never conflicts, so concurrent intakes never wait on each other here
 * (the pattern of ad_dim_dirty, migration 0015_report_rollups).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ad_order_dirty (
      id bigserial primary key,
      ad_platform_id text not null,
      day date not null,
      marked_at timestamptz not null default now()
    );
    -- Readers drain their range of days; the refresher finds every log row of a pair it rebuilds.
    create index ad_order_dirty_day_ad_idx on ad_order_dirty (day, ad_platform_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ad_order_dirty;`.execute(db);
}
