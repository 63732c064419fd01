import type { Db } from '../../db/database.ts';
import { sql } from 'kysely';
import type { PlatformAdAccount, PlatformPixel } from '../../platform/types.ts';

/** The SQL of asset-sync.service.ts: what a sync writes for a personal account. */

/** Ad account columns the platform provides (compared to tell a change from a mere re-read). */
const AD_ACCOUNT_COLUMNS = [
  'account_id',
  'name',
  'currency',
  'timezone_name',
  'timezone_offset_hours',
  'account_status',
  'disable_reason',
  'amount_spent_minor',
  'balance_minor',
  'spend_cap_minor',
  'business_id',
  'business_name',
] as const;

/** Holds the personal account (FOR SHARE) while it is connected; false once it is disconnected. */
export async function holdIfConnected(trx: Db, personalAccountId: number): Promise<boolean> {
  return Boolean(await trx.selectFrom('personal_accounts').select(['id']).where('id', '=', personalAccountId).where('deleted_at', 'is', null).forShare().executeTakeFirst());
}

export async function personalAccountName(trx: Db, personalAccountId: number) {
  return trx.selectFrom('personal_accounts').select(['name']).where('id', '=', personalAccountId).executeTakeFirst();
}

/** The token status, locked for this transaction. */
export function lockTokenStatus(trx: Db, id: number) {
  return trx.selectFrom('personal_accounts').select(['status', 'status_reason_key']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Upserts a chunk of ad accounts and their links to the personal account (two multi-row
 * statements); answers the rows with whether each is new. Every row gets the sync time;
 * updated_at moves only when the platform's data changed.
 */
export async function upsertAdAccountRows(trx: Db, personalAccountId: number, chunk: readonly PlatformAdAccount[], now: Date) {
  const rows = await trx
    .insertInto('ad_accounts')
    .values(
      chunk.map((a) => ({
        platform_id: a.id,
        account_id: a.accountId,
        name: a.name,
        currency: a.currency,
        timezone_name: a.timezoneName,
        timezone_offset_hours: a.timezoneOffsetHours,
        account_status: a.accountStatus,
        disable_reason: a.disableReason,
        amount_spent_minor: a.amountSpentMinor,
        balance_minor: a.balanceMinor,
        spend_cap_minor: a.spendCapMinor,
        business_id: a.businessId,
        business_name: a.businessName,
        last_synced_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.column('platform_id').doUpdateSet((eb) => ({
        ...Object.fromEntries(AD_ACCOUNT_COLUMNS.map((k) => [k, eb.ref(`excluded.${k}`)])),
        last_synced_at: eb.ref('excluded.last_synced_at'),
        // updated_at means "the platform's data changed", not "we looked again".
        updated_at: sql<Date>`case when (${sql.join(AD_ACCOUNT_COLUMNS.map((k) => sql.ref(`ad_accounts.${k}`)))})
          is distinct from (${sql.join(AD_ACCOUNT_COLUMNS.map((k) => sql.ref(`excluded.${k}`)))})
          then excluded.updated_at else ad_accounts.updated_at end`,
      })),
    )
    // xmax = 0 only on a row this statement inserted (PostgreSQL's way to tell insert from update).
    .returning(['id', 'platform_id', sql<boolean>`(xmax = 0)`.as('inserted')])
    .execute();
  await trx
    .insertInto('personal_account_ad_accounts')
    .values(rows.map((r) => ({ personal_account_id: personalAccountId, ad_account_id: r.id, reachable: true, first_seen_at: now, last_seen_at: now })))
    .onConflict((oc) => oc.columns(['personal_account_id', 'ad_account_id']).doUpdateSet((eb) => ({ reachable: true, last_seen_at: eb.ref('excluded.last_seen_at') })))
    .execute();
  return rows;
}

/** Ad accounts the sync no longer found (not in `keepIds`) become unreachable; answers how many. */
export async function markAdAccountsUnreachable(db: Db, personalAccountId: number, keepIds: readonly number[]): Promise<number> {
  let gone = db.updateTable('personal_account_ad_accounts').set({ reachable: false }).where('personal_account_id', '=', personalAccountId).where('reachable', '=', true);
  if (keepIds.length) gone = gone.where('ad_account_id', 'not in', [...keepIds]);
  return Number((await gone.executeTakeFirst()).numUpdatedRows);
}

/** The stored page tokens of the personal account, by page platform id. */
export function pageTokensOf(db: Db, personalAccountId: number) {
  return db
    .selectFrom('personal_account_pages as l')
    .innerJoin('pages as p', 'p.id', 'l.page_id')
    .select(['p.platform_id', 'l.page_token_enc'])
    .where('l.personal_account_id', '=', personalAccountId)
    .execute();
}

/** Upserts a chunk of pages; answers their rows with whether each is new. */
export function upsertPageRows(trx: Db, chunk: readonly { id: string; name: string; category: string | null; pictureUrl: string | null }[], now: Date) {
  return trx
    .insertInto('pages')
    .values(chunk.map((page) => ({ platform_id: page.id, name: page.name, category: page.category, picture_url: page.pictureUrl, last_synced_at: now, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc.column('platform_id').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        category: eb.ref('excluded.category'),
        picture_url: eb.ref('excluded.picture_url'),
        last_synced_at: eb.ref('excluded.last_synced_at'),
        updated_at: sql<Date>`case when (pages.name, pages.category, pages.picture_url) is distinct from (excluded.name, excluded.category, excluded.picture_url)
          then excluded.updated_at else pages.updated_at end`,
      })),
    )
    .returning(['id', 'platform_id', sql<boolean>`(xmax = 0)`.as('inserted')])
    .execute();
}

/** Links a chunk of pages to the personal account, with their tasks and (encrypted) page tokens. */
export async function linkPages(trx: Db, personalAccountId: number, chunk: readonly { id: string; tasks: string[] }[], idOf: Map<string, number>, tokens: Map<string, string | null>, now: Date) {
  await trx
    .insertInto('personal_account_pages')
    .values(
      chunk.map((page) => ({
        personal_account_id: personalAccountId,
        page_id: idOf.get(page.id)!,
        tasks: page.tasks,
        page_token_enc: tokens.get(page.id) ?? null,
        reachable: true,
        first_seen_at: now,
        last_seen_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['personal_account_id', 'page_id']).doUpdateSet((eb) => ({
        tasks: eb.ref('excluded.tasks'),
        page_token_enc: eb.ref('excluded.page_token_enc'),
        reachable: true,
        last_seen_at: eb.ref('excluded.last_seen_at'),
      })),
    )
    .execute();
}

/** Pages the sync no longer found (not in `keepIds`) become unreachable (their links stay). */
export async function markPagesUnreachable(db: Db, personalAccountId: number, keepIds: readonly number[]) {
  let gone = db.updateTable('personal_account_pages').set({ reachable: false }).where('personal_account_id', '=', personalAccountId).where('reachable', '=', true);
  if (keepIds.length) gone = gone.where('page_id', 'not in', [...keepIds]);
  await gone.execute();
}

/** Upserts pixels; answers their rows with whether each is new. */
export function upsertPixelRows(trx: Db, rows: readonly PlatformPixel[], now: Date) {
  return trx
    .insertInto('pixels')
    .values(rows.map((px) => ({ platform_id: px.id, name: px.name, last_fired_at: px.lastFiredAt, owner_business_id: px.ownerBusinessId, last_synced_at: now, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc.column('platform_id').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        last_fired_at: eb.ref('excluded.last_fired_at'),
        owner_business_id: eb.ref('excluded.owner_business_id'),
        last_synced_at: eb.ref('excluded.last_synced_at'),
        updated_at: sql<Date>`case when (pixels.name, pixels.last_fired_at, pixels.owner_business_id) is distinct from (excluded.name, excluded.last_fired_at, excluded.owner_business_id)
          then excluded.updated_at else pixels.updated_at end`,
      })),
    )
    .returning(['id', 'platform_id', sql<boolean>`(xmax = 0)`.as('inserted')])
    .execute();
}

/**
 * Makes the 'platform' links of the chunk's ad accounts exactly the wanted pairs
 * (pixelIds[i], accountIds[i]): deletes those no longer found, inserts the new ones.
 */
export async function setPlatformPixelLinks(trx: Db, chunkAccountIds: number[], pixelIds: number[], accountIds: number[], now: Date) {
  // The wanted pairs travel as two int arrays: three parameters however many links a chunk has.
  await sql`
    delete from pixel_ad_accounts l
    where l.source = 'platform' and l.ad_account_id = any(${chunkAccountIds}::int[])
      and not exists (select 1 from unnest(${pixelIds}::int[], ${accountIds}::int[]) as w(pixel_id, ad_account_id)
                      where w.pixel_id = l.pixel_id and w.ad_account_id = l.ad_account_id)`.execute(trx);
  if (pixelIds.length) {
    await sql`
      insert into pixel_ad_accounts (pixel_id, ad_account_id, source, created_at)
      select w.pixel_id, w.ad_account_id, 'platform', ${now}::timestamptz from unnest(${pixelIds}::int[], ${accountIds}::int[]) as w(pixel_id, ad_account_id)
      on conflict do nothing`.execute(trx);
  }
}

/** The personal account's reachable ad accounts after `after` (ad_accounts.id), in id order. */
export function reachableAdAccountsAfter(db: Db, personalAccountId: number, after: number) {
  return db
    .selectFrom('personal_account_ad_accounts as l')
    .innerJoin('ad_accounts as a', 'a.id', 'l.ad_account_id')
    .select(['a.id', 'a.platform_id'])
    .where('l.personal_account_id', '=', personalAccountId)
    .where('l.reachable', '=', true)
    .where('a.id', '>', after)
    .orderBy('a.id')
    .execute();
}
