import { IS_ADMIN_MANAGER, IS_ADMIN_STAFF, IS_ADMIN_SUPER, type AssetScope } from '@ads/contracts';
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

/**
 * Refuses granting paths the actor does not hold themself (no privilege escalation through roles).
 * A role grants exactly its paths (derivePaths): a group path grants the group entry alone, which
 * anyone holding one of its pages holds too.
 */
export function assertCanGrantPaths(actor: Actor, paths: Iterable<string>) {
  if (isManager(actor)) return;
  const missing = [...new Set(paths)].filter((p) => !actor.pathSet.has(p));
  if (missing.length) throw new AppError('CANNOT_GRANT_PATHS', { paths: missing.join(', ') });
}

/** A user as the /sys rules about wider scopes read them. */
export interface ScopeTarget {
  id: number;
  is_admin: number;
  is_leader: number;
  department_id: number | null;
}

/**
 * Whether a non-manager may manage (edit, reset the password of, delete, set the roles of) a user
 * on the /sys screens: themself, or someone of the departments they manage whose scope is not
 * wider than theirs. A leader's scope is wider than a staff member's, so only managers touch
 * leaders and managers; company asset scope (a role's asset_scope) is wider than one's own.
 * Answers why not: 'scope' (outside their departments), 'manager', 'wider', or null when they may.
 */
export function manageRefusal(actor: Actor, managed: readonly number[] | null, target: ScopeTarget & { asset_scope: AssetScope }): 'scope' | 'manager' | 'wider' | null {
  if (isManager(actor) || target.id === actor.id) return null;
  if (target.department_id === null || !(managed ?? []).includes(target.department_id)) return 'scope';
  if (target.is_admin !== IS_ADMIN_STAFF) return 'manager';
  if (target.is_leader === 1) return 'wider';
  if (target.asset_scope === 'company' && actor.asset_scope !== 'company') return 'wider';
  return null;
}

/** 'company' when one of the user's roles gives the company's authorization assets. */
export async function assetScopeOf(db: Db, userId: number): Promise<AssetScope> {
  const row = await db
    .selectFrom('user_roles as ur')
    .innerJoin('roles as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', '=', userId)
    .where('r.asset_scope', '=', 'company')
    .limit(1)
    .executeTakeFirst();
  return row ? 'company' : 'own';
}

// ---------------------------------------------------------------------------------------------
// Data scope of business data (PRODUCT.md "Data scope", docs/api-assets.md). `null` always means
// "no limit" (managers); a list is the exact set, possibly empty.

/** What scope decisions read of a caller (a request's actor, or the user an OAuth state belongs to). */
export type ScopeActor = Pick<Actor, 'id' | 'is_admin' | 'is_leader' | 'department_id'> & {
  /** From the caller's roles (Actor.asset_scope); forAssets() reads it from the database when absent. */
  asset_scope?: AssetScope;
  /** Set by forAssets() only: a company asset scope sees every authorization asset, as a manager does. */
  all_assets?: true;
};

/** Managers and the super admin see everything; so does a company asset scope, for the actor forAssets() gives. */
export const seesEverything = (actor: ScopeActor) => actor.is_admin === IS_ADMIN_MANAGER || actor.is_admin === IS_ADMIN_SUPER || actor.all_assets === true;

/**
 * The caller as the authorization-asset screens see them (/auth/*, /operation/*: personal
 * accounts, ad accounts, pages, pixels): with a role whose asset_scope is 'company', like a
 * manager, so every scope function below answers "everything". Only the asset services call
 * it; materials, reports and /sys keep the caller's own data scope.
 */
export async function forAssets<T extends ScopeActor>(db: Db, actor: T): Promise<T> {
  if (seesEverything(actor)) return actor;
  const scope = actor.asset_scope ?? (await assetScopeOf(db, actor.id));
  return scope === 'company' ? { ...actor, all_assets: true } : actor;
}

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
  return users === null ? null : adAccountsOfUsers(db, users);
}

/** The ad accounts of visibleAdAccountIds for people already known (visibleUserIds). */
export async function adAccountsOfUsers(db: Db, users: number[]): Promise<number[]> {
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
