import { CODE_ERROR, endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase, type Db } from '../../db/database.ts';
import { endpoint } from '../../lib/endpoint.ts';

export function healthRoutes(db: Db, driver: string, startedAt: Date): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, endpoints.session.live, async () => ({ live: true as const }));
    endpoint(app, endpoints.session.health, async (_req, reply) => {
      try {
        await pingDatabase(db);
        return { db: 'ok' as const, driver, uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000) };
      } catch {
        return reply.send({ code: CODE_ERROR, message: 'database unavailable', data: { db: 'down', driver } });
      }
    });
  };
}
