import type { ListPagesBody, Page } from '@ads/contracts';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import { escapeLike, iso } from '../../lib/sql.ts';

/** Whose data the caller sees (null = everything, managers): decides which pages and which of their links show. */
export interface PageScope {
  users: number[] | null;
}

const userList = (users: number[]) => (users.length ? sql.join(users) : sql`null`);

/** An ad account (by its id expression) assigned to one of the users. */
const accountVisible = (users: number[], accountId: Expression<number>) =>
  sql<SqlBool>`exists (select 1 from user_ad_accounts ua where ua.ad_account_id = ${accountId} and ua.user_id in (${userList(users)}))`;

/**
 * A page is visible when it is associated with an ad account or a user the caller sees
 * (docs/api-assets.md "Data scope"); managers see all.
 */
export function pageVisibleSql(users: number[]) {
  return sql<SqlBool>`(exists (select 1 from page_ad_accounts pa where pa.page_id = p.id and ${accountVisible(users, sql.ref('pa.ad_account_id'))})
    or exists (select 1 from page_users pu where pu.page_id = p.id and pu.user_id in (${userList(users)})))`;
}

function base(db: Db, f: Omit<ListPagesBody, 'page' | 'page_size'>, scope: PageScope) {
  let q = db.selectFrom('pages as p');
  if (scope.users) q = q.where(pageVisibleSql(scope.users));
  if (f.ad_account_id) q = q.where(sql<SqlBool>`exists (select 1 from page_ad_accounts x where x.page_id = p.id and x.ad_account_id = ${f.ad_account_id})`);
  if (f.user_id) q = q.where(sql<SqlBool>`exists (select 1 from page_users x where x.page_id = p.id and x.user_id = ${f.user_id})`);
  if (f.personal_account_id) q = q.where(sql<SqlBool>`exists (select 1 from personal_account_pages x where x.page_id = p.id and x.personal_account_id = ${f.personal_account_id} and x.reachable)`);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('p.name', 'ilike', like), eb('p.platform_id', '=', f.keyword!)]));
  }
  return q;
}

type Base = ReturnType<typeof base>;

function withColumns(q: Base, scope: PageScope) {
  // Links to ad accounts and users outside the caller's scope are not shown (nor touched by their edits).
  const accountFilter = scope.users ? sql`and ${accountVisible(scope.users, sql.ref('a.id'))}` : sql``;
  const userFilter = scope.users ? sql`and u.id in (${userList(scope.users)})` : sql``;
  return q.select([
    'p.id',
    'p.platform_id',
    'p.name',
    'p.picture_url',
    'p.category',
    'p.last_synced_at',
    sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', pa.id, 'name', pa.name) order by pa.id)
      from personal_account_pages l join personal_accounts pa on pa.id = l.personal_account_id
      where l.page_id = p.id and l.reachable and pa.deleted_at is null), '[]'::json)`.as('personal_accounts'),
    sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', a.id, 'name', a.name) order by a.id)
      from page_ad_accounts l join ad_accounts a on a.id = l.ad_account_id where l.page_id = p.id ${accountFilter}), '[]'::json)`.as('ad_accounts'),
    sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by u.id)
      from page_users l join users u on u.id = l.user_id where l.page_id = p.id and u.deleted_at is null ${userFilter}), '[]'::json)`.as('users'),
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

export function toPage(r: Row): Page {
  return {
    id: r.id,
    platform_id: r.platform_id,
    name: r.name,
    picture_url: r.picture_url,
    category: r.category,
    personal_accounts: r.personal_accounts,
    ad_accounts: r.ad_accounts,
    users: r.users,
    last_synced_at: iso(r.last_synced_at),
  };
}

export async function listPages(db: Db, body: ListPagesBody, scope: PageScope) {
  const q = base(db, body, scope);
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'name' ? 'asc' : 'desc';
  const [rows, count, outside_scope] = await Promise.all([
    withColumns(q, scope)
      .orderBy(field === 'name' ? sql`lower(p.name)` : sql.ref('p.id'), dir)
      .orderBy('p.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    outsideScope(db, body, scope),
  ]);
  return { list: rows.map(toPage), total: Number(count.total), outside_scope };
}

/** How many pages matching the filters the caller cannot see (0 for managers): one count query. */
async function outsideScope(db: Db, f: Omit<ListPagesBody, 'page' | 'page_size'>, scope: PageScope): Promise<number> {
  if (!scope.users) return 0;
  const row = await base(db, f, { users: null }).where(sql<SqlBool>`not ${pageVisibleSql(scope.users)}`).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids among `ids` of pages the caller sees. */
export async function visiblePageIds(db: Db, ids: number[], scope: PageScope): Promise<number[]> {
  let q = db.selectFrom('pages as p').select('p.id').where('p.id', 'in', ids);
  if (scope.users) q = q.where(pageVisibleSql(scope.users));
  return (await q.execute()).map((r) => r.id);
}

/** Which of these ids are pages. */
export async function existingPageIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('pages').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}
