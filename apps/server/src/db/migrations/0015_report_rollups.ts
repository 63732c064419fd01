import { sql, type Kysely } from 'kysely';

/**
 * Rollups of the ad reports by dimension (issue 9, docs/orders-design.md "Rollups by dimension"):
 * what the home dashboards and the analysis screens (剧集成效, 素材分析, 素材绩效, 剧集测评, 方案分析,
 * 落地页分析) read instead of grouping millions of ad-days on every request.
 *
 * - ad_dim_daily: the insights facts of ad_stats_daily, the order facts of ad_order_daily and the
 *   count of paid orders, summed per dimension key and REPORT_TIMEZONE day, with the columns data
 *   scope and the common filters need (ad account, owner, platform, drama, product). `dim` says
 *   which dimension `key` is: 'all' (no key: the grain itself, so drama and product reports group
 *   it by drama_id / product_id), 'material', 'scheme', 'site', 'country'. Rows of ad_account_id 0
 *   are organic orders (no ad): their site, drama or product, and country are the order's own.
 * - ad_dim_dirty: an append-only log of (day, ad account) whose rollup rows are out of date, written
 *   by statement triggers on every table the rollup reads, so no writer has to know about the
 *   rollup. A refresher (job every 2 minutes, and readers for their own range) recomputes the
 *   logged pairs and removes exactly the log rows it read, so a write that commits meanwhile stays
 *   logged. Appending never conflicts, so concurrent intakes never wait on each other here.
 */

/** Summable facts of the rollup (the insights facts of ad_stats_daily, then the order facts). */
const INSIGHT_FACTS = [
  'spend_usd_cents',
  'impressions',
  'clicks',
  'link_clicks',
  'landing_page_views',
  'purchases',
  'purchase_value_usd_cents',
  'add_to_cart',
  'initiate_checkout',
  'video_plays',
  'video_p25',
  'video_p50',
  'video_p75',
  'video_p95',
  'video_p100',
  'thruplays',
  'video_watch_ms',
];
const ORDER_FACTS = ['revenue_usd_cents', 'payers', 'new_payers', 'orders', 'cohort_d0_usd_cents', 'cohort_d1_usd_cents', 'cohort_d3_usd_cents', 'cohort_d7_usd_cents', 'cohort_d14_usd_cents', 'cohort_d30_usd_cents'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const facts = [...INSIGHT_FACTS, ...ORDER_FACTS].map((c) => `${c} bigint not null default 0`).join(',\n      ');
  await sql`
    create table ad_dim_daily (
      dim text not null check (dim in ('all', 'material', 'scheme', 'site', 'country')),
      -- The dimension's id as text (a country code for 'country'); '' = none.
      key text not null default '',
      day date not null,
      -- 0 = organic orders (no ad, no ad account).
      ad_account_id integer not null,
      owner_user_id integer,
      platform text,
      drama_id integer,
      product_id integer,
      ${sql.raw(facts)}
    );
    create index ad_dim_daily_dim_day_idx on ad_dim_daily (dim, day);
    create index ad_dim_daily_day_account_idx on ad_dim_daily (day, ad_account_id);

    create table ad_dim_dirty (
      id bigserial primary key,
      day date not null,
      ad_account_id integer not null,
      marked_at timestamptz not null default now()
    );
    create index ad_dim_dirty_day_idx on ad_dim_dirty (day);

    -- Organic orders of a day (the rollup reads them per day).
    create index orders_organic_day_idx on orders (paid_day) where ad_platform_id is null;

    -- ad_stats_daily: its own (day, ad account).
    create function ad_dim_mark_stats() returns trigger language plpgsql as $$
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id) select distinct day, ad_account_id from new_rows;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id) select distinct day, ad_account_id from old_rows;
      end if;
      return null;
    end $$;
    create trigger ad_dim_stats_ins after insert on ad_stats_daily referencing new table as new_rows for each statement execute function ad_dim_mark_stats();
    create trigger ad_dim_stats_upd after update on ad_stats_daily referencing old table as old_rows new table as new_rows for each statement execute function ad_dim_mark_stats();
    create trigger ad_dim_stats_del after delete on ad_stats_daily referencing old table as old_rows for each statement execute function ad_dim_mark_stats();

    -- ad_order_daily: the ad account of the mirrored ad (an ad mirrored later is marked by the ads trigger).
    create function ad_dim_mark_cohorts() returns trigger language plpgsql as $$
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id)
        select distinct r.day, a.ad_account_id from new_rows r join ads a on a.platform_id = r.ad_platform_id;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id)
        select distinct r.day, a.ad_account_id from old_rows r join ads a on a.platform_id = r.ad_platform_id;
      end if;
      return null;
    end $$;
    create trigger ad_dim_cohorts_ins after insert on ad_order_daily referencing new table as new_rows for each statement execute function ad_dim_mark_cohorts();
    create trigger ad_dim_cohorts_upd after update on ad_order_daily referencing old table as old_rows new table as new_rows for each statement execute function ad_dim_mark_cohorts();
    create trigger ad_dim_cohorts_del after delete on ad_order_daily referencing old table as old_rows for each statement execute function ad_dim_mark_cohorts();

    -- orders: the paid day of organic orders (account 0), and of attributed ones (order counts).
    create function ad_dim_mark_orders() returns trigger language plpgsql as $$
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id)
        select distinct r.paid_day, coalesce(a.ad_account_id, 0) from new_rows r left join ads a on a.platform_id = r.ad_platform_id
        where r.ad_platform_id is null or a.id is not null;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id)
        select distinct r.paid_day, coalesce(a.ad_account_id, 0) from old_rows r left join ads a on a.platform_id = r.ad_platform_id
        where r.ad_platform_id is null or a.id is not null;
      end if;
      return null;
    end $$;
    create trigger ad_dim_orders_ins after insert on orders referencing new table as new_rows for each statement execute function ad_dim_mark_orders();
    create trigger ad_dim_orders_upd after update on orders referencing old table as old_rows new table as new_rows for each statement execute function ad_dim_mark_orders();
    create trigger ad_dim_orders_del after delete on orders referencing old table as old_rows for each statement execute function ad_dim_mark_orders();

    -- order_refunds: the refund day of organic orders (attributed refunds reach ad_order_daily).
    create function ad_dim_mark_refunds() returns trigger language plpgsql as $$
    begin
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id)
        select distinct r.refund_day, 0 from new_rows r join orders o on o.id = r.order_id where o.ad_platform_id is null;
      end if;
      if tg_op in ('DELETE', 'UPDATE') then
        insert into ad_dim_dirty (day, ad_account_id)
        select distinct r.refund_day, 0 from old_rows r join orders o on o.id = r.order_id where o.ad_platform_id is null;
      end if;
      return null;
    end $$;
    create trigger ad_dim_refunds_ins after insert on order_refunds referencing new table as new_rows for each statement execute function ad_dim_mark_refunds();
    create trigger ad_dim_refunds_upd after update on order_refunds referencing old table as old_rows new table as new_rows for each statement execute function ad_dim_mark_refunds();
    create trigger ad_dim_refunds_del after delete on order_refunds referencing old table as old_rows for each statement execute function ad_dim_mark_refunds();

    -- ads: a newly mirrored ad brings its orders in; a changed dimension moves its figures.
    create function ad_dim_mark_ad() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        insert into ad_dim_dirty (day, ad_account_id)
        select s.day, old.ad_account_id from ad_stats_daily s where s.ad_id = old.id
        union select d.day, old.ad_account_id from ad_order_daily d where d.ad_platform_id = old.platform_id;
      end if;
      insert into ad_dim_dirty (day, ad_account_id)
      select s.day, new.ad_account_id from ad_stats_daily s where s.ad_id = new.id
      union select d.day, new.ad_account_id from ad_order_daily d where d.ad_platform_id = new.platform_id;
      return null;
    end $$;
    create trigger ad_dim_ad_ins after insert on ads for each row execute function ad_dim_mark_ad();
    create trigger ad_dim_ad_upd after update on ads for each row
      when (old.platform_id is distinct from new.platform_id or old.ad_account_id is distinct from new.ad_account_id
        or old.owner_user_id is distinct from new.owner_user_id or old.campaign_id is distinct from new.campaign_id
        or old.adset_id is distinct from new.adset_id or old.drama_id is distinct from new.drama_id
        or old.product_id is distinct from new.product_id or old.material_id is distinct from new.material_id
        or old.scheme_id is distinct from new.scheme_id or old.site_id is distinct from new.site_id)
      execute function ad_dim_mark_ad();

    -- ad sets (the country of order facts) and campaigns (their platform): the days of their ads' orders.
    create function ad_dim_mark_parent() returns trigger language plpgsql as $$
    begin
      insert into ad_dim_dirty (day, ad_account_id)
      select distinct d.day, a.ad_account_id from ads a join ad_order_daily d on d.ad_platform_id = a.platform_id
      where (tg_table_name = 'ad_sets' and a.adset_id = new.id) or (tg_table_name = 'ad_campaigns' and a.campaign_id = new.id);
      return null;
    end $$;
    create trigger ad_dim_adset_upd after update on ad_sets for each row
      when (old.countries is distinct from new.countries) execute function ad_dim_mark_parent();
    create trigger ad_dim_campaign_upd after update on ad_campaigns for each row
      when (old.platform is distinct from new.platform) execute function ad_dim_mark_parent();

    -- What exists already is built by the first refresh.
    insert into ad_dim_dirty (day, ad_account_id)
    select day, ad_account_id from ad_stats_daily
    union select d.day, a.ad_account_id from ad_order_daily d join ads a on a.platform_id = d.ad_platform_id
    union select paid_day, 0 from orders where ad_platform_id is null
    union select r.refund_day, 0 from order_refunds r join orders o on o.id = r.order_id where o.ad_platform_id is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger ad_dim_campaign_upd on ad_campaigns;
    drop trigger ad_dim_adset_upd on ad_sets;
    drop function ad_dim_mark_parent();
    drop trigger ad_dim_ad_upd on ads;
    drop trigger ad_dim_ad_ins on ads;
    drop function ad_dim_mark_ad();
    drop trigger ad_dim_refunds_ins on order_refunds;
    drop trigger ad_dim_refunds_upd on order_refunds;
    drop trigger ad_dim_refunds_del on order_refunds;
    drop function ad_dim_mark_refunds();
    drop trigger ad_dim_orders_ins on orders;
    drop trigger ad_dim_orders_upd on orders;
    drop trigger ad_dim_orders_del on orders;
    drop function ad_dim_mark_orders();
    drop trigger ad_dim_cohorts_ins on ad_order_daily;
    drop trigger ad_dim_cohorts_upd on ad_order_daily;
    drop trigger ad_dim_cohorts_del on ad_order_daily;
    drop function ad_dim_mark_cohorts();
    drop trigger ad_dim_stats_ins on ad_stats_daily;
    drop trigger ad_dim_stats_upd on ad_stats_daily;
    drop trigger ad_dim_stats_del on ad_stats_daily;
    drop function ad_dim_mark_stats();
    drop index orders_organic_day_idx;
    drop table ad_dim_dirty;
    drop table ad_dim_daily;
  `.execute(db);
}
