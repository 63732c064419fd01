import { assetPageResultSchema, endpoints, type ListPagesBody, listPagesBodySchema, pageSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** The page list state as it lives in the URL. */
export const pagesQuerySchema = listPagesBodySchema;
export type PagesQuery = z.output<typeof pagesQuerySchema>;

export const pagesPageSchema = assetPageResultSchema(pageSchema);
export type PagesPage = z.infer<typeof pagesPageSchema>;

export const pageKeys = {
  all: rootKeys.pages,
  lists: () => [...pageKeys.all, 'list'] as const,
  list: (q: ListPagesBody) => [...pageKeys.lists(), q] as const,
};

/** One page of /pages/list (Facebook pages, 主页). */
export function usePages(q: PagesQuery) {
  return useQuery({
    queryKey: pageKeys.list(q),
    queryFn: () => api.call(endpoints.pages.list, q),
    placeholderData: keepPreviousData,
  });
}
