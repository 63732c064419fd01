import { dramaSchema, endpoints, type ListDramasBody, pageResultSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export const dramasPageSchema = pageResultSchema(dramaSchema);
export type DramasPage = z.infer<typeof dramasPageSchema>;

export const dramaKeys = {
  all: rootKeys.dramas,
  list: (body: ListDramasBody) => [...dramaKeys.all, 'list', body] as const,
};

/** One page of /dramas/list (a site's drama catalog). */
export function useDramas(body: ListDramasBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: dramaKeys.list(body),
    queryFn: () => api.call(endpoints.dramas.list, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
