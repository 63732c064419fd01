import { envelope, getPreferenceQuerySchema, preferenceSchema, putPreferenceBodySchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply.ts';
import type { UserPreferenceService } from './user-preferences.service.ts';

/** GET/PUT /api/user-preferences: the caller's own preferences by key (column choices and saved sets). */
export function userPreferenceRoutes(prefs: UserPreferenceService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['user-preferences'];
    // Any signed-in user, on their own rows only: the key never names another user.
    app.get(
      '/user-preferences',
      { schema: { tags, querystring: getPreferenceQuerySchema, response: { 200: envelope(preferenceSchema) } }, config: { anyUser: true } },
      async (req) => ok(await prefs.get(req.actor!, req.query.key)),
    );
    app.put(
      '/user-preferences',
      { schema: { tags, body: putPreferenceBodySchema, response: { 200: envelope(preferenceSchema) } }, config: { anyUser: true } },
      async (req) => ok(await prefs.put(req.actor!, req.body.key, req.body.value)),
    );
  };
}
