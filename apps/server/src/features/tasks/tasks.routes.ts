import { envelope, listTasksRequestSchema, pageResultSchema, taskIdBodySchema, taskSchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply.ts';
import type { TaskService } from './tasks.service.ts';

/** The tasks module (docs/api-assets.md): any logged-in user; the service limits what each one sees. */
export function taskRoutes(tasks: TaskService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['tasks'];
    app.post(
      '/tasks/list',
      { schema: { tags, body: listTasksRequestSchema, response: { 200: envelope(pageResultSchema(taskSchema)) } }, config: { anyUser: true } },
      async (req) => ok(await tasks.list(req.ctx(), req.body)),
    );
    app.post(
      '/tasks/get',
      { schema: { tags, body: taskIdBodySchema, response: { 200: envelope(taskSchema) } }, config: { anyUser: true } },
      async (req) => ok(await tasks.get(req.ctx(), req.body.id)),
    );
    app.post(
      '/tasks/cancel',
      { schema: { tags, body: taskIdBodySchema, response: { 200: envelope(taskSchema) } }, config: { anyUser: true } },
      async (req) => ok(await tasks.cancel(req.ctx(), req.body.id)),
    );
  };
}
