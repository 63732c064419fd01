import { endpoints, type TaskStatus } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** How often the screen asks again while a run is queued or running, and otherwise (next-run times, scheduled runs). */
export const ACTIVE_POLL_MS = 2000;
export const IDLE_POLL_MS = 30_000;

export const isRunActive = (status: TaskStatus | null | undefined) => status === 'queued' || status === 'running';

export const cronKeys = {
  all: rootKeys.cron,
  jobs: () => [...cronKeys.all, 'jobs'] as const,
  runs: () => [...cronKeys.all, 'runs'] as const,
};

/** /sys-cron/list: every registered job with its schedule in force, last and next run. */
export function useCronJobs() {
  return useQuery({
    queryKey: cronKeys.jobs(),
    queryFn: () => api.call(endpoints.sysCron.list, {}),
    refetchInterval: (query) => (query.state.data?.list.some((j) => isRunActive(j.last_run?.status)) ? ACTIVE_POLL_MS : IDLE_POLL_MS),
  });
}
