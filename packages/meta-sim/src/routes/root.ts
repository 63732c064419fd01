import { errors, newTraceId } from '../errors.ts';
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

/** The campaign an ad-set write in a batch belongs to (creating, editing, deleting or copying an ad set). */
function adsetCampaignOf(ctx: GraphContext, method: string, path: string, params: Record<string, unknown>): string | undefined {
  if (method === 'GET') return undefined;
  const segments = path.replace(/^\/?v\d+\.\d+/, '').split('/').filter(Boolean);
  const state = ctx.sim.store.state;
  if (segments.length === 2 && segments[0]!.startsWith('act_') && segments[1] === 'adsets' && method === 'POST') {
    return params.campaign_id === undefined ? undefined : String(params.campaign_id);
  }
  const adset = segments[0] ? state.adsets[segments[0]] : undefined;
  if (!adset) return undefined;
  if (segments.length === 1) return adset.campaign_id;
  if (segments[1] === 'copies' && method === 'POST') return params.campaign_id === undefined ? adset.campaign_id : String(params.campaign_id);
  return undefined;
}

/** Percent-decoded text (a form-encoded body may carry `%7Bresult%3D…`); as is when not decodable. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The `{result=name:…}` references of an item, encoded or not. */
function referencesOf(item: BatchItem): string[] {
  const text = `${item.relative_url ?? ''} ${item.body ?? ''}`;
  return [...`${text} ${decoded(text)}`.matchAll(/\{result=([^:}]+):/g)].map((m) => m[1]!);
}

/** Names an item waits for: its `depends_on` and every `{result=name:…}` it reads. */
function dependenciesOf(item: BatchItem): string[] {
  return [...new Set([...(item.depends_on ? [item.depends_on] : []), ...referencesOf(item)])];
}

/** Form parameters with the references in their (decoded) values replaced. */
function substituteParams(text: string, results: Map<string, unknown>): Record<string, unknown> {
  return Object.fromEntries([...new URLSearchParams(text)].map(([k, v]) => [k, substitute(v, results)]));
}

/**
 * `POST /` with `batch`: every item goes through the same pipeline as any call (so it is
 * authenticated, metered and faulted individually). As on the Graph API, items that do not depend
 * on each other may run concurrently: they run in waves, each wave the items whose dependencies
 * (`depends_on`, `{result=name:$.path}`) have finished, started together in request order — so an
 * item slowed by latency finishes after independent items listed later. An item hit by an injected
 * timeout or drop, or whose dependency failed or never ran, answers `null`. A batch may not include
 * several ad sets of one campaign (Graph batch-requests limitations): the first ad-set request for
 * a campaign runs, the others are refused.
 */
export function batch(run: (request: GraphRequest, isBatchItem: true) => Promise<GraphResponse | null>) {
  return async (ctx: GraphContext, outer: GraphRequest): Promise<unknown> => {
    if (!ctx.params.has('batch')) throw errors.unknownPath('/');
    const items = parseItems(ctx);
    const includeHeaders = ctx.params.bool('include_headers') ?? true;
    const names = new Set(items.map((i) => i.name).filter((n): n is string => n !== undefined));
    const referenced = new Set(items.flatMap(referencesOf));
    const named = new Map<string, unknown>();
    const failed = new Set<string>();
    const finished = new Set<string>();
    const adsetCampaigns = new Set<string>();
    const results: BatchResult[] = new Array(items.length).fill(null);
    const pending = new Set(items.map((_, i) => i));

    const settle = (index: number, ok: boolean, body?: unknown) => {
      const name = items[index]!.name;
      pending.delete(index);
      if (!name) return;
      finished.add(name);
      if (ok) named.set(name, body);
      else failed.add(name);
    };

    const runItem = async (index: number): Promise<void> => {
      const item = items[index]!;
      if (dependenciesOf(item).some((d) => failed.has(d))) return settle(index, false);
      const [rawPath, query = ''] = (item.relative_url ?? '').replace(/^\/+/, '').split(/\?(.*)/s) as [string, string?];
      const pathPart = substitute(decoded(rawPath), named);
      const params = substituteParams(query, named);
      if (item.body) Object.assign(params, substituteParams(item.body, named));
      const path = /^v\d+\.\d+(\/|$)/.test(pathPart) ? `/${pathPart}` : `/${ctx.version}/${pathPart}`;
      const method = (item.method ?? 'GET').toUpperCase();
      const attached = (item.attached_files ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const files = ctx.files.filter((f) => attached.includes(f.field));

      const campaignId = adsetCampaignOf(ctx, method, pathPart, params);
      let res: GraphResponse | null;
      if (campaignId !== undefined && adsetCampaigns.has(campaignId)) {
        res = { status: 400, headers: {}, body: errors.batchSameCampaign(campaignId).toBody(newTraceId()) };
      } else {
        if (campaignId !== undefined) adsetCampaigns.add(campaignId);
        res = await run({ method, path, params, files, fallbackToken: ctx.accessToken, authorization: outer.authorization }, true);
      }
      if (!res) return settle(index, false);
      const ok = res.status < 400;
      settle(index, ok, res.body);
      const omit = item.omit_response_on_success ?? (item.name !== undefined && referenced.has(item.name));
      if (ok && omit) return;
      const headers = Object.entries({ 'content-type': 'text/javascript; charset=UTF-8', ...res.headers }).map(([name, value]) => ({ name, value }));
      results[index] = { code: res.status, ...(includeHeaders ? { headers } : {}), body: JSON.stringify(res.body) };
    };

    while (pending.size > 0) {
      // Ready: every dependency that is in the batch has finished (a name not in the batch is no dependency).
      const ready = [...pending].filter((i) => dependenciesOf(items[i]!).every((d) => !names.has(d) || finished.has(d)));
      if (ready.length === 0) {
        // A cycle of dependencies: none of them can run.
        for (const i of pending) settle(i, false);
        break;
      }
      await Promise.all(ready.map(runItem));
    }
    return results;
  };
}
