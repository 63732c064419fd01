import { CODE_ERROR, endpoints } from '@ads/contracts';
import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/database.ts';
import { endpoint } from '../../lib/endpoint.ts';

export function healthRoutes(db: Db, driver: string, startedAt: Date): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, endpoints.session.live, async () => ({ live: true as const }));
    endpoint(app, endpoints.session.health, async (_req, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { db: 'ok' as const, driver, uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000) };
      } catch {
        return reply.send({ code: CODE_ERROR, message: 'database unavailable', data: { db: 'down', driver } });
      }
    });
  };
}
