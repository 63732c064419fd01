import { endpoints, type ListDramasBody, type ListProductsBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

const OPTIONS_PAGE_SIZE = 50;

export interface CatalogOption {
  id: number;
  name: string;
  /** The site it belongs to, to tell same-named entries apart. */
  site: string;
  language?: string;
}

/** Dramas whose name contains `keyword` (/dramas/list), for the drama pickers. */
export function useDramaOptions(keyword: string, opts: { enabled?: boolean } = {}) {
  const body: ListDramasBody = { page: 1, page_size: OPTIONS_PAGE_SIZE, sort_field: 'name', sort_order: 'ascend', ...(keyword && { keyword }) };
  return useQuery({
    queryKey: [...rootKeys.dramas, 'options', keyword] as const,
    queryFn: () => api.call(endpoints.dramas.list, body),
    select: (page): CatalogOption[] => page.list.map((d) => ({ id: d.id, name: d.name, site: d.site.name, language: d.language })),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}

/** Products whose name contains `keyword` (/products/list), for the product pickers. */
export function useProductOptions(keyword: string, opts: { enabled?: boolean } = {}) {
  const body: ListProductsBody = { page: 1, page_size: OPTIONS_PAGE_SIZE, sort_field: 'name', sort_order: 'ascend', ...(keyword && { keyword }) };
  return useQuery({
    queryKey: [...rootKeys.products, 'options', keyword] as const,
    queryFn: () => api.call(endpoints.products.list, body),
    select: (page): CatalogOption[] => page.list.map((p) => ({ id: p.id, name: p.name, site: p.site.name })),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}
