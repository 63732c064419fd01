import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { PageService } from './pages.service.ts';

const api = endpoints.pages;

/** Pages (主页关联), docs/api-assets.md. */
export function pageRoutes(pages: PageService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => pages.list(req.ctx(), req.body));
    endpoint(app, api.associate, async (req) => pages.associate(req.ctx(), req.body));
  };
}
