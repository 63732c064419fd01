import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** Where log lines go instead of stdout (tests capture them). */
export interface LogStream {
  write(line: string): void;
}

/** A request slower than this is logged at warn. */
export const SLOW_REQUEST_MS = 2000;

/**
 * Query values that must not reach the logs: the OAuth callback's one-time `code` and `state`
 * (with the app secret, a code yields a token) and the `sig` of signed file URLs (whoever holds
 * it may fetch the file until it expires).
 */
export function scrubUrl(url: string): string {
  return url.replace(/([?&](?:code|state|sig)=)[^&#]*/g, '$1***');
}

/** A client's own X-Request-Id, kept beside ours in the log: printable ASCII, at most 64 characters. */
function clientRequestId(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const clean = first?.replace(/[^\x20-\x7e]/g, '').slice(0, 64);
  return clean || undefined;
}

/**
 * Fastify's logger and request-id options. Request ids are always ours (a client could otherwise
 * make its requests look like someone else's in the log); one the client sent is logged as
 * `clientRequestId`.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: LogStream): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'logController'> {
  return {
    logger: {
      level: config.logLevel,
      ...(stream && { stream }),
      redact: ['req.headers.authorization', 'req.body.pwd', 'req.body.access_token'],
      serializers: {
        req: (req) => ({
          method: req.method,
          url: scrubUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
          clientRequestId: clientRequestId(req.headers['x-request-id']),
        }),
      },
    },
    genReqId: () => randomUUID(),
    // One line per request, written by the hook below at the level the answer deserves.
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/**
 * One log line per answered request: debug normally (a day of clicking must not flood the log at
 * info), warn when it took longer than `slowMs`, error for a 5xx.
 */
export function registerRequestLogging(app: FastifyInstance, slowMs = SLOW_REQUEST_MS) {
  app.addHook('onResponse', async (req, reply) => {
    const responseTime = Math.round(reply.elapsedTime);
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : responseTime > slowMs ? 'warn' : 'debug';
    req.log[level]({ req, res: { statusCode: status }, responseTime }, status >= 500 ? 'request failed' : level === 'warn' ? 'slow request' : 'request completed');
  });
}
