import { endpoints, type ListSitesBody, pageResultSchema, siteSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/**
 * Every site in one list (the API allows page_size up to 500): a company has a handful of
 * landing domains, and the screen lists them beside the catalog of the chosen one.
 */
export const ALL_SITES_BODY: ListSitesBody = { page: 1, page_size: 500, sort_field: 'name', sort_order: 'ascend' };

export const sitesPageSchema = pageResultSchema(siteSchema);
export type SitesPage = z.infer<typeof sitesPageSchema>;

export const siteKeys = {
  all: rootKeys.sites,
  list: (body: ListSitesBody) => [...siteKeys.all, 'list', body] as const,
};

/** /sites/list. */
export function useSites(body: ListSitesBody = ALL_SITES_BODY) {
  return useQuery({
    queryKey: siteKeys.list(body),
    queryFn: () => api.call(endpoints.sites.list, body),
    placeholderData: keepPreviousData,
  });
}
