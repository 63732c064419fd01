import { endpoints, type ListPixelsBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

const OPTIONS_PAGE_SIZE = 50;

export const pixelOptionsKey = (keyword: string) => [...rootKeys.pixels, 'options', keyword] as const;

export interface PixelOption {
  id: number;
  name: string;
  platform_id: string;
}

/** Pixels whose name or id contains `keyword` (/pixels/list, needs /auth/pixel), for pickers. */
export function usePixelOptions(keyword: string, opts: { enabled?: boolean } = {}) {
  const body: ListPixelsBody = { page: 1, page_size: OPTIONS_PAGE_SIZE, sort_field: 'name', sort_order: 'ascend', ...(keyword && { keyword }) };
  return useQuery({
    queryKey: pixelOptionsKey(keyword),
    queryFn: () => api.call(endpoints.pixels.list, body),
    select: (page): PixelOption[] => page.list.map((p) => ({ id: p.id, name: p.name, platform_id: p.platform_id })),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}
