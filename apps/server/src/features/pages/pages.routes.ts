import { assetPageResultSchema, associatePagesBodySchema, envelope, listPagesBodySchema, pageSchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import type { PageService } from './pages.service.ts';

const PAGES = ['/auth/homepage'] as const;

/** Pages (主页关联), docs/api-assets.md. */
export function pageRoutes(pages: PageService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['pages'];
    app.post('/pages/list', { schema: { tags, body: listPagesBodySchema, response: { 200: envelope(assetPageResultSchema(pageSchema)) } }, config: { paths: PAGES } }, async (req) =>
      ok(await pages.list(req.ctx(), req.body)),
    );
    app.post(
      '/pages/associate',
      { schema: { tags, body: associatePagesBodySchema, response: { 200: envelope(z.object({ updated: z.number().int() })) } }, config: { paths: PAGES } },
      async (req) => ok(await pages.associate(req.ctx(), req.body)),
    );
  };
}
