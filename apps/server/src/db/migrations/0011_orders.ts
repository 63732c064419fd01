import { sql, type Kysely } from 'kysely';

/**
 * Orders (issue 9): what the company's sites send to the order webhook (API.md "Orders") or an
 * import brings in. Money is integer minor units of `currency`; days are REPORT_TIMEZONE days.
 *
 * - order_buyers: one per (site, app user): their first paid order, the day it fell on (the
 *   acquisition day of cohort ROI) and the ad that acquired them (platform ids, from the landing
 *   URL parsed with the site's link template, else the ids the site sent; none = organic).
 * - orders: one per (site, order_no), carrying the buyer's attribution (a buyer's later orders
 *   inherit it), so reports group orders without a join.
 * - order_refunds: refunds with their own time and day.
 * - order_events: every accepted event as received (the order detail shows them); the key
 *   (site, order_no, event) and the content hash make resends idempotent.
 * - order_deliveries: one row per webhook request of a known site, accepted or refused (the
 *   sites screen's last deliveries and failures).
 * - sites: the previous webhook secret stays valid 24 hours after a rotation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sites
      add column webhook_secret_prev_enc text,
      add column webhook_secret_rotated_at timestamptz;

    create table order_buyers (
      id serial primary key,
      site_id integer not null references sites(id),
      app_user_id text not null,
      registered_at timestamptz,
      country text,
      first_order_no text not null,
      first_paid_at timestamptz not null,
      -- REPORT_TIMEZONE day of first_paid_at: the cohort the buyer belongs to.
      acquisition_day date not null,
      -- The acquiring ad (platform ids); all null = organic.
      campaign_platform_id text,
      adset_platform_id text,
      ad_platform_id text,
      attribution_source text check (attribution_source in ('landing_url', 'payload')),
      -- paid_at of the order the attribution was read from (an earlier attributed order replaces it).
      attributed_paid_at timestamptz,
      landing_url text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index order_buyers_site_user_key on order_buyers (site_id, app_user_id);
    create index order_buyers_ad_day_idx on order_buyers (ad_platform_id, acquisition_day) where ad_platform_id is not null;
    create index order_buyers_campaign_day_idx on order_buyers (campaign_platform_id, acquisition_day) where campaign_platform_id is not null;

    create table orders (
      id serial primary key,
      site_id integer not null references sites(id),
      order_no text not null,
      buyer_id integer not null references order_buyers(id),
      app_user_id text not null,
      status text not null check (status in ('paid', 'partially_refunded', 'refunded')),
      currency text not null,
      amount_minor bigint not null check (amount_minor > 0),
      refunded_minor bigint not null default 0 check (refunded_minor >= 0 and refunded_minor <= amount_minor),
      -- USD cents at the reference rate of lib/fx.ts (the report engine may recompute from fx_rates).
      amount_usd_cents bigint,
      refunded_usd_cents bigint not null default 0,
      paid_at timestamptz not null,
      paid_day date not null,
      refunded_at timestamptz,
      user_registered_at timestamptz,
      country text,
      landing_url text,
      -- The buyer's attribution, copied (kept in step with order_buyers).
      campaign_platform_id text,
      adset_platform_id text,
      ad_platform_id text,
      attribution_source text check (attribution_source in ('landing_url', 'payload')),
      -- The buyer's first paid order on this site.
      is_new_payer boolean not null,
      -- Drama sites: the site's drama id (external) and ours when the catalog has it; episode.
      drama_external_id text,
      drama_id integer references dramas(id),
      episode integer,
      -- Shop sites: product (external and ours), quantity and unit price (amount ÷ quantity).
      product_external_id text,
      product_id integer references products(id),
      quantity integer,
      unit_price_minor bigint,
      source text not null check (source in ('webhook', 'import')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index orders_site_order_no_key on orders (site_id, order_no);
    create index orders_site_paid_idx on orders (site_id, paid_at desc);
    create index orders_paid_day_idx on orders (paid_day);
    create index orders_buyer_idx on orders (buyer_id, paid_at);
    create index orders_ad_day_idx on orders (ad_platform_id, paid_day) where ad_platform_id is not null;
    create index orders_campaign_day_idx on orders (campaign_platform_id, paid_day) where campaign_platform_id is not null;
    create index orders_drama_day_idx on orders (drama_id, paid_day) where drama_id is not null;
    create index orders_created_idx on orders (site_id, created_at desc);

    create table order_refunds (
      id serial primary key,
      order_id integer not null references orders(id),
      site_id integer not null references sites(id),
      currency text not null,
      amount_minor bigint not null check (amount_minor > 0),
      amount_usd_cents bigint,
      refunded_at timestamptz not null,
      refund_day date not null,
      created_at timestamptz not null default now()
    );
    create index order_refunds_order_idx on order_refunds (order_id);
    create index order_refunds_day_idx on order_refunds (refund_day);

    create table order_deliveries (
      id serial primary key,
      site_id integer not null references sites(id),
      received_at timestamptz not null,
      -- Events in the request (null when the body could not be read).
      events integer,
      accepted integer not null default 0,
      duplicates integer not null default 0,
      http_status integer not null,
      result text not null check (result in ('ok', 'bad_signature', 'stale_timestamp', 'invalid', 'conflict', 'too_large')),
      message text not null default '',
      bytes integer not null default 0
    );
    create index order_deliveries_site_idx on order_deliveries (site_id, received_at desc);

    create table order_events (
      id serial primary key,
      site_id integer not null references sites(id),
      order_no text not null,
      event text not null check (event in ('order.paid', 'order.refunded')),
      order_id integer references orders(id),
      -- sha256 of the event's normalised content: the same content again is a duplicate, other content a conflict.
      content_hash text not null,
      payload jsonb not null,
      source text not null check (source in ('webhook', 'import')),
      delivery_id integer references order_deliveries(id) on delete set null,
      received_at timestamptz not null
    );
    create unique index order_events_key on order_events (site_id, order_no, event);
    create index order_events_order_idx on order_events (order_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table order_events;
    drop table order_deliveries;
    drop table order_refunds;
    drop table orders;
    drop table order_buyers;
    alter table sites drop column webhook_secret_prev_enc, drop column webhook_secret_rotated_at;
  `.execute(db);
}
