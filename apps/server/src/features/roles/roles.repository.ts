import { IS_ADMIN_STAFF, type AssetScope, type ListRolesBody } from '@ads/contracts';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../lib/sql.ts';

export type RoleRow = { id: number; name: string; remark: string; paths: string[]; asset_scope: AssetScope; member_count: number; outside_members: number; created_at: Date; updated_at: Date };

/**
 * Whose role memberships count as "outside" a non-manager's reach (lib/scope.ts manageRefusal, in
 * SQL): people outside the departments they manage, leaders, managers, and people with a company
 * asset scope the viewer lacks. null: a manager, who reaches everyone.
 */
export type MemberReach = { actorId: number; managed: readonly number[]; companyScope: boolean } | null;

const memberCount = sql<number>`(select count(*) from user_roles ur join users u on u.id = ur.user_id where ur.role_id = roles.id and u.deleted_at is null)`;

function outsideMembers(reach: MemberReach) {
  if (!reach) return sql<number>`0`;
  const outsideDepartments = reach.managed.length ? sql`u.department_id not in (${sql.join([...reach.managed])})` : sql`true`;
  const widerAssets = reach.companyScope
    ? sql`false`
    : sql`exists (select 1 from user_roles ur2 join roles r2 on r2.id = ur2.role_id where ur2.user_id = u.id and r2.asset_scope = 'company')`;
  return sql<number>`(select count(*) from user_roles ur join users u on u.id = ur.user_id
    where ur.role_id = roles.id and u.deleted_at is null and u.id <> ${reach.actorId}
      and (u.is_admin <> ${IS_ADMIN_STAFF} or u.is_leader <> 0 or u.department_id is null or ${outsideDepartments} or ${widerAssets}))`;
}

const columns = ['id', 'name', 'remark', 'paths', 'asset_scope', 'created_at', 'updated_at'] as const;

export async function findRoleRow(db: Db, id: number, reach: MemberReach): Promise<RoleRow | undefined> {
  const row = await db.selectFrom('roles').select(columns).select([memberCount.as('member_count'), outsideMembers(reach).as('outside_members')]).where('id', '=', id).executeTakeFirst();
  return row && { ...row, member_count: Number(row.member_count), outside_members: Number(row.outside_members) };
}

export async function listRoleRows(db: Db, body: ListRolesBody, reach: MemberReach): Promise<{ rows: RoleRow[]; total: number }> {
  let base = db.selectFrom('roles');
  if (body.name) base = base.where('name', 'ilike', `%${escapeLike(body.name)}%`);
  const field = body.sort_field ?? 'id';
  const dir = body.sort_order === 'descend' ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .select(columns)
      .select([memberCount.as('member_count'), outsideMembers(reach).as('outside_members')])
      .orderBy(field === 'member_count' ? sql.ref('member_count') : sql.ref(`roles.${field}`), dir)
      .orderBy('id')
      .limit(body.page_size)
      .offset((body.page - 1) * body.page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, member_count: Number(r.member_count), outside_members: Number(r.outside_members) })), total: Number(count.total) };
}

export async function insertRole(db: Db, values: Insertable<DB['roles']>) {
  return db.insertInto('roles').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateRole(db: Db, id: number, values: Updateable<DB['roles']>) {
  await db.updateTable('roles').set(values).where('id', '=', id).execute();
}

/** Deletes a role; answers who held it. */
export async function deleteRole(db: Db, id: number): Promise<number[]> {
  const members = await db.selectFrom('user_roles').select('user_id').where('role_id', '=', id).execute();
  await db.deleteFrom('roles').where('id', '=', id).execute();
  return members.map((m) => m.user_id);
}
