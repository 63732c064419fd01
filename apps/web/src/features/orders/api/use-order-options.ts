import { endpoints, type OrderOptionKind } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderKeys } from './keys';

/** /orders/options: choices of one order filter whose name or id matches `keyword`. */
export function useOrderOptions(kind: OrderOptionKind, keyword: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: orderKeys.options(kind, keyword),
    queryFn: () => api.call(endpoints.orders.options, { kind, ...(keyword && { keyword }) }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    enabled: opts.enabled ?? true,
  });
}
