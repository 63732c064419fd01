import { cronJobSchema, jobRunSchema, listJobRunsBodySchema, pageResultSchema, runCronJobBodySchema, taskRefSchema, updateCronJobBodySchema } from '@ads/contracts';
import { z } from 'zod';

/** The calls of the 定时任务 screen (/admin/sys/cron), with the contract schemas of their bodies and answers. */
export const cronEndpoints = {
  '/sys-cron/list': { request: z.object({}).optional(), response: pageResultSchema(cronJobSchema) },
  '/sys-cron/update': { request: updateCronJobBodySchema, response: cronJobSchema },
  '/sys-cron/run_now': { request: runCronJobBodySchema, response: taskRefSchema },
  '/sys-cron/runs': { request: listJobRunsBodySchema, response: pageResultSchema(jobRunSchema) },
} as const;
