import { sql, type Kysely } from 'kysely';

// Publishing (issue 8): schemes (方案) with one item per object to create (campaign, ad set,
// creative, ad), templates of the wizard's settings, and the material usages of published ads
// (tied to the local ad and a role, so only live ads count as "in use").

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table publish_templates (
      id serial primary key,
      name text not null,
      platform text not null check (platform in ('dj', 'ec')),
      visibility text not null default 'personal' check (visibility in ('personal', 'department')),
      owner_user_id integer not null references users (id),
      -- The owner's department when saved: who sees a shared template.
      department_id integer references departments (id),
      settings jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index publish_templates_owner_idx on publish_templates (owner_user_id) where deleted_at is null;
    create index publish_templates_department_idx on publish_templates (department_id) where deleted_at is null and visibility = 'department';

    create table publish_schemes (
      id serial primary key,
      name text not null,
      platform text not null check (platform in ('dj', 'ec')),
      status text not null default 'queued' check (status in ('queued', 'running', 'waiting', 'done', 'partial', 'failed', 'cancelling', 'cancelled')),
      drama_id integer references dramas (id),
      product_id integer references products (id),
      created_by integer not null references users (id),
      department_id integer references departments (id),
      template_id integer references publish_templates (id) on delete set null,
      -- The draft as submitted (defaults applied): "new from a past scheme" loads it again.
      draft jsonb not null,
      launch jsonb not null,
      planned jsonb not null,
      daily_budget_usd_cents bigint not null default 0,
      -- The start task (launch now / at a time), once queued.
      start_task_id bigint references job_runs (id) on delete set null,
      -- Why the scheme waits (rate limit, videos processing), zh-CN and English.
      message text,
      message_en text,
      cancel_requested_at timestamptz,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null default now()
    );
    create index publish_schemes_created_idx on publish_schemes (created_at desc, id desc);
    create index publish_schemes_user_idx on publish_schemes (created_by, created_at desc);

    create table publish_scheme_items (
      id serial primary key,
      scheme_id integer not null references publish_schemes (id),
      level text not null check (level in ('campaign', 'adset', 'creative', 'ad')),
      -- The preview key (a12.c1.s2.ad3), unique in the scheme.
      key text not null,
      -- ad set → its campaign item, ad → its ad set item; an ad's creative item beside it.
      parent_id integer references publish_scheme_items (id),
      creative_item_id integer references publish_scheme_items (id),
      ad_account_id integer not null references ad_accounts (id),
      -- Order of creation inside the scheme (campaigns first, then ad sets, creatives, ads).
      seq integer not null,
      name text not null,
      -- What the create call needs besides the parents' platform ids.
      spec jsonb not null,
      -- pending → creating (the call went out: a lookup by name and parent precedes any resend) → created | failed; cancelled.
      status text not null default 'pending' check (status in ('pending', 'creating', 'created', 'failed', 'cancelled')),
      platform_id text,
      object_id integer,
      material_id integer references materials (id),
      cover_material_id integer references materials (id),
      waiting_for text check (waiting_for in ('material_push', 'video_processing', 'rate_limit')),
      -- The platform's reason (the same in both languages) or ours: zh-CN, English.
      error text,
      error_en text,
      attempts integer not null default 0,
      sent_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (scheme_id, key)
    );
    create index publish_scheme_items_scheme_idx on publish_scheme_items (scheme_id, seq);
    create index publish_scheme_items_status_idx on publish_scheme_items (scheme_id, status);
    create index publish_scheme_items_platform_idx on publish_scheme_items (platform_id) where platform_id is not null;

    -- The ad of a usage and the material's role in it; usages written before carry no ad.
    alter table material_usages add column ad_id integer references ads (id);
    alter table material_usages add column role text not null default 'video' check (role in ('video', 'cover', 'image'));
    alter table material_usages drop constraint material_usages_pkey;
    alter table material_usages add primary key (material_id, platform_ad_id, role);
    create index material_usages_ad_idx on material_usages (ad_id) where ad_id is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index material_usages_ad_idx;
    alter table material_usages drop constraint material_usages_pkey;
    delete from material_usages where role <> 'video';
    alter table material_usages add primary key (material_id, platform_ad_id);
    alter table material_usages drop column role;
    alter table material_usages drop column ad_id;
    drop table publish_scheme_items;
    drop table publish_schemes;
    drop table publish_templates;
  `.execute(db);
}
