import { flattenRoutes, IS_ADMIN_MANAGER, IS_ADMIN_SUPER, routeByPath } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { isManager, type Actor } from './actor.ts';

/** A department and all departments below it. */
export async function departmentSubtree(db: Db, rootId: number): Promise<number[]> {
  const result = await sql<{ id: number }>`
    with recursive tree as (
      select id from departments where id = ${rootId}
      union all
      select d.id from departments d join tree t on d.parent_id = t.id
    ) select id from tree`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * The departments whose people a non-manager may manage on the /sys screens: their own
 * department and everything under it. null means "everything" (managers).
 */
export async function managedDepartments(db: Db, actor: Actor): Promise<number[] | null> {
  if (isManager(actor)) return null;
  if (!actor.department_id) return [];
  return departmentSubtree(db, actor.department_id);
}

/** Refuses granting paths the actor does not hold themself (no privilege escalation through roles). */
export function assertCanGrantPaths(actor: Actor, paths: Iterable<string>) {
  if (isManager(actor)) return;
  // A group grants its whole subtree (derivePaths), and anyone holding '/sys/role' also holds its
  // menu group '/sys': so check every path the group expands to, not only the group itself.
  const granted = new Set<string>();
  for (const p of paths) {
    granted.add(p);
    const route = routeByPath.get(p);
    if (route) for (const d of flattenRoutes([route])) granted.add(d.path);
  }
  const missing = [...granted].filter((p) => !actor.pathSet.has(p));
  if (missing.length) throw new AppError('CANNOT_GRANT_PATHS', { paths: missing.join(', ') });
}

// ---------------------------------------------------------------------------------------------
// Data scope of business data (PRODUCT.md "Data scope", docs/api-assets.md). `null` always means
// "no limit" (managers); a list is the exact set, possibly empty.

/** What scope decisions read of a caller (a request's actor, or the user an OAuth state belongs to). */
export type ScopeActor = Pick<Actor, 'id' | 'is_admin' | 'is_leader' | 'department_id'>;

const seesEverything = (actor: ScopeActor) => actor.is_admin === IS_ADMIN_MANAGER || actor.is_admin === IS_ADMIN_SUPER;

/** Enabled or disabled (not deleted) users of a leader's department subtree, the leader included. */
async function subtreeMembers(db: Db, actor: ScopeActor): Promise<number[]> {
  if (!actor.department_id) return [actor.id];
  const departments = await departmentSubtree(db, actor.department_id);
  const rows = await db.selectFrom('users').select('id').where('department_id', 'in', departments).where('deleted_at', 'is', null).execute();
  return [...new Set([actor.id, ...rows.map((r) => r.id)])];
}

/** Whose data the actor sees: managers everyone; leaders themself and their department subtree; staff themself. */
export async function visibleUserIds(db: Db, actor: ScopeActor): Promise<number[] | null> {
  if (seesEverything(actor)) return null;
  return actor.is_leader === 1 ? subtreeMembers(db, actor) : [actor.id];
}

/**
 * Whom the actor may assign ad accounts and pages to (or make owner of a personal account):
 * managers anyone; leaders the people of their department subtree; staff nobody.
 */
export async function manageableUserIds(db: Db, actor: ScopeActor): Promise<number[] | null> {
  if (seesEverything(actor)) return null;
  return actor.is_leader === 1 ? subtreeMembers(db, actor) : [];
}

/** Ad accounts the actor sees: those assigned to a user whose data they see (managers: all). */
export async function visibleAdAccountIds(db: Db, actor: ScopeActor): Promise<number[] | null> {
  const users = await visibleUserIds(db, actor);
  if (users === null) return null;
  // Assigned to someone visible, or reached by a personal account someone visible owns: whoever
  // connects a token controls those accounts on Meta anyway, and must see them to hand them out.
  const rows = await db
    .selectFrom('user_ad_accounts')
    .select('ad_account_id')
    .where('user_id', 'in', users)
    .union(
      db
        .selectFrom('personal_account_ad_accounts as paa')
        .innerJoin('personal_accounts as pa', 'pa.id', 'paa.personal_account_id')
        .select('paa.ad_account_id')
        .where('pa.owner_user_id', 'in', users)
        .where('pa.deleted_at', 'is', null)
        .where('paa.reachable', '=', true),
    )
    .execute();
  return rows.map((r) => r.ad_account_id);
}

/** Refuses (403) unless every id is in the visible set; call with ids known to exist. */
export function assertWithin(visible: readonly number[] | null, ids: Iterable<number>) {
  if (visible === null) return;
  const set = new Set(visible);
  for (const id of ids) if (!set.has(id)) throw new AppError('FORBIDDEN_SCOPE');
}

/** Refuses unless the actor may assign to every listed user (which must exist and not be deleted). */
export async function assertUsersManageable(db: Db, actor: ScopeActor, userIds: readonly number[], field = 'user_ids') {
  const unique = [...new Set(userIds)];
  if (!unique.length) return;
  const found = await db.selectFrom('users').select('id').where('id', 'in', unique).where('deleted_at', 'is', null).where('is_admin', '!=', IS_ADMIN_SUPER).execute();
  if (found.length !== unique.length) throw new AppError('USER_NOT_FOUND', {}, field);
  assertWithin(await manageableUserIds(db, actor), unique);
}
