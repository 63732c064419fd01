import { pageResultSchema } from '../envelope.ts';
import { taskRefSchema, taskSchema } from '../assets.ts';
import { cronJobSchema, jobRunSchema, listJobRunsBodySchema, listTasksRequestSchema, runCronJobBodySchema, taskIdBodySchema, updateCronJobBodySchema } from '../jobs.ts';
import { define } from './define.ts';

// Admin only: /admin paths are never granted through roles, so this is the super admin's screen.
const CRON = ['/admin/sys/cron'] as const;

/** Scheduled jobs of PRODUCT.md's admin area: enable, edit schedule, run now, history. */
export const sysCron = {
  list: define({ path: '/sys-cron/list', answer: pageResultSchema(cronJobSchema), allow: CRON, tag: 'sys-cron' }),
  update: define({ path: '/sys-cron/update', body: updateCronJobBodySchema, answer: cronJobSchema, allow: CRON, tag: 'sys-cron' }),
  run_now: define({ path: '/sys-cron/run_now', body: runCronJobBodySchema, answer: taskRefSchema, allow: CRON, tag: 'sys-cron' }),
  runs: define({ path: '/sys-cron/runs', body: listJobRunsBodySchema, answer: pageResultSchema(jobRunSchema), allow: CRON, tag: 'sys-cron' }),
};

/** Background tasks a user started: any logged-in user; the service limits what each one sees. */
export const tasks = {
  list: define({ path: '/tasks/list', body: listTasksRequestSchema, answer: pageResultSchema(taskSchema), allow: 'user', tag: 'tasks' }),
  get: define({ path: '/tasks/get', body: taskIdBodySchema, answer: taskSchema, allow: 'user', tag: 'tasks' }),
  cancel: define({ path: '/tasks/cancel', body: taskIdBodySchema, answer: taskSchema, allow: 'user', tag: 'tasks' }),
};
