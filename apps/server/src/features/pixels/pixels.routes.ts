import { assetPageResultSchema, associatePixelsBodySchema, envelope, listPixelsBodySchema, pixelSchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import type { PixelService } from './pixels.service.ts';

const PIXELS = ['/auth/pixel'] as const;

/** Pixels (像素管理), docs/api-assets.md. */
export function pixelRoutes(pixels: PixelService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['pixels'];
    app.post('/pixels/list', { schema: { tags, body: listPixelsBodySchema, response: { 200: envelope(assetPageResultSchema(pixelSchema)) } }, config: { paths: PIXELS } }, async (req) =>
      ok(await pixels.list(req.ctx(), req.body)),
    );
    app.post(
      '/pixels/associate',
      { schema: { tags, body: associatePixelsBodySchema, response: { 200: envelope(z.object({ updated: z.number().int() })) } }, config: { paths: PIXELS } },
      async (req) => ok(await pixels.associate(req.ctx(), req.body)),
    );
  };
}
