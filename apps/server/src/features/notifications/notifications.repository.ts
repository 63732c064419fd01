import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { escapeLike } from '../../lib/sql.ts';

// SQL of notification channels and their deliveries (issue 10).

export function findChannel(db: Db, id: number) {
  return db.selectFrom('notification_channels').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}
export type ChannelRow = NonNullable<Awaited<ReturnType<typeof findChannel>>>;

export interface ChannelFilters {
  ownerIds: number[] | null;
  type?: string;
  keyword?: string;
}

function channelQuery(db: Db, f: ChannelFilters) {
  let q = db.selectFrom('notification_channels as c').innerJoin('users as u', 'u.id', 'c.owner_user_id').where('c.deleted_at', 'is', null);
  if (f.ownerIds) q = q.where('c.owner_user_id', 'in', f.ownerIds.length ? f.ownerIds : [0]);
  if (f.type) q = q.where('c.type', '=', f.type as never);
  if (f.keyword) q = q.where('c.name', 'ilike', `%${escapeLike(f.keyword)}%`);
  return q;
}

export async function listChannels(db: Db, f: ChannelFilters, limit: number, offset: number) {
  const rows = await channelQuery(db, f)
    .selectAll('c')
    .select('u.name as owner_name')
    .select((eb) =>
      eb
        .selectFrom('notifications as n')
        .select(sql<unknown>`json_build_object('status', n.status, 'at', coalesce(n.sent_at, n.created_at), 'error', n.error)`.as('x'))
        .whereRef('n.channel_id', '=', 'c.id')
        .where('n.attempts', '>', 0)
        .orderBy('n.id', 'desc')
        .limit(1)
        .as('last_delivery'),
    )
    .orderBy('c.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = Number((await channelQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { rows, total };
}
export type ChannelListRow = Awaited<ReturnType<typeof listChannels>>['rows'][number];

/** Enabled channels among `ids`, plus (with `systemAlerts`) every enabled channel that takes system alerts. */
export function targetChannels(db: Db, ids: readonly number[], systemAlerts: boolean) {
  return db
    .selectFrom('notification_channels')
    .select(['id', 'lang'])
    .where('deleted_at', 'is', null)
    .where('enabled', '=', true)
    .where((eb) => eb.or([eb('id', 'in', ids.length ? [...ids] : [0]), ...(systemAlerts ? [eb('system_alerts', '=', true)] : [])]))
    .execute();
}

export interface NewNotification {
  channel_id: number;
  kind: string;
  dedupe_key: string | null;
  rule_id: number | null;
  title: string;
  title_en: string;
  body: string;
  created_at: Date;
  next_attempt_at: Date;
}

/** Queues a message for a channel; a repeat of a key already queued only counts as a duplicate. Answers the new row's id, or null. */
export async function queueNotification(db: Db, n: NewNotification): Promise<number | null> {
  const row = await db
    .insertInto('notifications')
    .values(n)
    .onConflict((oc) => oc.columns(['channel_id', 'dedupe_key']).where('dedupe_key', 'is not', null).doUpdateSet((eb) => ({ duplicates: eb('notifications.duplicates', '+', 1) })))
    .returning(['id', 'duplicates'])
    .executeTakeFirst();
  return row && row.duplicates === 0 ? row.id : null;
}

export function dueNotifications(db: Db, now: Date, limit: number) {
  return db.selectFrom('notifications').selectAll().where('status', '=', 'pending').where('next_attempt_at', '<=', now).orderBy('next_attempt_at').orderBy('id').limit(limit).execute();
}
export type NotificationRow = Awaited<ReturnType<typeof dueNotifications>>[number];

/** Messages a channel sent since an instant, oldest first (its rate limit). */
export async function sentSince(db: Db, channelId: number, since: Date): Promise<Date[]> {
  const rows = await db.selectFrom('notifications').select('sent_at').where('channel_id', '=', channelId).where('status', '=', 'sent').where('sent_at', '>', since).orderBy('sent_at').execute();
  return rows.map((r) => r.sent_at!);
}

export async function recordAttempt(db: Db, id: number, v: { status: 'pending' | 'sent' | 'failed'; attempts: number; next_attempt_at: Date | null; http_status: number | null; error: string | null; response: string | null; sent_at: Date | null }) {
  await db.updateTable('notifications').set(v).where('id', '=', id).execute();
}

export async function deferNotification(db: Db, id: number, at: Date) {
  await db.updateTable('notifications').set({ next_attempt_at: at }).where('id', '=', id).execute();
}

export function findNotification(db: Db, id: number) {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export interface DeliveryFilters {
  ownerIds: number[] | null;
  channelId?: number;
  status?: string;
  kind?: string;
  ruleId?: number;
}

function deliveryQuery(db: Db, f: DeliveryFilters) {
  let q = db.selectFrom('notifications as n').innerJoin('notification_channels as c', 'c.id', 'n.channel_id');
  if (f.ownerIds) q = q.where('c.owner_user_id', 'in', f.ownerIds.length ? f.ownerIds : [0]);
  if (f.channelId) q = q.where('n.channel_id', '=', f.channelId);
  if (f.status) q = q.where('n.status', '=', f.status as never);
  if (f.kind) q = q.where('n.kind', '=', f.kind);
  if (f.ruleId) q = q.where('n.rule_id', '=', f.ruleId);
  return q;
}

export async function listDeliveries(db: Db, f: DeliveryFilters, limit: number, offset: number) {
  const rows = await deliveryQuery(db, f).selectAll('n').select(['c.name as channel_name', 'c.type as channel_type']).orderBy('n.id', 'desc').limit(limit).offset(offset).execute();
  const total = Number((await deliveryQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { rows, total };
}
export type DeliveryListRow = Awaited<ReturnType<typeof listDeliveries>>['rows'][number];

// System alerts: what is wrong now.

export function troubledTokens(db: Db) {
  return db
    .selectFrom('personal_accounts')
    .select(['id', 'name', 'status', 'token_expires_at'])
    .where('deleted_at', 'is', null)
    .where('token_enc', 'is not', null)
    .where('status', 'in', ['expiring', 'invalid'])
    .orderBy('id')
    .execute();
}

/** Ad accounts the platform disabled or closed (account_status other than 1 ACTIVE). */
export function disabledAccounts(db: Db) {
  return db.selectFrom('ad_accounts').select(['id', 'name', 'platform_id', 'account_status']).where('account_status', '!=', 1).orderBy('id').execute();
}

/** Hosted ad accounts whose last sync failed or found no token. */
export function failingSyncs(db: Db) {
  return db
    .selectFrom('ad_account_sync_state as s')
    .innerJoin('ad_accounts as a', 'a.id', 's.ad_account_id')
    .select(['a.id', 'a.name', 'a.platform_id', 's.status', 's.last_error', 's.last_error_en'])
    .where('a.hosted', '=', true)
    .where('s.status', 'in', ['failed', 'no_token'])
    .orderBy('a.id')
    .execute();
}
