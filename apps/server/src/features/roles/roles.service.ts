import { ASSIGNABLE_PATHS, IS_ADMIN_STAFF, REGULAR_PATHS, type AssetScope, type CreateRoleBody, type EditRoleBody, type ListRolesBody, type Role } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { isManager, type Actor, type RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { assertCanGrantPaths, managedDepartments } from '../../lib/scope.ts';
import { escapeLike } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** Known, deduplicated, in route-table order; unknown or admin paths are refused by name. */
function normalisePaths(paths: string[]): string[] {
  const unknown = paths.filter((p) => !ASSIGNABLE_PATHS.has(p));
  if (unknown.length) throw new AppError('UNKNOWN_PATHS', { paths: unknown.slice(0, 5).join(', ') });
  const set = new Set(paths);
  return REGULAR_PATHS.filter((p) => set.has(p));
}

type RoleRow = { id: number; name: string; remark: string; paths: string[]; asset_scope: AssetScope; member_count: number; outside_members: number; created_at: Date; updated_at: Date };

export function createRoleService({ db, clock }: { db: Db; clock: Clock }) {
  const memberCount = sql<number>`(select count(*) from user_roles ur join users u on u.id = ur.user_id where ur.role_id = roles.id and u.deleted_at is null)`;

  /**
   * How many members of the role the actor may not manage (lib/scope.ts manageRefusal, in SQL):
   * people outside the departments they manage, leaders, managers, and people with a company asset
   * scope they lack. Always 0 for managers.
   */
  async function outsideMembers(actor: Actor) {
    if (isManager(actor)) return sql<number>`0`;
    const managed = (await managedDepartments(db, actor)) ?? [];
    const outsideDepartments = managed.length ? sql`u.department_id not in (${sql.join(managed)})` : sql`true`;
    const widerAssets =
      actor.asset_scope === 'company'
        ? sql`false`
        : sql`exists (select 1 from user_roles ur2 join roles r2 on r2.id = ur2.role_id where ur2.user_id = u.id and r2.asset_scope = 'company')`;
    return sql<number>`(select count(*) from user_roles ur join users u on u.id = ur.user_id
      where ur.role_id = roles.id and u.deleted_at is null and u.id <> ${actor.id}
        and (u.is_admin <> ${IS_ADMIN_STAFF} or u.is_leader <> 0 or u.department_id is null or ${outsideDepartments} or ${widerAssets}))`;
  }

  /** Managers change any role; others those granting only what they hold, held only by people they manage, never a company asset scope. */
  const editableBy = (actor: Actor, r: Pick<RoleRow, 'paths' | 'asset_scope' | 'outside_members'>) =>
    isManager(actor) || (Number(r.outside_members) === 0 && r.asset_scope === 'own' && r.paths.every((p) => actor.pathSet.has(p)));

  function toRole(actor: Actor, r: RoleRow): Role {
    return {
      id: r.id,
      name: r.name,
      remark: r.remark,
      paths: r.paths,
      asset_scope: r.asset_scope,
      editable: editableBy(actor, r),
      member_count: Number(r.member_count),
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  }

  async function load(actor: Actor, id: number): Promise<RoleRow> {
    const row = await db
      .selectFrom('roles')
      .select(['id', 'name', 'remark', 'paths', 'asset_scope', 'created_at', 'updated_at'])
      .select([memberCount.as('member_count'), (await outsideMembers(actor)).as('outside_members')])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError('ROLE_NOT_FOUND');
    return row;
  }

  /** Only managers give a role (or take from it) the company's authorization assets. */
  function assertAssetScope(actor: Actor, ...scopes: AssetScope[]) {
    if (!isManager(actor) && scopes.includes('company')) throw new AppError('CANNOT_SET_ASSET_SCOPE');
  }

  /** Changing a role changes what its members may do: its members must all be people the actor manages. */
  function assertMembersManaged(role: RoleRow) {
    const outside = Number(role.outside_members);
    if (outside > 0) throw new AppError('ROLE_HELD_OUTSIDE_SCOPE', { name: role.name, count: outside });
  }

  return {
    async list(actor: Actor, body: ListRolesBody) {
      let base = db.selectFrom('roles');
      if (body.name) base = base.where('name', 'ilike', `%${escapeLike(body.name)}%`);
      const field = body.sort_field ?? 'id';
      const dir = body.sort_order === 'descend' ? 'desc' : 'asc';
      const [rows, count] = await Promise.all([
        base
          .select(['id', 'name', 'remark', 'paths', 'asset_scope', 'created_at', 'updated_at'])
          .select([memberCount.as('member_count'), (await outsideMembers(actor)).as('outside_members')])
          .orderBy(field === 'member_count' ? sql.ref('member_count') : sql.ref(`roles.${field}`), dir)
          .orderBy('id')
          .limit(body.page_size)
          .offset((body.page - 1) * body.page_size)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { list: rows.map((r) => toRole(actor, r)), total: Number(count.total) };
    },

    async create(ctx: RequestContext, body: CreateRoleBody) {
      const paths = normalisePaths(body.paths);
      assertCanGrantPaths(ctx.actor, paths);
      const assetScope = body.asset_scope ?? 'own';
      assertAssetScope(ctx.actor, assetScope);
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx.insertInto('roles').values({ name: body.name, remark: body.remark ?? '', paths, asset_scope: assetScope }).returningAll().executeTakeFirstOrThrow();
          await writeAudit(trx, ctx, { action: 'role.create', entity_type: 'role', entity_id: row.id, after: { name: row.name, remark: row.remark, paths, asset_scope: assetScope } });
          return { id: row.id };
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('ROLE_NAME_TAKEN', { name: body.name }, 'name');
        throw err;
      }
    },

    /** Members see the new paths at their next get_user_info: paths are computed per request. */
    async edit(ctx: RequestContext, body: EditRoleBody) {
      const before = await load(ctx.actor, body.id);
      const paths = normalisePaths(body.paths);
      const assetScope = body.asset_scope ?? before.asset_scope;
      // Whoever edits a role must hold what it grants before and after, or they could widen it.
      assertCanGrantPaths(ctx.actor, [...paths, ...before.paths]);
      assertAssetScope(ctx.actor, before.asset_scope, assetScope);
      assertMembersManaged(before);
      const remark = body.remark ?? before.remark;
      try {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('roles').set({ name: body.name, remark, paths, asset_scope: assetScope, updated_at: clock.now() }).where('id', '=', body.id).execute();
          await writeAudit(trx, ctx, {
            action: 'role.edit',
            entity_type: 'role',
            entity_id: body.id,
            before: { name: before.name, remark: before.remark, paths: before.paths, asset_scope: before.asset_scope },
            after: { name: body.name, remark, paths, asset_scope: assetScope },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('ROLE_NAME_TAKEN', { name: body.name }, 'name');
        throw err;
      }
      return { id: body.id };
    },

    /** Deletes the role; its members lose what it granted (the screen says how many first). */
    async remove(ctx: RequestContext, id: number) {
      const before = await load(ctx.actor, id);
      assertCanGrantPaths(ctx.actor, before.paths);
      assertAssetScope(ctx.actor, before.asset_scope);
      assertMembersManaged(before);
      await db.transaction().execute(async (trx) => {
        const members = await trx.selectFrom('user_roles').select('user_id').where('role_id', '=', id).execute();
        await trx.deleteFrom('roles').where('id', '=', id).execute();
        await writeAudit(trx, ctx, {
          action: 'role.delete',
          entity_type: 'role',
          entity_id: id,
          before: { name: before.name, remark: before.remark, paths: before.paths, asset_scope: before.asset_scope, user_ids: members.map((m) => m.user_id) },
        });
      });
    },
  };
}

export type RoleService = ReturnType<typeof createRoleService>;
