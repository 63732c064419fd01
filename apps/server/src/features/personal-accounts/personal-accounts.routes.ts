import { CODE_ERROR, endpoints, formatMessage } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { endpoint } from '../../lib/endpoint.ts';
import { OAUTH_BROWSER_COOKIE, type PersonalAccountService } from './personal-accounts.service.ts';

const api = endpoints.personalAccounts;

/** What the OAuth dialog appends to the redirect URI (reference §11); anything longer is not Meta's. */
const callbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_code: z.string().max(50).optional(),
  error_reason: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/** The value of one cookie in a Cookie header (the first, if the browser sends the name twice). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Personal accounts (个号管理 / 个号授权), docs/api-assets.md. */
export function personalAccountRoutes(accounts: PersonalAccountService): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    endpoint(app, api.list, async (req) => accounts.list(req.ctx(), req.body));
    endpoint(app, api.connect_token, async (req) => accounts.connectToken(req.ctx(), req.body));
    endpoint(app, api.oauth_start, async (req, reply) => {
      const { result, setCookie } = await accounts.oauthStart(req.ctx(), cookieValue(req.headers.cookie, OAUTH_BROWSER_COOKIE));
      reply.header('set-cookie', setCookie);
      return result;
    });

    // The browser comes back here from the OAuth dialog, without our session token: the one-time
    // state proves who started it, the cookie that the browser did. It answers a redirect to the personal accounts screen.
    // Not a call of the endpoint table: a browser redirect, not a JSON answer.
    app.get('/personal-accounts/oauth_callback', { schema: { tags: ['personal-accounts'], querystring: callbackQuerySchema }, config: { public: true } }, async (req, reply) => {
      try {
        const location = await accounts.oauthCallback(req.query, {
          lang: req.lang,
          ip: req.ip,
          requestId: String(req.id),
          browserValue: cookieValue(req.headers.cookie, OAUTH_BROWSER_COOKIE),
        });
        return reply.header('Cache-Control', 'no-store').redirect(location, 302);
      } catch (err) {
        // No state at all: not a return from the dialog; answer the envelope like any other call.
        if (err instanceof AppError) return reply.send({ code: CODE_ERROR, message: formatMessage(err.key, req.lang, err.params), data: null });
        throw err;
      }
    });

    endpoint(app, api.check_token, async (req) => accounts.checkToken(req.ctx(), req.body.id));
    endpoint(app, api.sync, async (req) => accounts.sync(req.ctx(), req.body.ids));
    endpoint(app, api.set_owner, async (req) => accounts.setOwner(req.ctx(), req.body));
    endpoint(app, api.set_hosted, async (req) => accounts.setHosted(req.ctx(), req.body));
    endpoint(app, api.disconnect, async (req) => {
      await accounts.disconnect(req.ctx(), req.body.id);
      return null;
    });
  };
}
