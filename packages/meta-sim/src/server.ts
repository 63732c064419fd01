import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { newTraceId } from './errors.ts';
import type { FaultEffect } from './faults.ts';
import type { Sim } from './graph/context.ts';
import { boundaryOf, parseMultipart, type MultipartBody } from './graph/multipart.ts';
import type { UploadedFile } from './graph/params.ts';
import { splitVersion, type GraphRequest, type GraphResponse, type Pipeline } from './graph/pipeline.ts';

// The HTTP layer: body parsers for the three encodings the Graph API accepts, fault effects
// that need the socket (latency, hang, drop), and one catch-all route that hands every Graph
// call to the pipeline.

/** Largest request body: simple (non-chunked) video uploads arrive whole. */
const BODY_LIMIT = 256 * 1024 * 1024;

const MULTIPART = Symbol('multipart');
type ParsedMultipart = MultipartBody & { [MULTIPART]: true };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface HttpServerOptions {
  sim: Sim;
  pipeline: Pipeline;
  logLevel: string;
  /** Extra route registrations (OAuth dialog, control API). */
  plugins: Array<(app: FastifyInstance) => Promise<void> | void>;
}

/** Where a fault applies: the path without the Graph version (`/act_1/campaigns`). */
function faultPath(path: string): string {
  try {
    return splitVersion(path).rest;
  } catch {
    return path;
  }
}

export async function buildHttpServer({ sim, pipeline, logLevel, plugins }: HttpServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logLevel === 'silent' ? false : { level: logLevel, redact: ['req.headers.authorization'] },
    bodyLimit: BODY_LIMIT,
    // close() must not wait for sockets held open by an injected hang.
    forceCloseConnections: true,
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(text))));
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, buffer, done) => {
    const boundary = boundaryOf(req.headers['content-type'] ?? '');
    if (!boundary) return done(Object.assign(new Error('multipart body without boundary'), { statusCode: 400 }), undefined);
    try {
      done(null, { ...parseMultipart(buffer as Buffer, boundary), [MULTIPART]: true } satisfies ParsedMultipart);
    } catch (err) {
      done(Object.assign(err as Error, { statusCode: 400 }), undefined);
    }
  });
  // Bodies of other types are ignored rather than refused, like the Graph API does.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));

  for (const plugin of plugins) await app.register(plugin);

  const send = (reply: FastifyReply, res: GraphResponse) =>
    reply.code(res.status).headers(res.headers).type('application/json; charset=UTF-8').send(JSON.stringify(res.body));

  /** Holds the connection without answering until the client gives up or `ms` pass, then drops it. */
  async function hang(req: FastifyRequest, reply: FastifyReply, ms: number): Promise<void> {
    reply.hijack();
    const socket = req.raw.socket;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    socket.destroy();
  }

  /** Applies latency, hang or drop; returns true when the reply has been taken over. */
  async function applyFault(effect: FaultEffect, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (effect.latencyMs > 0) await sleep(effect.latencyMs);
    if (effect.kind === 'drop') {
      reply.hijack();
      req.raw.socket.destroy();
      return true;
    }
    if (effect.kind === 'timeout') {
      await hang(req, reply, effect.maxMs);
      return true;
    }
    return false;
  }

  /** The call is carried out, then its answer is lost (reply never sent). */
  async function applyThenDrop(effect: Extract<FaultEffect, { kind: 'apply_then_drop' }>, request: GraphRequest, req: FastifyRequest, reply: FastifyReply) {
    await pipeline.handle(request);
    if (effect.hangMs > 0) return hang(req, reply, effect.hangMs);
    reply.hijack();
    req.raw.socket.destroy();
  }

  async function graph(req: FastifyRequest, reply: FastifyReply) {
    const url = new URL(req.url, 'http://sim');
    const effect = sim.faults.take(req.method, faultPath(url.pathname));
    if (effect && effect.kind !== 'apply_then_drop') {
      if (await applyFault(effect, req, reply)) return reply;
      if (effect.kind === 'error') {
        const traceId = newTraceId();
        return send(reply, { status: effect.error.httpStatus, headers: { 'x-fb-trace-id': traceId }, body: effect.error.toBody(traceId) });
      }
    }
    const body = req.body as ParsedMultipart | Record<string, unknown> | undefined;
    const isMultipart = !!body && MULTIPART in body;
    const fields: Record<string, unknown> = isMultipart ? (body as ParsedMultipart).fields : body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const files: UploadedFile[] = isMultipart ? (body as ParsedMultipart).files : [];
    const request: GraphRequest = {
      method: req.method,
      path: url.pathname,
      params: { ...Object.fromEntries(url.searchParams), ...fields },
      files,
      authorization: req.headers.authorization,
    };
    if (effect?.kind === 'apply_then_drop') {
      if (effect.latencyMs > 0) await sleep(effect.latencyMs);
      await applyThenDrop(effect, request, req, reply);
      return reply;
    }
    return send(reply, await pipeline.handle(request));
  }

  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/*', handler: graph });
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/', handler: graph });
  return app;
}
