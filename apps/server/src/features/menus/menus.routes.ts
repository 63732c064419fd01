import { endpoints, routeTable } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';

/** The role editor shows the route table as a tree; the web shell itself ships the same table. */
export const menuRoutes: FastifyPluginAsync = async (app) => {
  endpoint(app, endpoints.sysMenus.routes, async () => routeTable);
};
