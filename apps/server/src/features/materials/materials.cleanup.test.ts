import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { fixedClock } from '../../lib/clock.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { freshDatabase } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { testRunner, waitForRun } from '../../test/jobs.ts';
import { filesUnder, makeTestMedia, materialsConfig, tusClient, uploadIdOf, type TestMedia } from '../../test/materials.ts';
import { cleanupMaterialUploadsJob } from './materials.jobs.ts';

/**
 * The nightly cleanup of unfinished uploads, through the job engine, on the upload dir a server
 * left behind: uploads begun more than 7 days ago go (bytes and tus's .json), younger ones stay and
 * can still be finished; leftovers of a crash go too.
 */
const DAY = 24 * 3600 * 1000;

let media: TestMedia;
let database: Database;
let dir: string;
let config: Config;
let app: App;
let baseUrl: string;
let token: string;
const clock = fixedClock('2026-11-01T08:00:00Z');

async function start() {
  app = await buildApp({ config, db: database.db, driver: database.driver, clock, logger: false, checkAnswers: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

beforeAll(async () => {
  media = makeTestMedia();
  database = await freshDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-cleanup-'));
  config = materialsConfig(dir);
  await start();
  const staff = await createUser(database.db, { paths: ['/material/upload'] });
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: staff.account, pwd: md5Hex(staff.password) }) });
  token = ((await res.json()) as { data: { token: string } }).data.token;
});

// Every answer is compared with its contract (lib/endpoint.ts).
afterEach(() => expect(app.answerMismatches).toEqual([]));

afterAll(async () => {
  vi.useRealTimers();
  await app?.close();
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

const uploads = () => config.materials.uploadDir;
const meta = (filename: string) => ({ filename, filetype: 'video/mp4', platform: 'dj' });

/** An upload begun at `at` (tus stamps it with the time of day it is created), half sent. */
async function beginUpload(name: string, at: number) {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    const tus = tusClient(baseUrl, token);
    const created = await tus.create(media.video.length, meta(name));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const half = Math.floor(media.video.length / 2);
    expect((await tus.patch(location, 0, media.video.subarray(0, half))).status).toBe(204);
    return { location, id: uploadIdOf(location), half };
  } finally {
    vi.useRealTimers();
  }
}

/** Runs the job through the engine; answers the finished run. */
async function runCleanup(runner: JobRunner) {
  const id = await runner.enqueue(cleanupMaterialUploadsJob.name, {});
  return waitForRun(database.db, id, (r) => r.status === 'success' || r.status === 'skipped' || r.status === 'failed');
}

describe('cleanup of unfinished uploads', () => {
  it('removes uploads begun more than 7 days ago from disk and from tus, after a restart, and keeps younger ones resumable', async () => {
    const now = Date.now();
    const old = await beginUpload('old.mp4', now - 8 * DAY);
    const young = await beginUpload('young.mp4', now - 6 * DAY);
    const fresh = await beginUpload('fresh.mp4', now);

    // What a crash leaves: bytes without their .json, a .json whose bytes were already moved away
    // (both long ago), and scratch files of thumbnails, one stale and one of a finish in progress.
    const past = new Date(now - 8 * DAY);
    fs.writeFileSync(path.join(uploads(), 'orphanbytes'), 'x');
    fs.utimesSync(path.join(uploads(), 'orphanbytes'), past, past);
    fs.writeFileSync(path.join(uploads(), 'orphaninfo.json'), JSON.stringify({ id: 'orphaninfo', size: 10, offset: 10, metadata: { uploader_id: '1' }, creation_date: past.toISOString() }));
    fs.mkdirSync(path.join(uploads(), '.work'), { recursive: true });
    fs.writeFileSync(path.join(uploads(), '.work', 'stale.thumb.jpg'), 'x');
    fs.utimesSync(path.join(uploads(), '.work', 'stale.thumb.jpg'), new Date(now - 2 * DAY), new Date(now - 2 * DAY));
    fs.writeFileSync(path.join(uploads(), '.work', 'busy.thumb.jpg'), 'x');

    // The server stops and starts again on the same data dir; the job runs on the next night.
    await app.close();
    await start();
    const runner = testRunner(database.db, [cleanupMaterialUploadsJob], { clock: fixedClock(new Date(now)), config: { dataDir: dir, materials: config.materials } });
    await runner.start();
    try {
      const run = await runCleanup(runner);
      expect(run).toMatchObject({ status: 'success', summary: { removed: 3 } });

      expect(filesUnder(uploads()).sort()).toEqual(
        [young.id, `${young.id}.json`, fresh.id, `${fresh.id}.json`, path.join('.work', 'busy.thumb.jpg')].sort(),
      );
      const tus = tusClient(baseUrl, token);
      expect((await tus.head(old.location)).status).toBe(404);
      const head = await tus.head(young.location);
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-offset')).toBe(String(young.half));

      // What was kept still finishes.
      const last = await tus.patch(fresh.location, fresh.half, media.video.subarray(fresh.half));
      expect(last.status).toBeLessThan(300);
      expect(filesUnder(uploads()).filter((f) => f.startsWith(fresh.id))).toEqual([]);

      // Nothing left to do: a rerun is a no-op.
      expect(await runCleanup(runner)).toMatchObject({ status: 'skipped', summary: { removed: 0 } });
      expect(filesUnder(uploads()).sort()).toEqual([young.id, `${young.id}.json`, path.join('.work', 'busy.thumb.jpg')].sort());
    } finally {
      await runner.stop();
    }
  });
});
