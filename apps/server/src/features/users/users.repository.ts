import { IS_ADMIN_MANAGER, IS_ADMIN_SUPER, type ListUsersBody, type SysUser } from '@ads/contracts';
import { sql, type Insertable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike, iso } from '../../lib/sql.ts';
import type { ExportPage } from '../../lib/xlsx.ts';

export type UserFilters = Omit<ListUsersBody, 'page' | 'page_size' | 'sort_field' | 'sort_order'>;

/** Users visible in /sys lists: not deleted, optionally limited to some departments (plus one's own row). */
export interface UserScope {
  /** Departments whose people may be listed; null = everyone (managers). */
  departments: number[] | null;
  selfId: number;
  /** The department filter expanded to its subtree (filtering by a department includes its sub-departments). */
  departmentFilter?: number[];
}

function filtered(db: Db, f: UserFilters, scope: UserScope) {
  let q = db.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.department_id').where('u.deleted_at', 'is', null);
  if (scope.departments) {
    const ids = scope.departments;
    q = q.where((eb) => eb.or([eb('u.id', '=', scope.selfId), ...(ids.length ? [eb('u.department_id', 'in', ids)] : [])]));
  }
  if (f.account) q = q.where('u.account', 'ilike', `%${escapeLike(f.account)}%`);
  if (f.name) q = q.where('u.name', 'ilike', `%${escapeLike(f.name)}%`);
  if (scope.departmentFilter) q = q.where('u.department_id', 'in', scope.departmentFilter);
  if (f.is_admin !== undefined) q = q.where('u.is_admin', '=', f.is_admin);
  if (f.status) q = q.where('u.status', '=', f.status);
  if (f.role_id) {
    const roleId = f.role_id;
    q = q.where((eb) => eb.exists(eb.selectFrom('user_roles as ur').select('ur.user_id').whereRef('ur.user_id', '=', 'u.id').where('ur.role_id', '=', roleId)));
  }
  return q;
}

type Base = SelectQueryBuilder<DB & { u: DB['users']; d: DB['departments'] }, 'u' | 'd', object>;

function withColumns(q: Base) {
  return q.select([
    'u.id',
    'u.account',
    'u.name',
    'u.remark',
    'u.is_admin',
    'u.is_leader',
    'u.platform',
    'u.department_id',
    'd.name as department_name',
    'u.status',
    'u.login_at',
    'u.created_at',
    sql<{ id: number; name: string }[]>`coalesce((select json_agg(json_build_object('id', r.id, 'name', r.name) order by r.id) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '[]'::json)`.as(
      'roles',
    ),
  ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withColumns>['execute']>>[number];

export function toSysUser(r: Row): SysUser {
  return {
    id: r.id,
    account: r.account,
    name: r.name,
    remark: r.remark,
    is_admin: r.is_admin,
    is_leader: r.is_leader,
    platform: r.platform,
    department_id: r.department_id,
    department_name: r.department_name,
    roles: r.roles,
    status: r.status,
    login_at: iso(r.login_at),
    created_at: r.created_at.toISOString(),
  };
}

export async function listUsers(db: Db, body: ListUsersBody, scope: UserScope) {
  const base = filtered(db, body, scope) as unknown as Base;
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'id' ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    withColumns(base)
      .orderBy(`u.${field}`, (ob) => (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast())
      .orderBy('u.id', 'desc')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toSysUser), total: Number(count.total) };
}

/** A slice of the matching users for export (lib/xlsx.ts refuses exports past its cap). */
export async function allUsers(db: Db, f: UserFilters, scope: UserScope, page: ExportPage) {
  const rows = await withColumns(filtered(db, f, scope) as unknown as Base).orderBy('u.id').limit(page.limit).offset(page.offset).execute();
  return rows.map(toSysUser);
}

export async function findUser(db: Db, id: number) {
  return withColumns(db.selectFrom('users as u').leftJoin('departments as d', 'd.id', 'u.department_id') as unknown as Base)
    .where('u.id', '=', id)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst()
    .then((r) => (r ? toSysUser(r) : undefined));
}

/** The id of an enabled, not deleted user, if there is one. */
export async function findActiveUserId(db: Db, id: number): Promise<number | undefined> {
  return (await db.selectFrom('users').select('id').where('id', '=', id).where('deleted_at', 'is', null).where('status', '=', 'enabled').executeTakeFirst())?.id;
}

/** Sets is_leader on a user who is not one yet; answers whether it changed. */
export async function setLeaderFlag(db: Db, id: number, now: Date): Promise<boolean> {
  const changed = await db.updateTable('users').set({ is_leader: 1, updated_at: now }).where('id', '=', id).where('is_leader', '=', 0).executeTakeFirst();
  return Boolean(changed.numUpdatedRows);
}

export async function departmentExists(db: Db, id: number): Promise<boolean> {
  return Boolean(await db.selectFrom('departments').select('id').where('id', '=', id).executeTakeFirst());
}

export function findRoles(db: Db, ids: readonly number[]) {
  return db.selectFrom('roles').select(['id', 'name', 'paths', 'asset_scope']).where('id', 'in', [...ids]).execute();
}

/** The user's roles become exactly `roleIds`. */
export async function setUserRoles(trx: Db, userId: number, roleIds: readonly number[]) {
  await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  const unique = [...new Set(roleIds)];
  if (unique.length) await trx.insertInto('user_roles').values(unique.map((role_id) => ({ user_id: userId, role_id }))).execute();
}

export function insertUser(trx: Db, values: Insertable<DB['users']>) {
  return trx.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function updateUser(trx: Db, id: number, set: Updateable<DB['users']>) {
  await trx.updateTable('users').set(set).where('id', '=', id).execute();
}

/** Soft delete: the row stays; the user leaves their roles and any department they led. */
export async function softDeleteUser(trx: Db, id: number, now: Date) {
  await trx.updateTable('users').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
  await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
  await trx.updateTable('departments').set({ leader_id: null }).where('leader_id', '=', id).execute();
}

/** Whether a (not deleted) user got the new password hash. */
export async function setPasswordHash(trx: Db, userId: number, pwdHash: string, now: Date): Promise<boolean> {
  const res = await trx.updateTable('users').set({ pwd_hash: pwdHash, updated_at: now }).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return Boolean(res.numUpdatedRows);
}

/** Whom a caller who does not see everyone may pick. */
export interface SimpleUserReach {
  ids: number[];
  /** Departments whose people are added (those the caller manages in /sys). */
  departments: number[];
  /** Add every manager and holder of this path (editors of materials); null: none. */
  editorPath: string | null;
}

/** Enabled users (not the super admin) for pickers, limited to `reach` (null: everyone), by name. */
export function simpleUsers(db: Db, reach: SimpleUserReach | null, f: { keyword?: string; department_id?: number }) {
  let q = db.selectFrom('users').select(['id', 'account', 'name']).where('deleted_at', 'is', null).where('status', '=', 'enabled').where('is_admin', '!=', IS_ADMIN_SUPER);
  if (reach) {
    const { ids, departments, editorPath } = reach;
    q = q.where((eb) =>
      eb.or([
        eb('id', 'in', ids),
        ...(departments.length ? [eb('department_id', 'in', departments)] : []),
        ...(editorPath
          ? [
              eb('is_admin', '=', IS_ADMIN_MANAGER),
              eb.exists(
                eb
                  .selectFrom('user_roles as ur')
                  .innerJoin('roles as r', 'r.id', 'ur.role_id')
                  .select('ur.user_id')
                  .whereRef('ur.user_id', '=', 'users.id')
                  .where(sql<boolean>`${editorPath} = any(r.paths)`),
              ),
            ]
          : []),
      ]),
    );
  }
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('account', 'ilike', like), eb('name', 'ilike', like)]));
  }
  if (f.department_id) q = q.where('department_id', '=', f.department_id);
  return q.orderBy(sql`lower(name)`).orderBy('id').limit(1000).execute();
}
