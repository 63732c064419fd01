import { endpoints, type OrderCohortBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderKeys } from './keys';

/** /orders/cohort: the cohort triangle of the range's acquisition days. */
export function useOrderCohort(body: OrderCohortBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: orderKeys.cohort(body),
    queryFn: () => api.call(endpoints.orders.cohort, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
