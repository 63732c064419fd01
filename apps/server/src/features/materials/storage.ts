import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { MaterialStorageConfig } from '../../config.ts';

/**
 * Where material files and thumbnails live: local disk under DATA_DIR/materials (the default) or
 * an S3-compatible bucket (MATERIAL_STORAGE=s3). Keys are relative paths such as
 * `ab/abcdef…-x1y2.mp4`; callers never see where the bytes really are.
 */
export interface MaterialStorage {
  readonly kind: 'local' | 's3';
  /** Stores the file at `from` under `key`. With `move`, a local store may rename instead of copying: the source is gone afterwards either way. */
  put(key: string, from: string, opts: { contentType: string; move?: boolean }): Promise<void>;
  /** The object's bytes, or the inclusive range [start, end] of them. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Size in bytes, or null when there is no such object. */
  stat(key: string): Promise<{ size: number } | null>;
  exists(key: string): Promise<boolean>;
}

/** Keys are ours (md5 + random suffix), but a store never follows one outside its root. */
function assertKey(key: string) {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/.test(key) || key.split('/').some((p) => p === '..' || p === '.' || p === '')) throw new Error(`invalid storage key: ${key}`);
}

/** Files under `dir`, written through a temp name and renamed, so a crash never leaves half an object under a real key. */
export function createLocalStorage(dir: string): MaterialStorage {
  const resolve = (key: string) => {
    assertKey(key);
    return path.join(dir, key);
  };
  const stat = async (key: string) => {
    try {
      const s = await fsp.stat(resolve(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  return {
    kind: 'local',
    async put(key, from, opts) {
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.part-${process.pid}-${Date.now()}`;
      try {
        if (opts.move) {
          try {
            // Same file system (DATA_DIR/uploads → DATA_DIR/materials): instant, whatever the size.
            await fsp.rename(from, target);
            return;
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
          }
        }
        await fsp.copyFile(from, temp);
        await fsp.rename(temp, target);
        if (opts.move) await fsp.rm(from, { force: true });
      } catch (err) {
        await fsp.rm(temp, { force: true });
        throw err;
      }
    },
    async read(key, range) {
      const file = resolve(key);
      // Open first, so a missing file rejects here instead of erroring mid-response.
      const handle = await fsp.open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async delete(key) {
      await fsp.rm(resolve(key), { force: true });
    },
    stat,
    async exists(key) {
      return (await stat(key)) !== null;
    },
  };
}

/**
 * An S3-compatible bucket (AWS, MinIO, R2, …) through @aws-sdk/client-s3, loaded on first use so
 * installations on local disk never load it. Checksums are sent only when an operation requires
 * them: several S3-compatible servers do not understand the SDK's aws-chunked streaming checksums.
 */
export function createS3Storage(cfg: Extract<MaterialStorageConfig, { kind: 's3' }>): MaterialStorage {
  let loaded: Promise<{ client: S3Sdk.S3Client; sdk: typeof S3Sdk }> | undefined;
  const load = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: cfg.region,
        ...(cfg.endpoint && { endpoint: cfg.endpoint }),
        forcePathStyle: cfg.forcePathStyle,
        ...(cfg.accessKeyId && cfg.secretAccessKey && { credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } }),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  const Bucket = cfg.bucket;
  const isMissing = (err: unknown) => {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
  };
  const stat = async (key: string) => {
    assertKey(key);
    const { client, sdk } = await load();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };
  return {
    kind: 's3',
    async put(key, from, opts) {
      assertKey(key);
      const { client, sdk } = await load();
      const { size } = await fsp.stat(from);
      // One PUT streams up to 5 GB, more than MATERIAL_MAX_BYTES allows by default.
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: fs.createReadStream(from), ContentLength: size, ContentType: opts.contentType }));
      if (opts.move) await fsp.rm(from, { force: true });
    },
    async read(key, range) {
      assertKey(key);
      const { client, sdk } = await load();
      const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key, ...(range && { Range: `bytes=${range.start}-${range.end}` }) }));
      if (!(out.Body instanceof Readable)) throw new Error('S3 answered a body that is not a Node stream');
      return out.Body;
    },
    async delete(key) {
      assertKey(key);
      const { client, sdk } = await load();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    stat,
    async exists(key) {
      return (await stat(key)) !== null;
    },
  };
}

export function createMaterialStorage(cfg: MaterialStorageConfig): MaterialStorage {
  return cfg.kind === 's3' ? createS3Storage(cfg) : createLocalStorage(cfg.dir);
}

/** Reads [start, end) of an object into memory (video chunks for the platform: a few MiB). */
export async function readBytes(storage: MaterialStorage, key: string, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const stream = await storage.read(key, { start, end: end - 1 });
  const chunks: Buffer[] = [];
  await pipeline(stream, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) chunks.push(chunk);
  });
  const data = Buffer.concat(chunks);
  if (data.length !== end - start) throw new Error(`storage returned ${data.length} bytes for ${key} [${start}, ${end})`);
  return data;
}
