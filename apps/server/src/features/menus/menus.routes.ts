import { routeTable } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply.ts';

export const menuRoutes: FastifyPluginAsyncZod = async (app) => {
  // The role editor shows this as a tree; the web shell itself ships the same table.
  app.get('/sys-menus/routes', { schema: { tags: ['sys-menus'] }, config: { paths: ['/sys/role'] } }, async () => ok(routeTable));
};
