import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  both,
  IS_ADMIN_MANAGER,
  IS_ADMIN_SUPER,
  type BatchEditMaterialsBody,
  type Bilingual,
  type ErrorKey,
  type EditMaterialBody,
  type ListMaterialsBody,
  type Lang,
  type ListPushesBody,
  type Material,
  type MaterialFacets,
  type MaterialPush,
  type Platform,
  type PushMaterialsBody,
  type PushMaterialsResult,
  type RetryPushesBody,
  type UploadResult,
} from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { MaterialPushState } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UrlSigner } from '../../lib/signed-url.ts';
import { assertWithin, departmentSubtree, visibleAdAccountIds, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import { isUniqueViolation } from '../../lib/sql.ts';
import { writeAudit, type AuditContext } from '../audit/audit.service.ts';
import { isThumbnailSized, md5File, sniff, type MediaTools } from './media.ts';
import {
  editorExists,
  existingAdAccountIds,
  existingPushIds,
  findMaterialByMd5,
  findMaterials,
  findPushes,
  findUpload,
  insertMaterial,
  insertPushes,
  listMaterials,
  listPushes,
  liveDramaExists,
  liveMaterialIds,
  liveMaterialWithMd5,
  liveProductExists,
  materialFacets,
  materialsByIds,
  pushesTo,
  materialFile,
  recordUpload,
  requeueFailedPushes,
  softDeleteMaterials,
  stampPushTask,
  updateMaterial,
  insertMissingPushes,
  insertUsages,
  materialFiles,
  pushesOfPairs,
  updatePush,
  type MaterialListRow,
  type MaterialScope,
} from './materials.repository.ts';
import { createMaterialStorage, readBytes, type MaterialStorage } from './storage.ts';

/** The job that uploads materials to ad accounts (materials.jobs.ts). */
export const PUSH_JOB = 'push-materials';
/**
 * Pushes run per person: one person's push tasks run one after the other, different people's at
 * once (jobs/README.md, per-key concurrency). Each push row belongs to the one task stamped on it,
 * so two tasks never upload the same material to the same ad account.
 */
export const pushKey = (userId: number) => `pusher:${userId}`;
/** Pairs (materials × ad accounts) one push may queue. */
export const MAX_PUSH_PAIRS = 10_000;

/** URL paths of a material's file and thumbnail (signed: lib/signed-url.ts). */
export const fileUrlPath = (id: number) => `/api/material/file/${id}`;
export const thumbUrlPath = (id: number) => `/api/material/thumb/${id}`;

/** What an upload's metadata says about the file, checked (tus.ts parses Upload-Metadata into this). */
export interface UploadMeta {
  file_name: string;
  platform: Platform;
  drama_id: number | null;
  product_id: number | null;
  language: string | null;
  editor_id: number | null;
  tags: string[];
  remark: string;
}

/** Who uploads: the request's actor and context (audit). */
export interface Uploader {
  actor: ScopeActor & { account: string };
  ip: string | null;
  requestId: string | null;
}

export interface MaterialServiceDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  storage: MaterialStorage;
  /** ffprobe / ffmpeg under their limits (media.ts). */
  media: MediaTools;
  signer: UrlSigner;
  /** The reporting time zone of date filters. */
  reportTimezone: string;
  /** Scratch space for thumbnails, on the disk of the uploads. */
  workDir: string;
  log: { warn(obj: object, msg?: string): void };
}

const seesAll = (a: ScopeActor) => a.is_admin === IS_ADMIN_MANAGER || a.is_admin === IS_ADMIN_SUPER;

/** What the audit log keeps of a material's editable fields. */
const auditView = (m: Pick<MaterialListRow, 'file_name' | 'drama_id' | 'product_id' | 'language' | 'editor_id' | 'tags' | 'remark'>) => ({
  file_name: m.file_name,
  drama_id: m.drama_id,
  product_id: m.product_id,
  language: m.language,
  editor_id: m.editor_id,
  tags: m.tags,
  remark: m.remark,
});

/** Materials (素材管理): the library in the caller's scope, uploads' results, edits, deletes and pushes. */
export function createMaterialService({ db, clock, jobs, storage, media, signer, reportTimezone, workDir, log }: MaterialServiceDeps) {
  /**
   * Managers (and the read-only super admin) see everything. Leaders: their department and the
   * departments below, and what its people uploaded or edited. Staff: their department, and what
   * they uploaded, edited (as editor) or uploaded again as a duplicate.
   */
  async function scopeOf(actor: ScopeActor): Promise<MaterialScope> {
    const accounts = await visibleAdAccountIds(db, actor);
    if (seesAll(actor)) return { all: true, userId: actor.id, departments: [], users: [], accounts };
    if (actor.is_leader === 1) {
      const departments = actor.department_id ? await departmentSubtree(db, actor.department_id) : [];
      return { all: false, userId: actor.id, departments, users: (await visibleUserIds(db, actor)) ?? [actor.id], accounts };
    }
    return { all: false, userId: actor.id, departments: actor.department_id ? [actor.department_id] : [], users: [actor.id], accounts };
  }

  async function toMaterial(r: MaterialListRow): Promise<Material> {
    return {
      id: r.id,
      kind: r.kind,
      platform: r.platform,
      file_name: r.file_name,
      mime_type: r.mime_type,
      size_bytes: Number(r.size_bytes),
      md5: r.md5,
      duration_s: r.duration_s === null ? null : Number(r.duration_s),
      width: r.width,
      height: r.height,
      thumbnail_url: r.thumb_key ? await signer.sign(thumbUrlPath(r.id)) : null,
      file_url: await signer.sign(fileUrlPath(r.id)),
      drama: r.drama_id !== null ? { id: r.drama_id, name: r.drama_name ?? '' } : null,
      product: r.product_id !== null ? { id: r.product_id, name: r.product_name ?? '' } : null,
      language: r.language,
      editor: r.editor_id !== null ? { id: r.editor_id, name: r.editor_name ?? '' } : null,
      tags: r.tags,
      remark: r.remark,
      uploader: { id: r.uploader_id, name: r.uploader_name },
      department: r.department_id !== null ? { id: r.department_id, name: r.department_name ?? '' } : null,
      push_counts: r.push_counts ?? { pending: 0, uploading: 0, processing: 0, ready: 0, failed: 0 },
      ads_using: Number(r.ads_using),
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  }

  /** The super admin reads the library but changes nothing in it. */
  function assertWritable(actor: ScopeActor) {
    if (actor.is_admin === IS_ADMIN_SUPER) throw new AppError('MATERIAL_READ_ONLY');
  }

  /**
   * Live materials by id: unknown or deleted ids are "not found", ones outside the scope 403. To
   * change them (`write`), seeing a material only because one uploaded a copy of it is not enough:
   * it stays its department's.
   */
  async function loadVisible(actor: ScopeActor, ids: readonly number[], opts: { write?: boolean; lang?: Lang } = {}) {
    const unique = [...new Set(ids)];
    const live = await liveMaterialIds(db, unique);
    if (live.length !== unique.length) throw new AppError('MATERIAL_NOT_FOUND');
    const scope = await scopeOf(actor);
    const rows = await findMaterials(db, unique, scope);
    if (rows.length !== unique.length) throw new AppError('FORBIDDEN_SCOPE');
    if (opts.write && !scope.all) {
      const writable = new Set((await findMaterials(db, unique, { ...scope, duplicates: false })).map((r) => r.id));
      const copies = rows.filter((r) => !writable.has(r.id));
      if (copies.length) throw new AppError('MATERIAL_NOT_EDITABLE', { name: copies.map((r) => r.file_name).join(opts.lang === 'zh' ? '」、「' : '", "') });
    }
    return { rows, scope };
  }

  async function getOne(actor: ScopeActor, id: number): Promise<Material> {
    const { rows } = await loadVisible(actor, [id]);
    return toMaterial(rows[0]!);
  }

  /** Drama, product and editor exist, and fit the material's platform (dramas for dj, products for ec). */
  async function assertRefs(platform: Platform, refs: { drama_id?: number | null; product_id?: number | null; editor_id?: number | null }) {
    if (refs.drama_id != null) {
      if (platform !== 'dj') throw new AppError('MATERIAL_DRAMA_PLATFORM', {}, 'drama_id');
      if (!(await liveDramaExists(db, refs.drama_id))) throw new AppError('DRAMA_NOT_FOUND', {}, 'drama_id');
    }
    if (refs.product_id != null) {
      if (platform !== 'ec') throw new AppError('MATERIAL_PRODUCT_PLATFORM', {}, 'product_id');
      if (!(await liveProductExists(db, refs.product_id))) throw new AppError('PRODUCT_NOT_FOUND', {}, 'product_id');
    }
    if (refs.editor_id != null) {
      if (!(await editorExists(db, refs.editor_id))) throw new AppError('MATERIAL_EDITOR_NOT_FOUND', {}, 'editor_id');
    }
  }

  /** Queues the push job for these pushes inside `trx` and stamps them with its task id. */
  async function queuePushes(trx: Db, pushIds: number[], createdBy: number): Promise<number | null> {
    if (!pushIds.length) return null;
    const taskId = await jobs.enqueue(PUSH_JOB, { push_ids: pushIds }, { createdBy, trx, key: pushKey(createdBy) });
    await stampPushTask(trx, pushIds, taskId);
    return taskId;
  }

  /** Removes stored objects, logging (not throwing) failures: the rows no longer point at them. */
  async function removeObjects(keys: readonly (string | null)[]) {
    for (const key of new Set(keys.filter((k): k is string => Boolean(k)))) {
      await storage.delete(key).catch((err: unknown) => log.warn({ err, key }, 'material file could not be removed from storage'));
    }
  }

  return {
    scopeOf,

    /** The library list; `ids` (for publishing) narrows it to those materials. */
    async list(ctx: RequestContext, body: ListMaterialsBody & { ids?: readonly number[] }): Promise<{ list: Material[]; total: number }> {
      const { rows, total } = await listMaterials(db, body, await scopeOf(ctx.actor), reportTimezone);
      return { list: await Promise.all(rows.map(toMaterial)), total };
    },

    get: (ctx: RequestContext, id: number) => getOne(ctx.actor, id),

    /** Publishing: the live materials among `ids` the actor sees in the library, with what a scheme reads of them. */
    async visibleForPublish(actor: ScopeActor, ids: readonly number[]) {
      const rows = await findMaterials(db, [...new Set(ids)], await scopeOf(actor));
      return rows.map((r) => ({ id: r.id, kind: r.kind, platform: r.platform, file_name: r.file_name, has_thumb: r.thumb_key !== null, drama_id: r.drama_id, product_id: r.product_id, editor: r.editor_name ?? null }));
    },

    async facets(ctx: RequestContext, platform: Platform | undefined): Promise<MaterialFacets> {
      return materialFacets(db, platform, await scopeOf(ctx.actor));
    },

    async edit(ctx: RequestContext, body: EditMaterialBody): Promise<Material> {
      assertWritable(ctx.actor);
      const { rows } = await loadVisible(ctx.actor, [body.id], { write: true, lang: ctx.lang });
      const row = rows[0]!;
      await assertRefs(row.platform, body);
      const changes = {
        ...(body.file_name !== undefined && { file_name: body.file_name }),
        ...(body.drama_id !== undefined && { drama_id: body.drama_id }),
        ...(body.product_id !== undefined && { product_id: body.product_id }),
        ...(body.language !== undefined && { language: body.language }),
        ...(body.editor_id !== undefined && { editor_id: body.editor_id }),
        ...(body.tags !== undefined && { tags: [...new Set(body.tags)] }),
        ...(body.remark !== undefined && { remark: body.remark }),
      };
      await db.transaction().execute(async (trx) => {
        await updateMaterial(trx, row.id, { ...changes, updated_at: clock.now() });
        await writeAudit(trx, ctx, { action: 'material.edit', entity_type: 'material', entity_id: row.id, before: auditView(row), after: auditView({ ...row, ...changes }) });
      });
      return getOne(ctx.actor, row.id);
    },

    /** The same fields for many; tags are added (default), replaced or removed per `tags_mode`. */
    async batchEdit(ctx: RequestContext, body: BatchEditMaterialsBody): Promise<{ updated: number }> {
      assertWritable(ctx.actor);
      const { rows } = await loadVisible(ctx.actor, body.ids, { write: true, lang: ctx.lang });
      for (const platform of new Set(rows.map((r) => r.platform))) await assertRefs(platform, body);
      const mode = body.tags_mode ?? 'add';
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          let tags = row.tags;
          if (body.tags !== undefined) {
            if (mode === 'replace') tags = [...new Set(body.tags)];
            else if (mode === 'add') tags = [...new Set([...row.tags, ...body.tags])];
            else tags = row.tags.filter((t) => !body.tags!.includes(t));
          }
          const changes = {
            ...(body.drama_id !== undefined && { drama_id: body.drama_id }),
            ...(body.product_id !== undefined && { product_id: body.product_id }),
            ...(body.language !== undefined && { language: body.language }),
            ...(body.editor_id !== undefined && { editor_id: body.editor_id }),
            ...(body.tags !== undefined && { tags }),
            ...(body.remark !== undefined && { remark: body.remark }),
          };
          await updateMaterial(trx, row.id, { ...changes, updated_at: clock.now() });
          await writeAudit(trx, ctx, { action: 'material.batch_edit', entity_type: 'material', entity_id: row.id, before: auditView(row), after: auditView({ ...row, ...changes }) });
        }
      });
      return { updated: rows.length };
    },

    /**
     * Deletes materials no ad uses (all or none: the refusal names every one in use). Staff delete
     * only what they uploaded; leaders and managers anything in their scope. The rows stay for the
     * history of pushes (soft delete); the files leave storage at once.
     */
    async remove(ctx: RequestContext, ids: number[]): Promise<{ deleted: number }> {
      assertWritable(ctx.actor);
      const { rows } = await loadVisible(ctx.actor, ids, { write: true, lang: ctx.lang });
      if (!seesAll(ctx.actor) && ctx.actor.is_leader !== 1) {
        const others = rows.filter((r) => r.uploader_id !== ctx.actor.id);
        if (others.length) throw new AppError('MATERIAL_DELETE_NOT_OWNER', { list: others.map((r) => r.file_name).join('、') });
      }
      const inUse = rows.filter((r) => Number(r.ads_using) > 0);
      if (inUse.length) {
        const list = inUse.map((r) => (ctx.lang === 'zh' ? `${r.file_name}（${r.ads_using} 个广告）` : `${r.file_name} (${r.ads_using} ads)`)).join(ctx.lang === 'zh' ? '、' : ', ');
        throw new AppError('MATERIAL_IN_USE', { list });
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const ids = rows.map((r) => r.id);
        await softDeleteMaterials(trx, ids, now);
        for (const r of rows) {
          await writeAudit(trx, ctx, { action: 'material.delete', entity_type: 'material', entity_id: r.id, before: { ...auditView(r), md5: r.md5, size_bytes: Number(r.size_bytes) } });
        }
      });
      await removeObjects(rows.flatMap((r) => [r.storage_key, r.thumb_key]));
      return { deleted: rows.length };
    },

    async checkHash(ctx: RequestContext, md5: string): Promise<{ material: Material | null }> {
      const row = await findMaterialByMd5(db, md5, await scopeOf(ctx.actor));
      return { material: row ? await toMaterial(row) : null };
    },

    /**
     * The result of a finished upload of the caller's. `pending` looks at uploads still in tus: one
     * still receiving bytes is "in progress"; a complete one the server had no time to process is processed now.
     */
    async uploadResult(ctx: RequestContext, uploadId: string, pending: () => Promise<{ offset: number; size: number } | { result: UploadResult } | null>): Promise<UploadResult> {
      const rec = await findUpload(db, uploadId, ctx.actor.id);
      if (!rec) {
        const found = await pending();
        if (found && 'result' in found) return found.result;
        if (found) throw new AppError('UPLOAD_IN_PROGRESS', { received: found.offset, total: found.size });
        throw new AppError('UPLOAD_NOT_FOUND');
      }
      const rows = await findMaterials(db, [rec.material_id], await scopeOf(ctx.actor));
      if (!rows[0]) throw new AppError('MATERIAL_NOT_FOUND');
      return { status: rec.status, material: await toMaterial(rows[0]) };
    },

    /** The size of a finished upload of this user (HEAD answers it once the tus file is gone). */
    async finishedUpload(uploadId: string, userId: number): Promise<{ size: number } | null> {
      const rec = await findUpload(db, uploadId, userId);
      return rec ? { size: Number(rec.size_bytes) } : null;
    },

    /** Checks the references an upload's metadata names (tus creation). */
    assertUploadRefs: (meta: UploadMeta) => assertRefs(meta.platform, meta),

    /**
     * Turns a finished upload into a material: the type from the content, the MD5 (an existing
     * material with it makes this a duplicate), the probe, a thumbnail, the move into storage and
     * the row, in that order. Throws MediaRefusal for a file the library does not take; the caller
     * discards the upload either way (the file is gone from `file` after a success).
     */
    async ingest(who: Uploader, upload: { id: string; file: string; size: number; meta: UploadMeta }, signal?: AbortSignal): Promise<UploadResult> {
      const audit: AuditContext = { actor: who.actor, ip: who.ip, requestId: who.requestId };
      const sniffed = await sniff(upload.file);
      const md5 = await md5File(upload.file);

      const duplicate = async (materialId: number): Promise<UploadResult> => {
        await recordUpload(db, { id: upload.id, user_id: who.actor.id, material_id: materialId, status: 'duplicate', size_bytes: upload.size, created_at: clock.now() }, { ignoreExisting: true });
        const rows = await findMaterials(db, [materialId], await scopeOf(who.actor));
        return { status: 'duplicate', material: await toMaterial(rows[0]!) };
      };
      const existing = await liveMaterialWithMd5(db, md5);
      if (existing) return duplicate(existing.id);

      const info = await media.probe(upload.file, sniffed, signal);
      const stem = `${md5.slice(0, 2)}/${md5}-${randomBytes(4).toString('hex')}`;
      const key = `${stem}.${sniffed.ext}`;
      let thumbKey: string | null = null;
      const stored: string[] = [];
      await fsp.mkdir(workDir, { recursive: true });
      const thumbFile = path.join(workDir, `${upload.id}.thumb.jpg`);
      try {
        if (sniffed.kind === 'image' && isThumbnailSized(info)) thumbKey = key;
        else if (await media.makeThumbnail(upload.file, thumbFile, { ...info, kind: sniffed.kind, mime: sniffed.mime }, signal)) {
          thumbKey = `${stem}.thumb.jpg`;
          await storage.put(thumbKey, thumbFile, { contentType: 'image/jpeg', move: true });
          stored.push(thumbKey);
        }
        await storage.put(key, upload.file, { contentType: sniffed.mime, move: true });
        stored.push(key);
      } catch (err) {
        await removeObjects(stored);
        throw err;
      } finally {
        await fsp.rm(thumbFile, { force: true });
      }

      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          const now = clock.now();
          const row = await insertMaterial(trx, {
            kind: sniffed.kind,
            platform: upload.meta.platform,
            file_name: upload.meta.file_name,
            mime_type: sniffed.mime,
            size_bytes: upload.size,
            md5,
            duration_s: info.durationS,
            width: info.width,
            height: info.height,
            storage_key: key,
            thumb_key: thumbKey,
            drama_id: upload.meta.drama_id,
            product_id: upload.meta.product_id,
            language: upload.meta.language,
            editor_id: upload.meta.editor_id,
            tags: upload.meta.tags,
            remark: upload.meta.remark,
            uploader_id: who.actor.id,
            department_id: who.actor.department_id,
            created_at: now,
            updated_at: now,
            });
          await recordUpload(trx, { id: upload.id, user_id: who.actor.id, material_id: row.id, status: 'created', size_bytes: upload.size, created_at: now });
          await writeAudit(trx, audit, {
            action: 'material.create',
            entity_type: 'material',
            entity_id: row.id,
            after: { ...auditView({ ...upload.meta, tags: upload.meta.tags }), md5, size_bytes: upload.size, mime_type: sniffed.mime, upload_id: upload.id },
          });
          return row.id;
        });
      } catch (err) {
        await removeObjects(stored);
        // The same bytes finished a moment ago in another upload: this one is its duplicate.
        if (isUniqueViolation(err)) {
          const winner = await liveMaterialWithMd5(db, md5);
          if (winner) return duplicate(winner.id);
        }
        throw err;
      }
      const rows = await findMaterials(db, [id], await scopeOf(who.actor));
      return { status: 'created', material: await toMaterial(rows[0]!) };
    },

    /** A material's file or thumbnail for the signed file routes (no scope: the signature is the permission). */
    async fileOf(id: number, which: 'file' | 'thumb'): Promise<{ key: string; mime: string; size: number; etag: string; fileName: string } | null> {
      const m = await materialFile(db, id);
      if (!m) return null;
      if (which === 'file' || m.thumb_key === m.storage_key) {
        if (which === 'thumb' && !m.thumb_key) return null;
        return { key: m.storage_key, mime: m.mime_type, size: Number(m.size_bytes), etag: `"${m.md5}"`, fileName: m.file_name };
      }
      if (!m.thumb_key) return null;
      const stat = await storage.stat(m.thumb_key);
      if (!stat) return null;
      return { key: m.thumb_key, mime: 'image/jpeg', size: stat.size, etag: `"${m.md5}-t"`, fileName: `${m.file_name}.jpg` };
    },

    /**
     * Queues pushes of materials to ad accounts (both in the caller's scope) as one task. A pair
     * already pushed or on its way is skipped; a failed one is queued again.
     */
    async push(ctx: RequestContext, body: PushMaterialsBody): Promise<PushMaterialsResult> {
      assertWritable(ctx.actor);
      const { rows: materials } = await loadVisible(ctx.actor, body.material_ids);
      const accountIds = [...new Set(body.ad_account_ids)];
      const accounts = await existingAdAccountIds(db, accountIds);
      if (accounts.length !== accountIds.length) throw new AppError('AD_ACCOUNT_NOT_FOUND', {}, 'ad_account_ids');
      assertWithin(await visibleAdAccountIds(db, ctx.actor), accountIds);
      const pairs = materials.flatMap((m) => accountIds.map((a) => ({ material_id: m.id, ad_account_id: a })));
      if (pairs.length > MAX_PUSH_PAIRS) throw new AppError('PUSH_TOO_MANY', { max: MAX_PUSH_PAIRS, count: pairs.length });

      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const queued: number[] = [];
        for (let i = 0; i < pairs.length; i += 1000) {
          const rows = await insertPushes(trx, pairs.slice(i, i + 1000), ctx.actor.id, now);
          queued.push(...rows.map((r) => r.id));
        }
        const taskId = await queuePushes(trx, queued, ctx.actor.id);
        for (const m of materials) {
          await writeAudit(trx, ctx, { action: 'material.push', entity_type: 'material', entity_id: m.id, after: { ad_account_ids: accountIds, task_id: taskId, queued: queued.length } });
        }
        return { task_id: taskId, queued: queued.length, skipped: pairs.length - queued.length };
      });
    },

    async pushes(ctx: RequestContext, body: ListPushesBody): Promise<{ list: MaterialPush[]; total: number }> {
      return listPushes(db, body, await scopeOf(ctx.actor), ctx.lang);
    },

    /** Queues failed pushes again (the listed ones, or every failed push of a material); the others are skipped. */
    async retryPush(ctx: RequestContext, body: RetryPushesBody): Promise<PushMaterialsResult> {
      assertWritable(ctx.actor);
      const scope = await scopeOf(ctx.actor);
      if (body.material_id) await loadVisible(ctx.actor, [body.material_id]);
      const ids = body.push_ids ? [...new Set(body.push_ids)] : undefined;
      const found = await findPushes(db, { ...(ids && { ids }), ...(body.material_id && { materialId: body.material_id }) }, scope);
      if (ids) {
        const known = await existingPushIds(db, ids);
        if (known.length !== ids.length) throw new AppError('PUSH_NOT_FOUND', {}, 'push_ids');
        if (found.length !== ids.length && !body.material_id) throw new AppError('FORBIDDEN_SCOPE');
      }
      const failed = found.filter((p) => p.state === 'failed');
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const retried = failed.map((p) => p.id);
        if (retried.length) {
          await requeueFailedPushes(trx, retried, ctx.actor.id, now);
        }
        const taskId = await queuePushes(trx, retried, ctx.actor.id);
        for (const materialId of new Set(failed.map((p) => p.material_id))) {
          const mine = failed.filter((p) => p.material_id === materialId);
          await writeAudit(trx, ctx, { action: 'material.retry_push', entity_type: 'material', entity_id: materialId, after: { push_ids: mine.map((p) => p.id), task_id: taskId } });
        }
        return { task_id: taskId, queued: retried.length, skipped: found.length - retried.length };
      });
    },
  };
}

export type MaterialService = ReturnType<typeof createMaterialService>;

// ---- for publishing (features/publish): pushes of a scheme's materials, thumbnails, usages ----

export interface PairPush {
  id: number;
  material_id: number;
  ad_account_id: number;
  state: MaterialPushState;
  /** advideo id (video) or image hash (image), once known. */
  platform_ref: string | null;
  kind: 'video' | 'image';
  file_name: string;
  /** Why it failed, in both languages; our reason's key and parameters when it is ours. */
  failure: Bilingual | null;
  failureKey: string | null;
  failureParams: Record<string, string>;
}

/** The pushes of these materials to these ad accounts (pairs never pushed are absent). */
export async function pushesFor(db: Db, materialIds: readonly number[], adAccountIds: readonly number[]): Promise<PairPush[]> {
  if (!materialIds.length || !adAccountIds.length) return [];
  const rows = await pushesOfPairs(db, materialIds, adAccountIds);
  return rows.map((r) => ({
    id: r.id,
    material_id: r.material_id,
    ad_account_id: r.ad_account_id,
    state: r.deleted_at && r.state !== 'ready' ? 'failed' : r.state,
    platform_ref: r.platform_ref,
    kind: r.kind,
    file_name: r.file_name,
    failure:
      r.state !== 'failed' && !r.deleted_at
        ? null
        : r.error_key
          ? both(r.error_key as ErrorKey, (r.error_params as Record<string, unknown> | null) ?? {})
          : r.deleted_at
            ? both('PUSH_MATERIAL_GONE')
            : { zh: r.error ?? '', en: r.error ?? '' },
    failureKey: r.state === 'failed' ? (r.error_key ?? null) : null,
    failureParams: (r.error_params as Record<string, string> | null) ?? {},
  }));
}

/**
 * Queues the materials push (the job of /materials/push, per pusher) for pairs that have no push
 * yet, or with `requeueFailed` also for failed ones; inside one transaction with the rows. Answers
 * the push task, or null when nothing needed queueing.
 */
export async function queuePushesForPublish(
  db: Db,
  enqueue: Jobs['enqueue'],
  pairs: readonly { material_id: number; ad_account_id: number }[],
  userId: number,
  now: Date,
  opts: { requeueFailed: boolean },
): Promise<number | null> {
  if (!pairs.length) return null;
  return db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (let i = 0; i < pairs.length; i += 1000) ids.push(...(await insertMissingPushes(trx, pairs.slice(i, i + 1000), userId, now, opts.requeueFailed)).map((r) => r.id));
    if (!ids.length) return null;
    const taskId = await enqueue(PUSH_JOB, { push_ids: ids }, { createdBy: userId, trx, key: pushKey(userId) });
    await stampPushTask(trx, ids, taskId);
    return taskId;
  });
}

/** Where one material stands on one ad account, for a caller that needs it there (a copy of an ad to another account). */
export interface MaterialOnAccount {
  material_id: number;
  file_name: string;
  kind: 'video' | 'image';
  /** none: never pushed there; the rest as the push's state. */
  state: 'none' | MaterialPushState;
  /** The platform's video id or image hash there, once uploaded. */
  platform_ref: string | null;
  /** Why the push failed, in both languages. */
  error: Bilingual | null;
}

/** Live materials of the library by id (gone or deleted ones are left out). */
export async function liveMaterials(db: Db, ids: readonly number[]) {
  return materialsByIds(db, [...new Set(ids)]);
}

/** The state of each material on one ad account (pushes through the library, materials.jobs.ts). */
export async function materialsOnAccount(db: Db, materialIds: readonly number[], adAccountId: number): Promise<MaterialOnAccount[]> {
  const unique = [...new Set(materialIds)];
  const [materials, pushes] = await Promise.all([materialsByIds(db, unique), pushesTo(db, unique, adAccountId)]);
  return materials.map((m) => {
    const p = pushes.find((x) => x.material_id === m.id);
    const error = !p || p.state !== 'failed' ? null : p.error_key ? both(p.error_key as ErrorKey, (p.error_params as Record<string, unknown> | null) ?? {}) : { zh: p.error ?? '', en: p.error ?? '' };
    return { material_id: m.id, file_name: m.file_name, kind: m.kind as 'video' | 'image', state: p ? p.state : 'none', platform_ref: p?.platform_ref ?? null, error };
  });
}

/**
 * Queues pushes of materials to one ad account on a person's behalf, through the push job (the
 * same uploads, per-person concurrency and resumption as 素材管理's push): pairs never pushed, or
 * failed, are queued; pairs pushed or on their way are left as they are. Used by a copy to
 * another ad account, which the library's scope does not limit (the ads are the copier's).
 * Answers the push task, or null when nothing needed queueing.
 */
export async function queuePushesTo(
  db: Db,
  enqueue: Jobs['enqueue'],
  input: { materialIds: readonly number[]; adAccountId: number; userId: number; now: Date },
): Promise<number | null> {
  const live = await materialsByIds(db, [...new Set(input.materialIds)]);
  return queuePushesForPublish(db, enqueue, live.map((m) => ({ material_id: m.id, ad_account_id: input.adAccountId })), input.userId, input.now, { requeueFailed: true });
}

/** Records what the platform said of a video it was processing (a publish asks itself rather than wait for the check job). */
export async function settleVideoPush(db: Db, pushId: number, outcome: { state: 'ready' } | { state: 'failed'; reason: string }, now: Date) {
  await updatePush(
    db,
    pushId,
    outcome.state === 'ready'
      ? { state: 'ready', finished_at: now }
      : { state: 'failed', error: null, error_key: 'PUSH_VIDEO_FAILED', error_params: JSON.stringify({ reason: outcome.reason }), upload_session_id: null, finished_at: now },
    now,
  );
}

/** A material's file as bytes with its kind and name (a page post uploads it whole); null when gone. */
export async function materialBytes(db: Db, storageConfig: Parameters<typeof createMaterialStorage>[0], materialId: number): Promise<{ kind: 'video' | 'image'; data: Uint8Array; filename: string; contentType: string | null } | null> {
  const [m] = await materialFiles(db, [materialId]);
  if (!m) return null;
  const storage = createMaterialStorage(storageConfig);
  const stat = await storage.stat(m.storage_key);
  if (!stat) return null;
  return { kind: m.kind, data: await readBytes(storage, m.storage_key, 0, stat.size), filename: m.file_name, contentType: m.mime_type };
}

/** A material's thumbnail (a video's frame, an image's scaled copy) as bytes: a video creative needs one as an image. */
export async function thumbnailBytes(db: Db, storageConfig: Parameters<typeof createMaterialStorage>[0], materialId: number): Promise<{ data: Uint8Array; filename: string } | null> {
  const [m] = await materialFiles(db, [materialId]);
  if (!m?.thumb_key) return null;
  const storage = createMaterialStorage(storageConfig);
  const stat = await storage.stat(m.thumb_key);
  if (!stat) return null;
  return { data: await readBytes(storage, m.thumb_key, 0, stat.size), filename: `${m.file_name.replace(/\.[^.]+$/, '')}-thumb.jpg` };
}

/** The ads a material is used in (video, cover or image); only live ads count as in use (materials list `ads_using`). */
export async function recordMaterialUsages(db: Db, rows: readonly { material_id: number; ad_account_id: number; platform_ad_id: string; ad_id: number | null; role: 'video' | 'cover' | 'image' }[], now: Date) {
  await insertUsages(
    db,
    rows.map((r) => ({ ...r, created_at: now })),
  );
}
