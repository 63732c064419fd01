import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { fromGraphError, fromHttpStatus, fromNetworkFailure, isObjectLimit, unexpectedAnswer, wasNeverSent } from './graph-errors.ts';
import { graphBatchResponseSchema, graphErrorEnvelopeSchema, graphPageSchema } from './graph-schemas.ts';
import { KeyedSemaphores, type Release } from './semaphore.ts';
import { PlatformError } from './types.ts';
import { DEFAULT_THROTTLE_POLICY, UsageTracker, type ThrottlePolicy, type UsageScope } from './usage.ts';

// The HTTP layer to the Graph API (reference §0, §13–§16): URL and parameter encoding, token and
// appsecret_proof, cursor paging, the batch endpoint, time limits, retries with backoff for
// transient failures and throttles, client-side pacing from the usage headers, and concurrency
// caps per ad account and per token. It knows nothing of ad accounts or pages: meta-adapter.ts
// gives the calls their meaning.

/** A parameter value; objects and arrays travel as JSON text (reference §0). */
export type GraphParamValue = string | number | boolean | readonly unknown[] | { readonly [key: string]: unknown } | undefined;
export type GraphParams = Readonly<Record<string, GraphParamValue>>;
/** A file part of a multipart POST (ad images, video chunks); the bytes are held in memory, so keep parts small. */
export interface GraphFile {
  data: Uint8Array;
  filename: string;
  contentType?: string;
}
export type GraphMethod = 'GET' | 'POST' | 'DELETE';

export interface GraphRequest {
  /** Default GET. */
  method?: GraphMethod;
  /** Path under the version without a leading slash: `me/adaccounts`, `act_1/campaigns`; '' = the root. */
  path: string;
  /** Sent as `Authorization: Bearer`. Omitted for calls that authenticate with app credentials in params. */
  token?: string;
  params?: GraphParams;
  fields?: readonly string[];
  /** Ad account (`act_<n>` or `<n>`) the call counts against; inferred from `act_<n>/…` paths. */
  accountId?: string;
  /** Another base URL (without the version) for this call: video uploads go to graph-video.facebook.com (reference §7). */
  baseUrl?: string;
  /** POST only: sent as multipart/form-data with these file parts beside the params. */
  files?: Readonly<Record<string, GraphFile>>;
  /** May be resent after an ambiguous failure (time-out, dropped connection). Default: GET only. */
  idempotent?: boolean;
  signal?: AbortSignal;
}

/** A sub-request of the batch endpoint; the batch's token applies. */
export interface GraphBatchItem {
  method?: GraphMethod;
  path: string;
  params?: GraphParams;
  fields?: readonly string[];
  accountId?: string;
}

/**
 * One sub-request's outcome, in request order. `unanswered`: the platform gave no answer for it
 * (`null`: timed out or dropped) and it was not resent, so it may or may not have been applied.
 */
export type GraphBatchResult = { ok: true; body: unknown } | { ok: false; error: PlatformError; unanswered?: true };

export interface GraphBatchOptions {
  signal?: AbortSignal;
  /**
   * Resend items that came back `null` (default true, as reference §14 advises for reads). Creates
   * pass false: an unanswered create may have been applied, and the caller looks it up instead.
   */
  resendUnanswered?: boolean;
}

export interface GraphClient {
  /** One call; the answer is validated with `schema` (a mismatch is an `unavailable`, non-retryable error). */
  request<T>(req: GraphRequest, schema: z.ZodType<T>): Promise<T>;
  /** Every page of a cursor-paged edge, following `after` until no `next` remains. */
  pages<T>(req: GraphRequest, itemSchema: z.ZodType<T>): AsyncGenerator<T[]>;
  /** All rows of a paged edge. */
  all<T>(req: GraphRequest, itemSchema: z.ZodType<T>): Promise<T[]>;
  /** Sub-requests through `POST /` (≤ 50 per request); `null` items and transient item failures are retried. */
  batch(token: string, items: readonly GraphBatchItem[], opts?: GraphBatchOptions): Promise<GraphBatchResult[]>;
}

export interface GraphClientConfig {
  /** Base URL without the version, e.g. `https://graph.facebook.com`. */
  graphUrl: string;
  /** e.g. `v25.0`. */
  apiVersion: string;
  /** When set, every token-authenticated call carries `appsecret_proof` (reference §0). */
  appSecret?: string;
  /** Time limit of one HTTP attempt. */
  requestTimeoutMs: number;
  maxConcurrencyPerAccount: number;
  maxConcurrencyPerToken: number;
}

/** Tuning that is not configuration: defaults suit production; tests shrink them. */
export interface GraphClientTuning {
  /** HTTP attempts per call (and rounds per batch), first one included. */
  maxAttempts: number;
  /** No call keeps retrying or waiting for quota past this many ms after it started. */
  deadlineMs: number;
  /** First backoff delay; doubles per attempt up to `backoffMaxMs`, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** `limit` asked of paged edges. */
  pageLimit: number;
  /** Safety cap: paging that has not ended after this many pages is an error, not a loop. */
  maxPages: number;
  throttle: ThrottlePolicy;
}

export const DEFAULT_GRAPH_TUNING: GraphClientTuning = {
  maxAttempts: 5,
  deadlineMs: 120_000,
  backoffBaseMs: 1000,
  backoffMaxMs: 60_000,
  pageLimit: 100,
  maxPages: 1000,
  throttle: DEFAULT_THROTTLE_POLICY,
};

/** Pino-compatible; Fastify's `app.log` fits. */
export interface PlatformLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface GraphClientDeps {
  fetch?: typeof fetch;
  /** Waits between attempts and for quota; tests inject one that records delays and moves the simulator clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Epoch ms for deadlines and quota windows (must agree with `sleep`). */
  now?: () => number;
  /** [0, 1) for backoff jitter. */
  random?: () => number;
  log?: PlatformLogger;
}

/** Sub-requests per batch request (reference §14). */
const MAX_BATCH_ITEMS = 50;

const silentLog: PlatformLogger = { debug: () => {}, warn: () => {} };

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function encodeParams(params: GraphParams | undefined, fields: readonly string[] | undefined): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    out.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  if (fields && fields.length > 0) out.set('fields', fields.join(','));
  return out;
}

/** `act_123/adspixels` → `123`. */
function accountOf(path: string, explicit: string | undefined): string | undefined {
  if (explicit) return explicit.replace(/^act_/, '');
  return /^act_(\d+)(?:\/|$)/.exec(path)?.[1];
}

function scopeOf(path: string, accountId: string | undefined): UsageScope {
  return { accountId: accountOf(path, accountId), type: /(?:^|\/)insights$/.test(path) ? 'ads_insights' : 'ads_management' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Names where an answer did not match, never the values (they may hold tokens). */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

interface Answer {
  body: unknown;
  traceId: string | undefined;
}

type Attempt = ({ ok: true } & Answer) | { ok: false; error: PlatformError; resendable: boolean };

export function createGraphClient(config: GraphClientConfig, tuning: Partial<GraphClientTuning> = {}, deps: GraphClientDeps = {}): GraphClient {
  const t: GraphClientTuning = { ...DEFAULT_GRAPH_TUNING, ...tuning };
  const fetchImpl = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? realSleep;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const log = deps.log ?? silentLog;
  const base = `${config.graphUrl.replace(/\/+$/, '')}/${config.apiVersion}/`;
  const usage = new UsageTracker(t.throttle, now);
  const accountSlots = new KeyedSemaphores(config.maxConcurrencyPerAccount);
  const tokenSlots = new KeyedSemaphores(config.maxConcurrencyPerToken);

  // Semaphores are keyed by a digest, so raw tokens are not kept as map keys.
  const tokenKey = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 22);
  const proof = (token: string) => createHmac('sha256', config.appSecret!).update(token).digest('hex');

  function backoff(attempt: number, retryAfterMs: number | undefined): number {
    // A wait the platform named is honoured, plus a little jitter so parallel callers spread out.
    if (retryAfterMs !== undefined) return Math.round(retryAfterMs + random() * t.backoffBaseMs);
    const exp = Math.min(t.backoffMaxMs, t.backoffBaseMs * 2 ** (attempt - 1));
    // "Equal jitter": never below half the step, so retries keep backing off.
    return Math.round(exp / 2 + (random() * exp) / 2);
  }

  /** Waits until every quota the call counts against allows it; refuses when that is past the deadline. */
  async function waitForQuota(scopes: readonly UsageScope[], deadline: number, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const wait = Math.max(0, ...scopes.map((s) => usage.reserve(s)));
      if (wait === 0) return;
      if (now() + wait > deadline) {
        throw new PlatformError('rate_limited', 'Graph API quota nearly exhausted; calls paused until it resets', { retryable: true, retryAfterMs: wait });
      }
      log.debug({ waitMs: wait, accountIds: scopes.map((s) => s.accountId).filter(Boolean) }, 'graph: pacing calls to stay within quota');
      await sleep(wait, signal);
      // A slot booked for after the wait is ours; only a stop that appeared meanwhile sends us round again.
      if (scopes.every((s) => usage.blockedFor(s) === 0)) return;
    }
  }

  async function acquireSlots(token: string | undefined, accountId: string | undefined, signal: AbortSignal | undefined): Promise<Release> {
    // Account first, token second, the token slot held only for the HTTP exchange: calls queued
    // on a busy account never hold token slots that calls on other accounts could use.
    const releaseAccount = accountId ? await accountSlots.acquire(accountId, signal) : undefined;
    try {
      const releaseToken = token ? await tokenSlots.acquire(tokenKey(token), signal) : undefined;
      return () => {
        releaseToken?.();
        releaseAccount?.();
      };
    } catch (err) {
      releaseAccount?.();
      throw err;
    }
  }

  /** One HTTP exchange. Throws only when the caller aborted. */
  async function attempt(req: GraphRequest, scope: UsageScope): Promise<Attempt> {
    const method = req.method ?? 'GET';
    const idempotent = req.idempotent ?? method === 'GET';
    const params = encodeParams(req.params, req.fields);
    if (req.token && config.appSecret) params.set('appsecret_proof', proof(req.token));
    const query = method === 'POST' ? '' : params.toString();
    const root = req.baseUrl ? `${req.baseUrl.replace(/\/+$/, '')}/${config.apiVersion}/` : base;
    const url = `${root}${req.path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    const multipart = method === 'POST' && req.files !== undefined && Object.keys(req.files).length > 0;
    let payload: string | FormData | undefined;
    if (multipart) {
      // Uploads (reference §0): params as form fields, files as parts; fetch sets the boundary.
      const form = new FormData();
      for (const [name, value] of params) form.append(name, value);
      for (const [name, file] of Object.entries(req.files!)) form.append(name, new Blob([file.data], { type: file.contentType ?? 'application/octet-stream' }), file.filename);
      payload = form;
    } else if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = params.toString();
    }

    const release = await acquireSlots(req.token, scope.accountId, req.signal);
    const timeout = AbortSignal.timeout(config.requestTimeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const started = performance.now();
    // Logged: the path only. Query and body may carry tokens, secrets and `next` URLs.
    const logged = { method, path: `/${config.apiVersion}/${req.path}`, accountId: scope.accountId };
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, { method, headers, body: payload, signal });
      text = await res.text();
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason;
      const error = fromNetworkFailure(err, timeout.aborted);
      log.debug({ ...logged, durationMs: Math.round(performance.now() - started), error: error.message }, 'graph request failed');
      return { ok: false, error, resendable: idempotent || wasNeverSent(err) };
    } finally {
      release();
    }

    const traceId = res.headers.get('x-fb-trace-id') ?? undefined;
    const retryAfterMs = usage.record(res.headers, scope);
    const body = parseJson(text);
    log.debug({ ...logged, status: res.status, durationMs: Math.round(performance.now() - started), fbtraceId: traceId }, 'graph request');

    const envelope = graphErrorEnvelopeSchema.safeParse(body);
    if (!res.ok || envelope.success) {
      const error = envelope.success ? fromGraphError(envelope.data, { retryAfterMs, traceId }) : fromHttpStatus(res.status, traceId);
      // A throttled call was refused, so it did nothing: safe to resend whatever it was.
      return { ok: false, error, resendable: idempotent || error.kind === 'rate_limited' };
    }
    if (body === undefined) return { ok: false, error: unexpectedAnswer(`${req.path}: not JSON`, traceId), resendable: false };
    return { ok: true, body, traceId };
  }

  /** A call with retries: within `maxAttempts` and the deadline, only for retryable failures. */
  async function execute(req: GraphRequest, extraScopes: readonly UsageScope[] = []): Promise<Answer> {
    const scope = scopeOf(req.path, req.accountId);
    const deadline = now() + t.deadlineMs;
    for (let n = 1; ; n += 1) {
      req.signal?.throwIfAborted();
      await waitForQuota([scope, ...extraScopes], deadline, req.signal);
      const result = await attempt(req, scope);
      if (result.ok) return { body: result.body, traceId: result.traceId };
      const { error } = result;
      if (!error.retryable || !result.resendable || n >= t.maxAttempts) throw error;
      const delay = backoff(n, error.details.retryAfterMs);
      if (now() + delay > deadline) throw error;
      // Other calls on the same quota wait too instead of collecting their own refusals. Limits on
      // one object (an ad set's budget changes) leave the rest of the account alone.
      if (error.kind === 'rate_limited' && !isObjectLimit(error)) usage.blockScope(scope, now() + delay, error.details.code === 4);
      log.warn({ path: `/${config.apiVersion}/${req.path}`, attempt: n, delayMs: delay, kind: error.kind, code: error.details.code, subcode: error.details.subcode, fbtraceId: error.details.fbtraceId }, 'graph request will be retried');
      await sleep(delay, req.signal);
    }
  }

  async function request<T>(req: GraphRequest, schema: z.ZodType<T>): Promise<T> {
    const { body, traceId } = await execute(req);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw unexpectedAnswer(`${req.path}: ${describeIssues(parsed.error)}`, traceId);
    return parsed.data;
  }

  async function* pages<T>(req: GraphRequest, itemSchema: z.ZodType<T>): AsyncGenerator<T[]> {
    const pageSchema = graphPageSchema.extend({ data: z.array(itemSchema) });
    const seen = new Set<string>();
    let after: string | undefined;
    for (let page = 1; page <= t.maxPages; page += 1) {
      const body = await request({ ...req, params: { limit: t.pageLimit, ...req.params, after } }, pageSchema);
      yield body.data;
      // The end is "no next" (reference §13); `after` is present even on the last page. The next
      // URL itself embeds the token, so the request is rebuilt from the cursor instead.
      const next = body.paging?.next;
      if (!next) return;
      after = body.paging?.cursors?.after ?? new URL(next).searchParams.get('after') ?? undefined;
      if (!after || seen.has(after)) throw unexpectedAnswer(`${req.path}: paging has a next page but no new cursor`, undefined);
      seen.add(after);
    }
    throw unexpectedAnswer(`${req.path}: paging did not end after ${t.maxPages} pages`, undefined);
  }

  async function all<T>(req: GraphRequest, itemSchema: z.ZodType<T>): Promise<T[]> {
    const rows: T[] = [];
    for await (const page of pages(req, itemSchema)) rows.push(...page);
    return rows;
  }

  function batchEntry(item: GraphBatchItem) {
    const method = item.method ?? 'GET';
    const params = encodeParams(item.params, item.fields).toString();
    if (method === 'POST') return { method, relative_url: item.path, body: params };
    return { method, relative_url: params ? `${item.path}?${params}` : item.path };
  }

  /** Reads one sub-request's answer; `undefined` = it did not run (retry it). */
  function batchOutcome(
    entry: z.infer<typeof graphBatchResponseSchema>[number],
    item: GraphBatchItem,
  ): { result: GraphBatchResult; resend: boolean } | undefined {
    if (entry === null) return undefined;
    const scope = scopeOf(item.path, item.accountId);
    const headers = new Headers((entry.headers ?? []).map((h) => [h.name, h.value] as [string, string]));
    const traceId = headers.get('x-fb-trace-id') ?? undefined;
    const retryAfterMs = usage.record(headers, scope);
    const body = parseJson(entry.body ?? '');
    const envelope = graphErrorEnvelopeSchema.safeParse(body);
    if (entry.code >= 400 || envelope.success) {
      const error = envelope.success ? fromGraphError(envelope.data, { retryAfterMs, traceId }) : fromHttpStatus(entry.code, traceId);
      const resend = error.retryable && ((item.method ?? 'GET') === 'GET' || error.kind === 'rate_limited');
      return { result: { ok: false, error }, resend };
    }
    if (body === undefined) return { result: { ok: false, error: unexpectedAnswer(`${item.path}: not JSON`, traceId) }, resend: false };
    return { result: { ok: true, body }, resend: false };
  }

  async function batch(token: string, items: readonly GraphBatchItem[], opts: GraphBatchOptions = {}): Promise<GraphBatchResult[]> {
    const results: Array<GraphBatchResult | undefined> = new Array(items.length);
    const lastError = new Map<number, PlatformError>();
    let pending = items.map((_, i) => i);
    const deadline = now() + t.deadlineMs;

    for (let round = 1; pending.length > 0; round += 1) {
      const retry: number[] = [];
      for (let start = 0; start < pending.length; start += MAX_BATCH_ITEMS) {
        const chunk = pending.slice(start, start + MAX_BATCH_ITEMS);
        const chunkItems = chunk.map((i) => items[i]!);
        const { body, traceId } = await execute(
          {
            method: 'POST',
            path: '',
            token,
            params: { batch: chunkItems.map(batchEntry), include_headers: true },
            idempotent: chunkItems.every((item) => (item.method ?? 'GET') === 'GET'),
            signal: opts.signal,
          },
          // The batch waits for the quotas of the accounts its items touch.
          chunkItems.map((item) => scopeOf(item.path, item.accountId)),
        );
        const parsed = graphBatchResponseSchema.safeParse(body);
        if (!parsed.success || parsed.data.length !== chunk.length) throw unexpectedAnswer('batch: answer does not match the sub-requests', traceId);
        parsed.data.forEach((entry, k) => {
          const index = chunk[k]!;
          const outcome = batchOutcome(entry, items[index]!);
          if (!outcome && opts.resendUnanswered === false && (items[index]!.method ?? 'GET') !== 'GET') {
            results[index] = { ok: false, error: new PlatformError('unavailable', 'batch sub-request got no answer', { retryable: true }), unanswered: true };
          } else if (outcome && !outcome.resend) results[index] = outcome.result;
          else {
            if (outcome && !outcome.result.ok) lastError.set(index, outcome.result.error);
            retry.push(index);
          }
        });
      }
      pending = retry;
      if (pending.length === 0) break;

      const retryAfter = Math.max(0, ...pending.map((i) => lastError.get(i)?.details.retryAfterMs ?? 0));
      const delay = backoff(round, retryAfter || undefined);
      if (round >= t.maxAttempts || now() + delay > deadline) {
        for (const i of pending) {
          results[i] = { ok: false, error: lastError.get(i) ?? new PlatformError('unavailable', 'batch sub-request did not run', { retryable: true }) };
        }
        break;
      }
      log.warn({ round, retrying: pending.length, delayMs: delay }, 'graph batch sub-requests will be retried');
      await sleep(delay, opts.signal);
    }
    return results as GraphBatchResult[];
  }

  return { request, pages, all, batch };
}
