import { envelope, type AnswerIn, type AnyEndpoint, type BodyOut } from '@ads/contracts';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ok } from './reply.ts';

/** A request of a table call: its body already parsed by the call's schema. */
export type EndpointRequest<E extends AnyEndpoint> = Omit<FastifyRequest, 'body'> & { body: BodyOut<E> };

/**
 * What a handler answers: the call's `data` (wrapped in the envelope here), or the reply itself
 * when it has answered on its own (a file download, a health check's failure).
 */
export type EndpointHandler<E extends AnyEndpoint> = (req: EndpointRequest<E>, reply: FastifyReply) => Promise<(E['answer'] extends 'xlsx' ? never : AnswerIn<E>) | FastifyReply>;

/** The permission of a call as the auth hook reads it from the route's config (plugins/auth.ts). */
function accessConfig(allow: AnyEndpoint['allow']): FastifyContextConfig {
  if (allow === 'public') return { public: true };
  if (allow === 'user') return { anyUser: true };
  return { paths: allow };
}

/** An answer that breaks its call's answer schema (only looked for when the app checks answers). */
export class AnswerMismatchError extends Error {}

/**
 * Registers one call of the endpoint table (packages/contracts/src/endpoints): its path and
 * method, its body schema (validated before the handler runs), the permission paths the auth hook
 * checks, and the answer schema for the OpenAPI docs. When the app checks answers (tests), every
 * success answer is compared with the schema and a mismatch fails the call loudly.
 */
export function endpoint<E extends AnyEndpoint>(app: FastifyInstance, e: E, handler: EndpointHandler<E>) {
  const answer = e.answer;
  app.route({
    method: e.method,
    url: e.path,
    schema: {
      tags: [e.tag],
      ...(e.summary && { summary: e.summary }),
      ...(e.body && { body: e.body }),
      ...(answer !== 'xlsx' && { response: { 200: envelope(answer) } }),
    },
    config: accessConfig(e.allow),
    ...(e.bodyLimit !== undefined && { bodyLimit: e.bodyLimit }),
    handler: async (req, reply) => {
      const result = await handler(req as EndpointRequest<E>, reply);
      if (result === reply || answer === 'xlsx') return result;
      if (app.answerMismatches) {
        const parsed = answer.safeParse(result);
        if (!parsed.success) {
          const problem = `${e.method} /api${e.path} answered off its contract: ${parsed.error.message}`;
          app.answerMismatches.push(problem);
          throw new AnswerMismatchError(problem);
        }
      }
      return ok(result);
    },
  });
}
