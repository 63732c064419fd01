import { z } from 'zod';
import { flagInput, idBodySchema, pageBodySchema } from './envelope.ts';
import { listTasksBodySchema, taskSchema, taskStatusSchema } from './assets.ts';
import { text } from './text.ts';

/**
 * Scheduled jobs (/admin/sys/cron, 定时任务) and the task list people follow for long actions.
 * A job run is one row of the server's job_runs table; the task of assets.ts is the same row as
 * its starter sees it. Switches in request bodies take true/false or 1/0 (flagInput).
 */

/** Job names are kebab-case (STYLE.md §2). */
export const jobNameSchema = text()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'job_name');

/**
 * A five-field cron expression (minute hour day-of-month month day-of-week), evaluated in UTC.
 * The shape is checked here; the server checks that the fields make sense.
 */
export const cronExpressionSchema = text()
  .trim()
  .max(100)
  .regex(/^\S+(\s+\S+){4}$/, 'cron');

export const jobLastRunSchema = z.object({
  status: taskStatusSchema,
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** null while queued or running. */
  duration_ms: z.number().int().nullable(),
  message: z.string().nullable(),
});
export type JobLastRun = z.infer<typeof jobLastRunSchema>;

/** A row of /sys-cron/list: one registered job. */
export const cronJobSchema = z.object({
  name: z.string(),
  /** In the caller's language. */
  title: z.string(),
  description: z.string(),
  /** The schedule in force: the override of the cron screen, else the default; null = only on demand. */
  schedule: z.string().nullable(),
  default_schedule: z.string().nullable(),
  /** Whether the schedule fires; a disabled job can still be run now. */
  enabled: z.boolean(),
  /** True when the schedule was changed on the cron screen. */
  overridden: z.boolean(),
  last_run: jobLastRunSchema.nullable(),
  /** Next time the schedule fires (UTC ISO); null when disabled or on demand only. */
  next_run_at: z.string().nullable(),
  updated_by_name: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type CronJob = z.infer<typeof cronJobSchema>;

export const updateCronJobBodySchema = z.object({
  name: jobNameSchema,
  /** A new schedule; null goes back to the job's default. */
  schedule: cronExpressionSchema.nullable().optional(),
  /** 1 = the schedule fires, 0 = it does not (`enabled` of the list). */
  enabled: flagInput.optional(),
});
export type UpdateCronJobBody = z.infer<typeof updateCronJobBodySchema>;

export const runCronJobBodySchema = z.object({ name: jobNameSchema });
export type RunCronJobBody = z.infer<typeof runCronJobBodySchema>;

export const JOB_RUN_SORT_FIELDS = ['id', 'queued_at', 'started_at', 'finished_at'] as const;

/** /sys-cron/runs: the run history of every job (or one; an empty name is no filter, as a cleared form sends it). */
export const listJobRunsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(JOB_RUN_SORT_FIELDS).optional(),
  name: text().trim().max(64).optional(),
  status: taskStatusSchema.optional(),
});
export type ListJobRunsBody = z.infer<typeof listJobRunsBodySchema>;

/** A run as the cron screen's history shows it: the task, plus attempts and duration. */
export const jobRunSchema = taskSchema.extend({
  /** 1 for the first try; a retry after a failure or a crash counts up. */
  attempt: z.number().int(),
  duration_ms: z.number().int().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

/** /tasks/list: listTasksBodySchema of assets.ts, with the sort fields the server knows. */
export const listTasksRequestSchema = listTasksBodySchema.extend({ sort_field: z.enum(JOB_RUN_SORT_FIELDS).optional() });
export type ListTasksRequest = z.infer<typeof listTasksRequestSchema>;

/** /tasks/get and /tasks/cancel: `{ id }` of the task. */
export const taskIdBodySchema = idBodySchema;
