import { adminOverviewSchema, envelope, homeOverviewSchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply.ts';
import type { OverviewService } from './overview.service.ts';

/** The landing pages: 首页 (/index) for staff, 首页 (/admin/index) for the super admin. */
export function overviewRoutes(overview: OverviewService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['overview'];
    app.post('/overview/home', { schema: { tags, response: { 200: envelope(homeOverviewSchema) } }, config: { paths: ['/index'] } }, async (req) =>
      ok(await overview.home(req.ctx())),
    );
    app.post('/overview/admin', { schema: { tags, response: { 200: envelope(adminOverviewSchema) } }, config: { paths: ['/admin/index'] } }, async (req) =>
      ok(await overview.admin(req.ctx())),
    );
  };
}
