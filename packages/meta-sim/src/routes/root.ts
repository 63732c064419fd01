import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { NodeRegistry } from '../graph/node.ts';
import type { GraphRequest, GraphResponse } from '../graph/pipeline.ts';

// The root node: multi-id reads (`GET /?ids=1,2&fields=name`) and the batch endpoint
// (`POST /` with `batch=[…]`, reference §14).

const MAX_BATCH = 50;

interface BatchItem {
  method?: string;
  relative_url?: string;
  body?: string;
  name?: string;
  depends_on?: string;
  omit_response_on_success?: boolean;
  attached_files?: string;
}

type BatchResult = { code: number; headers?: Array<{ name: string; value: string }>; body: string } | null;

/** `GET /?ids=…`: each id read with the same fields, keyed by id; any unknown id fails all (803). */
export function multiIdRead(registry: NodeRegistry) {
  return async (ctx: GraphContext): Promise<unknown> => {
    const ids = ctx.params.list('ids');
    if (!ids || ids.length === 0) throw errors.unknownPath('/');
    const store = ctx.sim.store;
    const missing: string[] = [];
    const found: Array<[string, ReturnType<typeof store.kindOf>, unknown]> = [];
    for (const id of ids) {
      const kind = store.kindOf(id);
      const def = kind ? registry.get(kind) : undefined;
      const obj = def?.load(ctx, id);
      if (!kind || !def || obj === undefined || !def.visible(ctx, obj)) missing.push(id);
      else found.push([id, kind, obj]);
    }
    if (missing.length > 0) throw errors.unknownAliases(missing);
    const out: Record<string, unknown> = {};
    for (const [id, kind, obj] of found) {
      const def = registry.get(kind!);
      ctx.sim.tokens.requireScope(ctx.token, def.scopes.read);
      out[id] = await registry.serialize(ctx, kind!, obj, ctx.fields);
    }
    return out;
  };
}

/** Reads `$.a.b.0` (or `$.data.*.id`, joined with commas) from an earlier result. */
function jsonPath(value: unknown, path: string): string | undefined {
  const parts = path.replace(/^\$\.?/, '').split('.').filter(Boolean);
  let current: unknown[] = [value];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const v of current) {
      if (part === '*' && Array.isArray(v)) next.push(...v);
      else if (v && typeof v === 'object') next.push((v as Record<string, unknown>)[part]);
    }
    current = next.filter((v) => v !== undefined);
  }
  if (current.length === 0) return undefined;
  return current.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',');
}

/** Replaces `{result=name:$.path}` references with values from earlier named results. */
function substitute(text: string, results: Map<string, unknown>): string {
  return text.replace(/\{result=([^:}]+):([^}]+)\}/g, (whole, name: string, path: string) => {
    const value = results.get(name);
    if (value === undefined) return whole;
    return jsonPath(value, path) ?? '';
  });
}

function parseItems(ctx: GraphContext): BatchItem[] {
  const raw = ctx.params.json('batch');
  if (!Array.isArray(raw)) throw errors.invalidParameter('The parameter batch must be a JSON array');
  if (raw.length > MAX_BATCH) throw errors.invalidParameter(`Too many requests in batch message. Maximum batch size is ${MAX_BATCH}`);
  return raw.map((item) => {
    if (!item || typeof item !== 'object') throw errors.invalidParameter('Each batch item must be an object');
    return item as BatchItem;
  });
}

/**
 * `POST /` with `batch`: items run in order through the same pipeline as any call (so they are
 * authenticated, metered and faulted individually). An item hit by an injected timeout or
 * dropped connection, or whose dependency failed, answers `null`, as on the Graph API.
 */
export function batch(run: (request: GraphRequest, isBatchItem: true) => Promise<GraphResponse | null>) {
  return async (ctx: GraphContext, outer: GraphRequest): Promise<unknown> => {
    if (!ctx.params.has('batch')) throw errors.unknownPath('/');
    const items = parseItems(ctx);
    const includeHeaders = ctx.params.bool('include_headers') ?? true;
    const referenced = new Set(items.flatMap((i) => [...`${i.relative_url ?? ''} ${i.body ?? ''}`.matchAll(/\{result=([^:}]+):/g)].map((m) => m[1]!)));
    const named = new Map<string, unknown>();
    const failed = new Set<string>();
    const results: BatchResult[] = [];

    for (const item of items) {
      if (item.depends_on && failed.has(item.depends_on)) {
        if (item.name) failed.add(item.name);
        results.push(null);
        continue;
      }
      const relative = substitute(item.relative_url ?? '', named).replace(/^\/+/, '');
      const [pathPart, query = ''] = relative.split(/\?(.*)/s) as [string, string?];
      const params: Record<string, unknown> = Object.fromEntries(new URLSearchParams(query));
      if (item.body) Object.assign(params, Object.fromEntries(new URLSearchParams(substitute(item.body, named))));
      const path = /^v\d+\.\d+(\/|$)/.test(pathPart) ? `/${pathPart}` : `/${ctx.version}/${pathPart}`;
      const attached = (item.attached_files ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const files = ctx.files.filter((f) => attached.includes(f.field));

      const res = await run(
        { method: (item.method ?? 'GET').toUpperCase(), path, params, files, fallbackToken: ctx.accessToken, authorization: outer.authorization },
        true,
      );
      if (!res) {
        if (item.name) failed.add(item.name);
        results.push(null);
        continue;
      }
      const ok = res.status < 400;
      if (item.name) {
        if (ok) named.set(item.name, res.body);
        else failed.add(item.name);
      }
      const omit = item.omit_response_on_success ?? (item.name !== undefined && referenced.has(item.name));
      if (ok && omit) {
        results.push(null);
        continue;
      }
      const headers = Object.entries({ 'content-type': 'text/javascript; charset=UTF-8', ...res.headers }).map(([name, value]) => ({ name, value }));
      results.push({ code: res.status, ...(includeHeaders ? { headers } : {}), body: JSON.stringify(res.body) });
    }
    return results;
  };
}
