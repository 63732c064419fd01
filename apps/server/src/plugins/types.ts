import type { Lang, UserInfo } from '@ads/contracts';
import type { Actor, RequestContext } from '../lib/actor.ts';
import type { ApiRoute } from './auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its declared permission, filled as routes are registered. */
    apiRoutes: readonly ApiRoute[];
    /**
     * With a simulator in use: settles when the sites are registered there after the server
     * started listening (features/orders/simulator-sites.ts); at once otherwise.
     */
    simulatorSitesReady(): Promise<void>;
    /** Answers that broke their call's answer schema (lib/endpoint.ts); null when answers are not checked (production). */
    answerMismatches: string[] | null;
  }
  interface FastifyContextConfig {
    /** Route paths (screens) this endpoint serves; the caller needs at least one of them. */
    paths?: readonly string[];
    /** Any logged-in user may call it (own session, own password). */
    anyUser?: boolean;
    /** No login needed (login itself, health). */
    public?: boolean;
    /** No login, but the URL must carry a valid signature of this server (lib/signed-url.ts): file links for <img>/<video>. */
    signed?: boolean;
    /** Not the JSON envelope (tus protocol, file streams): refusals of the auth hook carry HTTP 401/403. */
    binary?: boolean;
  }
  interface FastifyRequest {
    actor: Actor | null;
    lang: Lang;
    /** The caller's user info, loaded with the session. */
    userInfo: UserInfo | null;
    /** The request's context for services; throws if the route is public. */
    ctx(): RequestContext;
  }
}
