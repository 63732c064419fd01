import autocannon, { type Result } from 'autocannon';
import { onCleanup } from './cleanup.ts';
import { assertLoopback, type RunningServer } from './server.ts';

export const CONNECTIONS = 50;
const WARMUP_S = 2;
/** BENCH_SECONDS shortens or lengthens every measured load (1–60 s, default 10). */
export const MEASURE_S = Math.min(60, Math.max(1, Number(process.env.BENCH_SECONDS) || 10));

export interface LoadFigures {
  route: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not `{"code":0,…}` with HTTP 2xx, plus connection errors and timeouts. */
  non2xx: number;
  mismatches: number;
  errors: number;
  timeouts: number;
  valid: boolean;
  responseBytes: number;
}

/** The envelope of a successful answer starts exactly like this (reply.ts: { code, message, data }). */
const isCodeZero = (body: string) => body.startsWith('{"code":0,');

async function cannon(url: string, headers: Record<string, string>, duration: number, title: string): Promise<Result> {
  assertLoopback(url);
  const instance = autocannon({ url, connections: CONNECTIONS, duration, timeout: 10, headers, title, verifyBody: isCodeZero });
  const handle = onCleanup(`autocannon ${title}`, async () => instance.stop());
  try {
    return await instance;
  } finally {
    handle.forget();
  }
}

/** One route: a single checked request, a 2 s warm-up, then MEASURE_S seconds measured. */
export async function loadRoute(server: RunningServer, route: string, token?: string): Promise<LoadFigures> {
  const url = `${server.baseUrl}${route}`;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const probe = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await probe.text();
  if (!probe.ok || !isCodeZero(text)) throw new Error(`${route} does not answer code 0 (HTTP ${probe.status}): ${text.slice(0, 300)}`);

  await cannon(url, headers, WARMUP_S, `${server.label} ${route} warm-up`);
  const r = await cannon(url, headers, MEASURE_S, `${server.label} ${route}`);
  const failures = r.non2xx + r.mismatches + r.errors + r.timeouts;
  return {
    route,
    rps: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
    errors: r.errors,
    timeouts: r.timeouts,
    valid: failures === 0 && r.requests.total > 0,
    responseBytes: Buffer.byteLength(text),
  };
}

export interface ApiFigures {
  driver: string;
  serverStartMs: number;
  bare: LoadFigures;
  userInfo: LoadFigures;
  /** get_user_info rps / bare rps (1 = as fast as a route doing nothing). */
  rpsRatio: number;
  /** get_user_info p99 / bare p99 (1 = no extra tail latency). */
  p99Ratio: number;
}

export async function measureApi(server: RunningServer, token: string): Promise<ApiFigures> {
  const bare = await loadRoute(server, '/api/health/live');
  const userInfo = await loadRoute(server, '/api/sys-users/get_user_info', token);
  return {
    driver: server.label,
    serverStartMs: server.startMs,
    bare,
    userInfo,
    rpsRatio: userInfo.rps / bare.rps,
    p99Ratio: userInfo.p99Ms / bare.p99Ms,
  };
}
