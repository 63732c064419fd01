import { sql, type Kysely } from 'kysely';

/**
 * The order facts of ad_order_daily rolled up per campaign and report day (issue 7/9 benchmarks,
 * bench/README.md "Reports" and "Orders"), beside campaign_stats_daily for the insights: the
 * optimizer, account and campaign views read it instead of joining every ad-day of the range to
 * the ad mirror by its text platform id before the scope can apply.
 *
 * Grain: one row per (campaign, day) and per value of the scope and filter columns the ad-level
 * join gives (the ad's account, owner, drama and product, the campaign's platform), so every
 * filter of the views means exactly what it meant on the ad-level rows; usually one row per
 * campaign-day. Kept current by the rollup refresher of migration 0015 (dim-rollups.ts
 * rebuildPairs): the same (day, ad account) pairs, rebuilt in the same transaction.
 *
 * ads rows are never deleted by the product, but a deleted ad would leave both rollups stale:
 * a delete trigger logs its days like any other change of an ad.
 */

/** The order facts of ad_order_daily, summed. */
export const CAMPAIGN_ORDER_FACTS = ['revenue_usd_cents', 'payers', 'new_payers', 'cohort_d0_usd_cents', 'cohort_d1_usd_cents', 'cohort_d3_usd_cents', 'cohort_d7_usd_cents', 'cohort_d14_usd_cents', 'cohort_d30_usd_cents'] as const;

/** (Re)fills campaign_order_daily from every ad_order_daily row of a mirrored ad (the bench calls it after generating orders). */
export async function backfillCampaignOrders(db: Kysely<unknown>): Promise<void> {
  const facts = CAMPAIGN_ORDER_FACTS.join(', ');
  const sums = CAMPAIGN_ORDER_FACTS.map((c) => `sum(d.${c})`).join(', ');
  await sql`
    truncate campaign_order_daily;
    insert into campaign_order_daily (campaign_id, day, ad_account_id, owner_user_id, platform, drama_id, product_id, ${sql.raw(facts)})
    select a.campaign_id, d.day, a.ad_account_id, a.owner_user_id, c.platform, a.drama_id, a.product_id, ${sql.raw(sums)}
    from ad_order_daily d join ads a on a.platform_id = d.ad_platform_id join ad_campaigns c on c.id = a.campaign_id
    group by a.campaign_id, d.day, a.ad_account_id, a.owner_user_id, c.platform, a.drama_id, a.product_id
    -- Stored as the refresher writes them, a (day, ad account) at a time: a report reads an account's
    -- or a person's days, and rows of one account-day side by side are a few pages instead of one
    -- page each (a leader's 30 days: 80 ms → see bench/README.md "Reports").
    order by d.day, a.ad_account_id, a.campaign_id;
    -- Statistics now: until autovacuum comes by, the planner would take the filled table for empty.
    analyze campaign_order_daily;
  `.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const facts = CAMPAIGN_ORDER_FACTS.map((c) => `${c} bigint not null default 0`).join(',\n      ');
  await sql`
    create table campaign_order_daily (
      campaign_id integer not null,
      day date not null,
      ad_account_id integer not null,
      owner_user_id integer,
      platform text,
      drama_id integer,
      product_id integer,
      ${sql.raw(facts)}
    );
    -- The refresher's (day, ad account) pairs, and ranges read without scope (managers).
    create index campaign_order_daily_day_account_idx on campaign_order_daily (day, ad_account_id);
    -- Scope led by the account or the person, as 0017 does for campaign_stats_daily.
    create index campaign_order_daily_account_day_idx on campaign_order_daily (ad_account_id, day);
    create index campaign_order_daily_owner_day_idx on campaign_order_daily (owner_user_id, day);

    -- A deleted ad: the days of its figures, under its account (0015 logs inserts and updates only).
    create function ad_dim_mark_ad_deleted() returns trigger language plpgsql as $$
    begin
      insert into ad_dim_dirty (day, ad_account_id)
      select s.day, old.ad_account_id from ad_stats_daily s where s.ad_id = old.id
      union select d.day, old.ad_account_id from ad_order_daily d where d.ad_platform_id = old.platform_id;
      return null;
    end $$;
    create trigger ad_dim_ad_del after delete on ads for each row execute function ad_dim_mark_ad_deleted();
  `.execute(db);
  await backfillCampaignOrders(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger ad_dim_ad_del on ads;
    drop function ad_dim_mark_ad_deleted();
    drop table campaign_order_daily;
  `.execute(db);
}
