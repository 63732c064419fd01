import { endpoints, type CronJob, type UpdateCronJobBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { cronKeys } from './use-cron-jobs';

/** The request body as sent: `enabled` as a boolean (the contract's output type would also allow 1/0). */
export type UpdateCronJobInput = Pick<UpdateCronJobBody, 'name' | 'schedule'> & { enabled?: boolean };

/** /sys-cron/update: a new schedule (null = back to the default) or the enabled switch; the answer replaces the row. */
export function useUpdateCronJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCronJobInput) => api.call(endpoints.sysCron.update, body),
    onSuccess: (job) => {
      queryClient.setQueryData<{ list: CronJob[]; total: number }>(cronKeys.jobs(), (prev) =>
        prev ? { ...prev, list: prev.list.map((j) => (j.name === job.name ? job : j)) } : prev,
      );
      return queryClient.invalidateQueries({ queryKey: cronKeys.jobs() });
    },
  });
}
