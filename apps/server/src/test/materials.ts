import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { createMediaTools } from '../features/materials/media.ts';
import { createMaterialStorage } from '../features/materials/storage.ts';
import { testConfig } from './build-test-app.ts';

/** Helpers for the materials tests: media made with the bundled ffmpeg, a tus client over HTTP, config on a temp dir. */

export interface TestMedia {
  dir: string;
  /** 2 s, 320×240, H.264 + AAC, moov at the front. */
  video: Buffer;
  /** Another 2 s video (different content). */
  video2: Buffer;
  /** `video` cut in the middle: its header reads fine, its samples are missing. */
  truncated: Buffer;
  /** 800×600 PNG (gets a scaled JPEG thumbnail). */
  bigImage: Buffer;
  /** 100×80 PNG (its own thumbnail). */
  smallImage: Buffer;
  /** 640×360 PNG of other content. */
  otherImage: Buffer;
  /** A text file, to be sent as "x.mp4". */
  text: Buffer;
}

/** The media tools tests use: the machine's ffmpeg when it has one (testConfig passes PATH), else the bundled. */
export const testMediaTools = () => createMediaTools(testConfig().materials.media);

/** Makes the test media into a fresh temp dir (about 0.3 s). */
export function makeTestMedia(): TestMedia {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-media-'));
  const ff = (args: string[]) => execFileSync(testMediaTools().ffmpeg.path, ['-hide_banner', '-loglevel', 'error', '-y', ...args], { timeout: 30_000 });
  const video = (name: string, src: string) => {
    const out = path.join(dir, name);
    ff(['-f', 'lavfi', '-i', `${src}=duration=2:size=320x240:rate=25`, '-f', 'lavfi', '-i', 'sine=duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', out]);
    return fs.readFileSync(out);
  };
  const image = (name: string, size: string, src = 'testsrc') => {
    const out = path.join(dir, name);
    ff(['-f', 'lavfi', '-i', `${src}=duration=1:size=${size}:rate=1`, '-frames:v', '1', out]);
    return fs.readFileSync(out);
  };
  const v = video('a.mp4', 'testsrc');
  return {
    dir,
    video: v,
    video2: video('b.mp4', 'smptebars'),
    truncated: v.subarray(0, Math.floor(v.length * 0.6)),
    bigImage: image('big.png', '800x600'),
    smallImage: image('small.png', '100x80'),
    otherImage: image('other.png', '640x360', 'smptebars'),
    text: Buffer.from('This is not a video.\nJust some text someone named clip.mp4.\n'.repeat(20)),
  };
}

/** Config whose uploads and materials live in `dir`. */
export function materialsConfig(dir: string, overrides: Partial<Config['materials']> = {}, base: Partial<Config> = {}): Config {
  const c = testConfig(base);
  return {
    ...c,
    dataDir: dir,
    materials: { ...c.materials, uploadDir: path.join(dir, 'uploads'), storage: { kind: 'local', dir: path.join(dir, 'materials') }, pushPollMs: 50, pushWaitMs: 5000, ...overrides },
  };
}

/** Every file under a directory (relative paths), for "nothing left behind". */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

/** tus Upload-Metadata: keys with base64 values. */
export function tusMetadata(fields: Record<string, string | number | undefined>): string {
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${Buffer.from(String(v)).toString('base64')}`)
    .join(',');
}

/** A tus 1.0 client speaking plain HTTP (fetch), as any client would. */
export function tusClient(baseUrl: string, token: string, lang = 'en') {
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'accept-language': lang, ...extra });
  const abs = (location: string) => new URL(location, `${baseUrl}/api/material/tus`).href;
  return {
    async create(size: number, meta: Record<string, string | number | undefined>, extra: Record<string, string> = {}) {
      return fetch(`${baseUrl}/api/material/tus`, { method: 'POST', headers: headers({ 'upload-length': String(size), 'upload-metadata': tusMetadata(meta), ...extra }) });
    },
    async patch(location: string, offset: number, bytes: Uint8Array) {
      return fetch(abs(location), { method: 'PATCH', headers: headers({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }), body: bytes });
    },
    async head(location: string) {
      return fetch(abs(location), { method: 'HEAD', headers: headers() });
    },
    async remove(location: string) {
      return fetch(abs(location), { method: 'DELETE', headers: headers() });
    },
    /** Creates an upload and sends `data` in chunks; answers the last response and the upload's location. */
    async upload(data: Uint8Array, meta: Record<string, string | number | undefined>, chunk = 64 * 1024) {
      const created = await this.create(data.length, meta);
      if (created.status !== 201) return { res: created, location: null as string | null };
      const location = created.headers.get('location')!;
      let offset = 0;
      let res: Response = created;
      // Bounded: one request per chunk.
      for (let i = 0; offset < data.length && i < Math.ceil(data.length / chunk) + 1; i++) {
        res = await this.patch(location, offset, data.subarray(offset, Math.min(offset + chunk, data.length)));
        if (res.status >= 300) break;
        offset = Number(res.headers.get('upload-offset'));
        if (offset < data.length) await res.arrayBuffer();
      }
      return { res, location };
    },
    /** /materials/upload_result of a finished upload: the last PATCH answers 204 without a body (tus 1.0). */
    async result(location: string): Promise<{ code: number; message: string; data: any }> {
      const res = await fetch(`${baseUrl}/api/materials/upload_result`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'accept-language': lang, 'content-type': 'application/json' },
        body: JSON.stringify({ upload_id: uploadIdOf(location) }),
      });
      return res.json() as Promise<{ code: number; message: string; data: any }>;
    },
  };
}

/** The upload id: the last part of its location. */
export const uploadIdOf = (location: string) => location.split('/').filter(Boolean).pop()!;

export interface MaterialSpec {
  uploader_id: number;
  department_id?: number | null;
  editor_id?: number | null;
  platform?: 'dj' | 'ec';
  kind?: 'video' | 'image';
  file_name?: string;
  md5?: string;
  size_bytes?: number;
  duration_s?: number | null;
  drama_id?: number | null;
  product_id?: number | null;
  language?: string | null;
  tags?: string[];
  remark?: string;
  created_at?: Date;
}

let seq = 0;

/** A material row without a file behind it (lists, scope, edits); upload through tus for real files. */
export async function createMaterial(db: Db, spec: MaterialSpec) {
  seq++;
  const md5 = spec.md5 ?? `${Date.now().toString(16)}${seq.toString(16)}`.padStart(32, '0').slice(-32);
  const kind = spec.kind ?? 'video';
  return db
    .insertInto('materials')
    .values({
      kind,
      platform: spec.platform ?? 'dj',
      file_name: spec.file_name ?? `clip-${seq}.mp4`,
      mime_type: kind === 'video' ? 'video/mp4' : 'image/png',
      size_bytes: spec.size_bytes ?? 1000 * seq,
      md5,
      duration_s: spec.duration_s === undefined ? (kind === 'video' ? 10 + seq : null) : spec.duration_s,
      width: 720,
      height: 1280,
      storage_key: `${md5.slice(0, 2)}/${md5}.mp4`,
      thumb_key: null,
      drama_id: spec.drama_id ?? null,
      product_id: spec.product_id ?? null,
      language: spec.language ?? null,
      editor_id: spec.editor_id ?? null,
      tags: spec.tags ?? [],
      remark: spec.remark ?? '',
      uploader_id: spec.uploader_id,
      department_id: spec.department_id ?? null,
      ...(spec.created_at && { created_at: spec.created_at, updated_at: spec.created_at }),
    })
    .returning(['id', 'md5'])
    .executeTakeFirstOrThrow();
}

/** Puts a material's file bytes into the store under its `storage_key` (a createMaterial row with a real file). */
export async function putMaterialFile(db: Db, config: Config, materialId: number, bytes: Buffer, contentType: string) {
  const { storage_key } = await db.selectFrom('materials').select('storage_key').where('id', '=', materialId).executeTakeFirstOrThrow();
  const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ads-put-')), 'file');
  fs.writeFileSync(tmp, bytes);
  await createMaterialStorage(config.materials.storage).put(storage_key, tmp, { contentType, move: true });
}
