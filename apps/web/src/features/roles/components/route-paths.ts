import { flattenRoutes, isScreenRoute, regularRoutes, routeByPath, type RouteEntry } from '@ads/contracts';

/** Every regular route in tree order. */
export const regularEntries: RouteEntry[] = flattenRoutes(regularRoutes);

/** Paths that open a screen: what a role actually grants (groups follow from them). */
export const LEAF_PATHS: readonly string[] = regularEntries.filter(isScreenRoute).map((r) => r.path);
const leafSet = new Set(LEAF_PATHS);

/** A role's stored paths as the leaves they grant: a granted group grants its whole subtree. */
export function toLeafPaths(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const route = routeByPath.get(p);
    if (!route) continue;
    for (const r of flattenRoutes([route])) if (leafSet.has(r.path)) out.add(r.path);
  }
  return LEAF_PATHS.filter((p) => out.has(p));
}

/** Keep only leaves, in route-table order (a fully checked group is sent as its leaves). */
export function onlyLeaves(keys: readonly string[]): string[] {
  const set = new Set(keys);
  return LEAF_PATHS.filter((p) => set.has(p));
}

export const routeTitle = (r: RouteEntry, locale: string) => (locale === 'en' ? r.title_en : r.title);
