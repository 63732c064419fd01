import { routeByPath, isScreenRoute, type RouteEntry } from '@ads/contracts/core';

/** Paths served by the main layout: every route of the table (SPEC.md §2). */
const isLayoutChild = (path: string) => routeByPath.has(path);

/** The first permitted path that opens a screen, in the order of the user's paths. */
export function firstScreenPath(paths: readonly string[]): string | null {
  for (const p of paths) {
    const r = routeByPath.get(p);
    if (r && isLayoutChild(p) && isScreenRoute(r)) return p;
  }
  return null;
}

/** The first permitted screen under a menu group ('/sys' → '/sys/accounts'). */
export function firstChildScreen(group: RouteEntry, paths: readonly string[]): string | null {
  const allowed = new Set(paths);
  const walk = (list: RouteEntry[]): string | null => {
    for (const r of list) {
      if (!allowed.has(r.path)) continue;
      if (isScreenRoute(r)) return r.path;
      const inner = walk(r.children ?? []);
      if (inner) return inner;
    }
    return null;
  };
  return walk(group.children ?? []);
}

/**
 * The route guard of SPEC.md §2 as a pure function: where to redirect (history replaced), or
 * null to render. Group paths (menu folders) go on to their first permitted screen.
 */
export function guardRedirect(pathname: string, token: string, paths: readonly string[]): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (!token) return path === '/login' ? null : '/login';
  if (path === '/login') return '/';
  if (path === '/') return firstScreenPath(paths) ?? '/404';
  if (path === '/404') return null;
  const route = routeByPath.get(path);
  // A menu group (including the admin root, which no paths list names) opens its first permitted screen.
  if (route && !isScreenRoute(route)) return firstChildScreen(route, paths) ?? '/404';
  if (!paths.includes(path)) return '/404';
  return null;
}
