// Loads with N concurrent users: autocannon connections that each act as one signed-in user (its
// own Bearer token), every latency recorded so that p50 / p95 are exact (autocannon's histogram
// has no p95), per user kind too; and the same closed loop for a baseline that calls the database
// directly. See README.md "Reports".
import autocannon, { type Client, type Result } from 'autocannon';
import { onCleanup } from './cleanup.ts';
import { assertLoopback } from './server.ts';

const WARMUP_S = 2;

/** Latency figures of one load (milliseconds). */
export interface Latencies {
  requests: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface UserLoadFigures extends Latencies {
  users: number;
  /** Per kind of user (staff / leader / manager…): their requests' latencies. */
  byKind: Record<string, Latencies>;
  non2xx: number;
  mismatches: number;
  errors: number;
  timeouts: number;
  valid: boolean;
  responseBytes: number;
}

/** The q-quantile (0–1) of ascending values, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function latencies(ms: number[], seconds: number): Latencies {
  const s = [...ms].sort((a, b) => a - b);
  return { requests: s.length, rps: s.length / seconds, p50Ms: quantile(s, 0.5), p95Ms: quantile(s, 0.95), p99Ms: quantile(s, 0.99), maxMs: s[s.length - 1] ?? NaN };
}

export interface LoadUser {
  token: string;
  /** What kind of user this is (figures are also given per kind). */
  kind: string;
}

const isCodeZero = (body: string) => body.startsWith('{"code":0,');

/**
 * POSTs `body` to `route` with one connection per user for `seconds` (after a 2 s warm-up),
 * each connection sending its next request when its answer came (a closed loop, as people do).
 */
export async function loadAsUsers(baseUrl: string, route: string, body: unknown, users: LoadUser[], seconds: number, title: string): Promise<UserLoadFigures> {
  const url = `${baseUrl}${route}`;
  assertLoopback(url);
  const text = JSON.stringify(body);
  const headersOf = (u: LoadUser) => ({ 'content-type': 'application/json', authorization: `Bearer ${u.token}` });
  const probe = await fetch(url, { method: 'POST', headers: headersOf(users[0]!), body: text, signal: AbortSignal.timeout(60_000) });
  const answer = await probe.text();
  if (!probe.ok || !isCodeZero(answer)) throw new Error(`${route} does not answer code 0 (HTTP ${probe.status}): ${answer.slice(0, 300)}`);

  const run = async (duration: number, record: boolean) => {
    const kindOf = new WeakMap<Client, string>();
    const times = new Map<string, number[]>();
    const all: number[] = [];
    let next = 0;
    const instance = autocannon({
      url,
      method: 'POST',
      body: text,
      connections: users.length,
      duration,
      timeout: 30,
      title,
      verifyBody: isCodeZero,
      setupClient: (client) => {
        const u = users[next++ % users.length]!;
        kindOf.set(client, u.kind);
        client.setHeaders(headersOf(u));
      },
    });
    if (record) {
      instance.on('response', (client, _status, _bytes, ms) => {
        all.push(ms);
        const kind = kindOf.get(client) ?? '?';
        (times.get(kind) ?? times.set(kind, []).get(kind)!).push(ms);
      });
    }
    const handle = onCleanup(`autocannon ${title}`, async () => instance.stop());
    try {
      const result: Result = await instance;
      return { result, all, times };
    } finally {
      handle.forget();
    }
  };
  await run(WARMUP_S, false);
  const { result: r, all, times } = await run(seconds, true);
  const took = r.duration || seconds;
  const byKind: Record<string, Latencies> = {};
  for (const [kind, ms] of [...times].sort(([a], [b]) => a.localeCompare(b))) byKind[kind] = latencies(ms, took);
  const failures = r.non2xx + r.mismatches + r.errors + r.timeouts;
  return {
    ...latencies(all, took),
    users: users.length,
    byKind,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    errors: r.errors,
    timeouts: r.timeouts,
    valid: failures === 0 && all.length > 0,
    responseBytes: Buffer.byteLength(answer),
  };
}

/**
 * The same closed loop without HTTP: `callers` loops, each calling `call(i)` (i = its index) again
 * as soon as the previous call returned, for `seconds` after a 2 s warm-up.
 */
export async function loadDirect(callers: number, seconds: number, call: (caller: number) => Promise<unknown>, kindOf: (caller: number) => string = () => 'all'): Promise<Latencies & { byKind: Record<string, Latencies> }> {
  const loop = async (ms: number, record: Map<string, number[]> | null) => {
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: callers }, async (_, i) => {
        while (performance.now() < until) {
          const started = performance.now();
          await call(i);
          const took = performance.now() - started;
          if (record) (record.get(kindOf(i)) ?? record.set(kindOf(i), []).get(kindOf(i))!).push(took);
        }
      }),
    );
  };
  await loop(WARMUP_S * 1000, null);
  const record = new Map<string, number[]>();
  const started = performance.now();
  await loop(seconds * 1000, record);
  const took = (performance.now() - started) / 1000;
  const byKind: Record<string, Latencies> = {};
  for (const [kind, ms] of [...record].sort(([a], [b]) => a.localeCompare(b))) byKind[kind] = latencies(ms, took);
  return { ...latencies([...record.values()].flat(), took), byKind };
}
