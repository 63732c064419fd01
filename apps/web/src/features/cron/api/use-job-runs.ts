import { endpoints, type JobRun, type ListJobRunsBody, listJobRunsBodySchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { ACTIVE_POLL_MS, cronKeys, isRunActive } from './use-cron-jobs';

/** The cron screen's state in the URL: the tab, and the run history's filters, sort and page. */
export const cronQuerySchema = listJobRunsBodySchema.extend({
  tab: z.enum(['jobs', 'runs']).default('jobs'),
});
export type CronQuery = z.output<typeof cronQuerySchema>;

export type JobRunsPage = { list: JobRun[]; total: number };

/** The /sys-cron/runs body of the URL state (the tab is the screen's own). */
export function runsBody({ tab: _tab, ...body }: CronQuery): ListJobRunsBody {
  return body;
}

/** /sys-cron/runs: one page of the run history, asked again while a run on it is queued or running. */
export function useJobRuns(body: ListJobRunsBody, opts: { enabled: boolean }) {
  return useQuery({
    queryKey: [...cronKeys.runs(), body] as const,
    queryFn: () => api.call(endpoints.sysCron.runs, body),
    enabled: opts.enabled,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((r) => isRunActive(r.status)) ? ACTIVE_POLL_MS : false),
  });
}
