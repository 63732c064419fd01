import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { StartService } from './start.service.ts';

const { startTasks } = endpoints;

/** Start management (启动管理): scope is checked in the service. */
export function startRoutes(s: StartService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, startTasks.campaigns, async (req) => s.campaigns(req.ctx(), req.body));
    endpoint(app, startTasks.schemes, async (req) => s.schemes(req.ctx(), req.body));
    endpoint(app, startTasks.create, async (req) => s.create(req.ctx(), req.body));
    endpoint(app, startTasks.list, async (req) => s.list(req.ctx(), req.body));
    endpoint(app, startTasks.results, async (req) => s.results(req.ctx(), req.body.id));
    endpoint(app, startTasks.cancel, async (req) => s.cancel(req.ctx(), req.body.id));
  };
}
