import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { fixedClock } from '../../lib/clock.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { freshDatabase } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { makeTestMedia, materialsConfig, tusClient, type TestMedia } from '../../test/materials.ts';
import { createLocalStorage, createS3Storage, readBytes, type MaterialStorage } from './storage.ts';

/**
 * The storage layer on local disk and on an S3-compatible server (s3rver, a fake S3 in Node,
 * over real HTTP on loopback): the same contract for both, and one upload served from S3.
 */
let s3: S3rver;
let s3Url: string;
let s3Dir: string;
let localDir: string;
const BUCKET = 'materials-test';

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-s3rver-'));
  localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-local-store-'));
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  fs.rmSync(localDir, { recursive: true, force: true });
});

const s3Config = () => ({ kind: 's3' as const, endpoint: s3Url, bucket: BUCKET, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });

describe.each([
  ['local disk', () => createLocalStorage(localDir)],
  ['S3 (s3rver)', () => createS3Storage(s3Config())],
] as const)('storage on %s', (_name, make) => {
  let storage: MaterialStorage;
  const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
  const source = () => {
    const file = path.join(os.tmpdir(), `ads-store-src-${process.pid}-${Math.random().toString(36).slice(2)}`);
    fs.writeFileSync(file, bytes);
    return file;
  };
  beforeAll(() => {
    storage = make();
  });

  it('puts a file (copy or move), reads it whole or by range, and deletes it', async () => {
    const copied = source();
    await storage.put('ab/abc-1.mp4', copied, { contentType: 'video/mp4' });
    expect(fs.existsSync(copied)).toBe(true);
    const moved = source();
    await storage.put('ab/abc-2.mp4', moved, { contentType: 'video/mp4', move: true });
    expect(fs.existsSync(moved)).toBe(false);
    fs.rmSync(copied);

    expect(await storage.stat('ab/abc-1.mp4')).toEqual({ size: bytes.length });
    expect(await storage.exists('ab/abc-2.mp4')).toBe(true);
    expect(await storage.exists('ab/none.mp4')).toBe(false);
    expect(await storage.stat('ab/none.mp4')).toBeNull();

    const whole = await readBytes(storage, 'ab/abc-2.mp4', 0, bytes.length);
    expect(createHash('md5').update(whole).digest('hex')).toBe(createHash('md5').update(bytes).digest('hex'));
    expect((await readBytes(storage, 'ab/abc-2.mp4', 1000, 1100)).equals(bytes.subarray(1000, 1100))).toBe(true);
    const ranged = await storage.read('ab/abc-1.mp4', { start: bytes.length - 3, end: bytes.length - 1 });
    expect((await buffer(ranged)).equals(bytes.subarray(-3))).toBe(true);

    await storage.delete('ab/abc-1.mp4');
    await storage.delete('ab/abc-2.mp4');
    await storage.delete('ab/abc-2.mp4');
    expect(await storage.exists('ab/abc-1.mp4')).toBe(false);
  });

  it('refuses keys that would leave its root', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '']) await expect(storage.stat(key), key).rejects.toThrow(/invalid storage key/);
  });
});

describe('materials on S3', () => {
  let media: TestMedia;
  let database: Database;
  let dir: string;
  let app: App;
  let baseUrl: string;

  beforeAll(async () => {
    media = makeTestMedia();
    database = await freshDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-s3-app-'));
    const config = materialsConfig(dir, { storage: s3Config() });
    app = await buildApp({ config, db: database.db, driver: database.driver, clock: fixedClock('2026-11-01T08:00:00Z'), logger: false, checkAnswers: true });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  // Every answer is compared with its contract (lib/endpoint.ts).
  afterEach(() => expect(app.answerMismatches).toEqual([]));
  afterAll(async () => {
    await app?.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(media.dir, { recursive: true, force: true });
  });

  it('stores an upload in the bucket, serves it by range from there, and removes it on delete', async () => {
    const user = await createUser(database.db, { is_admin: 1 });
    const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: user.account, pwd: md5Hex(user.password) }) });
    const token = ((await login.json()) as any).data.token as string;
    const tus = tusClient(baseUrl, token);
    const { res, location } = await tus.upload(media.video, { filename: 's3.mp4', filetype: 'video/mp4', platform: 'dj' });
    expect(res.status).toBe(204);
    const material = (await tus.result(location!)).data.material;
    const keys = await database.db.selectFrom('materials').select(['storage_key', 'thumb_key']).where('id', '=', material.id).executeTakeFirstOrThrow();
    const bucket = createS3Storage(s3Config());
    expect(await bucket.stat(keys.storage_key)).toEqual({ size: media.video.length });
    expect(await bucket.exists(keys.thumb_key!)).toBe(true);
    // Nothing stays on local disk: the upload moved into the bucket.
    expect(fs.readdirSync(path.join(dir, 'uploads')).filter((f) => !f.startsWith('.'))).toEqual([]);

    const part = await fetch(`${baseUrl}${material.file_url}`, { headers: { range: 'bytes=10-4105' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(media.video.subarray(10, 4106))).toBe(true);

    const del = await fetch(`${baseUrl}/api/materials/delete`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ids: [material.id] }) });
    expect(((await del.json()) as any).data).toEqual({ deleted: 1 });
    expect(await bucket.exists(keys.storage_key)).toBe(false);
    expect(await bucket.exists(keys.thumb_key!)).toBe(false);
  });
});

describe('configuration', () => {
  it('reads the upload limit, the storage and the reporting time zone, refusing bad values clearly', () => {
    const c = loadConfig({ DATA_DIR: '/srv/ads' });
    expect(c.materials).toMatchObject({ maxBytes: 2 * 1024 ** 3, uploadDir: '/srv/ads/uploads', storage: { kind: 'local', dir: '/srv/ads/materials' } });
    expect(c.reportTimezone).toBe('Asia/Shanghai');
    const s3c = loadConfig({ MATERIAL_STORAGE: 's3', S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: '1', MATERIAL_MAX_BYTES: '1048576', REPORT_TIMEZONE: 'UTC' });
    expect(s3c.materials).toMatchObject({ maxBytes: 1048576, storage: { kind: 's3', bucket: 'media', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, region: 'us-east-1' } });
    expect(() => loadConfig({ MATERIAL_STORAGE: 's3' })).toThrow(/S3_BUCKET: required when MATERIAL_STORAGE=s3/);
    expect(() => loadConfig({ MATERIAL_STORAGE: 'ftp' })).toThrow(/MATERIAL_STORAGE/);
    expect(() => loadConfig({ MATERIAL_MAX_BYTES: '0' })).toThrow(/MATERIAL_MAX_BYTES/);
    expect(() => loadConfig({ REPORT_TIMEZONE: 'Mars/Olympus' })).toThrow(/REPORT_TIMEZONE: an IANA time zone/);
  });
});
