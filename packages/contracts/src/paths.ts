import { ADMIN_PATHS, REGULAR_PATHS, ancestorsOf, flattenRoutes, routeByPath } from './routes.ts';

export const IS_ADMIN_SUPER = 9;
export const IS_ADMIN_MANAGER = 1;
export const IS_ADMIN_STAFF = 0;

/**
 * The permitted paths of a user (SPEC.md §4, API.md "Session"): 9 → every path under /admin,
 * 1 → every path outside /admin by sort order, otherwise the given role paths (made whole:
 * unknown paths dropped, groups expanded, ancestors added so menu groups show).
 */
export function derivePaths(isAdmin: number, rolePaths: readonly string[] = []): string[] {
  if (isAdmin === IS_ADMIN_SUPER) return [...ADMIN_PATHS];
  if (isAdmin === IS_ADMIN_MANAGER) return [...REGULAR_PATHS];
  const granted = new Set<string>();
  for (const p of rolePaths) {
    if (!routeByPath.has(p) || p === '/admin' || p.startsWith('/admin/')) continue;
    // A granted group grants its whole subtree; a granted child brings its groups along.
    for (const d of flattenRoutes([routeByPath.get(p)!])) granted.add(d.path);
    for (const a of ancestorsOf(p)) granted.add(a);
  }
  return REGULAR_PATHS.filter((p) => granted.has(p));
}
