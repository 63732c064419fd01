import { SUPPORTED_VERSIONS } from '../config.ts';
import { EXECUTION_OPTIONS } from '../domain.ts';
import { errors, GraphError, newTraceId } from '../errors.ts';
import type { GraphContext, Method, Sim } from './context.ts';
import { dispatch } from './dispatch.ts';
import type { NodeRegistry } from './node.ts';
import { Params, parseFields, type UploadedFile } from './params.ts';

// One Graph call from raw parts to a response: version check, token, app limit, routing,
// usage headers and the error envelope. Top-level HTTP requests and batch items both go
// through here, so batch items are checked and metered like any call.

export interface GraphRequest {
  method: string;
  /** Full path without the query, e.g. `/v25.0/act_1/campaigns`. */
  path: string;
  /** Query and body parameters merged (body wins). */
  params: Record<string, unknown>;
  files: UploadedFile[];
  authorization?: string;
  /** Token of the enclosing batch, used when a batch item names none. */
  fallbackToken?: string;
  /** An item of an asynchronous batch request. */
  async?: boolean;
}

export interface GraphResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Calls that need no user token (they authenticate in their own way). */
export type PublicHandler = (sim: Sim, params: Params, version: string) => unknown;

/** A root-level call with a user token: batch (POST /) and multi-id reads (GET /?ids=). */
export type RootHandler = (ctx: GraphContext, request: GraphRequest) => Promise<unknown>;

export interface Pipeline {
  handle(request: GraphRequest): Promise<GraphResponse>;
}

const VERSION_RE = /^\/v(\d+)\.0(?=\/|$)/;

/** Splits `/v25.0/rest` into version and rest; unversioned calls get the default version. */
export function splitVersion(path: string): { version: string; rest: string } {
  const m = VERSION_RE.exec(path);
  if (!m) {
    if (/^\/v\d+(\.\d+)?(\/|$)/.test(path)) throw errors.unknownPath(path);
    return { version: `v${SUPPORTED_VERSIONS.default}.0`, rest: path || '/' };
  }
  const major = Number(m[1]);
  const version = `v${major}.0`;
  if (major < SUPPORTED_VERSIONS.min) throw errors.deprecatedVersion(version);
  if (major > SUPPORTED_VERSIONS.max) throw errors.unknownPath(path);
  return { version, rest: path.slice(m[0].length) || '/' };
}

/** `execution_options` (a JSON list, or a comma list) with values of the SDKs' enum only. */
function readExecutionOptions(params: Params): string[] {
  const options = params.list('execution_options') ?? [];
  for (const o of options) if (!(EXECUTION_OPTIONS as readonly string[]).includes(o)) throw errors.invalidEnum('execution_options', EXECUTION_OPTIONS);
  return options;
}

function bearer(authorization: string | undefined): string | undefined {
  const m = /^(?:Bearer|OAuth)\s+(.+)$/i.exec(authorization ?? '');
  return m?.[1]?.trim();
}

export function createPipeline(
  sim: Sim,
  registry: NodeRegistry,
  publicHandlers: Record<string, PublicHandler>,
  root: { get: RootHandler; post: RootHandler },
): Pipeline {
  async function run(request: GraphRequest): Promise<GraphResponse> {
    const { version, rest } = splitVersion(request.path);
    const params = new Params(request.params);
    const method = request.method.toUpperCase();
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') throw errors.unknownPath(rest);

    const publicHandler = publicHandlers[rest.replace(/\/+$/, '')];
    if (publicHandler) return { status: 200, headers: {}, body: await publicHandler(sim, params, version) };

    const accessToken = params.string('access_token') ?? bearer(request.authorization) ?? request.fallbackToken;
    const token = sim.tokens.authenticate(accessToken);
    sim.tokens.checkProof(accessToken!, params.string('appsecret_proof'), sim.store.state.settings.require_appsecret_proof);
    const now = sim.clock.now();
    sim.limits.admitApp(now);

    const ctx: GraphContext = {
      sim,
      method: method as Method,
      version,
      path: rest,
      params,
      files: request.files,
      token,
      accessToken: accessToken!,
      now,
      fields: parseFields(params.string('fields')),
      async: request.async,
      validateOnly: readExecutionOptions(params).includes('validate_only'),
    };
    let body: unknown;
    if (rest === '/' || rest === '') {
      body = method === 'POST' ? await root.post(ctx, request) : await root.get(ctx, request);
    } else {
      body = await dispatch(ctx, registry);
    }
    return { status: 200, headers: sim.limits.headers(sim.clock.now(), ctx.usage), body };
  }

  return {
    async handle(request) {
      const traceId = newTraceId();
      try {
        const res = await run(request);
        res.headers['x-fb-trace-id'] = traceId;
        return res;
      } catch (err) {
        const error =
          err instanceof GraphError
            ? err
            : new GraphError({ code: 1, message: 'An unknown error occurred', isTransient: true });
        if (!(err instanceof GraphError)) sim.log.error({ err, path: request.path }, 'meta-sim: unexpected error');
        return { status: error.httpStatus, headers: { ...error.headers, 'x-fb-trace-id': traceId }, body: error.toBody(traceId) };
      }
    },
  };
}
