import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { formatMessage, hasBadChars, langFromHeader, MATERIAL_MIME_TYPES, MATERIAL_PATHS, MATERIAL_TUS_PATH, platformSchema, type ErrorKey, type Lang, type UploadResult } from '@ads/contracts';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, type Upload } from '@tus/server';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { MaterialsConfig } from '../../config.ts';
import { AppError } from '../../errors.ts';
import type { Actor, RequestContext } from '../../lib/actor.ts';
import { MediaRefusal } from './media.ts';
import type { MaterialService, UploadMeta } from './materials.service.ts';

// tus 1.0 (https://tus.io/protocols/resumable-upload) at /api/material/tus, served by @tus/server
// inside Fastify: the auth hook has already checked the Bearer token and the paths when a request
// reaches the handler below, which hands Node's raw request and response to the tus server. Bytes
// go straight from the socket to DATA_DIR/uploads/<id> (FileStore: the offset is the file's size,
// so an upload resumes after a restart); the last PATCH turns the file into a material.

/** An unfinished upload is dropped this long after it was created (Upload-Expires tells the client). */
export const UPLOAD_EXPIRY_MS = 7 * 24 * 3600 * 1000;

interface Caller {
  actor: Actor;
  lang: Lang;
  ip: string;
  requestId: string;
}

/** Why an upload is not taken: an HTTP status and a message of the catalogue. */
class UploadRefusal extends Error {
  constructor(
    readonly status: number,
    readonly key: ErrorKey,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
    this.name = 'UploadRefusal';
  }
}

/** A refusal in tus's shape: the status and a plain-text message in the caller's language. */
const refuse = (status: number, key: ErrorKey, lang: Lang, params: Record<string, unknown> = {}) => ({ status_code: status, body: `${formatMessage(key, lang, params)}\n` });

/** 1536 → "1.5 KiB", for messages. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 2 : 1).replace(/\.?0+$/, '')} ${units[u]}`;
}

const SHORT_TYPES = 'MP4, MOV, WebM, JPEG, PNG, WebP, GIF';
const TEXT_KEYS = ['filename', 'filetype', 'platform', 'language', 'tags', 'remark'] as const;
const ID_KEYS = ['drama_id', 'product_id', 'editor_id'] as const;

type MetaCheck = { ok: true; meta: UploadMeta; filetype: string } | { ok: false; status: number; key: ErrorKey; params: Record<string, unknown> };

/**
 * Upload-Metadata (already base64-decoded by tus) → UploadMeta. Required: filename, filetype (one
 * of MATERIAL_MIME_TYPES: the real type is checked again from the content at the end), platform.
 */
export function checkUploadMetadata(raw: Record<string, string | null> | undefined, lang: Lang): MetaCheck {
  const m = raw ?? {};
  const invalid = (field: string, reason: { zh: string; en: string }): MetaCheck => ({ ok: false, status: 400, key: 'UPLOAD_METADATA_INVALID', params: { field, reason: reason[lang] } });
  const missing = ['filename', 'filetype', 'platform'].filter((k) => !m[k]?.trim());
  if (missing.length) return { ok: false, status: 400, key: 'UPLOAD_METADATA_MISSING', params: { fields: missing.join(', ') } };
  for (const k of [...TEXT_KEYS, ...ID_KEYS]) {
    if ((m[k]?.length ?? 0) > 2000) return invalid(k, { zh: '过长', en: 'too long' });
    if (m[k] && hasBadChars(m[k])) return invalid(k, { zh: '不能包含 NUL 控制字符或无效的 Unicode 字符', en: 'must not contain NUL or invalid Unicode characters' });
  }
  // Browsers may send a path ("C:\fakepath\a.mp4"): keep the name.
  const fileName = m.filename!.trim().split(/[\\/]/).pop()!.trim();
  if (!fileName || fileName.length > 255) return invalid('filename', { zh: '应为 1–255 个字符的文件名', en: 'must be a file name of 1–255 characters' });
  const filetype = m.filetype!.trim().toLowerCase();
  if (!(MATERIAL_MIME_TYPES as readonly string[]).includes(filetype)) return { ok: false, status: 415, key: 'UPLOAD_TYPE_REFUSED', params: { type: filetype, accepted: SHORT_TYPES } };
  const platform = platformSchema.safeParse(m.platform!.trim());
  if (!platform.success) return invalid('platform', { zh: '应为 dj 或 ec', en: 'must be dj or ec' });
  const ids: Partial<Record<(typeof ID_KEYS)[number], number>> = {};
  for (const k of ID_KEYS) {
    const v = m[k]?.trim();
    if (!v) continue;
    if (!/^[1-9]\d{0,9}$/.test(v) || Number(v) > 2_147_483_647) return invalid(k, { zh: '应为正整数 ID', en: 'must be a positive integer id' });
    ids[k] = Number(v);
  }
  const language = m.language?.trim() || null;
  if (language !== null && (language.length < 2 || language.length > 16)) return invalid('language', { zh: '应为 2–16 个字符', en: 'must be 2–16 characters' });
  const tags = [...new Set((m.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean))];
  if (tags.length > 30 || tags.some((t) => t.length > 32)) return invalid('tags', { zh: '最多 30 个标签，每个最多 32 个字符', en: 'at most 30 tags of at most 32 characters' });
  const remark = m.remark?.trim() ?? '';
  if (remark.length > 500) return invalid('remark', { zh: '最多 500 个字符', en: 'at most 500 characters' });
  return {
    ok: true,
    filetype,
    meta: { file_name: fileName, platform: platform.data, drama_id: ids.drama_id ?? null, product_id: ids.product_id ?? null, editor_id: ids.editor_id ?? null, language, tags, remark },
  };
}

/** What is kept in the upload's .json: the checked metadata, and who uploads (set here, never by the client). */
function storedMetadata(meta: UploadMeta, filetype: string, uploaderId: number): Record<string, string> {
  return {
    filename: meta.file_name,
    filetype,
    platform: meta.platform,
    ...(meta.drama_id !== null && { drama_id: String(meta.drama_id) }),
    ...(meta.product_id !== null && { product_id: String(meta.product_id) }),
    ...(meta.editor_id !== null && { editor_id: String(meta.editor_id) }),
    ...(meta.language !== null && { language: meta.language }),
    ...(meta.tags.length && { tags: meta.tags.join(',') }),
    ...(meta.remark && { remark: meta.remark }),
    uploader_id: String(uploaderId),
  };
}

/** The Node request behind the web Request tus hands its hooks (srvx keeps it). */
function nodeRequestOf(req: unknown): IncomingMessage | undefined {
  const r = req as { runtime?: { node?: { req?: IncomingMessage } }; node?: { req?: IncomingMessage } };
  return r.runtime?.node?.req ?? r.node?.req;
}

export interface TusUploadsDeps {
  materials: MaterialService;
  config: MaterialsConfig;
  log: FastifyBaseLogger;
}

/** Removes an upload's bytes and its .json (tus's own remove stops at a file already moved away). */
async function discardUpload(dir: string, id: string) {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) return;
  await fsp.rm(path.join(dir, id), { force: true });
  await fsp.rm(path.join(dir, `${id}.json`), { force: true });
}

/** What a user's unfinished uploads hold: how many, and the bytes they announced (Upload-Length). */
export interface OpenUploads {
  count: number;
  bytes: number;
}

/**
 * The unfinished uploads of a user, read from the upload dir (the one place that knows them all,
 * across restarts). Uploads tus already treats as expired do not count: they cannot go on.
 */
export async function openUploadsOf(config: MaterialsConfig, userId: number, store: FileStore): Promise<OpenUploads> {
  const open: OpenUploads = { count: 0, bytes: 0 };
  const names = await fsp.readdir(config.uploadDir).catch(() => [] as string[]);
  // Real time, as tus's own expiry check uses it (creation dates are written by tus).
  const now = Date.now();
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const id = name.slice(0, -'.json'.length);
    const info = await store.configstore.get(id);
    if (info?.metadata?.uploader_id !== String(userId)) continue;
    // A .json whose bytes are gone is what a crash while finishing leaves: nothing that can go on.
    if (!fs.existsSync(path.join(config.uploadDir, id))) continue;
    const created = info.creation_date ? Date.parse(info.creation_date) : NaN;
    if (Number.isFinite(created) && now - created > UPLOAD_EXPIRY_MS) continue;
    open.count++;
    open.bytes += info.size ?? 0;
  }
  return open;
}

/** Free bytes for unprivileged users on the disk that holds `dir`. */
async function freeBytes(dir: string): Promise<number> {
  const fsStat = await fsp.statfs(dir);
  return fsStat.bavail * fsStat.bsize;
}

/**
 * Drops unfinished uploads past UPLOAD_EXPIRY_MS and stray scratch files (a crash mid-finish).
 * Answers how many uploads were removed.
 */
export async function deleteExpiredUploads(config: MaterialsConfig, now: Date): Promise<number> {
  if (!fs.existsSync(config.uploadDir)) return 0;
  const store = new FileStore({ directory: config.uploadDir, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  let removed = 0;
  // Every upload id in the dir, from its bytes or its .json: either may be left without the other.
  const names = await fsp.readdir(config.uploadDir);
  const ids = new Set(names.filter((n) => !n.startsWith('.')).map((n) => (n.endsWith('.json') ? n.slice(0, -'.json'.length) : n)));
  for (const name of ids) {
    const info = await store.configstore.get(name);
    const created = info?.creation_date ? Date.parse(info.creation_date) : NaN;
    const stat = (await fsp.stat(path.join(config.uploadDir, name)).catch(() => null)) ?? (await fsp.stat(path.join(config.uploadDir, `${name}.json`)).catch(() => null));
    // An upload without its .json (or a .json without its bytes) cannot resume either.
    const old = Number.isFinite(created) ? now.getTime() - created > UPLOAD_EXPIRY_MS : stat !== null && now.getTime() - stat.mtimeMs > UPLOAD_EXPIRY_MS;
    if (old) {
      await discardUpload(config.uploadDir, name);
      removed++;
    }
  }
  const work = path.join(config.uploadDir, '.work');
  for (const name of fs.existsSync(work) ? await fsp.readdir(work) : []) {
    const stat = await fsp.stat(path.join(work, name)).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > 24 * 3600 * 1000) await fsp.rm(path.join(work, name), { force: true });
  }
  return removed;
}

/** The tus endpoint and what the rest of the feature asks of unfinished uploads. */
export function createTusUploads({ materials, config, log }: TusUploadsDeps) {
  const dir = config.uploadDir;
  const callers = new WeakMap<IncomingMessage, Caller>();
  let tus: { server: Server; store: FileStore } | undefined;

  /** Uploads being turned into materials: the last PATCH and /materials/upload_result may both find one complete. */
  const finishing = new Map<string, Promise<UploadResult>>();
  function finish(caller: Caller, upload: Upload): Promise<UploadResult> {
    let run = finishing.get(upload.id);
    if (!run) {
      run = ingestUpload(caller, upload).finally(() => finishing.delete(upload.id));
      finishing.set(upload.id, run);
    }
    return run;
  }
  /**
   * Turns a complete upload into a material (or a duplicate's answer) and discards the upload,
   * whatever the outcome: a material's file has moved to storage, a refused file is gone.
   */
  async function ingestUpload(caller: Caller, upload: Upload): Promise<UploadResult> {
    try {
      const checked = checkUploadMetadata(upload.metadata, caller.lang);
      if (!checked.ok) throw new UploadRefusal(checked.status, checked.key, checked.params);
      return await materials.ingest(
        { actor: caller.actor, ip: caller.ip, requestId: caller.requestId },
        { id: upload.id, file: path.join(dir, upload.id), size: upload.size!, meta: checked.meta },
      );
    } catch (err) {
      if (err instanceof UploadRefusal) throw err;
      if (err instanceof MediaRefusal) {
        if (err.reason === 'type') {
          const detected = err.detail === 'text' ? 'text/plain' : err.detail === 'unknown' ? (caller.lang === 'zh' ? '无法识别的格式' : 'an unrecognised format') : err.detail;
          throw new UploadRefusal(415, 'UPLOAD_CONTENT_REFUSED', { detected });
        }
        if (err.reason === 'timeout') throw new UploadRefusal(422, 'UPLOAD_CHECK_TIMEOUT', { seconds: err.detail });
        throw new UploadRefusal(422, 'UPLOAD_CORRUPT', { reason: err.detail });
      }
      log.error({ err, uploadId: upload.id }, 'material upload could not be processed');
      throw new UploadRefusal(500, 'UPLOAD_PROCESSING_FAILED');
    } finally {
      await discardUpload(dir, upload.id);
    }
  }

  const callerOf = (req: unknown): Caller => {
    const raw = nodeRequestOf(req);
    const caller = raw && callers.get(raw);
    // Every request reaches tus through the route below, after the auth hook: a missing caller is a bug.
    if (!caller) throw { status_code: 500, body: 'upload request without a caller\n' };
    return caller;
  };

  /** The tus server, made on first use (so building the app touches no disk). */
  function tusServer() {
    if (tus) return tus;
    fs.mkdirSync(dir, { recursive: true });
    const store = new FileStore({ directory: dir, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
    const server = new Server({
      path: MATERIAL_TUS_PATH,
      datastore: store,
      // Location `/api/material/tus/<id>`: right behind any proxy, resolved by clients against the endpoint.
      relativeLocation: true,
      // Advertised as Tus-Max-Size; creation above it is refused (onResponseError words it).
      maxSize: config.maxBytes,
      // An upload belongs to whoever created it: anyone else is told it does not exist.
      async onIncomingRequest(req, id) {
        if (req.method === 'POST') return;
        const caller = callerOf(req);
        const info = await store.configstore.get(id);
        if (!info || info.metadata?.uploader_id !== String(caller.actor.id)) throw refuse(404, 'UPLOAD_NOT_FOUND', caller.lang);
      },
      async onUploadCreate(req, upload) {
        const { actor, lang } = callerOf(req);
        if (upload.sizeIsDeferred) throw refuse(400, 'UPLOAD_LENGTH_REQUIRED', lang);
        if (upload.size === 0) throw refuse(400, 'UPLOAD_EMPTY', lang);
        if (upload.size! > config.maxBytes) throw refuse(413, 'UPLOAD_TOO_LARGE', lang, { size: formatBytes(upload.size!), max: formatBytes(config.maxBytes) });
        const checked = checkUploadMetadata(upload.metadata, lang);
        if (!checked.ok) throw refuse(checked.status, checked.key, lang, checked.params);
        try {
          await materials.assertUploadRefs(checked.meta);
        } catch (err) {
          if (err instanceof AppError) throw refuse(400, 'UPLOAD_METADATA_INVALID', lang, { field: err.field ?? '', reason: formatMessage(err.key, lang, err.params) });
          throw err;
        }
        // Quotas: unfinished uploads per user (count and announced bytes), and room left on the disk.
        // Checked here, one creation per user at a time (see the route), so parallel requests cannot all pass.
        const open = await openUploadsOf(config, actor.id, store);
        if (open.count >= config.maxOpenUploads) throw refuse(429, 'UPLOAD_TOO_MANY_OPEN', lang, { count: open.count, max: config.maxOpenUploads });
        if (open.bytes + upload.size! > config.maxReservedBytes) {
          throw refuse(429, 'UPLOAD_QUOTA_EXCEEDED', lang, { reserved: formatBytes(open.bytes), size: formatBytes(upload.size!), max: formatBytes(config.maxReservedBytes) });
        }
        const free = await freeBytes(dir);
        if (free - upload.size! < config.minFreeBytes) throw refuse(507, 'UPLOAD_DISK_FULL', lang, { free: formatBytes(free), size: formatBytes(upload.size!) });
        return { metadata: storedMetadata(checked.meta, checked.filetype, actor.id) };
      },
      async onUploadFinish(req, upload) {
        const caller = callerOf(req);
        try {
          await finish(caller, upload);
          // tus 1.0 acknowledges every PATCH with 204 and no body (some clients check it); the result is at /materials/upload_result.
          return { headers: { 'Cache-Control': 'no-store' } };
        } catch (err) {
          if (err instanceof UploadRefusal) throw refuse(err.status, err.key, caller.lang, err.params);
          throw err;
        }
      },
      onResponseError(req, err) {
        const lang = langFromHeader(req.headers.get('accept-language') ?? undefined);
        if (err === ERRORS.ERR_MAX_SIZE_EXCEEDED) {
          return refuse(413, 'UPLOAD_TOO_LARGE', lang, { size: formatBytes(Number(req.headers.get('upload-length'))), max: formatBytes(config.maxBytes) });
        }
        if (err === ERRORS.INVALID_LENGTH) return refuse(400, 'UPLOAD_LENGTH_REQUIRED', lang);
        // tus-node-server answers these malformed requests with 403; here 403 means "not allowed" only.
        if (err === ERRORS.MISSING_OFFSET || err === ERRORS.INVALID_CONTENT_TYPE) return { status_code: 400, body: err.body };
        if (err === ERRORS.FILE_NOT_FOUND || err === ERRORS.FILE_NO_LONGER_EXISTS) return refuse(err.status_code, 'UPLOAD_NOT_FOUND', lang);
        if (err instanceof Error) log.error({ err }, 'tus request failed');
        return undefined;
      },
    });
    tus = { server, store };
    return tus;
  }

  /** Creations of one user run one after another: the quota check and the file it counts are then in step. */
  const creating = new Map<number, Promise<unknown>>();
  async function oneCreationAtATime<T>(userId: number, create: () => Promise<T>): Promise<T> {
    const before = creating.get(userId) ?? Promise.resolve();
    const mine = before.then(create, create);
    const tail = mine.catch(() => undefined);
    creating.set(userId, tail);
    try {
      return await mine;
    } finally {
      if (creating.get(userId) === tail) creating.delete(userId);
    }
  }

  const routes: FastifyPluginAsync = async (app) => {
    // The body is tus's to read, as a stream: nothing may buffer or parse it first.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      const actor = req.actor!;
      const id = (req.params as { id?: string }).id;
      // Finished uploads leave tus; HEAD still says "complete" to their owner, so a client that lost
      // the last answer ends cleanly (and asks /materials/upload_result).
      if (req.method === 'HEAD' && id) {
        const done = await materials.finishedUpload(id, actor.id);
        if (done) {
          return reply
            .status(200)
            .headers({ 'tus-resumable': '1.0.0', 'upload-offset': String(done.size), 'upload-length': String(done.size), 'cache-control': 'no-store' })
            .send();
        }
      }
      callers.set(req.raw, { actor, lang: req.lang, ip: req.ip, requestId: String(req.id) });
      reply.hijack();
      try {
        const serve = () => tusServer().server.handle(req.raw, reply.raw);
        await (req.method === 'POST' ? oneCreationAtATime(actor.id, serve) : serve());
      } catch (err) {
        log.error({ err }, 'tus handler failed');
        if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${formatMessage('INTERNAL', req.lang)}\n`);
        else reply.raw.destroy();
      }
    };

    const config = { paths: MATERIAL_PATHS, binary: true };
    const schema = { tags: ['materials'], hide: true };
    app.route({ method: ['POST', 'OPTIONS'], url: '/material/tus', schema, config, handler: handle });
    app.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: '/material/tus/:id', schema, config, handler: handle });
  };

  return {
    routes,
    /**
     * An upload of this caller still in tus: the bytes received so far, or — when all arrived but
     * the server stopped before turning them into a material — the result of doing that now. Null
     * when there is none. Refusals are AppErrors with the upload's reason.
     */
    async pending(uploadId: string, ctx: RequestContext): Promise<{ offset: number; size: number } | { result: UploadResult } | null> {
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(uploadId) || !fs.existsSync(path.join(dir, `${uploadId}.json`))) return null;
      let upload: Upload;
      try {
        upload = await tusServer().store.getUpload(uploadId);
      } catch {
        return null;
      }
      if (upload.metadata?.uploader_id !== String(ctx.actor.id)) return null;
      if (upload.size === undefined || upload.offset < upload.size) return { offset: upload.offset, size: upload.size ?? 0 };
      try {
        return { result: await finish({ actor: ctx.actor, lang: ctx.lang, ip: ctx.ip, requestId: ctx.requestId }, upload) };
      } catch (err) {
        if (err instanceof UploadRefusal) throw new AppError(err.key, err.params);
        throw err;
      }
    },
  };
}
