import { loginBodySchema, loginResultSchema, userInfoSchema } from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import type { SessionService } from './session.service.ts';

/** POST /api/login, POST /api/logout, GET /api/sys-users/get_user_info (SPEC.md §7, API.md "Session"). */
export function sessionRoutes(sessions: SessionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/login',
      {
        schema: { tags: ['session'], summary: 'Log in with account and MD5 password', body: loginBodySchema, response: { 200: z.any() } },
        config: { public: true },
      },
      async (req) => {
        const result = await sessions.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? null, requestId: String(req.id) });
        return ok(loginResultSchema.parse(result));
      },
    );

    app.post('/logout', { schema: { tags: ['session'], summary: 'End the current session' }, config: { anyUser: true } }, async (req) => {
      await sessions.logout(req.actor!, { ip: req.ip, requestId: String(req.id) });
      return ok(null);
    });

    app.get(
      '/sys-users/get_user_info',
      { schema: { tags: ['session'], summary: 'The current user with permitted paths' }, config: { anyUser: true } },
      async (req) => ok(userInfoSchema.parse(req.userInfo)),
    );
  };
}
