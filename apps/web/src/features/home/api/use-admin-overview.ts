import { endpoints } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { overviewKeys } from './use-home-overview';

/** /overview/admin: company-wide counts and every job with its last run (super admin). */
export function useAdminOverview() {
  return useQuery({ queryKey: overviewKeys.admin(), queryFn: () => api.call(endpoints.overview.admin, {}), refetchInterval: 60_000 });
}
