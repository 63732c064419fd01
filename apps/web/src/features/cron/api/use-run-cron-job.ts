import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';
import { cronKeys } from './use-cron-jobs';

/** /sys-cron/run_now: queues a run at once (a switched-off job too); the run shows up as the job's last run and in the history. */
export function useRunCronJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.call(endpoints.sysCron.run_now, { name }),
    onSuccess: () => Promise.all([cronKeys.all, rootKeys.tasks].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
