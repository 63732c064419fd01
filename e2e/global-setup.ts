/**
 * Starts the real server for the journeys: the built web app and /api on a free loopback port,
 * on a fresh embedded database (PGlite in a temporary DATA_DIR) or, when DATABASE_URL is set,
 * on a fresh database created on that PostgreSQL server. Returns the teardown that stops the
 * server and removes the data dir or drops the database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, MANAGER_PASSWORD } from './accounts.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const webDist = path.join(repoRoot, 'apps/web/dist');

/** The few `pg` calls needed here; `pg` is the server's dependency, loaded from its workspace. */
interface PgClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
type PgModule = { Client: new (config: { connectionString: string }) => PgClient };

function loadPg(): PgModule {
  const require = createRequire(path.join(repoRoot, 'apps/server/package.json'));
  return require('pg') as PgModule;
}

async function onPostgres(adminUrl: string, statement: string) {
  const { Client } = loadPg();
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseURL: string, child: ChildProcess, logFile: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${baseURL}/api/health`);
      const body = (await res.json()) as { code: number };
      if (body.code === 0) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
  throw new Error(`The server did not become healthy at ${baseURL} (exit code ${child.exitCode}).\n${tail}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export default async function globalSetup() {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build -w apps/web` first (`npm run test:e2e` does).');
  }

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-'));
  // Serve a copy: a rebuild of apps/web/dist during the run must not pull the assets away.
  const webCopy = path.join(tmp, 'web');
  fs.cpSync(webDist, webCopy, { recursive: true });
  const logFile = path.join(tmp, 'server.log');
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // The server's built-in Graph API simulator gets a free port too (its default 4010 is shared
  // with whatever else runs on this machine); the journeys drive it through its control API.
  const simPort = await freePort();
  const simURL = `http://127.0.0.1:${simPort}`;

  // PostgreSQL when DATABASE_URL is set (E2E_DB=pglite forces the embedded database, E2E_DB=pg
  // insists on PostgreSQL): a fresh database on that server, dropped at the end.
  const mode = process.env.E2E_DB;
  const serverUrl = mode === 'pglite' ? undefined : process.env.DATABASE_URL || undefined;
  if (mode === 'pg' && !serverUrl) throw new Error('E2E_DB=pg needs DATABASE_URL (a PostgreSQL server to create the test database on).');
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  if (serverUrl) {
    dbName = `ads_e2e_${randomBytes(6).toString('hex')}`;
    await onPostgres(serverUrl, `create database ${dbName}`);
    const u = new URL(serverUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(tmp, 'data'),
    DATABASE_URL: databaseUrl ?? '',
    WEB_DIST: webCopy,
    INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
    INIT_MANAGER_PASSWORD: MANAGER_PASSWORD,
    LOGIN_SLOWDOWN_MS: '0',
    LOG_LEVEL: 'warn',
    DEMO: '',
    NODE_ENV: 'test',
    // The built-in simulator (no META_GRAPH_URL), on its own port; the OAuth dialog sends the
    // browser back to this server's own origin (PUBLIC_URL), where the session lives.
    META_GRAPH_URL: '',
    META_DIALOG_URL: '',
    META_SIM_PORT: String(simPort),
    PUBLIC_URL: baseURL,
  };

  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);

  const teardown = async () => {
    await stop(child);
    if (dbName && serverUrl) await onPostgres(serverUrl, `drop database if exists ${dbName} with (force)`).catch((err: unknown) => console.error(`could not drop ${dbName}:`, err));
    fs.rmSync(tmp, { recursive: true, force: true });
  };

  const t0 = Date.now();
  try {
    await waitForHealth(baseURL, child, logFile);
    console.log(`e2e server (${databaseUrl ? `PostgreSQL, database ${dbName}` : 'PGlite'}) ready at ${baseURL} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    await teardown();
    throw err;
  }

  // Workers inherit the runner's environment: the fixtures read the address from here.
  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_SIM_URL = simURL;
  process.env.E2E_DRIVER = databaseUrl ? 'pg' : 'pglite';
  return teardown;
}
