import { ASSIGNABLE_PATHS, REGULAR_PATHS, type CreateRoleBody, type EditRoleBody, type ListRolesBody, type Role } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { assertCanGrantPaths } from '../../lib/scope.ts';
import { escapeLike } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.repository.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** Known, deduplicated, in route-table order; unknown or admin paths are refused by name. */
function normalisePaths(paths: string[]): string[] {
  const unknown = paths.filter((p) => !ASSIGNABLE_PATHS.has(p));
  if (unknown.length) throw new AppError('UNKNOWN_PATHS', { paths: unknown.slice(0, 5).join(', ') });
  const set = new Set(paths);
  return REGULAR_PATHS.filter((p) => set.has(p));
}

export function createRoleService({ db, clock }: { db: Db; clock: Clock }) {
  const memberCount = sql<number>`(select count(*) from user_roles ur join users u on u.id = ur.user_id where ur.role_id = roles.id and u.deleted_at is null)`;

  function toRole(r: { id: number; name: string; remark: string; paths: string[]; member_count: number; created_at: Date; updated_at: Date }): Role {
    return { ...r, member_count: Number(r.member_count), created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() };
  }

  async function load(id: number) {
    const row = await db.selectFrom('roles').selectAll().select(memberCount.as('member_count')).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('ROLE_NOT_FOUND');
    return toRole(row);
  }

  return {
    async list(body: ListRolesBody) {
      let base = db.selectFrom('roles');
      if (body.name) base = base.where('name', 'ilike', `%${escapeLike(body.name)}%`);
      const field = body.sort_field ?? 'id';
      const dir = body.sort_order === 'descend' ? 'desc' : 'asc';
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .select(memberCount.as('member_count'))
          .orderBy(field === 'member_count' ? sql.ref('member_count') : sql.ref(`roles.${field}`), dir)
          .orderBy('id')
          .limit(body.page_size)
          .offset((body.page - 1) * body.page_size)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { list: rows.map(toRole), total: Number(count.total) };
    },

    async create(ctx: RequestContext, body: CreateRoleBody) {
      const paths = normalisePaths(body.paths);
      assertCanGrantPaths(ctx.actor, paths);
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx.insertInto('roles').values({ name: body.name, remark: body.remark ?? '', paths }).returningAll().executeTakeFirstOrThrow();
          await writeAudit(trx, ctx, { action: 'role.create', entity_type: 'role', entity_id: row.id, after: { name: row.name, remark: row.remark, paths } });
          return { id: row.id };
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('ROLE_NAME_TAKEN', { name: body.name }, 'name');
        throw err;
      }
    },

    /** Members see the new paths at their next get_user_info: paths are computed per request. */
    async edit(ctx: RequestContext, body: EditRoleBody) {
      const before = await load(body.id);
      const paths = normalisePaths(body.paths);
      // Whoever edits a role must hold what it grants before and after, or they could widen it.
      assertCanGrantPaths(ctx.actor, [...paths, ...before.paths]);
      try {
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('roles').set({ name: body.name, remark: body.remark ?? before.remark, paths, updated_at: clock.now() }).where('id', '=', body.id).execute();
          await writeAudit(trx, ctx, {
            action: 'role.edit',
            entity_type: 'role',
            entity_id: body.id,
            before: { name: before.name, remark: before.remark, paths: before.paths },
            after: { name: body.name, remark: body.remark ?? before.remark, paths },
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
      const before = await load(id);
      assertCanGrantPaths(ctx.actor, before.paths);
      await db.transaction().execute(async (trx) => {
        const members = await trx.selectFrom('user_roles').select('user_id').where('role_id', '=', id).execute();
        await trx.deleteFrom('roles').where('id', '=', id).execute();
        await writeAudit(trx, ctx, {
          action: 'role.delete',
          entity_type: 'role',
          entity_id: id,
          before: { name: before.name, remark: before.remark, paths: before.paths, user_ids: members.map((m) => m.user_id) },
        });
      });
    },
  };
}

export type RoleService = ReturnType<typeof createRoleService>;
