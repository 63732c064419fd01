import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

// Meters for the sync section: a fetch that counts what the Graph client sends and what the
// simulator answers, a sleep that counts the client's waits, and PGlite / PostgreSQL wrappers that
// time the database. Each is injected through a seam the server already has (GraphClientDeps.fetch,
// .sleep and .now, openDatabase({ pglite })) or wraps the pg driver the server loads; nothing of the
// server is changed.

/** Graph error codes of a throttle (graph-errors.ts kindOfGraphCode: rate_limited). */
const isThrottleCode = (code: unknown) => typeof code === 'number' && ([4, 17, 32, 341, 613].includes(code) || (code >= 80000 && code <= 80014));

export interface CallCounts {
  /** HTTP requests the client sent (each batch request is one). */
  httpRequests: number;
  batchRequests: number;
  /** Sub-requests of batch requests that were answered: each ran (or was refused) as a call of its own. */
  batchItems: number;
  /** Sub-requests of batch requests refused or failed as a whole: they never ran. */
  unsentItems: number;
  /** httpRequests + batchItems: the Graph calls made, each metered against the app budget unless refused (reference §14, §16). */
  graphCalls: number;
  /** Whole requests refused with a throttle code (4, 17, 32, 341, 613, 80000–80014). */
  refused: number;
  /** Batch sub-requests refused with a throttle code (the batch request itself succeeded). */
  refusedItems: number;
  /** Other failures: error answers that are not throttles, batch items that did not run (null), network errors. */
  failed: number;
  /** Summed time from sending a request to having read its whole answer. */
  httpMs: number;
  /** Highest X-App-Usage call_count (%) any answer carried. */
  maxAppUsagePct: number;
}

const emptyCounts = (): CallCounts => ({ httpRequests: 0, batchRequests: 0, batchItems: 0, unsentItems: 0, graphCalls: 0, refused: 0, refusedItems: 0, failed: 0, httpMs: 0, maxAppUsagePct: 0 });

function errorCode(body: unknown): unknown {
  return (body as { error?: { code?: unknown } } | null)?.error?.code;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sub-requests of a batch body (`batch=[…]` form field), or 0 when the request is not a batch. */
function batchSize(init: RequestInit | undefined): number {
  if (typeof init?.body !== 'string' || init.method !== 'POST') return 0;
  const batch = new URLSearchParams(init.body).get('batch');
  if (!batch) return 0;
  const items = parse(batch);
  return Array.isArray(items) ? items.length : 0;
}

/** A request as the client sent it, to be sent again by the replay baseline. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface CountingFetch {
  fetch: typeof fetch;
  counts: CallCounts;
  /** Every request since the last reset, when created with `record`. */
  recorded: RecordedRequest[];
  /** Starts a new count (between phases). */
  reset(): void;
}

/** A fetch for createMetaPlatformClient's deps: passes every call on and counts it (and, with `record`, keeps it). */
export function countingFetch(opts: { record?: boolean } = {}): CountingFetch {
  const meter: CountingFetch = {
    counts: emptyCounts(),
    recorded: [],
    reset() {
      meter.counts = emptyCounts();
      meter.recorded = [];
    },
    async fetch(input, init) {
      const c = meter.counts;
      if (opts.record) {
        meter.recorded.push({
          url: typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url,
          method: init?.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init?.headers).entries()),
          body: typeof init?.body === 'string' ? init.body : undefined,
        });
      }
      const items = batchSize(init);
      c.httpRequests += 1;
      c.graphCalls += 1;
      if (items) c.batchRequests += 1;
      const started = performance.now();
      let res: Response;
      let text: string;
      try {
        res = await fetch(input, init);
        text = await res.text();
      } catch (err) {
        c.failed += 1;
        c.unsentItems += items;
        throw err;
      } finally {
        c.httpMs += performance.now() - started;
      }
      const usage = parse(res.headers.get('x-app-usage') ?? '') as { call_count?: number } | undefined;
      if (typeof usage?.call_count === 'number') c.maxAppUsagePct = Math.max(c.maxAppUsagePct, usage.call_count);
      const body = parse(text);
      if (!res.ok || errorCode(body) !== undefined) {
        if (isThrottleCode(errorCode(body))) c.refused += 1;
        else c.failed += 1;
        c.unsentItems += items;
      } else if (items) {
        c.batchItems += items;
        c.graphCalls += items;
        for (const entry of (Array.isArray(body) ? body : []) as Array<{ code?: number; body?: string } | null>) {
          if (entry === null) c.failed += 1;
          else if ((entry.code ?? 200) >= 400) {
            if (isThrottleCode(errorCode(parse(entry.body ?? '')))) c.refusedItems += 1;
            else c.failed += 1;
          }
        }
      }
      // The body was consumed here; the client reads this copy.
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  };
  return meter;
}

export interface SleepMeter {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Waits asked for by the client (its own clock's ms) and how many. */
  askedMs: number;
  waits: number;
  /** Real time spent in those waits. */
  realMs: number;
  reset(): void;
}

/**
 * The client's sleep (GraphClientDeps.sleep), counted. With `advance`, nothing waits in real time:
 * the wait moves a simulated clock instead (the client's `now` must read that clock), so a run
 * under a tight budget costs the waits' bookkeeping only, and the same sim time on any machine.
 */
export function sleepMeter(advance?: (ms: number) => Promise<void>): SleepMeter {
  const meter: SleepMeter = {
    askedMs: 0,
    waits: 0,
    realMs: 0,
    reset() {
      meter.askedMs = 0;
      meter.waits = 0;
      meter.realMs = 0;
    },
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      meter.askedMs += ms;
      meter.waits += 1;
      const started = performance.now();
      try {
        if (advance) return await advance(ms);
        await new Promise<void>((resolve, reject) => {
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
      } finally {
        meter.realMs += performance.now() - started;
      }
    },
  };
  return meter;
}

export interface DbMeter {
  statements: number;
  ms: number;
  reset(): void;
}

/**
 * Times every statement the server's PGlite dialect runs (it calls `query` and `exec`). The
 * dialect serialises statements on the one connection, so summed times do not overlap.
 */
export function meterPglite(pglite: PGlite): DbMeter {
  const meter: DbMeter = {
    statements: 0,
    ms: 0,
    reset() {
      meter.statements = 0;
      meter.ms = 0;
    },
  };
  const timed = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      meter.statements += 1;
      try {
        return await fn(...args);
      } finally {
        meter.ms += performance.now() - started;
      }
    };
  const target = pglite as unknown as { query: (...a: unknown[]) => Promise<unknown>; exec: (...a: unknown[]) => Promise<unknown> };
  target.query = timed(target.query.bind(pglite));
  target.exec = timed(target.exec.bind(pglite));
  return meter;
}

/**
 * Times every statement the server's PostgreSQL pool runs, by wrapping `pg.Client.prototype.query`
 * of the one `pg` module the server and the bench load (promise form only, which Kysely uses).
 * Sequential code keeps the sums free of overlap; `restore` puts the original back.
 */
export function meterPg(): DbMeter & { restore(): void } {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  const meter = {
    statements: 0,
    ms: 0,
    reset() {
      meter.statements = 0;
      meter.ms = 0;
    },
    restore() {
      proto.query = original;
    },
  };
  proto.query = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (!(result instanceof Promise)) return result;
    const started = performance.now();
    meter.statements += 1;
    return result.finally(() => {
      meter.ms += performance.now() - started;
    });
  };
  return meter;
}
