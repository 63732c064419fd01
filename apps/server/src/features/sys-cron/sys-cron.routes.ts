import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { CronService } from './sys-cron.service.ts';

const api = endpoints.sysCron;

/** The sys-cron module: scheduled jobs of PRODUCT.md's admin area (enable, edit schedule, run now, history). */
export function cronRoutes(cron: CronService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => cron.list(req.ctx()));
    endpoint(app, api.update, async (req) => cron.update(req.ctx(), req.body));
    endpoint(app, api.run_now, async (req) => cron.runNow(req.ctx(), req.body.name));
    endpoint(app, api.runs, async (req) => cron.runs(req.ctx(), req.body));
  };
}
