import { assetPageResultSchema, endpoints, type ListPixelsBody, listPixelsBodySchema, pixelSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** The pixel list state as it lives in the URL. */
export const pixelsQuerySchema = listPixelsBodySchema;
export type PixelsQuery = z.output<typeof pixelsQuerySchema>;

export const pixelsPageSchema = assetPageResultSchema(pixelSchema);
export type PixelsPage = z.infer<typeof pixelsPageSchema>;

export const pixelKeys = {
  all: rootKeys.pixels,
  lists: () => [...pixelKeys.all, 'list'] as const,
  list: (q: ListPixelsBody) => [...pixelKeys.lists(), q] as const,
};

/** One page of /pixels/list. */
export function usePixels(q: PixelsQuery) {
  return useQuery({
    queryKey: pixelKeys.list(q),
    queryFn: () => api.call(endpoints.pixels.list, q),
    placeholderData: keepPreviousData,
  });
}
