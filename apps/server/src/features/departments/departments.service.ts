import type { CreateDepartmentBody, DepartmentNode, EditDepartmentBody } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { isManager, type Actor, type RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { departmentSubtree, managedDepartments } from '../../lib/scope.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { findActiveUserId, markLeader as setLeaderFlag } from '../users/users.service.ts';
import { allDepartmentRows, countChildren, countMembers, deleteDepartment, findDepartment, insertDepartment, lockDepartment, updateDepartment } from './departments.repository.ts';

export function createDepartmentService({ db, clock }: { db: Db; clock: Clock }) {
  async function load(id: number) {
    const row = await findDepartment(db, id);
    if (!row) throw new AppError('DEPARTMENT_NOT_FOUND');
    return row;
  }

  /**
   * Managers change any department. Others with /sys/department change only departments
   * strictly below their own (so nobody can rename or move the department that grants their scope).
   */
  async function assertCanChange(actor: Actor, id: number | null) {
    if (isManager(actor)) return;
    const managed = (await managedDepartments(db, actor)) ?? [];
    if (id === null || id === actor.department_id || !managed.includes(id)) throw new AppError('FORBIDDEN_SCOPE');
  }

  /**
   * A leader is an enabled user, and appointing one makes them a leader (markLeader): so only
   * managers appoint. Others may keep the current leader or clear it.
   */
  async function assertLeader(actor: Actor, leaderId: number | null | undefined, current: number | null = null) {
    if (leaderId == null || leaderId === current) return;
    if (!(await findActiveUserId(db, leaderId))) throw new AppError('LEADER_NOT_FOUND');
    if (!isManager(actor)) throw new AppError('CANNOT_APPOINT_LEADER');
  }

  async function assertParentScope(actor: Actor, parentId: number | null) {
    if (isManager(actor)) return;
    const managed = (await managedDepartments(db, actor)) ?? [];
    if (parentId === null || !managed.includes(parentId)) throw new AppError('FORBIDDEN_SCOPE');
  }

  /**
   * A department's leader leads: their is_leader flag (which widens their data scope to the
   * department) is set with the appointment, so the two never disagree. Removing a leader
   * leaves the flag alone; they may lead elsewhere, and a manager clears it on the account.
   */
  async function markLeader(trx: Db, ctx: RequestContext, leaderId: number | null | undefined) {
    if (leaderId == null) return;
    await setLeaderFlag(trx, ctx, leaderId, clock.now());
  }

  return {
    /**
     * The tree with member counts and leader names, siblings by sort then name. Managers get the
     * whole tree; others the part they manage (their department and everything below it, as the
     * accounts list shows its people), its root carrying the departments above it as a path.
     */
    async tree(actor: Actor): Promise<DepartmentNode[]> {
      const rows = await allDepartmentRows(db);
      const nodes = new Map<number, DepartmentNode>(rows.map((r) => [r.id, { ...r, children: [] }]));
      const roots: DepartmentNode[] = [];
      for (const node of nodes.values()) {
        const parent = node.parent_id ? nodes.get(node.parent_id) : undefined;
        (parent ? parent.children : roots).push(node);
      }
      if (isManager(actor)) return roots;
      const root = actor.department_id ? nodes.get(actor.department_id) : undefined;
      if (!root) return [];
      const ancestors: { id: number; name: string }[] = [];
      for (let up = root.parent_id ? nodes.get(root.parent_id) : undefined; up; up = up.parent_id ? nodes.get(up.parent_id) : undefined) ancestors.unshift({ id: up.id, name: up.name });
      return [{ ...root, ancestors }];
    },

    async create(ctx: RequestContext, body: CreateDepartmentBody) {
      const parentId = body.parent_id ?? null;
      if (parentId !== null) await load(parentId);
      await assertParentScope(ctx.actor, parentId);
      await assertLeader(ctx.actor, body.leader_id);
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await insertDepartment(trx, { name: body.name, parent_id: parentId, sort: body.sort ?? 0, leader_id: body.leader_id ?? null });
          await writeAudit(trx, ctx, { action: 'department.create', entity_type: 'department', entity_id: row.id, after: row });
          await markLeader(trx, ctx, body.leader_id);
          return { id: row.id };
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('DEPARTMENT_NAME_TAKEN', { name: body.name }, 'name');
        throw err;
      }
    },

    /** Rename, move (parent_id), re-sort or change the leader. Moving under itself or a descendant is refused. */
    async edit(ctx: RequestContext, body: EditDepartmentBody) {
      const before = await load(body.id);
      await assertCanChange(ctx.actor, body.id);
      if (body.parent_id !== undefined && body.parent_id !== before.parent_id) {
        const parentId = body.parent_id;
        if (parentId !== null) {
          await load(parentId);
          const subtree = await departmentSubtree(db, body.id);
          if (subtree.includes(parentId)) throw new AppError('DEPARTMENT_CYCLE');
        }
        await assertParentScope(ctx.actor, parentId);
      }
      await assertLeader(ctx.actor, body.leader_id, before.leader_id);
      try {
        await db.transaction().execute(async (trx) => {
          const after = await updateDepartment(trx, body.id, {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.parent_id !== undefined && { parent_id: body.parent_id }),
            ...(body.sort !== undefined && { sort: body.sort }),
            ...(body.leader_id !== undefined && { leader_id: body.leader_id }),
            updated_at: clock.now(),
          });
          await writeAudit(trx, ctx, { action: 'department.edit', entity_type: 'department', entity_id: body.id, before, after });
          if (body.leader_id !== before.leader_id) await markLeader(trx, ctx, body.leader_id);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('DEPARTMENT_NAME_TAKEN', { name: body.name ?? before.name }, 'name');
        throw err;
      }
      return { id: body.id };
    },

    /** Refused while the department has sub-departments or members, with the count in the message. */
    async remove(ctx: RequestContext, id: number) {
      const before = await load(id);
      await assertCanChange(ctx.actor, id);
      await db.transaction().execute(async (trx) => {
        // Lock the row so a concurrent member move cannot slip in between the checks and the delete.
        await lockDepartment(trx, id);
        const children = await countChildren(trx, id);
        if (children > 0) throw new AppError('DEPARTMENT_HAS_CHILDREN', { count: children });
        const members = await countMembers(trx, id);
        if (members > 0) throw new AppError('DEPARTMENT_HAS_MEMBERS', { count: members });
        await deleteDepartment(trx, id);
        await writeAudit(trx, ctx, { action: 'department.delete', entity_type: 'department', entity_id: id, before });
      });
    },
  };
}

export type DepartmentService = ReturnType<typeof createDepartmentService>;
