import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { createS3Storage } from '../features/materials/storage.ts';
import { parseEncryptionKey, secretBoxFor } from '../lib/crypto.ts';
import { md5Hex } from '../lib/passwords.ts';
import { driver } from './build-test-app.ts';
import { createUser } from './factories.ts';
import { makeTestMedia, tusClient, uploadIdOf, type TestMedia } from './materials.ts';
import { startTestSimulator, type TestSimulator } from './simulator.ts';

/**
 * The deployment that outgrows one process: two real server processes (`node --import tsx
 * src/main.ts`, as `npm start` runs it) on one PostgreSQL database, sharing DATA_DIR (uploads in
 * progress) with material files in S3 (s3rver) and one Graph API (the simulator), everything on
 * loopback. Checked over HTTP: a session is valid on both, a job queued many times runs once per
 * queueing and never twice at once, an upload begun on one is finished on the other, and a process
 * killed with SIGKILL mid-job loses nothing (the other reclaims its run once it misses its beats).
 *
 * PGlite is one process's database (its DATA_DIR is locked), so this runs on PostgreSQL only.
 */
const REPO = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(REPO, 'apps/server/src/main.ts');
const BUCKET = 'two-processes';
const ADMIN_PASSWORD = 'admin-secret-1';
const HEARTBEAT_MS = 200;

interface Server {
  name: 'A' | 'B';
  child: ChildProcess;
  url: string;
  output: string[];
  exited: Promise<number | null>;
}

let databaseName: string;
let adminUrl: string;
let database: Database;
let s3: S3rver;
let s3Url: string;
let sim: TestSimulator;
let media: TestMedia;
const dirs: string[] = [];
const servers: Server[] = [];
const tokenKey = randomBytes(32).toString('base64');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(name: 'A' | 'B', env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      // Each process would start its own simulator on this port without META_GRAPH_URL; both use the one below.
      META_SIM_PORT: String(await freePort()),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = { name, child, url: `http://127.0.0.1:${port}`, output, exited };
  servers.push(server);
  return server;
}

async function waitUntilUp(server: Server) {
  let gone = false;
  void server.exited.then(() => (gone = true));
  await vi.waitFor(
    async () => {
      if (gone) throw new Error(`server ${server.name} exited:\n${server.output.join('').slice(-3000)}`);
      const res = await fetch(`${server.url}/api/health`).catch(() => null);
      if (res?.status !== 200) throw new Error(`server ${server.name} is not up yet`);
    },
    { timeout: 45_000, interval: 100 },
  );
}

async function call<T = any>(server: Server, route: string, body: unknown, token?: string): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${server.url}/api${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data: T };
}

async function login(server: Server, account: string, password: string) {
  const res = await call<{ token: string }>(server, '/login', { account, pwd: md5Hex(password) });
  if (res.code !== 0) throw new Error(`login ${account} on ${server.name}: ${res.message}`);
  return res.data.token;
}

const runRow = (id: number) => database.db.selectFrom('job_runs').selectAll().where('id', '=', id).executeTakeFirst();

describe.runIf(driver === 'pg')('two server processes on one PostgreSQL database (PostgreSQL only: PGlite belongs to one process)', () => {
  let A: Server;
  let B: Server;
  let adminToken: string;

  beforeAll(async () => {
    const base = process.env.DATABASE_URL!;
    databaseName = `ads_two_${randomBytes(6).toString('hex')}`;
    adminUrl = base;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${databaseName}`;
    const databaseUrl = u.toString();

    const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-two-s3-'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-two-data-'));
    dirs.push(s3Dir, dataDir);
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
    s3Url = `http://127.0.0.1:${(await s3.run()).port}`;
    sim = await startTestSimulator();
    media = makeTestMedia();
    dirs.push(media.dir);

    const env = {
      DATABASE_URL: databaseUrl,
      // One DATA_DIR for both: the supported way for uploads in progress to reach every process (README, "Running on PostgreSQL").
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      LOG_LEVEL: 'warn',
      JOBS_ENABLED: '1',
      JOBS_CONCURRENCY: '4',
      JOBS_HEARTBEAT_MS: String(HEARTBEAT_MS),
      INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      INIT_MANAGER_PASSWORD: 'manager-secret-1',
      TOKEN_ENCRYPTION_KEY: tokenKey,
      META_GRAPH_URL: sim.url,
      META_APP_ID: sim.sim.appId,
      META_APP_SECRET: sim.sim.appSecret,
      MATERIAL_STORAGE: 's3',
      S3_ENDPOINT: s3Url,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    };
    // Both start at once, as a deployment does: migrations take turns on their lock.
    [A, B] = await Promise.all([startServer('A', env), startServer('B', env)]);
    await Promise.all([waitUntilUp(A), waitUntilUp(B)]);
    database = await openDatabase({ databaseUrl });
    adminToken = await login(A, 'admin', ADMIN_PASSWORD);
  }, 90_000);

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all(
      servers.map(async (s) => {
        const timer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
        await s.exited;
        clearTimeout(timer);
      }),
    );
    await database?.close();
    await sim?.close();
    await s3?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    if (databaseName) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${databaseName} with (force)`);
      await c.end();
    }
  }, 60_000);

  it('share sessions: one made on either is valid on the other, and a logout on one ends it on both', async () => {
    // Made on A (beforeAll), used on B.
    const info = (await (await fetch(`${B.url}/api/sys-users/get_user_info`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { code: number; data: unknown };
    expect(info.code).toBe(0);
    expect(JSON.stringify(info.data)).toContain('"admin"');

    const other = await login(B, 'manager', 'manager-secret-1');
    expect((await call(A, '/tasks/list', { page: 1, page_size: 1 }, other)).code).toBe(0);
    expect((await call(A, '/logout', {}, other)).code).toBe(0);
    const after = await call(B, '/tasks/list', { page: 1, page_size: 1 }, other);
    expect(after.code).toBe(401);
  });

  it('run a job queued many times through both exactly once per queueing, never two at once', async () => {
    const queued = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await call<{ task_id: number }>(i % 2 ? B : A, '/sys-cron/run_now', { name: 'cleanup-sessions' }, adminToken);
        expect(res.code, res.message).toBe(0);
        return res.data.task_id;
      }),
    );
    expect(new Set(queued).size).toBe(12);
    await vi.waitFor(
      async () => {
        const rows = await database.db.selectFrom('job_runs').select(['id', 'status']).where('id', 'in', queued).execute();
        expect(rows.filter((r) => r.status === 'success')).toHaveLength(12);
      },
      { timeout: 30_000, interval: 100 },
    );
    const rows = await database.db.selectFrom('job_runs').select(['id', 'attempt', 'started_at', 'finished_at', 'process_id', 'boss_job_id']).where('id', 'in', queued).orderBy('started_at').orderBy('id').execute();
    // Once each: one attempt, one pg-boss job, completed (the row is written first, then pg-boss is told).
    expect(rows.every((r) => r.attempt === 1)).toBe(true);
    await vi.waitFor(
      async () => {
        const jobs = await sql<{ state: string }>`select state::text from pgboss.job where id = any(${rows.map((r) => r.boss_job_id)}::uuid[])`.execute(database.db);
        expect(jobs.rows.map((j) => j.state)).toEqual(rows.map(() => 'completed'));
      },
      { timeout: 10_000, interval: 50 },
    );
    // Never two at once: each run started after the one before it had finished (both processes share the host's clock).
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.started_at!.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.finished_at!.getTime());
    const processes = await database.db.selectFrom('job_processes').select(['id', 'pid']).execute();
    expect(new Set(processes.map((p) => p.pid))).toEqual(new Set([A.child.pid, B.child.pid]));
    expect(rows.every((r) => processes.some((p) => p.id === r.process_id))).toBe(true);
  });

  let material: { id: number; md5: string };
  let staff: { id: number; account: string; password: string };
  let staffToken: string;

  it('finish on one an upload begun on the other, the file going to S3', async () => {
    staff = await createUser(database.db, { paths: ['/material/upload'] });
    staffToken = await login(A, staff.account, staff.password);
    const bytes = media.bigImage;
    const half = Math.floor(bytes.length / 2);
    const onA = tusClient(A.url, staffToken);
    const onB = tusClient(B.url, staffToken);
    const created = await onA.create(bytes.length, { filename: 'two.png', filetype: 'image/png', platform: 'dj' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const first = await onA.patch(location, 0, bytes.subarray(0, half));
    expect(first.status).toBe(204);
    // The client comes back through the other process: it knows the upload and how far it got.
    const head = await onB.head(location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const last = await onB.patch(location, half, bytes.subarray(half));
    expect(last.status).toBeLessThan(300);
    await last.arrayBuffer();
    const result = await call<{ material: { id: number; md5: string } }>(A, '/materials/upload_result', { upload_id: uploadIdOf(location) }, staffToken);
    expect(result.code, result.message).toBe(0);
    material = result.data.material;
    expect(material.md5).toBe(createHash('md5').update(bytes).digest('hex'));
    // The bytes are in the bucket, whole.
    const row = await database.db.selectFrom('materials').select(['storage_key', 'size_bytes']).where('id', '=', material.id).executeTakeFirstOrThrow();
    const stored = await createS3Storage({ kind: 's3', endpoint: s3Url, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }).stat(row.storage_key);
    expect(stored).toEqual({ size: bytes.length });
  });

  it('lose nothing when a process is killed mid-job: the other reclaims the run once it misses its beats, and it completes', async () => {
    expect(material).toBeDefined();
    // An ad account the staff member may use, reached by a personal account's token.
    const fb = await sim.createUser({ ad_accounts: 1 });
    const secrets = secretBoxFor(database.db, parseEncryptionKey(tokenKey));
    const pa = await database.db
      .insertInto('personal_accounts')
      .values({ fb_user_id: fb.user.id, name: fb.user.name, token_enc: await secrets.encrypt(fb.access_token), scopes: ['ads_management'], status: 'valid', owner_user_id: staff.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const act = fb.ad_accounts[0]!;
    const account = await database.db
      .insertInto('ad_accounts')
      .values({ platform_id: act.id, account_id: act.account_id, name: `Sim ${act.account_id}`, currency: act.currency, timezone_name: act.timezone_name, account_status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db.insertInto('personal_account_ad_accounts').values({ personal_account_id: pa.id, ad_account_id: account.id }).execute();
    await database.db.insertInto('user_ad_accounts').values({ user_id: staff.id, ad_account_id: account.id }).execute();

    // The platform holds the first image upload for a while: the run is mid-job when its process dies.
    await sim.control('POST', '/__sim/faults', { path: '/act_*/adimages', method: 'POST', count: 1, latency_ms: 5000 });
    const pushed = await call<{ task_id: number }>(A, '/materials/push', { material_ids: [material.id], ad_account_ids: [account.id] }, staffToken);
    expect(pushed.code, pushed.message).toBe(0);
    const taskId = pushed.data.task_id;
    const running = await vi.waitFor(
      async () => {
        const row = await runRow(taskId);
        const push = await database.db.selectFrom('material_pushes').select('state').where('task_id', '=', taskId).executeTakeFirst();
        if (row?.status !== 'running' || !row.process_id || push?.state !== 'uploading') throw new Error(`run ${JSON.stringify(row)}, push ${JSON.stringify(push)}`);
        return row;
      },
      { timeout: 15_000, interval: 50 },
    );
    // The platform has the upload in hand (the held call took the fault): the process dies mid-call.
    await vi.waitFor(async () => expect((await sim.control<{ data: unknown[] }>('GET', '/__sim/faults')).data).toEqual([]), { timeout: 15_000, interval: 50 });
    const owner = await database.db.selectFrom('job_processes').select(['pid']).where('id', '=', running.process_id!).executeTakeFirstOrThrow();
    const victim = servers.find((s) => s.child.pid === owner.pid)!;
    const survivor = victim === A ? B : A;
    expect(victim).toBeDefined();
    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = performance.now();

    const done = await vi.waitFor(
      async () => {
        const row = await runRow(taskId);
        if (row?.status !== 'success') throw new Error(`run ${JSON.stringify(row)}`);
        return row;
      },
      { timeout: 20_000, interval: 50 },
    );
    // Reclaimed by heartbeat (6 missed beats of 200 ms), not after the job's 6 h expiry.
    expect(performance.now() - killedAt).toBeLessThan(15_000);
    expect(done).toMatchObject({ attempt: 2, error: null, summary: { pushes: 1, ready: 1, failed: 0 } });
    const survivorProcess = await database.db.selectFrom('job_processes').select('id').where('pid', '=', survivor.child.pid!).executeTakeFirstOrThrow();
    expect(done.process_id).toBe(survivorProcess.id);
    expect(await database.db.selectFrom('material_pushes').select(['state', 'attempts', 'platform_ref']).where('task_id', '=', taskId).executeTakeFirstOrThrow()).toMatchObject({
      state: 'ready',
      attempts: 2,
      platform_ref: material.md5,
    });
    // The dead process is forgotten; the task list of the person reads as a normal success.
    expect((await database.db.selectFrom('job_processes').select('pid').execute()).map((p) => p.pid)).toEqual([survivor.child.pid]);
    const task = await call(survivor, '/tasks/get', { id: taskId }, staffToken);
    expect(task.data).toMatchObject({ status: 'success', job_name: 'push-materials' });
  });
});
