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

    -- Orders stored before this migration: every (ad, day) they touch, computed as the intake does.
    with p(ad, day) as (
      select ad_platform_id, acquisition_day from order_buyers where ad_platform_id is not null
      union select ad_platform_id, paid_day from orders where ad_platform_id is not null
      union select o.ad_platform_id, r.refund_day from order_refunds r join orders o on o.id = r.order_id where o.ad_platform_id is not null
    ),
    bu as (select b.id, b.ad_platform_id as ad, b.acquisition_day as day from order_buyers b where b.ad_platform_id is not null),
    money as (
      select bu.ad, bu.day, o.paid_day as at, coalesce(o.amount_usd_cents, 0) as cents from bu join orders o on o.buyer_id = bu.id
      union all
      select bu.ad, bu.day, r.refund_day, -coalesce(r.amount_usd_cents, 0) from bu join orders o on o.buyer_id = bu.id join order_refunds r on r.order_id = o.id
    ),
    c as (
      select n.ad, n.day, n.new_payers,
        coalesce(sum(m.cents) filter (where m.at <= m.day + 0), 0)::bigint as d0,
        coalesce(sum(m.cents) filter (where m.at <= m.day + 1), 0)::bigint as d1,
        coalesce(sum(m.cents) filter (where m.at <= m.day + 3), 0)::bigint as d3,
        coalesce(sum(m.cents) filter (where m.at <= m.day + 7), 0)::bigint as d7,
        coalesce(sum(m.cents) filter (where m.at <= m.day + 14), 0)::bigint as d14,
        coalesce(sum(m.cents) filter (where m.at <= m.day + 30), 0)::bigint as d30
      from (select ad, day, count(*)::int as new_payers from bu group by ad, day) n left join money m on m.ad = n.ad and m.day = n.day
      group by n.ad, n.day, n.new_payers
    ),
    paid as (
      select o.ad_platform_id as ad, o.paid_day as day, coalesce(o.amount_usd_cents, 0) as cents, o.buyer_id from orders o where o.ad_platform_id is not null
      union all
      select o.ad_platform_id, r.refund_day, -coalesce(r.amount_usd_cents, 0), null from order_refunds r join orders o on o.id = r.order_id where o.ad_platform_id is not null
    ),
    d as (select ad, day, sum(cents)::bigint as revenue, count(distinct buyer_id)::int as payers from paid group by ad, day)
    insert into ad_order_daily (ad_platform_id, day, revenue_usd_cents, payers, new_payers,
      cohort_d0_usd_cents, cohort_d1_usd_cents, cohort_d3_usd_cents, cohort_d7_usd_cents, cohort_d14_usd_cents, cohort_d30_usd_cents)
    select p.ad, p.day, coalesce(d.revenue, 0), coalesce(d.payers, 0), coalesce(c.new_payers, 0),
      coalesce(c.d0, 0), coalesce(c.d1, 0), coalesce(c.d3, 0), coalesce(c.d7, 0), coalesce(c.d14, 0), coalesce(c.d30, 0)
    from p left join c on c.ad = p.ad and c.day = p.day left join d on d.ad = p.ad and d.day = p.day;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ad_order_daily;`.execute(db);
}
