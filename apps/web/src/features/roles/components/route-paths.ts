import { flattenRoutes, isScreenRoute, regularRoutes, withAncestors, type RouteEntry } from '@ads/contracts';

/** Every regular route in tree order. */
export const regularEntries: RouteEntry[] = flattenRoutes(regularRoutes);

/** Paths that open a screen: the pages a role grants (the editor stores their groups beside them). */
export const LEAF_PATHS: readonly string[] = regularEntries.filter(isScreenRoute).map((r) => r.path);

/** Keep only pages, in route-table order: the tree's checked keys, or the pages a role's stored paths grant. */
export function onlyLeaves(keys: readonly string[]): string[] {
  const set = new Set(keys);
  return LEAF_PATHS.filter((p) => set.has(p));
}

/**
 * The pages a role grants: exactly its stored page paths (SPEC.md §6). A stored group path
 * grants the menu entry alone, so it ticks nothing in the tree.
 */
export const toLeafPaths = onlyLeaves;

/** What a role stores for the checked pages: each page with its groups, so the menu shows them. */
export const toStoredPaths = (pages: readonly string[]): string[] => withAncestors(pages);

export const routeTitle = (r: RouteEntry, locale: string) => (locale === 'en' ? r.title_en : r.title);
