import { routeByPath } from '@ads/contracts/core';
import { useLocation } from 'react-router';
import { useSettings } from '@/stores/settings-store';

/** The current route's title in the interface language. */
export function useRouteTitle(path?: string): string {
  const { pathname } = useLocation();
  const locale = useSettings((s) => s.locale);
  const route = routeByPath.get(path ?? pathname);
  if (!route) return '';
  return locale === 'en' ? route.title_en : route.title;
}

export function routeTitle(path: string, locale: string): string {
  const route = routeByPath.get(path);
  if (!route) return path;
  return locale === 'en' ? route.title_en : route.title;
}
