import { REQUIRED_SCOPES, type Lang, type ListPersonalAccountsBody, type PersonalAccount } from '@ads/contracts';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike, iso } from '../../lib/sql.ts';
import { currentHealth, currentStatusSql, reasonText } from '../../lib/token-health.ts';

export type PersonalAccountFilters = Omit<ListPersonalAccountsBody, 'page' | 'page_size'>;

/** Personal accounts a caller sees: owned by one of `owners` (null = all, managers). */
export interface PersonalAccountScope {
  owners: number[] | null;
}

function base(db: Db, f: PersonalAccountFilters, scope: PersonalAccountScope, now: Date) {
  let q = db.selectFrom('personal_accounts as pa').leftJoin('users as o', 'o.id', 'pa.owner_user_id').where('pa.deleted_at', 'is', null);
  if (scope.owners) {
    const owners = scope.owners;
    q = owners.length ? q.where('pa.owner_user_id', 'in', owners) : q.where(sql<boolean>`false`);
  }
  if (f.owner_user_id) q = q.where('pa.owner_user_id', '=', f.owner_user_id);
  if (f.hosted !== undefined) q = q.where('pa.hosted', '=', f.hosted);
  if (f.status) q = q.where(currentStatusSql(now), '=', f.status);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('pa.name', 'ilike', like), eb('pa.fb_user_id', 'ilike', like)]));
  }
  return q;
}

type Base = ReturnType<typeof base>;

function withColumns(q: Base) {
  return q.select([
    'pa.id',
    'pa.fb_user_id',
    'pa.name',
    'pa.status',
    'pa.status_reason_key',
    'pa.status_reason_params',
    'pa.token_expires_at',
    'pa.data_access_expires_at',
    'pa.scopes',
    'pa.owner_user_id',
    'o.name as owner_name',
    'pa.hosted',
    'pa.last_checked_at',
    'pa.last_synced_at',
    'pa.last_sync_status',
    'pa.last_sync_error',
    'pa.last_sync_error_en',
    'pa.created_at',
    sql<number>`(select count(*) from personal_account_ad_accounts l where l.personal_account_id = pa.id and l.reachable)`.as('ad_account_count'),
    sql<number>`(select count(*) from personal_account_pages l where l.personal_account_id = pa.id and l.reachable)`.as('page_count'),
    // Pixels the platform reports on the ad accounts this token reaches.
    sql<number>`(select count(distinct x.pixel_id) from pixel_ad_accounts x
      join personal_account_ad_accounts l on l.ad_account_id = x.ad_account_id and l.personal_account_id = pa.id and l.reachable
      where x.source = 'platform')`.as('pixel_count'),
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

export function toPersonalAccount(r: Row, lang: Lang, now: Date): PersonalAccount {
  const health = currentHealth(r, now);
  return {
    id: r.id,
    fb_user_id: r.fb_user_id,
    name: r.name,
    status: health.status,
    status_reason: reasonText(health, lang),
    token_expires_at: iso(r.token_expires_at),
    data_access_expires_at: iso(r.data_access_expires_at),
    scopes: r.scopes,
    missing_scopes: REQUIRED_SCOPES.filter((s) => !r.scopes.includes(s)),
    owner: r.owner_user_id !== null ? { id: r.owner_user_id, name: r.owner_name ?? '' } : null,
    hosted: r.hosted,
    ad_account_count: Number(r.ad_account_count),
    page_count: Number(r.page_count),
    pixel_count: Number(r.pixel_count),
    last_checked_at: iso(r.last_checked_at),
    last_synced_at: iso(r.last_synced_at),
    last_sync_status: r.last_sync_status,
    // English when the caller wants it and it was stored (null: the same text, or written before there was an English column).
    last_sync_error: lang === 'en' && r.last_sync_error_en !== null ? r.last_sync_error_en : r.last_sync_error,
    created_at: r.created_at.toISOString(),
  };
}

export async function listPersonalAccounts(db: Db, body: ListPersonalAccountsBody, scope: PersonalAccountScope, lang: Lang, now: Date) {
  const q = base(db, body, scope, now);
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'name' ? 'asc' : 'desc';
  const [rows, count, outside_scope] = await Promise.all([
    withColumns(q)
      .orderBy(field === 'name' ? sql`lower(pa.name)` : sql.ref(`pa.${field}`), (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('pa.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    outsideScope(db, body, scope, now),
  ]);
  return { list: rows.map((r) => toPersonalAccount(r, lang, now)), total: Number(count.total), outside_scope };
}

/** How many personal accounts matching the filters the caller cannot see (0 for managers): one count query. */
async function outsideScope(db: Db, f: PersonalAccountFilters, scope: PersonalAccountScope, now: Date): Promise<number> {
  if (!scope.owners) return 0;
  const owners = scope.owners;
  const row = await base(db, f, { owners: null }, now)
    .where((eb) => eb.or([eb('pa.owner_user_id', 'is', null), ...(owners.length ? [eb('pa.owner_user_id', 'not in', owners)] : [sql<boolean>`true`])]))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One personal account (not disconnected) as the list shows it. */
export async function findPersonalAccount(db: Db, id: number, lang: Lang, now: Date) {
  const row = await withColumns(base(db, {}, { owners: null }, now).where('pa.id', '=', id)).executeTakeFirst();
  return row && toPersonalAccount(row, lang, now);
}

/** The stored row (not disconnected), token ciphertext included: for services only, never for answers. */
export function findPersonalAccountRow(db: Db, id: number) {
  return db.selectFrom('personal_accounts').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Queued runs of `jobName` that continue a paused sync (their data holds `resume`), except one run. */
export function queuedContinuationRuns(db: Db, jobName: string, exceptRunId: number) {
  return db
    .selectFrom('job_runs')
    .select(['id', 'data'])
    .where('job_name', '=', jobName)
    .where('status', '=', 'queued')
    .where('id', '!=', exceptRunId)
    .where(sql<boolean>`data -> 'resume' is not null`)
    .execute();
}

/** Connected personal accounts (a token stored) by id: the listed ones, or without ids every one whose token is not known invalid. */
export function connectedAccountsToSync(db: Db, ids: readonly number[] | undefined) {
  let q = db.selectFrom('personal_accounts').select(['id', 'name', 'last_synced_at']).where('deleted_at', 'is', null).where('token_enc', 'is not', null);
  q = ids ? q.where('id', 'in', ids.length ? [...ids] : [0]) : q.where('status', '!=', 'invalid');
  return q.orderBy('id').execute();
}

/** Every connected personal account (a token stored), by id. */
export function connectedAccounts(db: Db) {
  return db.selectFrom('personal_accounts').select(['id', 'name']).where('deleted_at', 'is', null).where('token_enc', 'is not', null).orderBy('id').execute();
}

/** Personal accounts (not deleted) by id, whole rows. */
export function personalAccountRows(db: Db, ids: readonly number[]) {
  return db.selectFrom('personal_accounts').selectAll().where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute();
}

/** Marks the accounts' sync queued, except those syncing now. */
export async function markSyncQueued(db: Db, ids: readonly number[]) {
  await db.updateTable('personal_accounts').set({ last_sync_status: 'queued' }).where('id', 'in', [...ids]).where('last_sync_status', 'is distinct from', 'running').execute();
}

/** The connected (not deleted) personal account of a Facebook user. */
export function findByFacebookUser(db: Db, fbUserId: string) {
  return db.selectFrom('personal_accounts').selectAll().where('fb_user_id', '=', fbUserId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Inserts, or updates the live row of the same Facebook user: the conflict target covers two connects racing each other. */
export function upsertPersonalAccount(trx: Db, values: Insertable<DB['personal_accounts']> & Updateable<DB['personal_accounts']>, now: Date) {
  return trx
    .insertInto('personal_accounts')
    .values({ ...values, created_at: now })
    .onConflict((oc) =>
      oc
        .column('fb_user_id')
        .where('deleted_at', 'is', null)
        .doUpdateSet({ ...values }),
    )
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function updatePersonalAccount(trx: Db, id: number, set: Updateable<DB['personal_accounts']>) {
  await trx.updateTable('personal_accounts').set(set).where('id', '=', id).execute();
}

/** Soft delete: the token and page tokens are wiped, the links it had marked unreachable. */
export async function softDeletePersonalAccount(trx: Db, id: number, now: Date) {
  await trx.updateTable('personal_accounts').set({ deleted_at: now, token_enc: null, updated_at: now }).where('id', '=', id).execute();
  await trx.updateTable('personal_account_pages').set({ page_token_enc: null, reachable: false }).where('personal_account_id', '=', id).execute();
  await trx.updateTable('personal_account_ad_accounts').set({ reachable: false }).where('personal_account_id', '=', id).execute();
}

// OAuth states (one use, short-lived).

export async function deleteOAuthStatesBefore(trx: Db, before: Date) {
  await trx.deleteFrom('oauth_states').where('expires_at', '<', before).execute();
}

export async function insertOAuthState(trx: Db, values: Insertable<DB['oauth_states']>) {
  await trx.insertInto('oauth_states').values(values).execute();
}

/** An unused, unexpired state. */
export function findOpenOAuthState(db: Db, stateHash: string, now: Date) {
  return db.selectFrom('oauth_states').select(['browser_hash']).where('state_hash', '=', stateHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
}

/** Uses the state once, for the browser that started it; answers its user, or nothing when it was not open. */
export function claimOAuthState(db: Db, stateHash: string, browserHash: string, now: Date) {
  return db
    .updateTable('oauth_states')
    .set({ used_at: now })
    .where('state_hash', '=', stateHash)
    .where('browser_hash', '=', browserHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id'])
    .executeTakeFirst();
}

/** An enabled, not deleted user, as an actor for connecting. */
export function findEnabledUser(db: Db, id: number) {
  return db.selectFrom('users').select(['id', 'account', 'is_admin', 'is_leader', 'department_id']).where('id', '=', id).where('deleted_at', 'is', null).where('status', '=', 'enabled').executeTakeFirst();
}
