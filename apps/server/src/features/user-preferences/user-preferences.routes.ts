import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { UserPreferenceService } from './user-preferences.service.ts';

const api = endpoints.userPreferences;

/** The caller's own preferences by key (column choices and saved sets). */
export function userPreferenceRoutes(prefs: UserPreferenceService): FastifyPluginAsync {
  return async (app) => {
    // Any signed-in user, on their own rows only: the key never names another user.
    endpoint(app, api.get, async (req) => prefs.get(req.actor!, req.body.key));
    endpoint(app, api.save, async (req) => prefs.put(req.actor!, req.body.key, req.body.value));
  };
}
