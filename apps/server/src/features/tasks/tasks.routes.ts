import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { TaskService } from './tasks.service.ts';

const api = endpoints.tasks;

/** The tasks module (docs/api-assets.md): any logged-in user; the service limits what each one sees. */
export function taskRoutes(tasks: TaskService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => tasks.list(req.ctx(), req.body));
    endpoint(app, api.get, async (req) => tasks.get(req.ctx(), req.body.id));
    endpoint(app, api.cancel, async (req) => tasks.cancel(req.ctx(), req.body.id));
  };
}
