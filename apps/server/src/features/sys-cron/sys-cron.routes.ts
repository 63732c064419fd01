import { cronJobSchema, envelope, jobRunSchema, listJobRunsBodySchema, pageResultSchema, runCronJobBodySchema, taskRefSchema, updateCronJobBodySchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply.ts';
import type { CronService } from './sys-cron.service.ts';

// Admin only: /admin paths are never granted through roles, so this is the super admin's screen.
const CRON = ['/admin/sys/cron'] as const;

/** The sys-cron module: scheduled jobs of PRODUCT.md's admin area (enable, edit schedule, run now, history). */
export function cronRoutes(cron: CronService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['sys-cron'];
    app.post(
      '/sys-cron/list',
      { schema: { tags, response: { 200: envelope(pageResultSchema(cronJobSchema)) } }, config: { paths: CRON } },
      async (req) => ok(await cron.list(req.ctx())),
    );
    app.post(
      '/sys-cron/update',
      { schema: { tags, body: updateCronJobBodySchema, response: { 200: envelope(cronJobSchema) } }, config: { paths: CRON } },
      async (req) => ok(await cron.update(req.ctx(), req.body)),
    );
    app.post(
      '/sys-cron/run_now',
      { schema: { tags, body: runCronJobBodySchema, response: { 200: envelope(taskRefSchema) } }, config: { paths: CRON } },
      async (req) => ok(await cron.runNow(req.ctx(), req.body.name)),
    );
    app.post(
      '/sys-cron/runs',
      { schema: { tags, body: listJobRunsBodySchema, response: { 200: envelope(pageResultSchema(jobRunSchema)) } }, config: { paths: CRON } },
      async (req) => ok(await cron.runs(req.ctx(), req.body)),
    );
  };
}
