import { endpoints, type OrderDailyBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { orderKeys } from './keys';

/** /orders/daily: one page of the day (× split) rows, the totals and the chart series. */
export function useOrderDaily(body: OrderDailyBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: orderKeys.daily(body),
    queryFn: () => api.call(endpoints.orders.daily, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
