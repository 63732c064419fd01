import { endpoints, type ListProductsBody, pageResultSchema, productSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export const productsPageSchema = pageResultSchema(productSchema);
export type ProductsPage = z.infer<typeof productsPageSchema>;

export const productKeys = {
  all: rootKeys.products,
  list: (body: ListProductsBody) => [...productKeys.all, 'list', body] as const,
};

/** One page of /products/list (a shop site's catalog). */
export function useProducts(body: ListProductsBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: productKeys.list(body),
    queryFn: () => api.call(endpoints.products.list, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
