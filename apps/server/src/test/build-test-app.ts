import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type App } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, pgliteParsers, type Database, type Db } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Jobs } from '../jobs/types.ts';
import { fixedClock } from '../lib/clock.ts';
import { md5Hex } from '../lib/passwords.ts';
import type { LogStream } from '../plugins/request-logging.ts';
import type { AdPlatformClient } from '../platform/types.ts';

export const driver = (process.env.TEST_DB_DRIVER ?? 'pglite') as 'pglite' | 'pg';

let template: Promise<PGlite> | undefined;

/** A migrated PGlite per worker; each test file gets a clone (~0.5 s instead of a fresh start). */
function pgliteTemplate(): Promise<PGlite> {
  template ??= (async () => {
    const base = await PGlite.create({ parsers: pgliteParsers });
    const database = await openDatabase({ pglite: base });
    await migrateToLatest(database.db);
    return base;
  })();
  return template;
}

/** A fresh, migrated database for one test file, on the driver under test. */
export async function freshDatabase(): Promise<Database> {
  if (driver === 'pg') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('TEST_DB_DRIVER=pg needs DATABASE_URL');
    const name = `ads_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.toString() });
    await migrateToLatest(database.db);
    return {
      ...database,
      async close() {
        await database.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const clone = (await (await pgliteTemplate()).clone()) as PGlite;
  const database = await openDatabase({ pglite: clone });
  return {
    ...database,
    async close() {
      await database.close();
      await clone.close();
    },
  };
}

/**
 * Files an app writes (uploads, materials) go to a temp dir of this test process, never into the
 * repository. It is made on demand, removed when a test app closes (test files of a worker run one
 * after the other) and at exit; dirs of test processes that died without either are swept here.
 */
const TEST_DATA_PREFIX = 'ads-server-test-';
const testDataDir = path.join(os.tmpdir(), `${TEST_DATA_PREFIX}${process.pid}`);
const removeTestData = () => fs.rmSync(testDataDir, { recursive: true, force: true });
process.once('exit', removeTestData);
for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(TEST_DATA_PREFIX))) {
  const pid = Number(name.slice(TEST_DATA_PREFIX.length));
  if (!Number.isInteger(pid) || pid === process.pid) continue;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // PATH: the tests use the machine's ffmpeg when it has one, as the server does (else the bundled).
  const base = loadConfig({ LOG_LEVEL: 'silent', LOGIN_SLOWDOWN_MS: '0', WEB_DIST: '/nonexistent', DATA_DIR: testDataDir, PATH: process.env.PATH ?? '' });
  return { ...base, ...overrides };
}

export interface TestApp {
  app: App;
  db: Db;
  clock: ReturnType<typeof fixedClock>;
  close(): Promise<void>;
  /** POST (or GET) a JSON call, returning the parsed envelope. */
  call<T = any>(path: string, body?: unknown, opts?: { token?: string; method?: 'GET' | 'POST'; lang?: string; ip?: string }): Promise<{ code: number; message: string; data: T; status: number }>;
  raw(path: string, opts: { token?: string; method?: 'GET' | 'POST'; payload?: string | object; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** Logs in and returns the token. */
  login(account: string, password: string): Promise<string>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  /** A job engine for the app (e.g. a started runner of test/jobs.ts); by default runs are only recorded. Stopped by close(). */
  jobs?: (deps: { db: Db; clock: ReturnType<typeof fixedClock>; config: Config }) => Jobs | Promise<Jobs>;
  /** The ad platform (test/simulator.ts: the Graph client on a simulator); without it, calls needing it say so. */
  platform?: AdPlatformClient;
  /** The simulator's URL: the app registers its sites there once it listens (features/orders/simulator-sites.ts). */
  simulatorUrl?: string;
  /** Log lines go here (at config.logLevel) instead of nowhere. */
  logStream?: LogStream;
  /** Requests slower than this are logged at warn (app.ts; default 2 s). */
  slowRequestMs?: number;
}

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const database = await freshDatabase();
  const clock = fixedClock('2026-11-01T08:00:00Z');
  const config = testConfig(opts.config);
  const jobs = opts.jobs ? await opts.jobs({ db: database.db, clock, config }) : undefined;
  const app = await buildApp({
    config,
    db: database.db,
    driver: database.driver,
    clock,
    ...(opts.logStream ? { logStream: opts.logStream, slowRequestMs: opts.slowRequestMs } : { logger: false }),
    ...(jobs && { jobs }),
    ...(opts.platform && { platform: opts.platform }),
    ...(opts.simulatorUrl && { simulatorUrl: opts.simulatorUrl }),
    checkAnswers: true,
  });
  await app.ready();
  // Every answer of every call is compared with its contract (lib/endpoint.ts); a mismatch fails the test that made the call.
  const mismatches = app.answerMismatches!;
  const failOnMismatch = () => {
    const found = mismatches.splice(0);
    if (found.length) throw new Error(found.join('\n'));
  };
  const raw: TestApp['raw'] = async (path, o) => {
    const res = await app.inject({
      method: o.method ?? 'POST',
      url: path,
      headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers },
      ...(o.payload !== undefined ? { payload: o.payload } : {}),
    });
    failOnMismatch();
    return res;
  };
  const call: TestApp['call'] = async (path, body, o = {}) => {
    const res = await app.inject({
      method: o.method ?? 'POST',
      url: path,
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(o.lang ? { 'accept-language': o.lang } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      ...(o.ip ? { remoteAddress: o.ip } : {}),
    });
    failOnMismatch();
    return { ...res.json(), status: res.statusCode };
  };
  return {
    app,
    db: database.db,
    clock,
    call,
    raw,
    async login(account, password) {
      const res = await call('/api/login', { account, pwd: md5Hex(password) });
      if (res.code !== 0) throw new Error(`login ${account} failed: ${res.message}`);
      return res.data.token as string;
    },
    async close() {
      await app.close();
      failOnMismatch();
      await jobs?.stop();
      await database.close();
      removeTestData();
    },
  };
}
