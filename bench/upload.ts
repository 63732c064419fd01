import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanupAll, installCleanupHandlers, onCleanup, removeTempDir, trackChild, trackTempDir } from './cleanup.ts';
import { assertLoopback, freePort, HOST, md5Hex, ROOT } from './server.ts';

/**
 * Material uploads (tus) against a real server process on loopback, for a 256 MiB and a 1 GiB file:
 *
 * - throughput of the upload (8 MiB PATCHes, as the web client sends them, up to and including the
 *   last PATCH, which sniffs the type, hashes the whole file, probes it and moves it into storage),
 *   next to a baseline measured in the same run: writing the same bytes to a file on the same disk;
 * - the server's resident memory (VmRSS from /proc/<pid>/status, sampled every 50 ms) before and at
 *   its peak during the upload: the bytes are streamed to disk, so the growth must not follow the
 *   file size (compare the two sizes).
 *
 * The file is a real 2 s MP4 followed by a `free` box holding the rest of the size (valid MP4, so the
 * server accepts it as a video and does all of its work). Runnable alone: `npx tsx bench/upload.ts`.
 */

const MiB = 1024 * 1024;
/** The web client's chunk (contracts MATERIAL_CHUNK_BYTES). */
const CHUNK = 8 * MiB;
const SIZES = [256 * MiB, 1024 * MiB];
const SAMPLE_MS = 50;

export interface UploadRun {
  bytes: number;
  /** Writing the same bytes to a file (the baseline). */
  diskMs: number;
  diskMBps: number;
  /** tus: create + every PATCH, the last one included. */
  uploadMs: number;
  uploadMBps: number;
  /** The last PATCH alone: type, MD5 of the whole file, ffprobe, thumbnail, move into storage, row. */
  finishMs: number;
  /** uploadMBps / diskMBps. */
  ratio: number;
  rssBeforeMB: number;
  rssPeakMB: number;
  rssGrowthMB: number;
}

export interface UploadFigures {
  runs: UploadRun[];
  /** RSS growth of the 1 GiB upload minus that of the 256 MiB one: ~0 when memory does not follow file size. */
  rssGrowthDeltaMB: number;
}

const rssMB = (pid: number): number => {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** A small real MP4 (moov first), made with the ffmpeg the server ships. */
function mp4Prefix(dir: string): Buffer {
  const ffmpeg = (createRequire(path.join(ROOT, 'apps/server/package.json'))('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const out = path.join(dir, 'head.mp4');
  execFileSync(
    ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out],
    { timeout: 60_000 },
  );
  return fs.readFileSync(out);
}

/** Bytes [start, end) of a file of `total` bytes: the MP4, a `free` box header, then a repeated random MiB. */
function contentOf(prefix: Buffer, total: number) {
  const free = Buffer.alloc(8);
  free.writeUInt32BE(total - prefix.length, 0);
  free.write('free', 4, 'ascii');
  const head = Buffer.concat([prefix, free]);
  const block = randomBytes(MiB);
  return (start: number, end: number): Buffer => {
    const out = Buffer.allocUnsafe(end - start);
    let pos = start;
    let at = 0;
    while (pos < end) {
      let n: number;
      if (pos < head.length) {
        n = Math.min(end, head.length) - pos;
        head.copy(out, at, pos, pos + n);
      } else {
        const p = (pos - head.length) % block.length;
        n = Math.min(end - pos, block.length - p);
        block.copy(out, at, p, p + n);
      }
      pos += n;
      at += n;
    }
    return out;
  };
}

interface Server {
  baseUrl: string;
  pid: number;
  managerPassword: string;
  stop(): Promise<void>;
}

/** The real server (`node --import tsx apps/server/src/main.ts`) on a free loopback port, its simulator on a random one. */
async function startUploadServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const managerPassword = `bench-${randomBytes(6).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    META_GRAPH_URL: '',
    META_SIM_PORT: '0',
    INIT_MANAGER_PASSWORD: managerPassword,
    INIT_ADMIN_PASSWORD: `bench-${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'warn',
    MATERIAL_MAX_BYTES: String(2 * 1024 * MiB),
    MATERIAL_STORAGE: 'local',
  };
  for (const k of ['WEB_DIST', 'DEMO', 'TRUST_PROXY']) delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let output = '';
  const keep = (c: Buffer) => {
    output = (output + c.toString('utf8')).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  };
  const baseUrl = `http://${HOST}:${port}`;
  assertLoopback(baseUrl);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited before it was healthy:\n${output.trim()}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not healthy after 90 s:\n${output.trim()}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok && ((await res.json()) as { code?: number }).code === 0) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, pid: child.pid!, managerPassword, stop };
}

async function login(server: Server): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'manager', pwd: md5Hex(server.managerPassword) }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { code?: number; data?: { token?: string } };
  if (body.code !== 0 || !body.data?.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

/** Writes the bytes to a file in the same chunks (the baseline): ms. */
async function writeToDisk(file: string, size: number, content: (s: number, e: number) => Buffer): Promise<number> {
  const started = performance.now();
  const handle = await fsp.open(file, 'w');
  try {
    for (let start = 0, n = 0; start < size && n < size / CHUNK + 1; start += CHUNK, n++) await handle.write(content(start, Math.min(size, start + CHUNK)));
  } finally {
    await handle.close();
  }
  const ms = performance.now() - started;
  await fsp.rm(file, { force: true });
  return ms;
}

async function uploadOnce(server: Server, token: string, size: number, content: (s: number, e: number) => Buffer): Promise<{ uploadMs: number; finishMs: number; rssBefore: number; rssPeak: number }> {
  const headers = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  const meta = `filename ${Buffer.from(`bench-${size}.mp4`).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')},platform ${Buffer.from('dj').toString('base64')}`;
  const rssBefore = rssMB(server.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    try {
      rssPeak = Math.max(rssPeak, rssMB(server.pid));
    } catch {
      // the process is gone: the upload below fails and says so
    }
  }, SAMPLE_MS);
  try {
    const started = performance.now();
    const created = await fetch(`${server.baseUrl}/api/material/tus`, { method: 'POST', headers: { ...headers, 'upload-length': String(size), 'upload-metadata': meta }, signal: AbortSignal.timeout(30_000) });
    if (created.status !== 201) throw new Error(`create: HTTP ${created.status} ${await created.text()}`);
    const url = new URL(created.headers.get('location')!, `${server.baseUrl}/api/material/tus`).href;
    assertLoopback(url);
    let finishMs = 0;
    for (let start = 0, n = 0; start < size && n < size / CHUNK + 1; start += CHUNK, n++) {
      const end = Math.min(size, start + CHUNK);
      const last = end === size;
      const t0 = performance.now();
      const res = await fetch(url, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(start), 'content-type': 'application/offset+octet-stream' },
        body: content(start, end),
        signal: AbortSignal.timeout(last ? 300_000 : 60_000),
      });
      const text = await res.text();
      if (last) {
        finishMs = performance.now() - t0;
        const body = JSON.parse(text) as { code: number; data?: { status: string } };
        if (res.status !== 200 || body.code !== 0 || body.data?.status !== 'created') throw new Error(`last PATCH: HTTP ${res.status} ${text.slice(0, 300)}`);
      } else if (res.status !== 204) throw new Error(`PATCH at ${start}: HTTP ${res.status} ${text.slice(0, 300)}`);
    }
    return { uploadMs: performance.now() - started, finishMs, rssBefore, rssPeak };
  } finally {
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rssMB(server.pid));
  }
}

/** Measures tus uploads of 256 MiB and 1 GiB against a disk-write baseline and the server's RSS. */
export async function measureUpload(sizes: readonly number[] = SIZES): Promise<UploadFigures> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-upload-'));
  trackTempDir(work);
  let server: Server | undefined;
  const cleanup = onCleanup('upload bench', async () => {
    await server?.stop();
    removeTempDir(work);
  });
  try {
    const prefix = mp4Prefix(work);
    server = await startUploadServer(path.join(work, 'data'));
    const token = await login(server);
    const runs: UploadRun[] = [];
    for (const size of sizes) {
      const content = contentOf(prefix, size);
      const diskMs = await writeToDisk(path.join(work, 'baseline.bin'), size, content);
      const up = await uploadOnce(server, token, size, content);
      const mb = size / MiB;
      const diskMBps = mb / (diskMs / 1000);
      const uploadMBps = mb / (up.uploadMs / 1000);
      runs.push({
        bytes: size,
        diskMs: round(diskMs, 0),
        diskMBps: round(diskMBps),
        uploadMs: round(up.uploadMs, 0),
        uploadMBps: round(uploadMBps),
        finishMs: round(up.finishMs, 0),
        ratio: round(uploadMBps / diskMBps, 3),
        rssBeforeMB: round(up.rssBefore),
        rssPeakMB: round(up.rssPeak),
        rssGrowthMB: round(up.rssPeak - up.rssBefore),
      });
    }
    const growth = (bytes: number) => runs.find((r) => r.bytes === bytes)?.rssGrowthMB ?? NaN;
    return { runs, rssGrowthDeltaMB: round(growth(sizes.at(-1)!) - growth(sizes[0]!)) };
  } finally {
    await cleanup.now();
  }
}

function print(f: UploadFigures) {
  const rows = f.runs.map((r) => ({
    size: `${r.bytes / MiB} MiB`,
    'tus MB/s': r.uploadMBps,
    'disk MB/s': r.diskMBps,
    'tus/disk': r.ratio,
    'upload s': r.uploadMs / 1000,
    'last PATCH s': r.finishMs / 1000,
    'RSS before MB': r.rssBeforeMB,
    'RSS peak MB': r.rssPeakMB,
    'RSS growth MB': r.rssGrowthMB,
  }));
  console.table(rows);
  console.log(`RSS growth, largest minus smallest file: ${f.rssGrowthDeltaMB} MB (≈0: memory does not follow file size)`);
  console.log(JSON.stringify(f));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  installCleanupHandlers();
  measureUpload()
    .then(print)
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    })
    .finally(() => cleanupAll());
}
