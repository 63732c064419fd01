import { endpoints, type DashboardBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { overviewKeys } from './use-home-overview';

/** New orders are rolled up within minutes: a 5-minute poll keeps an open home page current. */
const REFRESH_MS = 5 * 60_000;

/** /overview/dashboard: today, yesterday, the 30-day trend, top lists and alerts (the caller's scope, or the company on /admin/index). */
export function useDashboard(body: DashboardBody) {
  return useQuery({
    queryKey: [...overviewKeys.all, 'dashboard', body] as const,
    queryFn: () => api.call(endpoints.overview.dashboard, body),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}
