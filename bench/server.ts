import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { onCleanup, removeTempDir, trackChild, trackTempDir } from './cleanup.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const HOST = '127.0.0.1';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Load tests may only contact this machine: refuse any other host. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) throw new Error(`refusing to contact ${host}: benchmarks only talk to loopback addresses`);
}

export function isLoopback(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
    return LOOPBACK.has(u.hostname);
  } catch {
    return false;
  }
}

export const md5Hex = (s: string) => createHash('md5').update(s).digest('hex');

/** A port that was free a moment ago on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  label: string;
  managerPassword: string;
  /** Milliseconds from spawn to a healthy GET /api/health. */
  startMs: number;
  /** The server process (its memory is read from /proc/<pid>/status). */
  pid: number;
  /** Its DATA_DIR (a server restarted on the same database takes it over: uploaded files live there). */
  dataDir: string;
  stop: () => Promise<void>;
}

export interface ServerOptions {
  /** A DATA_DIR prepared beforehand (a PGlite database generated in it); removed when the server stops. Default: a fresh temp dir. */
  dataDir?: string;
  /** Keep dataDir when this server stops (another server takes it over and removes it). */
  keepDataDir?: boolean;
  /** The manager's password when the database was seeded beforehand. */
  managerPassword?: string;
  /** More environment (e.g. TOKEN_ENCRYPTION_KEY, META_GRAPH_URL). */
  env?: Record<string, string>;
  /** Node flags before the script (BENCH_SERVER_NODE_ARGS adds more, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server). */
  nodeArgs?: string[];
}

/**
 * Starts the real server (`node --import tsx apps/server/src/main.ts`) on a free loopback port
 * with a fresh DATA_DIR, and waits until GET /api/health answers code 0. Its built-in Graph API
 * simulator gets a port of its own (META_SIM_PORT=0): on the default port it would join a
 * simulator another process on this machine runs.
 */
export async function startServer(label: string, databaseUrl?: string, opts: ServerOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-data-'));
  trackTempDir(dataDir);
  const managerPassword = opts.managerPassword ?? `bench-${randomBytes(6).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    INIT_MANAGER_PASSWORD: managerPassword,
    INIT_ADMIN_PASSWORD: `bench-${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'warn',
    META_SIM_PORT: '0',
    ...opts.env,
  };
  for (const k of ['WEB_DIST', 'DEMO', 'TRUST_PROXY']) delete env[k];

  const started = performance.now();
  const nodeArgs = [...(opts.nodeArgs ?? []), ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: string | null = null;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? `code ${code}`}`;
  });

  const { now: stop } = onCleanup(`server ${label}`, async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    }
    if (!opts.keepDataDir) removeTempDir(dataDir);
  });

  const baseUrl = `http://${HOST}:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`server (${label}) ${exited} before it was healthy. Its output:\n${output.trim()}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server (${label}) not healthy after 90 s. Its output:\n${output.trim()}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { code?: number };
      if (res.ok && body.code === 0) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, label, managerPassword, startMs: performance.now() - started, pid: child.pid!, dataDir, stop };
}

/** Logs in over the API (as manager unless another account is given); returns the session token. */
export async function apiLogin(server: RunningServer, account = 'manager', password = server.managerPassword): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, pwd: md5Hex(password) }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { code?: number; message?: string; data?: { token?: string } };
  if (body.code !== 0 || !body.data?.token) throw new Error(`login as ${account} failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.data.token;
}
