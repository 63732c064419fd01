import { ASSIGNABLE_PATHS, REGULAR_PATHS, type AssetScope, type CreateRoleBody, type EditRoleBody, type ListRolesBody, type Role } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { isManager, type Actor, type RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { assertCanGrantPaths, managedDepartments } from '../../lib/scope.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { deleteRole, findRoleRow, insertRole, listRoleRows, updateRole, type MemberReach, type RoleRow } from './roles.repository.ts';

/** Known, deduplicated, in route-table order; unknown or admin paths are refused by name. */
function normalisePaths(paths: string[]): string[] {
  const unknown = paths.filter((p) => !ASSIGNABLE_PATHS.has(p));
  if (unknown.length) throw new AppError('UNKNOWN_PATHS', { paths: unknown.slice(0, 5).join(', ') });
  const set = new Set(paths);
  return REGULAR_PATHS.filter((p) => set.has(p));
}

export function createRoleService({ db, clock }: { db: Db; clock: Clock }) {
  /** Whose memberships the actor reaches (roles.repository MemberReach). */
  async function reachOf(actor: Actor): Promise<MemberReach> {
    if (isManager(actor)) return null;
    return { actorId: actor.id, managed: (await managedDepartments(db, actor)) ?? [], companyScope: actor.asset_scope === 'company' };
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
    const row = await findRoleRow(db, id, await reachOf(actor));
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
      const { rows, total } = await listRoleRows(db, body, await reachOf(actor));
      return { list: rows.map((r) => toRole(actor, r)), total };
    },

    async create(ctx: RequestContext, body: CreateRoleBody) {
      const paths = normalisePaths(body.paths);
      assertCanGrantPaths(ctx.actor, paths);
      const assetScope = body.asset_scope ?? 'own';
      assertAssetScope(ctx.actor, assetScope);
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await insertRole(trx, { name: body.name, remark: body.remark ?? '', paths, asset_scope: assetScope });
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
          await updateRole(trx, body.id, { name: body.name, remark, paths, asset_scope: assetScope, updated_at: clock.now() });
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
        const members = await deleteRole(trx, id);
        await writeAudit(trx, ctx, {
          action: 'role.delete',
          entity_type: 'role',
          entity_id: id,
          before: { name: before.name, remark: before.remark, paths: before.paths, asset_scope: before.asset_scope, user_ids: members },
        });
      });
    },
  };
}

export type RoleService = ReturnType<typeof createRoleService>;
