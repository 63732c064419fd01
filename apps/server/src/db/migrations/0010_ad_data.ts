import { sql, type Kysely } from 'kysely';

// Ad data (issue 7, docs/ad-data-design.md): mirrors of the platform's campaigns, ad sets, ads
// and creatives; the insights facts per ad × account day and ad × hour; the report fact per
// ad × REPORT_TIMEZONE day in USD and its campaign rollup; the daily exchange rates; the
// append-only operation log; and each ad account's sync state.

/** Units of each currency per US dollar, seeded once as the first known rate (lib/fx.ts's table before this migration). */
const SEED_RATES: Record<string, number> = {
  USD: 1, EUR: 0.92, GBP: 0.79, CNY: 7.2, HKD: 7.8, TWD: 32, JPY: 150, KRW: 1350, SGD: 1.35,
  AUD: 1.5, CAD: 1.36, NZD: 1.65, CHF: 0.88, BRL: 5, MXN: 17, INR: 83, IDR: 15600, THB: 36,
  VND: 24500, PHP: 56, MYR: 4.7, CLP: 900, COP: 3900, CRC: 520, HUF: 360, ISK: 138, PYG: 7300,
  TRY: 32, AED: 3.67, SAR: 3.75, ZAR: 18.5, PLN: 4, SEK: 10.5, NOK: 10.6, DKK: 6.9,
};

/** The summable facts of the report tables (contracts FACT_COLUMNS, plus spend in the account currency). */
const FACTS = `
  spend_minor bigint not null default 0,
  spend_usd_cents bigint not null default 0,
  impressions bigint not null default 0,
  clicks bigint not null default 0,
  link_clicks bigint not null default 0,
  landing_page_views bigint not null default 0,
  purchases bigint not null default 0,
  purchase_value_minor bigint not null default 0,
  purchase_value_usd_cents bigint not null default 0,
  add_to_cart bigint not null default 0,
  initiate_checkout bigint not null default 0,
  video_plays bigint not null default 0,
  video_p25 bigint not null default 0,
  video_p50 bigint not null default 0,
  video_p75 bigint not null default 0,
  video_p95 bigint not null default 0,
  video_p100 bigint not null default 0,
  thruplays bigint not null default 0,
  video_watch_ms bigint not null default 0`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ad_campaigns (
      id serial primary key,
      platform_id text not null unique,
      ad_account_id integer not null references ad_accounts (id),
      name text not null default '',
      status text not null,
      effective_status text not null,
      objective text,
      buying_type text,
      special_ad_categories text[] not null default '{}',
      -- Who holds the budget: the campaign (campaign budget) or its ad sets.
      budget_level text not null default 'adset' check (budget_level in ('campaign', 'adset')),
      daily_budget_minor bigint,
      lifetime_budget_minor bigint,
      budget_remaining_minor bigint,
      currency text not null,
      bid_strategy text,
      bid_amount_minor bigint,
      roas_floor integer,
      start_time timestamptz,
      end_time timestamptz,
      created_time timestamptz,
      updated_time timestamptz,
      owner_user_id integer references users (id),
      -- How the owner was found (design §3): scheme wins over name over account.
      owner_source text check (owner_source in ('scheme', 'name', 'account', 'manual')),
      scheme_id integer,
      scheme_item_id integer,
      name_dims jsonb,
      platform text check (platform in ('dj', 'ec')),
      drama_id integer,
      product_id integer,
      deleted_at timestamptz,
      synced_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ad_campaigns_account_idx on ad_campaigns (ad_account_id);
    create index ad_campaigns_owner_idx on ad_campaigns (owner_user_id);

    create table ad_sets (
      id serial primary key,
      platform_id text not null unique,
      ad_account_id integer not null references ad_accounts (id),
      campaign_id integer not null references ad_campaigns (id),
      name text not null default '',
      status text not null,
      effective_status text not null,
      daily_budget_minor bigint,
      lifetime_budget_minor bigint,
      budget_remaining_minor bigint,
      currency text not null,
      bid_strategy text,
      bid_amount_minor bigint,
      roas_floor integer,
      optimization_goal text,
      billing_event text,
      pixel_id text,
      custom_event_type text,
      attribution_spec jsonb,
      targeting jsonb,
      countries text[] not null default '{}',
      start_time timestamptz,
      end_time timestamptz,
      created_time timestamptz,
      updated_time timestamptz,
      owner_user_id integer references users (id),
      owner_source text check (owner_source in ('scheme', 'name', 'account', 'manual')),
      scheme_id integer,
      scheme_item_id integer,
      name_dims jsonb,
      drama_id integer,
      product_id integer,
      deleted_at timestamptz,
      synced_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ad_sets_campaign_idx on ad_sets (campaign_id);
    create index ad_sets_account_idx on ad_sets (ad_account_id);
    create index ad_sets_countries_idx on ad_sets using gin (countries);

    create table ad_creatives (
      id serial primary key,
      platform_id text not null unique,
      ad_account_id integer not null references ad_accounts (id),
      name text not null default '',
      status text,
      object_story_id text,
      video_platform_id text,
      image_hash text,
      page_id text,
      call_to_action text,
      link_url text,
      url_tags text,
      texts jsonb,
      material_id integer references materials (id),
      cover_material_id integer references materials (id),
      created_time timestamptz,
      synced_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ad_creatives_account_idx on ad_creatives (ad_account_id);

    create table ads (
      id serial primary key,
      platform_id text not null unique,
      ad_account_id integer not null references ad_accounts (id),
      campaign_id integer not null references ad_campaigns (id),
      adset_id integer not null references ad_sets (id),
      name text not null default '',
      status text not null,
      effective_status text not null,
      creative_id integer references ad_creatives (id),
      creative_platform_id text,
      material_id integer references materials (id),
      cover_material_id integer references materials (id),
      landing_url text,
      url_tags text,
      site_id integer references sites (id),
      drama_id integer references dramas (id),
      episode integer,
      product_id integer references products (id),
      created_time timestamptz,
      updated_time timestamptz,
      owner_user_id integer references users (id),
      owner_source text check (owner_source in ('scheme', 'name', 'account', 'manual')),
      scheme_id integer,
      scheme_item_id integer,
      name_dims jsonb,
      deleted_at timestamptz,
      synced_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ads_adset_idx on ads (adset_id);
    create index ads_campaign_idx on ads (campaign_id);
    create index ads_account_idx on ads (ad_account_id);
    create index ads_material_idx on ads (material_id) where material_id is not null;
    create index ads_drama_idx on ads (drama_id) where drama_id is not null;

    -- Facts as the platform reports them: date in the ad account's time zone, money in its currency.
    create table ad_insights_daily (
      ad_id integer not null references ads (id),
      date date not null,
      spend_minor bigint not null default 0,
      impressions bigint not null default 0,
      clicks bigint not null default 0,
      link_clicks bigint not null default 0,
      landing_page_views bigint not null default 0,
      purchases bigint not null default 0,
      purchase_value_minor bigint not null default 0,
      add_to_cart bigint not null default 0,
      initiate_checkout bigint not null default 0,
      video_plays bigint not null default 0,
      video_p25 bigint not null default 0,
      video_p50 bigint not null default 0,
      video_p75 bigint not null default 0,
      video_p95 bigint not null default 0,
      video_p100 bigint not null default 0,
      thruplays bigint not null default 0,
      video_watch_ms bigint not null default 0,
      synced_at timestamptz not null,
      primary key (ad_id, date)
    );

    -- hour: the UTC instant the hour starts (from the account-zone bucket of the platform).
    create table ad_insights_hourly (
      ad_id integer not null references ads (id),
      hour timestamptz not null,
      spend_minor bigint not null default 0,
      impressions bigint not null default 0,
      clicks bigint not null default 0,
      synced_at timestamptz not null,
      primary key (ad_id, hour)
    );
    create index ad_insights_hourly_hour_idx on ad_insights_hourly (hour);

    -- The report fact: day in REPORT_TIMEZONE, USD beside the account currency, denormalised dimensions.
    create table ad_stats_daily (
      ad_id integer not null references ads (id),
      day date not null,
      ad_account_id integer not null,
      campaign_id integer not null,
      adset_id integer not null,
      owner_user_id integer,
      platform text,
      drama_id integer,
      product_id integer,
      material_id integer,
      country text,
      currency text not null,
      ${sql.raw(FACTS)},
      primary key (ad_id, day)
    );
    create index ad_stats_daily_day_account_idx on ad_stats_daily (day, ad_account_id);
    create index ad_stats_daily_day_owner_idx on ad_stats_daily (day, owner_user_id);
    create index ad_stats_daily_adset_day_idx on ad_stats_daily (adset_id, day);
    create index ad_stats_daily_campaign_day_idx on ad_stats_daily (campaign_id, day);
    create index ad_stats_daily_day_drama_idx on ad_stats_daily (day, drama_id) where drama_id is not null;
    create index ad_stats_daily_day_material_idx on ad_stats_daily (day, material_id) where material_id is not null;

    create table campaign_stats_daily (
      campaign_id integer not null references ad_campaigns (id),
      day date not null,
      ad_account_id integer not null,
      owner_user_id integer,
      platform text,
      drama_id integer,
      product_id integer,
      currency text not null,
      ${sql.raw(FACTS)},
      primary key (campaign_id, day)
    );
    create index campaign_stats_daily_day_account_idx on campaign_stats_daily (day, ad_account_id);
    create index campaign_stats_daily_day_owner_idx on campaign_stats_daily (day, owner_user_id);

    -- A day without a rate uses the last known earlier one.
    create table fx_rates (
      currency text not null,
      day date not null,
      units_per_usd numeric(20, 8) not null check (units_per_usd > 0),
      updated_by integer references users (id),
      updated_at timestamptz not null default now(),
      primary key (currency, day)
    );

    create table ad_operations (
      id bigserial primary key,
      batch_id uuid not null,
      actor_type text not null check (actor_type in ('user', 'rule', 'start_task', 'system')),
      actor_user_id integer references users (id),
      rule_id integer,
      start_task_id integer,
      action text not null check (action in ('activate', 'pause', 'budget', 'bid', 'rename', 'copy', 'delete', 'create')),
      level text not null check (level in ('campaign', 'adset', 'ad')),
      object_id integer,
      object_platform_id text not null,
      object_name text not null default '',
      ad_account_id integer not null references ad_accounts (id),
      before jsonb,
      after jsonb,
      result text not null default 'pending' check (result in ('pending', 'ok', 'failed')),
      error text,
      error_en text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index ad_operations_created_idx on ad_operations (created_at desc, id desc);
    create index ad_operations_account_idx on ad_operations (ad_account_id, created_at desc);
    create index ad_operations_pending_idx on ad_operations (created_at) where result = 'pending';
    create index ad_operations_object_idx on ad_operations (level, object_platform_id, created_at desc);
    create index ad_operations_batch_idx on ad_operations (batch_id);

    -- Append-only once final: a pending row may be completed once, a final row never changes.
    create function ad_operations_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' or old.result <> 'pending' then
        raise exception 'ad_operations rows are append-only';
      end if;
      return new;
    end $$;
    create trigger ad_operations_no_change before update or delete on ad_operations
      for each row execute function ad_operations_append_only();

    create table ad_account_sync_state (
      ad_account_id integer primary key references ad_accounts (id),
      -- updated_time high-water mark of the last complete structure sync (platform time).
      structure_since timestamptz,
      structure_synced_at timestamptz,
      insights_synced_at timestamptz,
      backfill_synced_at timestamptz,
      -- Last day (account zone) with spend: recently active accounts sync every 15 minutes.
      last_active_date date,
      status text not null default 'idle' check (status in ('idle', 'queued', 'running', 'paused', 'failed', 'no_token')),
      resume_at timestamptz,
      last_error text,
      last_error_en text,
      updated_at timestamptz not null default now()
    );
  `.execute(db);

  const rows = Object.entries(SEED_RATES).map(([currency, rate]) => sql`(${currency}, '2000-01-01'::date, ${rate})`);
  await sql`insert into fx_rates (currency, day, units_per_usd) values ${sql.join(rows)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table ad_account_sync_state;
    drop trigger ad_operations_no_change on ad_operations;
    drop function ad_operations_append_only();
    drop table ad_operations;
    drop table fx_rates;
    drop table campaign_stats_daily;
    drop table ad_stats_daily;
    drop table ad_insights_hourly;
    drop table ad_insights_daily;
    drop table ads;
    drop table ad_creatives;
    drop table ad_sets;
    drop table ad_campaigns;
  `.execute(db);
}
