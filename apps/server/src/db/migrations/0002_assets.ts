import { sql, type Kysely } from 'kysely';

/**
 * Authorization and hosting assets (docs/api-assets.md): personal accounts (Facebook users and
 * their encrypted tokens), the ad accounts, pages and pixels synced from them, their associations
 * with users, sites with their drama / product catalogs, OAuth states, and app_settings (one row
 * per key; holds the generated token-encryption key when TOKEN_ENCRYPTION_KEY is not set).
 *
 * Rows synced from the platform are keyed by the platform id (unique), so a rerun of a sync, or a
 * sync killed midway and rerun, updates rows instead of adding duplicates. Ad accounts, pages and
 * pixels are never deleted by a sync: a link a token no longer reaches is marked unreachable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table app_settings (
      key text primary key,
      value text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table personal_accounts (
      id serial primary key,
      fb_user_id text not null,
      name text not null,
      -- AES-256-GCM (lib/crypto.ts); null once disconnected (the token is wiped).
      token_enc text,
      token_expires_at timestamptz,
      data_access_expires_at timestamptz,
      scopes text[] not null default '{}',
      token_type text,
      status text not null default 'valid' check (status in ('valid', 'expiring', 'invalid')),
      -- A message key of the catalogue (contracts/messages.ts) and its parameters, so the list
      -- explains the status in the reader's language.
      status_reason_key text,
      status_reason_params jsonb,
      owner_user_id integer references users(id),
      hosted boolean not null default false,
      last_checked_at timestamptz,
      last_synced_at timestamptz,
      last_sync_status text check (last_sync_status in ('queued', 'running', 'success', 'skipped', 'failed', 'cancelled')),
      last_sync_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    -- Connecting the same Facebook user again updates its row; a disconnected one may come back as a new row.
    create unique index personal_accounts_fb_user_key on personal_accounts (fb_user_id) where deleted_at is null;
    create index personal_accounts_owner_idx on personal_accounts (owner_user_id) where deleted_at is null;

    create table ad_accounts (
      id serial primary key,
      platform_id text not null unique,
      account_id text not null,
      name text not null,
      currency text not null,
      timezone_name text not null,
      timezone_offset_hours numeric(5, 2) not null default 0,
      account_status integer not null,
      disable_reason integer not null default 0,
      -- Minor units of currency, as the platform sends them (platform/currency.ts converts).
      amount_spent_minor bigint not null default 0,
      balance_minor bigint not null default 0,
      spend_cap_minor bigint,
      business_id text,
      business_name text,
      platform text check (platform in ('dj', 'ec')),
      hosted boolean not null default false,
      hosted_at timestamptz,
      remark text not null default '',
      last_synced_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index ad_accounts_status_idx on ad_accounts (account_status);
    create index ad_accounts_platform_idx on ad_accounts (platform);
    create index ad_accounts_currency_idx on ad_accounts (currency);
    create index ad_accounts_hosted_idx on ad_accounts (id) where hosted;

    -- Which personal accounts reach which ad accounts. reachable = false: the token no longer
    -- lists it (kept, so "who used to reach it" and the ad account's history stay).
    create table personal_account_ad_accounts (
      personal_account_id integer not null references personal_accounts(id),
      ad_account_id integer not null references ad_accounts(id),
      reachable boolean not null default true,
      first_seen_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      primary key (personal_account_id, ad_account_id)
    );
    create index personal_account_ad_accounts_account_idx on personal_account_ad_accounts (ad_account_id) where reachable;

    -- Ad accounts assigned to users (data scope of PRODUCT.md).
    create table user_ad_accounts (
      user_id integer not null references users(id),
      ad_account_id integer not null references ad_accounts(id),
      created_at timestamptz not null default now(),
      primary key (user_id, ad_account_id)
    );
    create index user_ad_accounts_account_idx on user_ad_accounts (ad_account_id);

    create table pages (
      id serial primary key,
      platform_id text not null unique,
      name text not null,
      category text,
      picture_url text,
      last_synced_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    -- A personal account's role on a page: its tasks and the page token (encrypted) it yields.
    create table personal_account_pages (
      personal_account_id integer not null references personal_accounts(id),
      page_id integer not null references pages(id),
      tasks text[] not null default '{}',
      page_token_enc text,
      reachable boolean not null default true,
      first_seen_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      primary key (personal_account_id, page_id)
    );
    create index personal_account_pages_page_idx on personal_account_pages (page_id) where reachable;

    -- 主页关联: which ad accounts and which users may use a page.
    create table page_ad_accounts (
      page_id integer not null references pages(id),
      ad_account_id integer not null references ad_accounts(id),
      created_at timestamptz not null default now(),
      primary key (page_id, ad_account_id)
    );
    create index page_ad_accounts_account_idx on page_ad_accounts (ad_account_id);
    create table page_users (
      page_id integer not null references pages(id),
      user_id integer not null references users(id),
      created_at timestamptz not null default now(),
      primary key (page_id, user_id)
    );
    create index page_users_user_idx on page_users (user_id);

    create table pixels (
      id serial primary key,
      platform_id text not null unique,
      name text not null,
      last_fired_at timestamptz,
      owner_business_id text,
      last_synced_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    -- Pixel ↔ ad account, one table with a source: 'platform' rows are facts the sync found
    -- (replaced on every sync of the accounts it covers), 'manual' rows are associations people
    -- made on /auth/pixel. Keeping both in one table lets the list read a single union, while the
    -- source in the key keeps the two writers apart: a sync never undoes what a person associated,
    -- and removing an association never hides what the platform reports.
    create table pixel_ad_accounts (
      pixel_id integer not null references pixels(id),
      ad_account_id integer not null references ad_accounts(id),
      source text not null check (source in ('platform', 'manual')),
      created_at timestamptz not null default now(),
      primary key (pixel_id, ad_account_id, source)
    );
    create index pixel_ad_accounts_account_idx on pixel_ad_accounts (ad_account_id);

    create table sites (
      id serial primary key,
      name text not null,
      domain text not null,
      platform text not null check (platform in ('dj', 'ec')),
      link_template text not null,
      pixel_id integer references pixels(id),
      -- The secret the site signs order webhooks with, AES-256-GCM encrypted; shown once.
      webhook_secret_enc text not null,
      remark text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index sites_domain_key on sites (lower(domain)) where deleted_at is null;

    create table dramas (
      id serial primary key,
      site_id integer not null references sites(id),
      external_id text not null,
      name text not null,
      language text not null,
      episode_count integer not null,
      cover_url text,
      tags text[] not null default '{}',
      test_status text not null default 'untested' check (test_status in ('untested', 'testing', 'passed', 'failed')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Soft delete: materials, schemes and orders will point at dramas.
      deleted_at timestamptz
    );
    create unique index dramas_site_external_key on dramas (site_id, external_id) where deleted_at is null;
    create index dramas_language_idx on dramas (language) where deleted_at is null;
    create index dramas_test_status_idx on dramas (test_status) where deleted_at is null;
    create index dramas_tags_idx on dramas using gin (tags);

    create table products (
      id serial primary key,
      site_id integer not null references sites(id),
      external_id text not null,
      name text not null,
      url text not null,
      price numeric(14, 2) not null,
      currency text not null,
      cover_url text,
      tags text[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index products_site_external_key on products (site_id, external_id) where deleted_at is null;
    create index products_tags_idx on products using gin (tags);

    -- OAuth dialog states: only a hash is kept; one use; 10 minutes.
    create table oauth_states (
      id serial primary key,
      state_hash text not null unique,
      user_id integer not null references users(id),
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index oauth_states_expires_idx on oauth_states (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table oauth_states; drop table products; drop table dramas; drop table sites;
    drop table pixel_ad_accounts; drop table pixels;
    drop table page_users; drop table page_ad_accounts; drop table personal_account_pages; drop table pages;
    drop table user_ad_accounts; drop table personal_account_ad_accounts; drop table ad_accounts;
    drop table personal_accounts; drop table app_settings;
  `.execute(db);
}
