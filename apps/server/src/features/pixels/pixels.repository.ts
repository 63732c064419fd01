import type { ListPixelsBody, Pixel, PixelAdAccount } from '@ads/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import { escapeLike, iso } from '../../lib/sql.ts';

/** Whose data the caller sees (null = everything, managers). */
export interface PixelScope {
  users: number[] | null;
}

const userList = (users: number[]) => (users.length ? sql.join(users) : sql`null`);

/** A pixel is visible when it is linked (found or associated) to an ad account the caller sees. */
function pixelVisibleSql(users: number[]) {
  return sql<SqlBool>`exists (select 1 from pixel_ad_accounts x join user_ad_accounts ua on ua.ad_account_id = x.ad_account_id
    where x.pixel_id = px.id and ua.user_id in (${userList(users)}))`;
}

function base(db: Db, f: Omit<ListPixelsBody, 'page' | 'page_size'>, scope: PixelScope) {
  let q = db.selectFrom('pixels as px');
  if (scope.users) q = q.where(pixelVisibleSql(scope.users));
  if (f.ad_account_id) q = q.where(sql<SqlBool>`exists (select 1 from pixel_ad_accounts x where x.pixel_id = px.id and x.ad_account_id = ${f.ad_account_id})`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('px.name', 'ilike', like), eb('px.platform_id', '=', f.keyword!)]));
  }
  return q;
}

type Base = ReturnType<typeof base>;

function withColumns(q: Base, scope: PixelScope) {
  // Both kinds of link show as one list of ad accounts, each saying whether the platform shares the
  // pixel with it (a link people cannot remove here) or it was only associated here.
  const accountFilter = scope.users ? sql`and exists (select 1 from user_ad_accounts ua where ua.ad_account_id = a.id and ua.user_id in (${userList(scope.users)}))` : sql``;
  return q.select([
    'px.id',
    'px.platform_id',
    'px.name',
    'px.last_fired_at',
    'px.last_synced_at',
    sql<PixelAdAccount[]>`coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name,
        'source', case when exists (select 1 from pixel_ad_accounts p where p.pixel_id = px.id and p.ad_account_id = a.id and p.source = 'platform') then 'platform' else 'manual' end) order by a.id)
      from ad_accounts a where a.id in (select x.ad_account_id from pixel_ad_accounts x where x.pixel_id = px.id) ${accountFilter}), '[]'::json)`.as('ad_accounts'),
    sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', s.id, 'name', s.name) order by s.id)
      from sites s where s.pixel_id = px.id and s.deleted_at is null), '[]'::json)`.as('sites'),
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

export function toPixel(r: Row): Pixel {
  return {
    id: r.id,
    platform_id: r.platform_id,
    name: r.name,
    last_fired_at: iso(r.last_fired_at),
    ad_accounts: r.ad_accounts,
    sites: r.sites,
    last_synced_at: iso(r.last_synced_at),
  };
}

export async function listPixels(db: Db, body: ListPixelsBody, scope: PixelScope) {
  const q = base(db, body, scope);
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'name' ? 'asc' : 'desc';
  const [rows, count, outside_scope] = await Promise.all([
    withColumns(q, scope)
      .orderBy(field === 'name' ? sql`lower(px.name)` : sql.ref(`px.${field}`), (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('px.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    outsideScope(db, body, scope),
  ]);
  return { list: rows.map(toPixel), total: Number(count.total), outside_scope };
}

/** How many pixels matching the filters the caller cannot see (0 for managers): one count query. */
async function outsideScope(db: Db, f: Omit<ListPixelsBody, 'page' | 'page_size'>, scope: PixelScope): Promise<number> {
  if (!scope.users) return 0;
  const row = await base(db, f, { users: null }).where(sql<SqlBool>`not ${pixelVisibleSql(scope.users)}`).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids among `ids` of pixels the caller sees. */
export async function visiblePixelIds(db: Db, ids: number[], scope: PixelScope): Promise<number[]> {
  let q = db.selectFrom('pixels as px').select('px.id').where('px.id', 'in', ids);
  if (scope.users) q = q.where(pixelVisibleSql(scope.users));
  return (await q.execute()).map((r) => r.id);
}

/** Which of these ids are pixels. */
export async function existingPixelIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('pixels').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}
