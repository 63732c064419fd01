import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { fixedClock } from '../../lib/clock.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { freshDatabase } from '../../test/build-test-app.ts';
import { createAdAccount, createDepartment, createDrama, createSite, createUser } from '../../test/factories.ts';
import { filesUnder, makeTestMedia, materialsConfig, tusClient, uploadIdOf, type TestMedia } from '../../test/materials.ts';

/**
 * Uploads over real HTTP with the tus 1.0 protocol, as a browser's tus client sends them: several
 * chunks, a restart in the middle, the same bytes twice, and files the library refuses.
 */
const MAX_BYTES = 3 * 1024 * 1024;
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

let media: TestMedia;
let database: Database;
let dir: string;
let config: Config;
const clock = fixedClock('2026-11-01T08:00:00Z');
let app: App;
let baseUrl: string;
let staff: { id: number; token: string };
let other: { id: number; token: string };
let dramaId: number;

async function start() {
  app = await buildApp({ config, db: database.db, driver: database.driver, clock, logger: false, checkAnswers: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

async function login(account: string, password: string) {
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account, pwd: md5Hex(password) }) });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function call<T = any>(token: string, route: string, body: unknown, lang = 'en'): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${baseUrl}/api${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-language': lang }, body: JSON.stringify(body) });
  return res.json() as Promise<{ code: number; message: string; data: T }>;
}

const uploadsDir = () => config.materials.uploadDir;
const storageDir = () => path.join(dir, 'materials');
/** Unfinished uploads on disk (scratch space excluded: it must be empty too, checked separately). */
const pendingUploads = () => filesUnder(uploadsDir());

beforeAll(async () => {
  media = makeTestMedia();
  database = await freshDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-tus-'));
  config = materialsConfig(dir, { maxBytes: MAX_BYTES, maxOpenUploads: 3, maxReservedBytes: 5 * 1024 * 1024 });
  await start();
  const d1 = await createDepartment(database.db);
  const d2 = await createDepartment(database.db);
  const s = await createUser(database.db, { paths: ['/material/upload'], department_id: d1.id });
  const o = await createUser(database.db, { paths: ['/advertising/video'], department_id: d2.id });
  staff = { id: s.id, token: await login(s.account, s.password) };
  other = { id: o.id, token: await login(o.account, o.password) };
  const site = await createSite(database.db, { platform: 'dj' });
  dramaId = (await createDrama(database.db, { site_id: site.id, name: 'Drama A' })).id;
});

// Every answer is compared with its contract (lib/endpoint.ts).
afterEach(() => expect(app.answerMismatches).toEqual([]));

afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

describe('uploading with tus', () => {
  let material: any;
  let location: string;

  it('takes a video in several chunks, acknowledges the last PATCH with 204 like the others, and answers the new material from upload_result', async () => {
    const tus = tusClient(baseUrl, staff.token);
    const created = await tus.create(media.video.length, { filename: 'C:\\fakepath\\ep1.mp4', filetype: 'video/mp4', platform: 'dj', drama_id: dramaId, language: 'en', editor_id: staff.id, tags: 'hook, ep1,hook', remark: 'first cut' });
    expect(created.status).toBe(201);
    location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/material\/tus\/[A-Za-z0-9_-]+$/);
    expect(created.headers.get('upload-expires')).toBeTruthy();

    const chunk = 16 * 1024;
    let offset = 0;
    let last!: Response;
    let patches = 0;
    while (offset < media.video.length && patches < 50) {
      last = await tus.patch(location, offset, media.video.subarray(offset, offset + chunk));
      patches++;
      if (offset + chunk < media.video.length) {
        expect(last.status).toBe(204);
        offset = Number(last.headers.get('upload-offset'));
      } else offset = media.video.length;
    }
    expect(patches).toBeGreaterThan(2);
    // tus 1.0: the last PATCH is acknowledged like any other, 204 with no body; the result is asked for.
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(media.video.length));
    expect(await last.text()).toBe('');
    const body = await tus.result(location);
    expect(body.code).toBe(0);
    expect(body.data.status).toBe('created');
    material = body.data.material;
    expect(material).toMatchObject({
      kind: 'video',
      platform: 'dj',
      file_name: 'ep1.mp4',
      mime_type: 'video/mp4',
      size_bytes: media.video.length,
      md5: md5(media.video),
      width: 320,
      height: 240,
      drama: { id: dramaId, name: 'Drama A' },
      language: 'en',
      editor: { id: staff.id },
      uploader: { id: staff.id },
      tags: ['hook', 'ep1'],
      remark: 'first cut',
      push_counts: { pending: 0, uploading: 0, processing: 0, ready: 0, failed: 0 },
      ads_using: 0,
    });
    expect(material.duration_s).toBeCloseTo(2, 0);
    expect(material.file_url).toMatch(/^\/api\/material\/file\/\d+\?exp=\d+&sig=[A-Za-z0-9_-]{24}$/);
    expect(material.thumbnail_url).toMatch(/^\/api\/material\/thumb\/\d+\?/);
    // The bytes moved into storage with a thumbnail; nothing of the upload stays.
    expect(filesUnder(storageDir())).toHaveLength(2);
    expect(pendingUploads()).toEqual([]);
  });

  it('still answers HEAD (complete) and /materials/upload_result for a finished upload', async () => {
    const tus = tusClient(baseUrl, staff.token);
    const head = await tus.head(location);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(media.video.length));
    expect(head.headers.get('upload-length')).toBe(String(media.video.length));
    const result = await call(staff.token, '/materials/upload_result', { upload_id: uploadIdOf(location) });
    expect(result).toMatchObject({ code: 0, data: { status: 'created', material: { id: material.id, md5: material.md5 } } });
    // Someone else's upload does not exist for them.
    expect((await tusClient(baseUrl, other.token).head(location)).status).toBe(404);
    expect((await call(other.token, '/materials/upload_result', { upload_id: uploadIdOf(location) })).code).toBe(-2);
  });

  it('serves the file at its signed URL, with ranges for seeking, and the thumbnail as JPEG', async () => {
    const full = await fetch(`${baseUrl}${material.file_url}`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('video/mp4');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await full.arrayBuffer()).equals(media.video)).toBe(true);

    const part = await fetch(`${baseUrl}${material.file_url}`, { headers: { range: 'bytes=100-1123' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1123/${media.video.length}`);
    expect(part.headers.get('content-length')).toBe('1024');
    expect(Buffer.from(await part.arrayBuffer()).equals(media.video.subarray(100, 1124))).toBe(true);

    const tail = await fetch(`${baseUrl}${material.file_url}`, { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(media.video.subarray(-10))).toBe(true);
    const open = await fetch(`${baseUrl}${material.file_url}`, { headers: { range: `bytes=${media.video.length - 5}-` } });
    expect((await open.arrayBuffer()).byteLength).toBe(5);

    const beyond = await fetch(`${baseUrl}${material.file_url}`, { headers: { range: `bytes=${media.video.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${media.video.length}`);

    const head = await fetch(`${baseUrl}${material.file_url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(media.video.length));

    const thumb = await fetch(`${baseUrl}${material.thumbnail_url}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await thumb.arrayBuffer());
    expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('refuses a file URL whose signature is altered, expired or made for another file (403)', async () => {
    const url = new URL(material.file_url, baseUrl);
    const sig = url.searchParams.get('sig')!;
    const exp = Number(url.searchParams.get('exp'));
    const variants = [
      `${url.pathname}?exp=${exp}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      `${url.pathname}?exp=${exp + 600}&sig=${sig}`,
      `${url.pathname}?exp=${exp}`,
      url.pathname,
      `/api/material/thumb/${material.id}?exp=${exp}&sig=${sig}`,
      `/api/material/file/${material.id + 1}?exp=${exp}&sig=${sig}`,
      `/api/material/file/0${material.id}?exp=${exp}&sig=${sig}`,
    ];
    for (const v of variants) {
      const res = await fetch(`${baseUrl}${v}`, { headers: { authorization: `Bearer ${staff.token}` } });
      expect(res.status, v).toBe(403);
      expect(((await res.json()) as any).code, v).toBe(403);
    }
    // Time passes beyond the expiry: the same URL stops working.
    clock.advance(2 * 3600 * 1000);
    try {
      expect((await fetch(`${baseUrl}${material.file_url}`)).status).toBe(403);
      // A fresh URL (from any answer carrying the material) works again.
      const again = await call(staff.token, '/materials/get', { id: material.id });
      expect((await fetch(`${baseUrl}${again.data.file_url}`, { method: 'HEAD' })).status).toBe(200);
    } finally {
      clock.advance(-2 * 3600 * 1000);
    }
  });

  it('takes the same bytes again as a duplicate of the material: the upload is discarded, one file stays', async () => {
    const before = filesUnder(storageDir());
    const otherTus = tusClient(baseUrl, other.token);
    const { res, location: loc } = await otherTus.upload(media.video, { filename: 'copy.mp4', filetype: 'video/mp4', platform: 'dj' }, 20_000);
    expect(res.status).toBe(204);
    const body = await otherTus.result(loc!);
    expect(body.data).toMatchObject({ status: 'duplicate', material: { id: material.id, file_name: 'ep1.mp4', uploader: { id: staff.id } } });
    expect(filesUnder(storageDir())).toEqual(before);
    expect(pendingUploads()).toEqual([]);
    // The one who sent it again now finds it in their library (they hold the bytes), and check_hash agrees.
    expect((await call(other.token, '/materials/get', { id: material.id })).code).toBe(0);
    expect((await call(other.token, '/materials/check_hash', { md5: material.md5 })).data.material.id).toBe(material.id);
    expect((await call(other.token, '/materials/upload_result', { upload_id: uploadIdOf(loc!) })).data.status).toBe('duplicate');
    const rows = await database.db.selectFrom('materials').select('id').where('md5', '=', material.md5).execute();
    expect(rows).toHaveLength(1);
  });

  it('lets someone who sent a copy of another department’s material view and push it, but not change or delete it', async () => {
    // A leader elsewhere (leaders may delete anything in their scope) holding the same bytes.
    const elsewhere = await createDepartment(database.db);
    const l = await createUser(database.db, { paths: ['/material/upload'], department_id: elsewhere.id, is_leader: 1 });
    const token = await login(l.account, l.password);
    const tus = tusClient(baseUrl, token);
    const { res, location } = await tus.upload(media.video, { filename: 'mine.mp4', filetype: 'video/mp4', platform: 'dj' }, 20_000);
    expect(res.status).toBe(204);
    expect((await tus.result(location!)).data).toMatchObject({ status: 'duplicate', material: { id: material.id } });
    const before = await call(staff.token, '/materials/get', { id: material.id });

    expect((await call(token, '/materials/get', { id: material.id })).code).toBe(0);
    const notEditable = `The material "ep1.mp4" belongs to another department: you uploaded the same file, so you can view and push it, but not change or delete it.`;
    expect(await call(token, '/materials/edit', { id: material.id, remark: 'mine now', tags: ['taken'] })).toMatchObject({ code: -2, message: notEditable });
    expect(await call(token, '/materials/batch_edit', { ids: [material.id], remark: 'mine now' })).toMatchObject({ code: -2, message: notEditable });
    expect(await call(token, '/materials/delete', { ids: [material.id] })).toMatchObject({ code: -2, message: notEditable });
    const zh = await call(token, '/materials/edit', { id: material.id, remark: 'x' }, 'zh-CN');
    expect(zh.message).toBe('素材「ep1.mp4」属于其他部门：您上传过相同的文件，可以查看和推送它，但不能修改或删除');
    // Using it is what the upload was for: pushing it to their own ad account.
    const account = await createAdAccount(database.db, { users: [l.id] });
    expect((await call(token, '/materials/push', { material_ids: [material.id], ad_account_ids: [account.id] })).data).toMatchObject({ queued: 1 });

    const after = await call(staff.token, '/materials/get', { id: material.id });
    expect(after.data).toMatchObject({ remark: 'first cut', tags: ['hook', 'ep1'], uploader: { id: staff.id } });
    expect(after.data.updated_at).toBe(before.data.updated_at);
    // The owner still edits it.
    expect((await call(staff.token, '/materials/edit', { id: material.id, remark: 'first cut' })).code).toBe(0);
  });

  it('resumes an upload after the server is closed and started again on the same data dir', async () => {
    const tus = tusClient(baseUrl, staff.token);
    const created = await tus.create(media.video2.length, { filename: 'ep2.mp4', filetype: 'video/mp4', platform: 'dj' });
    const loc = created.headers.get('location')!;
    const half = Math.floor(media.video2.length / 2);
    expect((await tus.patch(loc, 0, media.video2.subarray(0, half))).status).toBe(204);

    await app.close();
    await start();

    const resumed = tusClient(baseUrl, staff.token);
    const head = await resumed.head(loc);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    // A chunk at a stale offset is refused without harm.
    expect((await resumed.patch(loc, 0, media.video2.subarray(0, 10))).status).toBe(409);
    const last = await resumed.patch(loc, half, media.video2.subarray(half));
    expect(last.status).toBe(204);
    expect((await resumed.result(loc)).data).toMatchObject({ status: 'created', material: { md5: md5(media.video2), size_bytes: media.video2.length } });
    expect(pendingUploads()).toEqual([]);
  });

  it('processes, when asked for its result, an upload whose bytes all arrived but the server stopped before using them', async () => {
    const tus = tusClient(baseUrl, staff.token);
    const created = await tus.create(media.otherImage.length, { filename: 'late.png', filetype: 'image/png', platform: 'ec' });
    const loc = created.headers.get('location')!;
    expect((await tus.patch(loc, 0, media.otherImage.subarray(0, 1000))).status).toBe(204);
    // As a crash between the last byte and its processing leaves it: the whole file on disk, no material.
    fs.writeFileSync(path.join(uploadsDir(), uploadIdOf(loc)), media.otherImage);
    expect((await tus.head(loc)).headers.get('upload-offset')).toBe(String(media.otherImage.length));
    const result = await call(staff.token, '/materials/upload_result', { upload_id: uploadIdOf(loc) });
    expect(result).toMatchObject({ code: 0, data: { status: 'created', material: { file_name: 'late.png', md5: md5(media.otherImage), width: 640, height: 360 } } });
    expect(pendingUploads()).toEqual([]);
    expect((await call(staff.token, '/materials/upload_result', { upload_id: uploadIdOf(loc) })).data.material.id).toBe(result.data.material.id);
  });

  it('makes a scaled JPEG thumbnail of a large image and lets a small image be its own', async () => {
    const tus = tusClient(baseUrl, staff.token);
    const big = await tus.result((await tus.upload(media.bigImage, { filename: 'cover.png', filetype: 'image/png', platform: 'ec' })).location!);
    expect(big.data.material).toMatchObject({ kind: 'image', mime_type: 'image/png', width: 800, height: 600, duration_s: null, platform: 'ec' });
    const thumb = await fetch(`${baseUrl}${big.data.material.thumbnail_url}`);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(thumb.headers.get('content-length'))).toBeLessThan(media.bigImage.length);
    await thumb.arrayBuffer();

    const small = await tus.result((await tus.upload(media.smallImage, { filename: 'icon.png', filetype: 'image/png', platform: 'ec' })).location!);
    expect(small.data.material).toMatchObject({ width: 100, height: 80 });
    const own = await fetch(`${baseUrl}${small.data.material.thumbnail_url}`);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await own.arrayBuffer()).equals(media.smallImage)).toBe(true);
  });
});

describe('refused uploads', () => {
  /** Everything an upload could leave: files on disk and rows. */
  async function state() {
    const count = async (table: 'materials' | 'material_uploads') => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return { files: filesUnder(dir).filter((f) => !f.startsWith('meta-sim')), materials: await count('materials'), uploads: await count('material_uploads') };
  }

  it('refuses at the last chunk a text file named .mp4, with a clear message, leaving nothing behind', async () => {
    const before = await state();
    const { res } = await tusClient(baseUrl, staff.token).upload(media.text, { filename: 'clip.mp4', filetype: 'video/mp4', platform: 'dj' }, 400);
    expect(res.status).toBe(415);
    expect(await res.text()).toMatch(/not a supported video or image \(it is text\/plain\); the upload was discarded/);
    expect(await state()).toEqual(before);
  });

  it('refuses a truncated video (its header reads fine) as corrupt, leaving nothing behind', async () => {
    const before = await state();
    const { res } = await tusClient(baseUrl, staff.token).upload(media.truncated, { filename: 'cut.mp4', filetype: 'video/mp4', platform: 'dj' });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/corrupt or incomplete/);
    expect(await state()).toEqual(before);
  });

  it('refuses at creation an empty file, an oversized one, missing or wrong metadata — in the caller language', async () => {
    const before = await state();
    const tus = tusClient(baseUrl, staff.token);
    const zh = tusClient(baseUrl, staff.token, 'zh-CN');
    const meta = { filename: 'a.mp4', filetype: 'video/mp4', platform: 'dj' };
    const cases: [Promise<Response>, number, RegExp][] = [
      [tus.create(0, meta), 400, /empty \(0 bytes\)/],
      [zh.create(0, meta), 400, /文件为空/],
      [tus.create(MAX_BYTES + 1, meta), 413, /over the limit of 3 MiB/],
      [tus.create(10, { filename: 'a.mp4', filetype: 'video/mp4' }), 400, /metadata missing: platform/],
      [tus.create(10, { ...meta, filetype: 'video/x-msvideo' }), 415, /"video\/x-msvideo" is not supported/],
      [tus.create(10, { ...meta, platform: 'ec', drama_id: dramaId }), 400, /"drama_id" is invalid: Only drama \(dj\) materials/],
      [tus.create(10, { ...meta, editor_id: 999999 }), 400, /"editor_id" is invalid/],
      [
        fetch(`${baseUrl}/api/material/tus`, { method: 'POST', headers: { authorization: `Bearer ${staff.token}`, 'accept-language': 'en', 'tus-resumable': '1.0.0', 'upload-defer-length': '1', 'upload-metadata': 'platform ZGo=' } }),
        400,
        /size \(Upload-Length\) must be given/,
      ],
      [fetch(`${baseUrl}/api/material/tus`, { method: 'POST', headers: { authorization: `Bearer ${staff.token}`, 'accept-language': 'en', 'tus-resumable': '1.0.0' } }), 400, /size \(Upload-Length\) must be given/],
    ];
    for (const [pending, status, message] of cases) {
      const res = await pending;
      expect(res.status, message.source).toBe(status);
      expect(await res.text(), message.source).toMatch(message);
    }
    const options = await fetch(`${baseUrl}/api/material/tus`, { method: 'OPTIONS', headers: { authorization: `Bearer ${staff.token}` } });
    expect(options.headers.get('tus-max-size')).toBe(String(MAX_BYTES));
    expect(await state()).toEqual(before);
  });

  it('refuses bytes beyond the declared length, and DELETE discards an unfinished upload', async () => {
    const before = await state();
    const tus = tusClient(baseUrl, staff.token);
    const created = await tus.create(100, { filename: 'a.mp4', filetype: 'video/mp4', platform: 'dj' });
    const loc = created.headers.get('location')!;
    expect((await tus.patch(loc, 0, Buffer.alloc(200))).status).toBe(413);
    expect((await tus.patch(loc, 0, Buffer.alloc(50))).status).toBe(204);
    // Only its creator sees or touches it.
    const stranger = tusClient(baseUrl, other.token);
    expect((await stranger.patch(loc, 50, Buffer.alloc(50))).status).toBe(404);
    expect((await stranger.remove(loc)).status).toBe(404);
    expect(await call(staff.token, '/materials/upload_result', { upload_id: uploadIdOf(loc) })).toMatchObject({ code: -2, message: 'The upload is not finished (50 of 100 bytes received).' });
    expect((await tus.remove(loc)).status).toBe(204);
    expect((await tus.head(loc)).status).toBe(404);
    expect(await state()).toEqual(before);
  });

  it('refuses uploads without a token or the permission, with HTTP 401 / 403 and the envelope', async () => {
    const anon = await fetch(`${baseUrl}/api/material/tus`, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' } });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ code: 401 });
    const nobody = await createUser(database.db, { paths: ['/index'] });
    const token = await login(nobody.account, nobody.password);
    const denied = await tusClient(baseUrl, token).create(10, { filename: 'a.mp4', filetype: 'video/mp4', platform: 'dj' });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ code: 403 });
  });
});

describe('upload quotas', () => {
  const meta = { filename: 'q.mp4', filetype: 'video/mp4', platform: 'dj' };
  let quoted: { id: number; token: string };
  beforeAll(async () => {
    const u = await createUser(database.db, { paths: ['/material/upload'] });
    quoted = { id: u.id, token: await login(u.account, u.password) };
  });

  /** Another server on the same database and data dir, with other materials settings. */
  async function serverWith(overrides: Partial<Config['materials']>) {
    const other = await buildApp({ config: { ...config, materials: { ...config.materials, ...overrides } }, db: database.db, driver: database.driver, clock, logger: false, checkAnswers: true });
    await other.listen({ port: 0, host: '127.0.0.1' });
    const addr = other.server.address();
    return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, close: () => other.close() };
  }

  it('refuses a user more unfinished uploads than allowed (429, in their language), counting across parallel requests; finishing or cancelling frees a place', async () => {
    const tus = tusClient(baseUrl, quoted.token);
    // Five at once against a limit of three: exactly three get through.
    const first = await Promise.all(Array.from({ length: 5 }, () => tus.create(1000, meta)));
    expect(first.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
    const refused = first.find((r) => r.status === 429)!;
    expect(await refused.text()).toBe('You have 3 unfinished uploads (at most 3). Finish or cancel some before starting more; unfinished uploads are removed after 7 days.\n');
    const zh = await tusClient(baseUrl, quoted.token, 'zh-CN').create(1000, meta);
    expect(zh.status).toBe(429);
    expect(await zh.text()).toMatch(/^您已有 3 个未完成的上传（上限 3 个）/);
    // Someone else is not held back by it.
    expect((await tusClient(baseUrl, other.token).create(1000, meta)).status).toBe(201);

    const locations = first.filter((r) => r.status === 201).map((r) => r.headers.get('location')!);
    expect((await tus.remove(locations[0]!)).status).toBe(204);
    const again = await tus.upload(media.otherImage, { filename: 'free.png', filetype: 'image/png', platform: 'ec' });
    expect(again.res.status).toBe(204);
    // The finished one is a material now, not an open upload: one place is left.
    expect((await tus.create(1000, meta)).status).toBe(201);
    expect((await tus.create(1000, meta)).status).toBe(429);
  });

  it('refuses an upload that would take the user past the bytes their unfinished uploads may announce', async () => {
    const u = await createUser(database.db, { paths: ['/material/upload'] });
    const tus = tusClient(baseUrl, await login(u.account, u.password));
    expect((await tus.create(MAX_BYTES, meta)).status).toBe(201);
    expect((await tus.create(2 * 1024 * 1024, meta)).status).toBe(201);
    const over = await tus.create(1, meta);
    expect(over.status).toBe(429);
    expect(await over.text()).toBe('Your unfinished uploads take 5 MiB; with this file (1 B) they would pass the limit of 5 MiB. Finish or cancel some first.\n');
  });

  it('refuses new uploads with 507 when the disk of the data dir runs low, and takes them again when there is room', async () => {
    const fsStat = fs.statfsSync(dir);
    const free = fsStat.bavail * fsStat.bsize;
    const low = await serverWith({ minFreeBytes: free + 1024 ** 3 });
    try {
      const u = await createUser(database.db, { paths: ['/material/upload'] });
      const token = await login(u.account, u.password);
      const before = pendingUploads();
      const res = await tusClient(low.url, token).create(1000, meta);
      expect(res.status).toBe(507);
      expect(await res.text()).toMatch(/^The server is low on disk space \(.+ free\) and cannot take a file of 1000 B now\. Contact an administrator\.\n$/);
      expect(pendingUploads()).toEqual(before);
      expect((await tusClient(baseUrl, token).create(1000, meta)).status).toBe(201);
    } finally {
      await low.close();
    }
  });

  it('refuses, with its own message, a file the media tools take too long over', async () => {
    // Whatever the file, a tool cannot answer within a millisecond: the limit is what is tested.
    const slow = await serverWith({ media: { ...config.materials.media, timeoutMs: 1 } });
    try {
      const u = await createUser(database.db, { paths: ['/material/upload'] });
      // New bytes (a video with one more byte after it), so it is not answered as a duplicate before any tool runs.
      const fresh = Buffer.concat([media.video2, Buffer.from([0])]);
      const { res } = await tusClient(slow.url, await login(u.account, u.password)).upload(fresh, { filename: 'slow.mp4', filetype: 'video/mp4', platform: 'dj' });
      expect(res.status).toBe(422);
      expect(await res.text()).toBe('Checking the file took longer than 1 s; the upload was discarded.\n');
    } finally {
      await slow.close();
    }
  });
});

