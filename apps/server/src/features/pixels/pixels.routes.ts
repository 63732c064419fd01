import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { PixelService } from './pixels.service.ts';

const api = endpoints.pixels;

/** Pixels (像素管理), docs/api-assets.md. */
export function pixelRoutes(pixels: PixelService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, api.list, async (req) => pixels.list(req.ctx(), req.body));
    endpoint(app, api.associate, async (req) => pixels.associate(req.ctx(), req.body));
  };
}
