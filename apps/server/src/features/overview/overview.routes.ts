import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { DashboardService } from './dashboard.service.ts';
import type { OverviewService } from './overview.service.ts';

const api = endpoints.overview;

/** The landing pages: 首页 (/index) for staff, 首页 (/admin/index) for the super admin; the delivery dashboard of both. */
export function overviewRoutes(overview: OverviewService, dashboard: DashboardService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.home, async (req) => overview.home(req.ctx()));
    endpoint(app, api.admin, async (req) => overview.admin(req.ctx()));
    endpoint(app, api.dashboard, async (req) => dashboard.dashboard(req.ctx(), req.body));
  };
}
