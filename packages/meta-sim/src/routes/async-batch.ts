import { ADS_READ } from '../domain.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { NodeDef } from '../graph/node.ts';
import type { GraphRequest, GraphResponse } from '../graph/pipeline.ts';
import type { AsyncSessionRecord } from '../store/state.ts';
import { formatGraphTime } from '../time.ts';

// Asynchronous batch requests (Meta's "Asynchronous Batch Requests", the way its copies
// docs copy trees bigger than a synchronous copy allows): `POST /` with `asyncbatch=[…]`,
// items like batch items but each named, without dependencies, POST only. The answer lists
// one session per item, `{"async_sessions":[{"id","name"}]}`; `GET /<session id>` then gives
// `status` (NOT_STARTED → IN_PROGRESS → COMPLETED | FAILED) and, once finished, `result`
// (the item's JSON answer as text) and on failure `error_code` and `exception`.
// The work is done on receipt (objects exist at once); the session only reports progress
// over `async_batch_seconds` of sim time [U: how long Meta takes].

const MAX_ITEMS = 50;

interface AsyncItem {
  method?: string;
  relative_url?: string;
  body?: string;
  name?: string;
  depends_on?: string;
}

function parseItems(ctx: GraphContext): AsyncItem[] {
  const raw = ctx.params.json('asyncbatch');
  if (!Array.isArray(raw) || raw.length === 0) throw errors.invalidParameter('The parameter asyncbatch must be a non-empty JSON array', { data: { blame_field_specs: [['asyncbatch']] } });
  if (raw.length > MAX_ITEMS) throw errors.invalidParameter(`Too many requests in asyncbatch. Maximum batch size is ${MAX_ITEMS}`);
  const names = new Set<string>();
  return raw.map((entry) => {
    const item = entry as AsyncItem;
    if (!item || typeof item !== 'object') throw errors.invalidParameter('Each asyncbatch item must be an object');
    if (typeof item.name !== 'string' || item.name === '') throw errors.invalidParameter('Each asyncbatch item needs a name', { data: { blame_field_specs: [['asyncbatch', 'name']] } });
    if (names.has(item.name)) throw errors.invalidParameter(`Duplicate asyncbatch item name ${item.name}`);
    names.add(item.name);
    if ((item.method ?? 'GET').toUpperCase() !== 'POST') throw errors.invalidParameter('Asynchronous batch requests only run POST requests');
    if (typeof item.relative_url !== 'string' || item.relative_url === '') throw errors.requiredParameter('asyncbatch[relative_url]');
    if (item.depends_on !== undefined || /\{result=/.test(`${item.relative_url} ${item.body ?? ''}`)) {
      throw errors.invalidParameter('Asynchronous batch requests do not support dependencies between requests');
    }
    return item;
  });
}

/** `POST /` with `asyncbatch`: runs each item now, as an asynchronous item, and files a session. */
export function asyncBatch(run: (request: GraphRequest) => Promise<GraphResponse | null>) {
  return async (ctx: GraphContext, outer: GraphRequest): Promise<unknown> => {
    const items = parseItems(ctx);
    const sessions: AsyncSessionRecord[] = [];
    for (const item of items) {
      const relative = item.relative_url!.replace(/^\/+/, '');
      const [pathPart, query = ''] = relative.split(/\?(.*)/s) as [string, string?];
      const params: Record<string, unknown> = Object.fromEntries(new URLSearchParams(query));
      if (item.body) Object.assign(params, Object.fromEntries(new URLSearchParams(item.body)));
      const path = /^v\d+\.\d+(\/|$)/.test(pathPart) ? `/${pathPart}` : `/${ctx.version}/${pathPart}`;
      const res = await run({ method: 'POST', path, params, files: [], fallbackToken: ctx.accessToken, authorization: outer.authorization, async: true });
      // A dropped or hung item (injected fault) fails like an unknown error.
      const answer = res ?? { status: 500, body: errors.unknownError().toBody('') };
      const session: AsyncSessionRecord = {
        id: ctx.sim.store.newId(),
        name: item.name!,
        user_id: ctx.token.user_id,
        method: 'POST',
        relative_url: relative,
        created_at: ctx.now,
        completes_at: ctx.now + ctx.sim.store.state.settings.async_batch_seconds * 1000,
        status_code: answer.status,
        body: answer.body,
      };
      ctx.sim.store.state.async_sessions[session.id] = session;
      sessions.push(session);
    }
    ctx.sim.store.changed();
    return { async_sessions: sessions.map((s) => ({ id: s.id, name: s.name })) };
  };
}

function sessionStatus(s: AsyncSessionRecord, now: number): 'NOT_STARTED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' {
  if (now >= s.completes_at) return s.status_code < 400 ? 'COMPLETED' : 'FAILED';
  return now === s.created_at ? 'NOT_STARTED' : 'IN_PROGRESS';
}

const errorOf = (s: AsyncSessionRecord) => (s.body as { error?: { code?: number; message?: string } } | undefined)?.error;

export function asyncSessionNode(): NodeDef<AsyncSessionRecord> {
  const finished = (s: AsyncSessionRecord, ctx: GraphContext) => ctx.now >= s.completes_at;
  const failed = (s: AsyncSessionRecord, ctx: GraphContext) => sessionStatus(s, ctx.now) === 'FAILED';
  return {
    kind: 'asyncsession',
    typeName: 'AsyncSession',
    load: (ctx, id) => ctx.sim.store.state.async_sessions[id],
    visible: (ctx, s) => s.user_id === ctx.token.user_id,
    fields: {
      id: (s) => s.id,
      name: (s) => s.name,
      status: (s, ctx) => sessionStatus(s, ctx.now),
      method: (s) => s.method,
      relative_url: (s) => s.relative_url,
      result: (s, ctx) => (finished(s, ctx) ? JSON.stringify(s.body) : undefined),
      error_code: (s, ctx) => (failed(s, ctx) ? errorOf(s)?.code : undefined),
      exception: (s, ctx) => (failed(s, ctx) ? errorOf(s)?.message : undefined),
      start_time: (s) => formatGraphTime(s.created_at),
      complete_time: (s, ctx) => (finished(s, ctx) ? formatGraphTime(s.completes_at) : undefined),
    },
    defaultFields: ['id', 'name', 'status'],
    scopes: { read: ADS_READ, write: ADS_READ },
    edges: {},
  };
}
