import { CODE_FORBIDDEN, CODE_UNAUTHORIZED, formatMessage, langFromHeader } from '@ads/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionService } from '../features/session/session.service.ts';
import type { UrlSigner } from '../lib/signed-url.ts';
import './types.ts';

/** Routes outside these prefixes (the web app, its assets) need no permission declaration. */
const API_PREFIX = '/api/';
/** The OpenAPI pages themselves (registered by @fastify/swagger-ui, which sets no permission). */
const isDocs = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');

/** A registered /api route and the permission it declares (the permission table, e.g. for tests). */
export interface ApiRoute {
  method: string;
  url: string;
  paths: readonly string[];
  anyUser: boolean;
  public: boolean;
  /** Reached without login through a URL this server signed (lib/signed-url.ts). */
  signed: boolean;
  /** Answers HTTP statuses and non-envelope bodies (tus, file streams); refusals carry the matching status. */
  binary: boolean;
  /** The route's body schema, if it has one. */
  body: unknown;
  /** The route's own request-size limit (file imports), when it differs from the app's. */
  bodyLimit?: number;
}

/** Reads the Bearer token of a request, if any. */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * The one place that decides who may call what. Every /api route must declare `paths`,
 * `anyUser`, `signed` or `public` (checked when routes are registered, so none can forget); every
 * request is authenticated and its paths checked before its body is even parsed. `signed` routes
 * need no login but a valid signature of their URL (`signer`; without one they refuse everyone).
 */
export function registerAuth(app: FastifyInstance, sessions: SessionService, opts: { signer?: UrlSigner } = {}) {
  app.decorateRequest('actor', null);
  app.decorateRequest('lang', 'zh');
  app.decorateRequest('userInfo', null);
  app.decorateRequest('ctx', function (this: FastifyRequest) {
    if (!this.actor) throw new Error('ctx() on an unauthenticated request');
    return { actor: this.actor, ip: this.ip, requestId: String(this.id), lang: this.lang };
  });

  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX) || isDocs(route.url)) return;
    const c = route.config as { paths?: readonly string[]; anyUser?: boolean; public?: boolean; signed?: boolean; binary?: boolean } | undefined;
    const declared = Boolean(c?.public) || Boolean(c?.anyUser) || Boolean(c?.signed) || (c?.paths?.length ?? 0) > 0;
    if (!declared) throw new Error(`Route ${route.method} ${route.url} declares no permission (paths, anyUser, signed or public)`);
    for (const method of [route.method].flat()) {
      apiRoutes.push({
        method,
        url: route.url,
        paths: c?.paths ?? [],
        anyUser: Boolean(c?.anyUser),
        public: Boolean(c?.public),
        signed: Boolean(c?.signed),
        binary: Boolean(c?.binary) || Boolean(c?.signed),
        body: route.schema?.body,
        ...(route.bodyLimit !== undefined && { bodyLimit: route.bodyLimit }),
      });
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    req.lang = langFromHeader(req.headers['accept-language']);
    const config = req.routeOptions.config;
    // Decide by the matched route, not the raw URL: the router decodes %-escapes, so
    // '/%61pi/sys-users/simple_list' reaches '/api/sys-users/simple_list' while its req.url does not start with '/api/'.
    const url = req.routeOptions.url;
    if (!url || !url.startsWith(API_PREFIX) || config.public) return;
    if (isDocs(url)) return;
    // Protocol and file routes answer with real HTTP statuses (a tus client or a <video> reads the status, not a body).
    const status = (code: number) => (config.binary || config.signed ? code : 200);
    if (config.signed) {
      // The signature covers the path as sent: another spelling of it (%-escapes) is simply refused.
      const path = req.url.split('?')[0]!;
      const valid = opts.signer ? await opts.signer.verify(path, req.query as Record<string, unknown>) : false;
      if (!valid) return reply.status(status(CODE_FORBIDDEN)).header('cache-control', 'no-store').send({ code: CODE_FORBIDDEN, message: formatMessage('SIGNED_URL_INVALID', req.lang), data: null });
      return;
    }
    const token = bearerToken(req);
    const resolved = token ? await sessions.resolve(token) : null;
    if (!resolved) {
      const key = token ? 'SESSION_EXPIRED' : 'UNAUTHORIZED';
      return reply.status(status(CODE_UNAUTHORIZED)).send({ code: CODE_UNAUTHORIZED, message: formatMessage(key, req.lang), data: null });
    }
    req.actor = resolved.actor;
    req.userInfo = resolved.info;
    if (config.anyUser) return;
    const allowed = config.paths?.some((p) => resolved.actor.pathSet.has(p)) ?? false;
    if (!allowed) {
      return reply.status(status(CODE_FORBIDDEN)).send({ code: CODE_FORBIDDEN, message: formatMessage('FORBIDDEN', req.lang), data: null });
    }
  });
}
