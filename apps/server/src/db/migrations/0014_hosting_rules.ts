import { sql, type Kysely } from 'kysely';

/**
 * Hosting rules (issue 10, features/rules and features/notifications):
 *
 * - `hosting_rules`: the rule as the editor saved it (scope, filters, conditions, action,
 *   stop-loss, schedule, notify as jsonb, validated by the contracts), its owner, and the
 *   engine's bookkeeping: the last schedule slot evaluated, consecutive failures, why it was
 *   switched off. Soft-deleted, so the history keeps its name.
 * - `rule_evaluations`: one per (rule, trigger, slot) — the unique key makes a schedule tick
 *   idempotent: a second run of the same tick finds the row and acts on nothing.
 * - `rule_firings`: what an evaluation did or would have done to each object it matched, with
 *   the figures; unique per (evaluation, object), written before the platform call, so a run
 *   resumed after a crash never acts twice on an object.
 * - `rule_stops`: stop-loss pauses waiting for the next day of the object's market; one per
 *   (rule, object, report day).
 * - `notification_channels` (webhook URL, signing secret and SMTP password encrypted like tokens)
 *   and `notifications`: one row per message and channel, deduplicated by key (a repeat only
 *   counts `duplicates`), delivered and retried by a job, with the platform's answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table hosting_rules (
      id serial primary key,
      name text not null,
      enabled boolean not null default false,
      owner_user_id integer not null references users (id),
      template text,
      scope jsonb not null,
      level text not null check (level in ('campaign', 'adset', 'ad')),
      filters jsonb not null,
      conditions jsonb not null,
      action jsonb not null,
      action_type text not null,
      stop_loss jsonb not null,
      schedule jsonb not null,
      cooldown_minutes integer not null,
      max_actions_per_run integer not null,
      notify jsonb not null,
      consecutive_failures integer not null default 0,
      paused_reason text,
      paused_reason_en text,
      last_slot_at timestamptz,
      last_evaluated_at timestamptz,
      created_by integer references users (id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );
    create index hosting_rules_owner_idx on hosting_rules (owner_user_id) where deleted_at is null;
    create index hosting_rules_enabled_idx on hosting_rules (id) where enabled and deleted_at is null;

    create table rule_evaluations (
      id bigserial primary key,
      rule_id integer not null references hosting_rules (id),
      tick_at timestamptz not null,
      trigger text not null check (trigger in ('schedule', 'manual', 'revive')),
      status text not null default 'running' check (status in ('running', 'ok', 'partial', 'failed', 'skipped')),
      started_at timestamptz not null,
      finished_at timestamptz,
      accounts integer not null default 0,
      objects_checked integer not null default 0,
      matched integer not null default 0,
      acted integer not null default 0,
      failed integer not null default 0,
      skipped integer not null default 0,
      revived integer not null default 0,
      error text,
      error_en text,
      data_as_of timestamptz,
      unique (rule_id, trigger, tick_at)
    );
    create index rule_evaluations_started_idx on rule_evaluations (started_at desc, id desc);
    create index rule_evaluations_rule_idx on rule_evaluations (rule_id, started_at desc);

    create table rule_firings (
      id bigserial primary key,
      evaluation_id bigint not null references rule_evaluations (id),
      rule_id integer not null references hosting_rules (id),
      level text not null,
      object_id integer not null,
      object_platform_id text not null,
      object_name text not null default '',
      ad_account_id integer not null references ad_accounts (id),
      action text not null,
      outcome text not null,
      "values" jsonb not null default '[]',
      before jsonb not null default '{}',
      after jsonb not null default '{}',
      error text,
      error_en text,
      operation_id bigint,
      created_at timestamptz not null,
      unique (evaluation_id, level, object_id)
    );
    create index rule_firings_cooldown_idx on rule_firings (rule_id, level, object_id, created_at desc);
    create index rule_firings_created_idx on rule_firings (created_at desc, id desc);
    create index rule_firings_account_idx on rule_firings (ad_account_id, created_at desc);

    create table rule_stops (
      id bigserial primary key,
      rule_id integer not null references hosting_rules (id),
      level text not null,
      object_id integer not null,
      ad_account_id integer not null references ad_accounts (id),
      firing_id bigint references rule_firings (id),
      operation_id bigint,
      report_day date not null,
      paused_at timestamptz not null,
      revive_at timestamptz,
      status text not null default 'paused' check (status in ('paused', 'revived', 'kept_off', 'cancelled')),
      settled_at timestamptz,
      unique (rule_id, level, object_id, report_day)
    );
    create index rule_stops_due_idx on rule_stops (revive_at) where status = 'paused';

    create table notification_channels (
      id serial primary key,
      name text not null,
      type text not null check (type in ('feishu', 'dingtalk', 'wecom', 'slack', 'email')),
      enabled boolean not null default true,
      system_alerts boolean not null default false,
      lang text not null default 'zh' check (lang in ('zh', 'en')),
      rate_limit_per_minute integer not null default 20,
      owner_user_id integer not null references users (id),
      webhook_url_enc text,
      secret_enc text,
      email jsonb,
      smtp_password_enc text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    );

    create table notifications (
      id bigserial primary key,
      channel_id integer not null references notification_channels (id),
      kind text not null,
      dedupe_key text,
      duplicates integer not null default 0,
      rule_id integer references hosting_rules (id),
      title text not null,
      title_en text not null,
      body jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      http_status integer,
      error text,
      response text,
      created_at timestamptz not null,
      sent_at timestamptz
    );
    create unique index notifications_dedupe_idx on notifications (channel_id, dedupe_key) where dedupe_key is not null;
    create index notifications_due_idx on notifications (next_attempt_at) where status = 'pending';
    create index notifications_channel_idx on notifications (channel_id, created_at desc);
    create index notifications_sent_idx on notifications (channel_id, sent_at) where status = 'sent';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table notifications;
    drop table notification_channels;
    drop table rule_stops;
    drop table rule_firings;
    drop table rule_evaluations;
    drop table hosting_rules;
  `.execute(db);
}
