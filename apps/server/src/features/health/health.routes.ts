import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/reply.ts';

export function healthRoutes(db: Db, driver: string, startedAt: Date): FastifyPluginAsyncZod {
  return async (app) => {
    // Liveness without touching the database (load balancers; the bench's baseline route).
    app.get('/health/live', { schema: { tags: ['system'] }, config: { public: true } }, async () => ok({ live: true }));

    app.get('/health', { schema: { tags: ['system'] }, config: { public: true } }, async (_req, reply) => {
      try {
        await sql`select 1`.execute(db);
        return ok({ db: 'ok', driver, uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000) });
      } catch {
        return reply.send({ code: -2, message: 'database unavailable', data: { db: 'down', driver } });
      }
    });
  };
}
