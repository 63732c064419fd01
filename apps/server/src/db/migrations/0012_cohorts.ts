import { sql, type Kysely } from 'kysely';

/**
 * Cohort ROI facts (issue 9, docs/orders-design.md "Cohort ROI"): one row per (ad, REPORT_TIMEZONE
 * day), kept in step with orders by the order intake in the same transaction
 * (features/orders/cohorts.ts). Reports add these to ad_stats_daily by (ad, day); the ad is the
 * platform id the orders carry, joined to `ads.platform_id` when reporting, so an order that
 * arrives before the sync has mirrored its ad is counted as soon as the mirror exists.
 *
 * - Payment-day facts of `day`: revenue_usd_cents (orders paid that day minus refunds made that
 *   day), payers (distinct buyers paying that day).
 * - Cohort facts of the buyers acquired on `day`: new_payers, and cohort_dN_usd_cents = what they
 *   paid up to the end of day+N minus what was refunded to them by then (USD cents at each
 *   payment's / refund's day rate). Not yet matured values are stored too (they keep growing);
 *   reports only read a Dn of days whose day+N has ended.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ad_order_daily (
      ad_platform_id text not null,
      day date not null,
      revenue_usd_cents bigint not null default 0,
      payers integer not null default 0,
      new_payers integer not null default 0,
      cohort_d0_usd_cents bigint not null default 0,
      cohort_d1_usd_cents bigint not null default 0,
      cohort_d3_usd_cents bigint not null default 0,
      cohort_d7_usd_cents bigint not null default 0,
      cohort_d14_usd_cents bigint not null default 0,
      cohort_d30_usd_cents bigint not null default 0,
      updated_at timestamptz not null default now(),
      primary key (ad_platform_id, day)
    );
    create index ad_order_daily_day_idx on ad_order_daily (day, ad_platform_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ad_order_daily;`.execute(db);
}
