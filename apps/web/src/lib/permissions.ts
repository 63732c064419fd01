import { endpointAllows, IS_ADMIN_MANAGER, IS_ADMIN_STAFF, IS_ADMIN_SUPER, type AnyEndpoint, type AssetScope, type DepartmentNode } from '@ads/contracts';
import { useMemo } from 'react';
import { useSession } from '@/stores/session-store';

/** The parts of the session user that decide what the /sys screens offer. */
export interface Viewer {
  id: number;
  is_admin: number;
  is_leader?: number;
  department_id?: number | null;
  paths: readonly string[];
  /** 'company': a role gives them the company's authorization assets (as managers see them). */
  asset_scope?: AssetScope;
}

/*
 * The client only hides what the server would refuse (PRODUCT.md "Data scope"); these mirror
 * the checks in the server's users, departments and roles services.
 */

export const isManager = (viewer: Pick<Viewer, 'is_admin'> | null | undefined) => viewer?.is_admin === IS_ADMIN_MANAGER;

/** A department leader (is_leader 1) who is not a manager: acts for the people of their department subtree. */
export const isLeader = (viewer: Pick<Viewer, 'is_admin' | 'is_leader'> | null | undefined) => !isManager(viewer) && viewer?.is_leader === 1;

/** Whether the viewer may make a call of the endpoint table: the server checks the same allowed paths. */
export const canCall = (viewer: Pick<Viewer, 'paths'>, endpoint: Pick<AnyEndpoint, 'allow'>) => endpointAllows(endpoint, viewer.paths);

/** Whether the viewer may open the screen at `path` (for calls, use canCall). */
export const hasPath = (viewer: Pick<Viewer, 'paths'>, path: string) => viewer.paths.includes(path);

/** Sees every authorization asset (/auth, /operation) as managers do: managers, and a role's company asset scope. */
export const seesCompanyAssets = (viewer: Pick<Viewer, 'is_admin' | 'asset_scope'>) => isManager(viewer) || viewer.asset_scope === 'company';

/**
 * Assign ad accounts, pages or personal accounts to people (api-assets.md "Data scope"):
 * managers (and a company asset scope) to anyone, leaders to the people of their department
 * subtree, staff not at all.
 */
export const canAssignToUsers = (viewer: Pick<Viewer, 'is_admin' | 'is_leader' | 'asset_scope'>) => seesCompanyAssets(viewer) || isLeader(viewer);

/**
 * The department whose subtree a leader may assign to (user pickers search inside it);
 * undefined for managers and a company asset scope, who pick from everyone.
 */
export const assignableDepartmentId = (viewer: Viewer): number | undefined =>
  seesCompanyAssets(viewer) ? undefined : (viewer.department_id ?? undefined);

/** A department and every department below it. */
export function subtreeIds(tree: readonly DepartmentNode[], rootId: number): number[] {
  const find = (list: readonly DepartmentNode[]): DepartmentNode | undefined => {
    for (const n of list) {
      if (n.id === rootId) return n;
      const inner = find(n.children);
      if (inner) return inner;
    }
    return undefined;
  };
  const root = find(tree);
  if (!root) return [];
  const ids: number[] = [];
  const walk = (n: DepartmentNode) => {
    ids.push(n.id);
    n.children.forEach(walk);
  };
  walk(root);
  return ids;
}

/** Departments whose people the viewer manages: null means all (managers). */
export function managedDepartmentIds(viewer: Viewer, tree: readonly DepartmentNode[]): Set<number> | null {
  if (isManager(viewer)) return null;
  return new Set(viewer.department_id ? subtreeIds(tree, viewer.department_id) : []);
}

/**
 * Edit, disable, reset or delete a user row. Super admin rows are never changed here; nobody
 * but managers manages a wider scope than their own: leaders, managers, and (for viewers without
 * it) holders of a role with the company asset scope (`companyRoleIds`).
 */
export function canManageUser(viewer: Viewer, row: { id: number; is_admin: number; is_leader?: number; roles?: readonly { id: number }[] }, companyRoleIds?: ReadonlySet<number>): boolean {
  if (row.is_admin === IS_ADMIN_SUPER) return false;
  if (isManager(viewer) || row.id === viewer.id) return true;
  // Lists are already limited to the viewer's departments; inside them only staff who are not leaders are theirs.
  if (row.is_admin !== IS_ADMIN_STAFF || row.is_leader === 1) return false;
  return viewer.asset_scope === 'company' || !row.roles?.some((r) => companyRoleIds?.has(r.id));
}

/** Give someone a role: managers any; others one granting only paths they hold, and a company asset scope only if they have it. */
export function canGrantRole(viewer: Viewer, role: { paths: readonly string[]; asset_scope?: AssetScope }): boolean {
  return canGrantPaths(viewer, role.paths) && (role.asset_scope !== 'company' || seesCompanyAssets(viewer));
}

/** Rename, move, re-sort, set the leader of or delete a department: managers, or others strictly below their own. */
export function canChangeDepartment(viewer: Viewer, tree: readonly DepartmentNode[], id: number): boolean {
  const managed = managedDepartmentIds(viewer, tree);
  return managed === null || (id !== viewer.department_id && managed.has(id));
}

/** Create a department under parentId (null: top level). */
export function canCreateDepartmentUnder(viewer: Viewer, tree: readonly DepartmentNode[], parentId: number | null): boolean {
  const managed = managedDepartmentIds(viewer, tree);
  return managed === null || (parentId !== null && managed.has(parentId));
}

/** Grant (or take away) these route paths: a role grants exactly its paths, so each must be held (SPEC.md §6). */
export function canGrantPaths(viewer: Viewer, paths: readonly string[]): boolean {
  if (isManager(viewer)) return true;
  const held = new Set(viewer.paths);
  return paths.every((p) => held.has(p));
}

/** The logged-in user as a Viewer (empty until the session is known). */
export function useViewer(): Viewer {
  const user = useSession((s) => s.userInfo);
  return useMemo(
    () => ({
      id: user?.id ?? 0,
      is_admin: user?.is_admin ?? 0,
      is_leader: user?.is_leader ?? 0,
      department_id: user?.department_id ?? null,
      paths: user?.paths ?? [],
      asset_scope: user?.asset_scope ?? 'own',
    }),
    [user],
  );
}
