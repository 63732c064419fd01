import { endpoints } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderKeys } from './keys';

/** /orders/detail: one order with its attribution, buyer, refunds and raw events. */
export function useOrderDetail(id: number | undefined) {
  return useQuery({
    queryKey: orderKeys.detail(id ?? 0),
    queryFn: () => api.call(endpoints.orders.detail, { id: id! }, { quiet: true }),
    enabled: id !== undefined,
  });
}
