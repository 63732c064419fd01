import type { AdAccount, ListAdAccountsBody, TokenStatus } from '@ads/contracts';
import { sql, type ExpressionBuilder, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { latestRates, minorToUsd, minorToUsdSql } from '../../lib/fx.ts';
import { escapeLike, iso } from '../../lib/sql.ts';
import type { ExportPage } from '../../lib/xlsx.ts';
import { toMajor } from '../../platform/currency.ts';
import { currentStatusSql } from '../../lib/token-health.ts';

export type AdAccountFilters = Omit<ListAdAccountsBody, 'page' | 'page_size'>;

/**
 * Ad accounts a caller sees: assigned to one of `users`, or reached by a personal account one of
 * them owns (null = all, managers). Same rule as lib/scope.ts visibleAdAccountIds.
 */
export interface AdAccountScope {
  users: number[] | null;
}

/** An ad account (`a`) assigned to one of the users, or reached by a personal account one of them owns. */
function visibleTo(users: number[]) {
  return (eb: ExpressionBuilder<DB & { a: DB['ad_accounts'] }, 'a'>) =>
    users.length
      ? eb.or([
          eb.exists(eb.selectFrom('user_ad_accounts as s').select('s.ad_account_id').whereRef('s.ad_account_id', '=', 'a.id').where('s.user_id', 'in', users)),
          eb.exists(
            eb
              .selectFrom('personal_account_ad_accounts as paa')
              .innerJoin('personal_accounts as pa', 'pa.id', 'paa.personal_account_id')
              .select('paa.ad_account_id')
              .whereRef('paa.ad_account_id', '=', 'a.id')
              .where('paa.reachable', '=', true)
              .where('pa.deleted_at', 'is', null)
              .where('pa.owner_user_id', 'in', users),
          ),
        ])
      : sql<SqlBool>`false`;
}

function base(db: Db, f: AdAccountFilters, scope: AdAccountScope) {
  let q = db.selectFrom('ad_accounts as a');
  if (scope.users) q = q.where(visibleTo(scope.users));
  if (f.account_status !== undefined) q = q.where('a.account_status', '=', f.account_status);
  if (f.platform) q = q.where('a.platform', '=', f.platform);
  if (f.currency) q = q.where('a.currency', '=', f.currency.toUpperCase());
  if (f.hosted !== undefined) q = q.where('a.hosted', '=', f.hosted);
  if (f.user_id) {
    const userId = f.user_id;
    q = q.where((eb) => eb.exists(eb.selectFrom('user_ad_accounts as u').select('u.ad_account_id').whereRef('u.ad_account_id', '=', 'a.id').where('u.user_id', '=', userId)));
  }
  if (f.unassigned) {
    q = q.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('user_ad_accounts as u')
            .innerJoin('users as uu', 'uu.id', 'u.user_id')
            .select('u.ad_account_id')
            .whereRef('u.ad_account_id', '=', 'a.id')
            .where('uu.deleted_at', 'is', null),
        ),
      ),
    );
  }
  if (f.personal_account_id) {
    const pa = f.personal_account_id;
    q = q.where((eb) =>
      eb.exists(eb.selectFrom('personal_account_ad_accounts as l').select('l.ad_account_id').whereRef('l.ad_account_id', '=', 'a.id').where('l.personal_account_id', '=', pa).where('l.reachable', '=', true)),
    );
  }
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    const bare = f.keyword.replace(/^act_/i, '');
    q = q.where((eb) => eb.or([eb('a.name', 'ilike', like), eb('a.account_id', '=', bare), eb('a.business_name', 'ilike', like)]));
  }
  return q;
}

type Base = ReturnType<typeof base>;

function withColumns(q: Base, now: Date, scope: AdAccountScope) {
  // People outside the caller's scope who share an account are not shown (nor touched by their "replace").
  const userFilter = scope.users ? sql`and u.id in (${scope.users.length ? sql.join(scope.users) : sql`null`})` : sql``;
  return q.select([
    'a.id',
    'a.platform_id',
    'a.account_id',
    'a.name',
    'a.currency',
    'a.timezone_name',
    'a.account_status',
    'a.disable_reason',
    'a.amount_spent_minor',
    'a.balance_minor',
    'a.spend_cap_minor',
    'a.business_name',
    'a.platform',
    'a.hosted',
    'a.remark',
    'a.last_synced_at',
    sql<{ id: number; name: string; status: TokenStatus }[]>`coalesce((select json_agg(json_build_object('id', pa.id, 'name', pa.name, 'status', ${currentStatusSql(now)}) order by pa.id)
      from personal_account_ad_accounts l join personal_accounts pa on pa.id = l.personal_account_id
      where l.ad_account_id = a.id and l.reachable and pa.deleted_at is null), '[]'::json)`.as('personal_accounts'),
    sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by u.id)
      from user_ad_accounts ua join users u on u.id = ua.user_id
      where ua.ad_account_id = a.id and u.deleted_at is null ${userFilter}), '[]'::json)`.as('users'),
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

export function toAdAccount(r: Row): AdAccount {
  return {
    id: r.id,
    platform_id: r.platform_id,
    account_id: r.account_id,
    name: r.name,
    currency: r.currency,
    timezone_name: r.timezone_name,
    account_status: r.account_status,
    disable_reason: r.disable_reason,
    amount_spent: toMajor(Number(r.amount_spent_minor), r.currency),
    balance: toMajor(Number(r.balance_minor), r.currency),
    spend_cap: r.spend_cap_minor === null ? null : toMajor(Number(r.spend_cap_minor), r.currency),
    business_name: r.business_name,
    platform: r.platform,
    hosted: r.hosted,
    remark: r.remark,
    personal_accounts: r.personal_accounts,
    users: r.users,
    last_synced_at: iso(r.last_synced_at),
  };
}

function order(field: string) {
  if (field === 'name') return sql`lower(a.name)`;
  // Money sorts by its value in USD: minor units of different currencies do not compare.
  if (field === 'amount_spent') return minorToUsdSql('a.amount_spent_minor', 'a.currency');
  if (field === 'balance') return minorToUsdSql('a.balance_minor', 'a.currency');
  return sql.ref(`a.${field}`);
}

const directionOf = (body: { sort_order?: 'ascend' | 'descend' }, field: string) =>
  body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'name' ? 'asc' : 'desc';

/** Totals in USD of the matching accounts (per currency in SQL, converted here). */
async function summaryOf(db: Db, q: Base) {
  const rows = await q
    .select(['a.currency', (eb) => eb.fn.sum<number>('a.amount_spent_minor').as('spent'), (eb) => eb.fn.sum<number>('a.balance_minor').as('balance')])
    .groupBy('a.currency')
    .execute();
  const rates = await latestRates(db, rows.map((r) => r.currency));
  let spent = 0;
  let balance = 0;
  for (const r of rows) {
    spent += minorToUsd(Number(r.spent), r.currency, rates) ?? 0;
    balance += minorToUsd(Number(r.balance), r.currency, rates) ?? 0;
  }
  return { amount_spent_usd: Math.round(spent * 100) / 100, balance_usd: Math.round(balance * 100) / 100 };
}

export async function listAdAccounts(db: Db, body: ListAdAccountsBody, scope: AdAccountScope, now: Date) {
  const q = base(db, body, scope);
  const field = body.sort_field ?? 'id';
  const dir = directionOf(body, field);
  const [rows, count, summary, outside_scope] = await Promise.all([
    withColumns(q, now, scope)
      .orderBy(order(field), (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('a.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    summaryOf(db, q),
    outsideScope(db, body, scope),
  ]);
  return { list: rows.map(toAdAccount), total: Number(count.total), summary, outside_scope };
}

/** How many ad accounts matching the filters the caller cannot see (0 for managers): one count query. */
async function outsideScope(db: Db, f: AdAccountFilters, scope: AdAccountScope): Promise<number> {
  if (!scope.users) return 0;
  const visible = visibleTo(scope.users);
  const row = await base(db, f, { users: null })
    .where((eb) => eb.not(visible(eb)))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A slice of the matching accounts for export (lib/xlsx.ts refuses exports past its cap). */
export async function allAdAccounts(db: Db, f: AdAccountFilters, scope: AdAccountScope, now: Date, page: ExportPage) {
  const field = f.sort_field ?? 'id';
  const dir = directionOf(f, field);
  const rows = await withColumns(base(db, f, scope), now, scope)
    .orderBy(order(field), (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
    .orderBy('a.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(toAdAccount);
}

export async function findAdAccount(db: Db, id: number, now: Date, scope: AdAccountScope = { users: null }) {
  const row = await withColumns(base(db, {}, scope).where('a.id', '=', id), now, scope).executeTakeFirst();
  return row && toAdAccount(row);
}

/** The editable facts of these accounts (those that exist). */
export async function findAdAccountRows(db: Db, ids: readonly number[]) {
  if (!ids.length) return [];
  return db.selectFrom('ad_accounts').select(['id', 'platform', 'hosted', 'remark']).where('id', 'in', ids).execute();
}

/** Which of these ids are ad accounts. */
export async function existingAdAccountIds(db: Db, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('ad_accounts').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
}

export async function updateAdAccount(db: Db, id: number, values: Updateable<DB['ad_accounts']>) {
  await db.updateTable('ad_accounts').set(values).where('id', '=', id).execute();
}
