import { ADMIN_PATHS, REGULAR_PATHS, ancestorsOf, flattenRoutes, routeByPath } from './routes.ts';

export const IS_ADMIN_SUPER = 9;
export const IS_ADMIN_MANAGER = 1;
export const IS_ADMIN_STAFF = 0;

/**
 * The permitted paths of a user (SPEC.md §4, API.md "Session"): 9 → every path under /admin,
 * 1 → every path outside /admin by sort order, otherwise exactly the given role paths (SPEC.md
 * §6: reachability is decided by the paths list), unknown and /admin paths dropped, with the
 * ancestors of each so the menu shows its groups. A stored group path grants the group entry
 * alone, never its pages.
 */
export function derivePaths(isAdmin: number, rolePaths: readonly string[] = []): string[] {
  if (isAdmin === IS_ADMIN_SUPER) return [...ADMIN_PATHS];
  if (isAdmin === IS_ADMIN_MANAGER) return [...REGULAR_PATHS];
  const granted = new Set<string>();
  for (const p of rolePaths) {
    if (!routeByPath.has(p) || p === '/admin' || p.startsWith('/admin/')) continue;
    granted.add(p);
    for (const a of ancestorsOf(p)) granted.add(a);
  }
  return REGULAR_PATHS.filter((p) => granted.has(p));
}

/**
 * What a role stores for a set of checked pages: each page with its ancestors (so the menu
 * shows its groups), known regular paths only, in route-table order.
 */
export function withAncestors(paths: readonly string[]): string[] {
  const set = new Set<string>();
  for (const p of paths) {
    if (!routeByPath.has(p)) continue;
    set.add(p);
    for (const a of ancestorsOf(p)) set.add(a);
  }
  return REGULAR_PATHS.filter((p) => set.has(p));
}

/** A group and every path below it, in route-table order: a whole group checked in the role editor. */
export function groupWithPages(path: string): string[] {
  const route = routeByPath.get(path);
  if (!route) return [];
  const set = new Set(flattenRoutes([route]).map((r) => r.path));
  return REGULAR_PATHS.filter((p) => set.has(p));
}
