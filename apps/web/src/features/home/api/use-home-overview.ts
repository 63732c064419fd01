import { endpoints } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export const overviewKeys = {
  all: rootKeys.overview,
  home: () => [...overviewKeys.all, 'home'] as const,
  admin: () => [...overviewKeys.all, 'admin'] as const,
};

/** /overview/home: the caller's counts, in the data scope of each list screen. */
export function useHomeOverview() {
  return useQuery({ queryKey: overviewKeys.home(), queryFn: () => api.call(endpoints.overview.home, {}) });
}
