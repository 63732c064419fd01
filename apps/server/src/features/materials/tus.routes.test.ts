import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { fixedClock } from '../../lib/clock.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { freshDatabase } from '../../test/build-test-app.ts';
import { createDepartment, createDrama, createSite, createUser } from '../../test/factories.ts';
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
  app = await buildApp({ config, db: database.db, driver: database.driver, clock, logger: false });
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
  config = materialsConfig(dir, { maxBytes: MAX_BYTES });
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

afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

describe('uploading with tus', () => {
  let material: any;
  let location: string;

  it('takes a video in several chunks and answers the new material in the last PATCH', async () => {
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
    expect(last.status).toBe(200);
    expect(last.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await last.json()) as any;
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
    const { res, location: loc } = await tusClient(baseUrl, other.token).upload(media.video, { filename: 'copy.mp4', filetype: 'video/mp4', platform: 'dj' }, 20_000);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
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
    expect(last.status).toBe(200);
    expect(((await last.json()) as any).data).toMatchObject({ status: 'created', material: { md5: md5(media.video2), size_bytes: media.video2.length } });
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
    const big = (await (await tus.upload(media.bigImage, { filename: 'cover.png', filetype: 'image/png', platform: 'ec' })).res.json()) as any;
    expect(big.data.material).toMatchObject({ kind: 'image', mime_type: 'image/png', width: 800, height: 600, duration_s: null, platform: 'ec' });
    const thumb = await fetch(`${baseUrl}${big.data.material.thumbnail_url}`);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(thumb.headers.get('content-length'))).toBeLessThan(media.bigImage.length);
    await thumb.arrayBuffer();

    const small = (await (await tus.upload(media.smallImage, { filename: 'icon.png', filetype: 'image/png', platform: 'ec' })).res.json()) as any;
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
