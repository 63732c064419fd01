import { endpoints, loginResultSchema, userInfoSchema } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { SessionService } from './session.service.ts';

const api = endpoints.session;

/** POST /api/login, POST /api/logout, GET /api/sys-users/get_user_info (SPEC.md §7, API.md "Session"). */
export function sessionRoutes(sessions: SessionService): FastifyPluginAsync {
  return async (app) => {
    // Parsed, not only checked: only the fields of the contract leave the server.
    endpoint(app, api.login, async (req) =>
      loginResultSchema.parse(await sessions.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, requestId: String(req.id) })),
    );
    endpoint(app, api.logout, async (req) => {
      await sessions.logout(req.actor!, { ip: req.ip, requestId: String(req.id) });
      return null;
    });
    endpoint(app, api.get_user_info, async (req) => userInfoSchema.parse(req.userInfo));
  };
}
