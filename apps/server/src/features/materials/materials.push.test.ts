import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { fixedClock } from '../../lib/clock.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { freshDatabase } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { FAST, testLog, waitForRun } from '../../test/jobs.ts';
import { makeTestMedia, materialsConfig, tusClient, type TestMedia } from '../../test/materials.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { checkMaterialPushesJob, pushMaterialsJob, videoMarker } from './materials.jobs.ts';
import { PUSH_JOB } from './materials.service.ts';
import { createMaterialStorage, readBytes } from './storage.ts';

/**
 * Pushing materials to ad accounts through the job engine and the Graph client, against the
 * simulator over real HTTP: chunked video uploads, images by hash, processing, the platform's
 * faults, retries, and runs that died halfway (never a second copy on the platform).
 */
let sim: TestSimulator;
let media: TestMedia;
let database: Database;
let dir: string;
let config: Config;
let runner: JobRunner;
let app: App;
let baseUrl: string;
let staffId: number;
let token: string;
let fb: SimUser;
/** Our ad account ids, in the order of fb.ad_accounts. */
const accounts: number[] = [];
const materials: Record<'video' | 'video2' | 'image', { id: number; md5: string }> = {} as never;
const clock = fixedClock('2026-11-01T08:00:00Z');

async function call<T = any>(route: string, body: unknown, as = token): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${baseUrl}/api${route}`, { method: 'POST', headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json', 'accept-language': 'en' }, body: JSON.stringify(body) });
  return res.json() as Promise<{ code: number; message: string; data: T }>;
}

const pushOf = (materialId: number, accountId: number) =>
  database.db.selectFrom('material_pushes').selectAll().where('material_id', '=', materialId).where('ad_account_id', '=', accountId).executeTakeFirst();

async function waitForPush(materialId: number, accountId: number, state: string) {
  return vi.waitFor(
    async () => {
      const row = await pushOf(materialId, accountId);
      if (row?.state !== state) throw new Error(`push is ${JSON.stringify(row)}`);
      return row;
    },
    { timeout: 20_000, interval: 25 },
  );
}

/** The simulator's videos of an ad account carrying a material's marker (what the platform really holds). */
async function platformVideos(accountIndex: number, material: { id: number; md5: string }) {
  const account = fb.ad_accounts[accountIndex]!.id;
  const res = await fetch(`${sim.url}/v25.0/${account}/advideos?fields=description,status&limit=100`, { headers: { authorization: `Bearer ${fb.access_token}` } });
  const body = (await res.json()) as { data: { id: string; description?: string; status: { video_status: string } }[] };
  return body.data.filter((v) => v.description === videoMarker(material.id, material.md5));
}

beforeAll(async () => {
  sim = await startTestSimulator();
  // Small chunks, so even a small test video travels in several; processing takes a minute of sim time.
  await sim.control('PUT', '/__sim/settings', { video_chunk_bytes: 16 * 1024, video_processing_seconds: 60 });
  media = makeTestMedia();
  database = await freshDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-push-'));
  config = materialsConfig(dir, { pushWaitMs: 60_000 });
  // Three slots: pushes (per person) may take two of them.
  runner = createJobs({ db: database.db, platform: sim.platform, clock, config, log: testLog(), registry: [pushMaterialsJob, checkMaterialPushesJob], options: { workers: true, concurrency: 3, ...FAST } });
  await runner.start();
  app = await buildApp({ config, db: database.db, driver: database.driver, clock, logger: false, checkAnswers: true, jobs: runner, platform: sim.platform });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const staff = await createUser(database.db, { paths: ['/material/upload'] });
  staffId = staff.id;
  token = await login(staff);

  // A personal account whose token reaches three ad accounts, as a sync would have stored it.
  fb = await sim.createUser({ ad_accounts: 3 });
  accounts.push(...(await storeAccounts(fb, staffId)));

  const tus = tusClient(baseUrl, token);
  for (const [name, bytes, filetype] of [
    ['video', media.video, 'video/mp4'],
    ['video2', media.video2, 'video/mp4'],
    ['image', media.smallImage, 'image/png'],
  ] as const) {
    const { location } = await tus.upload(bytes, { filename: `${name}.${filetype === 'image/png' ? 'png' : 'mp4'}`, filetype, platform: 'dj' }, 256 * 1024);
    const body = await tus.result(location!);
    materials[name] = { id: body.data.material.id, md5: body.data.material.md5 };
  }
}, 60_000);

async function login(user: { account: string; password: string }) {
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: user.account, pwd: md5Hex(user.password) }) });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** A personal account reaching `fbUser`'s ad accounts, as a sync would have stored it, owned by `ownerId`, who may use the ad accounts. Answers our ad account ids. */
async function storeAccounts(fbUser: SimUser, ownerId: number) {
  const secrets = secretBoxFor(database.db, config.tokenEncryptionKey);
  const pa = await database.db
    .insertInto('personal_accounts')
    .values({ fb_user_id: fbUser.user.id, name: fbUser.user.name, token_enc: await secrets.encrypt(fbUser.access_token), scopes: ['ads_management'], status: 'valid', owner_user_id: ownerId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const a of fbUser.ad_accounts) {
    const row = await database.db
      .insertInto('ad_accounts')
      .values({ platform_id: a.id, account_id: a.account_id, name: `Sim ${a.account_id}`, currency: a.currency, timezone_name: a.timezone_name, account_status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
    await database.db.insertInto('personal_account_ad_accounts').values({ personal_account_id: pa.id, ad_account_id: row.id }).execute();
    await database.db.insertInto('user_ad_accounts').values({ user_id: ownerId, ad_account_id: row.id }).execute();
  }
  return ids;
}

// Every answer is compared with its contract (lib/endpoint.ts).
afterEach(() => expect(app.answerMismatches).toEqual([]));

afterAll(async () => {
  await app?.close();
  await runner?.stop();
  await database?.close();
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

describe('pushing to ad accounts', () => {
  it('uploads a video in chunks and an image by hash, follows processing to ready, and reports progress', async () => {
    // A transient failure of the platform is retried by the client, unnoticed by the push.
    await sim.control('POST', '/__sim/faults', { path: '/act_*/adimages', method: 'POST', count: 1, error: { code: 2, http_status: 500, message: 'An unexpected error has occurred. Please retry your request later.', is_transient: true } });
    const res = await call('/materials/push', { material_ids: [materials.video.id, materials.image.id], ad_account_ids: [accounts[0]] });
    expect(res.data).toMatchObject({ queued: 2, skipped: 0 });
    const image = await waitForPush(materials.image.id, accounts[0]!, 'ready');
    // The platform names an image by the MD5 of its bytes.
    expect(image.platform_ref).toBe(materials.image.md5);
    expect((await sim.control('GET', '/__sim/faults')).data).toEqual([]);

    const processing = await waitForPush(materials.video.id, accounts[0]!, 'processing');
    const videos = await platformVideos(0, materials.video);
    expect(videos).toEqual([expect.objectContaining({ id: processing.platform_ref, status: expect.objectContaining({ video_status: 'processing' }) })]);
    await sim.advance('61s');
    const run = await waitForRun(database.db, res.data.task_id, (r) => r.status === 'success', 20_000);
    expect(run.summary).toMatchObject({ pushes: 2, ready: 2, failed: 0 });
    expect(run).toMatchObject({ progress_done: 2, progress_total: 2 });

    const task = await call('/tasks/get', { id: res.data.task_id });
    expect(task.data).toMatchObject({ status: 'success', job_name: 'push-materials', title: 'Push materials to ad accounts' });
    const listed = await call('/materials/pushes', { task_id: res.data.task_id, sort_field: 'id', sort_order: 'ascend' });
    expect(listed.data.list.map((p: any) => [p.material.id, p.state, p.attempts, p.error])).toEqual(
      expect.arrayContaining([
        [materials.video.id, 'ready', 1, null],
        [materials.image.id, 'ready', 1, null],
      ]),
    );
    expect((await call('/materials/get', { id: materials.video.id })).data.push_counts).toMatchObject({ ready: 1 });
    const audit = await database.db.selectFrom('audit_logs').select(['actor_id', 'after']).where('action', '=', 'material.push').execute();
    expect(audit).toHaveLength(2);
  });

  it('fails a push the platform refuses with the platform’s own message, and a retry pushes it once', async () => {
    await sim.control('POST', '/__sim/faults', {
      path: '/act_*/advideos',
      method: 'POST',
      count: 1,
      error: { code: 100, message: '(#100) Invalid parameter', error_user_title: 'Video Too Short', error_user_msg: 'The video file you tried to upload is too short.' },
    });
    const first = await call('/materials/push', { material_ids: [materials.video2.id], ad_account_ids: [accounts[0]] });
    const failedRun = await waitForRun(database.db, first.data.task_id, (r) => r.status === 'failed', 20_000);
    expect(failedRun.message).toContain('The video file you tried to upload is too short.');
    const failed = await pushOf(materials.video2.id, accounts[0]!);
    expect(failed).toMatchObject({ state: 'failed', error: 'The video file you tried to upload is too short.' });
    expect((await call('/materials/list', { push: 'failed' })).data.list.map((m: any) => m.id)).toEqual([materials.video2.id]);

    const retry = await call('/materials/retry_push', { material_id: materials.video2.id });
    expect(retry.data).toMatchObject({ queued: 1, skipped: 0 });
    await waitForPush(materials.video2.id, accounts[0]!, 'processing');
    await sim.advance('61s');
    await waitForRun(database.db, retry.data.task_id, (r) => r.status === 'success', 20_000);
    expect(await pushOf(materials.video2.id, accounts[0]!)).toMatchObject({ state: 'ready', error: null, attempts: 2 });
    // Pushing the same pair again does nothing: the platform keeps exactly one copy.
    expect((await call('/materials/push', { material_ids: [materials.video2.id], ad_account_ids: [accounts[0]] })).data).toEqual({ task_id: null, queued: 0, skipped: 1 });
    expect(await platformVideos(0, materials.video2)).toHaveLength(1);
  });

  it('fails a video the platform could not process, with the platform’s reason', async () => {
    const res = await call('/materials/push', { material_ids: [materials.video.id], ad_account_ids: [accounts[1]] });
    const processing = await waitForPush(materials.video.id, accounts[1]!, 'processing');
    await sim.control('POST', `/__sim/videos/${processing.platform_ref}/fail`, { message: 'The video codec is not supported.' });
    const run = await waitForRun(database.db, res.data.task_id, (r) => r.status === 'failed', 20_000);
    expect(run.summary).toMatchObject({ failed: 1 });
    const listed = await call('/materials/pushes', { material_id: materials.video.id, ad_account_id: accounts[1] });
    expect(listed.data.list[0]).toMatchObject({ state: 'failed', error: 'The platform failed to process the video: The video codec is not supported.' });
  });

  it('resumes the platform’s upload session of a run that died mid-upload, instead of sending a second copy', async () => {
    const material = materials.video2;
    const accountId = accounts[1]!;
    const act = fb.ad_accounts[1]!.id;
    const push = await database.db
      .insertInto('material_pushes')
      .values({ material_id: material.id, ad_account_id: accountId, state: 'pending', pushed_by: staffId, created_at: clock.now(), updated_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A first run: the session opens (and is recorded), one chunk goes, then the process dies.
    const storage = createMaterialStorage(config.materials.storage);
    const row = await database.db.selectFrom('materials').select(['storage_key', 'size_bytes']).where('id', '=', material.id).executeTakeFirstOrThrow();
    let sessionVideo = '';
    await expect(
      sim.platform.uploadAdVideo(
        fb.access_token,
        act,
        {
          size: row.size_bytes,
          read: async (start, end) => {
            if (start > 0) throw new Error('the server died');
            return readBytes(storage, row.storage_key, start, end);
          },
        },
        {
          title: 'video2.mp4',
          description: videoMarker(material.id, material.md5),
          onSession: async (s) => {
            sessionVideo = s.videoId;
            await database.db.updateTable('material_pushes').set({ state: 'uploading', attempts: 1, platform_ref: s.videoId, upload_session_id: s.sessionId }).where('id', '=', push.id).execute();
          },
        },
      ),
    ).rejects.toThrow('the server died');
    expect((await platformVideos(1, material)).map((v) => v.status.video_status)).toEqual(['uploading']);

    // The rerun picks the push up where it stands.
    const runId = await runner.enqueue(PUSH_JOB, { push_ids: [push.id] }, { createdBy: staffId });
    await waitForPush(material.id, accountId, 'processing');
    await sim.advance('61s');
    await waitForRun(database.db, runId, (r) => r.status === 'success', 20_000);
    const videos = await platformVideos(1, material);
    expect(videos.map((v) => [v.id, v.status.video_status])).toEqual([[sessionVideo, 'ready']]);
    expect(await pushOf(material.id, accountId)).toMatchObject({ state: 'ready', platform_ref: sessionVideo, upload_session_id: null, attempts: 2 });
  });

  it('finds by its marker a video whose session was never recorded (a crash right after start), and keeps one copy', async () => {
    const material = materials.video;
    const accountId = accounts[2]!;
    const act = fb.ad_accounts[2]!.id;
    // The platform opened a session, but the process died before writing it down.
    const started = await fetch(`${sim.url}/v25.0/${act}/advideos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fb.access_token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ upload_phase: 'start', file_size: String(media.video.length), description: videoMarker(material.id, material.md5) }),
    });
    const orphan = ((await started.json()) as { video_id: string }).video_id;
    const push = await database.db
      .insertInto('material_pushes')
      .values({ material_id: material.id, ad_account_id: accountId, state: 'uploading', attempts: 1, pushed_by: staffId, created_at: clock.now(), updated_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const runId = await runner.enqueue(PUSH_JOB, { push_ids: [push.id] }, { createdBy: staffId });
    const processing = await waitForPush(material.id, accountId, 'processing');
    expect(processing.platform_ref).not.toBe(orphan);
    await sim.advance('61s');
    await waitForRun(database.db, runId, (r) => r.status === 'success', 20_000);
    expect((await platformVideos(2, material)).map((v) => [v.id, v.status.video_status])).toEqual([[processing.platform_ref, 'ready']]);
  });

  it('marks pushes whose task ended without them (cancelled, out of retries) as failed and retryable', async () => {
    const push = await database.db
      .insertInto('material_pushes')
      .values({ material_id: materials.image.id, ad_account_id: accounts[1]!, state: 'pending', pushed_by: staffId, created_at: clock.now(), updated_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const runId = await runner.enqueue('check-material-pushes', {});
    await waitForRun(database.db, runId, (r) => r.status === 'success', 20_000);
    const listed = await call('/materials/pushes', { material_id: materials.image.id, ad_account_id: accounts[1] });
    expect(listed.data.list[0]).toMatchObject({ id: push.id, state: 'failed', error: 'The push task was cancelled or interrupted; retry it.' });
  });

  it('runs different people’s pushes at once, and one person’s pushes one after the other', async () => {
    // A second person, with an ad account and an image of their own.
    const other = await createUser(database.db, { paths: ['/material/upload'] });
    const otherToken = await login(other);
    const otherAccounts = await storeAccounts(await sim.createUser({ ad_accounts: 1 }), other.id);
    const upload = async (as: string, bytes: Buffer, filename: string) => {
      const tus = tusClient(baseUrl, as);
      const { res, location } = await tus.upload(bytes, { filename, filetype: 'image/png', platform: 'dj' }, 256 * 1024);
      expect(res.status).toBe(204);
      return (await tus.result(location!)).data.material.id as number;
    };
    const mineImage = await upload(token, media.bigImage, 'big.png');
    const theirImage = await upload(otherToken, media.otherImage, 'other.png');
    // Each image takes the platform a second and a half: runs that may overlap are seen overlapping.
    await sim.control('POST', '/__sim/faults', { path: '/act_*/adimages', method: 'POST', count: 3, latency_ms: 1500 });

    const mine = (await call('/materials/push', { material_ids: [mineImage], ad_account_ids: [accounts[2]] })).data.task_id as number;
    const theirs = (await call('/materials/push', { material_ids: [theirImage], ad_account_ids: [otherAccounts[0]] }, otherToken)).data.task_id as number;
    const mineNext = (await call('/materials/push', { material_ids: [mineImage], ad_account_ids: [accounts[1]] })).data.task_id as number;
    const statuses = async () => {
      const rows = await database.db.selectFrom('job_runs').select(['id', 'status']).where('id', 'in', [mine, theirs, mineNext]).execute();
      return [mine, theirs, mineNext].map((id) => rows.find((r) => r.id === id)?.status);
    };
    // Both people's tasks run at the same moment; the first person's second task waits for their first.
    await vi.waitFor(async () => expect(await statuses()).toEqual(['running', 'running', 'queued']), { timeout: 10_000, interval: 10 });
    for (const id of [mine, theirs, mineNext]) await waitForRun(database.db, id, (r) => r.status === 'success', 20_000);
    expect(await pushOf(mineImage, accounts[2]!)).toMatchObject({ state: 'ready', task_id: mine, attempts: 1 });
    expect(await pushOf(mineImage, accounts[1]!)).toMatchObject({ state: 'ready', task_id: mineNext, attempts: 1 });
    expect(await pushOf(theirImage, otherAccounts[0]!)).toMatchObject({ state: 'ready', task_id: theirs, attempts: 1 });
    const keys = await database.db.selectFrom('job_runs').select(['id', 'concurrency_key']).where('id', 'in', [mine, theirs, mineNext]).orderBy('id').execute();
    expect(keys).toEqual([
      { id: mine, concurrency_key: `pusher:${staffId}` },
      { id: theirs, concurrency_key: `pusher:${other.id}` },
      { id: mineNext, concurrency_key: `pusher:${staffId}` },
    ]);
  });

  it('uploads only the pushes stamped with its own task: a push queued again by a later task is left to that task', async () => {
    // The later task, still waiting (recorded only: no pg-boss job behind it, so nothing starts it here).
    const later = await database.db
      .insertInto('job_runs')
      .values({ job_name: PUSH_JOB, trigger: 'manual', created_by: staffId, data: JSON.stringify({}), status: 'queued', queued_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const push = await database.db
      .insertInto('material_pushes')
      .values({ material_id: materials.image.id, ad_account_id: accounts[2]!, state: 'pending', pushed_by: staffId, task_id: later.id, created_at: clock.now(), updated_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    // An earlier task that still lists the push (a retry of it, say) runs now: it leaves the push alone.
    const earlier = await runner.enqueue(PUSH_JOB, { push_ids: [push.id] }, { createdBy: staffId, key: `pusher:${staffId}` });
    expect(await waitForRun(database.db, earlier, (r) => r.status === 'skipped')).toMatchObject({ summary: { pushes: 0 } });
    expect(await pushOf(materials.image.id, accounts[2]!)).toMatchObject({ state: 'pending', attempts: 0, task_id: later.id });
  });
});
