import { adminRoute, ancestorsOf, IS_ADMIN_SUPER, regularRoutes, routeByPath, type RouteEntry } from '@ads/contracts/core';

export interface MenuNode {
  key: string;
  title: string;
  title_en: string;
  children?: MenuNode[];
}

/**
 * The side menu (SPEC.md §2): only permitted, non-hidden entries, in sort order; groups only
 * when something inside is shown. Super admins see the children of the admin root.
 */
export function buildMenu(isAdmin: number, paths: readonly string[]): MenuNode[] {
  const allowed = new Set(paths);
  const roots = isAdmin === IS_ADMIN_SUPER ? (adminRoute.children ?? []) : regularRoutes;
  const walk = (list: RouteEntry[]): MenuNode[] =>
    [...list]
      .sort((a, b) => a.sort - b.sort)
      .filter((r) => !r.hidden && allowed.has(r.path))
      .flatMap((r): MenuNode[] => {
        if (!r.children?.length) return [{ key: r.path, title: r.title, title_en: r.title_en }];
        const children = walk(r.children);
        return children.length ? [{ key: r.path, title: r.title, title_en: r.title_en, children }] : [];
      });
  return walk(roots);
}

/** The menu entry to highlight for a path: itself, or the entry its activeMenu names. */
export function selectedMenuKey(pathname: string): string {
  const route = routeByPath.get(pathname);
  return route?.activeMenu ?? pathname;
}

/** The groups to open for a path: the parents of the highlighted entry. */
export function openMenuKeys(pathname: string): string[] {
  return ancestorsOf(selectedMenuKey(pathname)).filter((p) => p !== '/admin');
}
