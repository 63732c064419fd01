import {
  CODE_ERROR,
  connectTokenBodySchema,
  envelope,
  formatMessage,
  idBodySchema,
  listPersonalAccountsBodySchema,
  oauthStartResultSchema,
  assetPageResultSchema,
  personalAccountSchema,
  setHostedBodySchema,
  setOwnerBodySchema,
  syncBodySchema,
  taskRefSchema,
} from '@ads/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { ok } from '../../lib/reply.ts';
import { OAUTH_BROWSER_COOKIE, type PersonalAccountService } from './personal-accounts.service.ts';

const PATHS = ['/auth/personage', '/operation/auth'] as const;

const updatedSchema = z.object({ updated: z.number().int() });

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
export function personalAccountRoutes(accounts: PersonalAccountService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['personal-accounts'];
    const config = { paths: PATHS };

    app.post(
      '/personal-accounts/list',
      { schema: { tags, body: listPersonalAccountsBodySchema, response: { 200: envelope(assetPageResultSchema(personalAccountSchema)) } }, config },
      async (req) => ok(await accounts.list(req.ctx(), req.body)),
    );
    app.post(
      '/personal-accounts/connect_token',
      { schema: { tags, body: connectTokenBodySchema, response: { 200: envelope(personalAccountSchema) } }, config },
      async (req) => ok(await accounts.connectToken(req.ctx(), req.body)),
    );
    // No body: the state binds the dialog to the caller, and the cookie to the caller's browser.
    app.post('/personal-accounts/oauth_start', { schema: { tags, response: { 200: envelope(oauthStartResultSchema) } }, config }, async (req, reply) => {
      const { result, setCookie } = await accounts.oauthStart(req.ctx(), cookieValue(req.headers.cookie, OAUTH_BROWSER_COOKIE));
      reply.header('set-cookie', setCookie);
      return ok(result);
    });

    // The browser comes back here from the OAuth dialog, without our session token: the one-time
    // state proves who started it, the cookie that the browser did. It answers a redirect to the personal accounts screen.
    app.get('/personal-accounts/oauth_callback', { schema: { tags, querystring: callbackQuerySchema }, config: { public: true } }, async (req, reply) => {
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

    app.post(
      '/personal-accounts/check_token',
      { schema: { tags, body: idBodySchema, response: { 200: envelope(personalAccountSchema) } }, config },
      async (req) => ok(await accounts.checkToken(req.ctx(), req.body.id)),
    );
    app.post('/personal-accounts/sync', { schema: { tags, body: syncBodySchema, response: { 200: envelope(taskRefSchema) } }, config }, async (req) =>
      ok(await accounts.sync(req.ctx(), req.body.ids)),
    );
    app.post('/personal-accounts/set_owner', { schema: { tags, body: setOwnerBodySchema, response: { 200: envelope(updatedSchema) } }, config }, async (req) =>
      ok(await accounts.setOwner(req.ctx(), req.body)),
    );
    app.post('/personal-accounts/set_hosted', { schema: { tags, body: setHostedBodySchema, response: { 200: envelope(updatedSchema) } }, config }, async (req) =>
      ok(await accounts.setHosted(req.ctx(), req.body)),
    );
    app.post('/personal-accounts/disconnect', { schema: { tags, body: idBodySchema }, config }, async (req) => {
      await accounts.disconnect(req.ctx(), req.body.id);
      return ok(null);
    });
  };
}
