import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { DimReportService } from './dim-reports.service.ts';

/** The ad-data report by dimension (data scope in the service). */
export function dimReportRoutes(reports: DimReportService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, endpoints.adReports.dimension, async (req) => reports.report(req.ctx(), req.body));
  };
}
