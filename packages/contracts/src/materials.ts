import { z } from 'zod';
import { idSchema, pageBodySchema } from './envelope.ts';
import { md5HexSchema, platformSchema } from './session.ts';
import { assignModeSchema } from './assets.ts';
import { daySchema, text } from './text.ts';

/**
 * Materials (素材管理): video and image files uploaded with the tus 1.0 protocol at
 * /api/material/tus, kept once per content hash, described (drama or product, language, editor,
 * tags), and pushed to ad accounts (advideo id / image hash per account).
 *
 * Upload (any tus 1.0 client): `POST /api/material/tus` with `Authorization: Bearer <token>`,
 * `Upload-Length` and `Upload-Metadata` carrying `filename`, `filetype` and `platform` (dj|ec),
 * optionally `drama_id`, `product_id`, `language`, `editor_id`, `tags` (comma-separated) and
 * `remark`; then `PATCH` chunks. Every PATCH, the last one too, is answered 204 with no body
 * (tus 1.0); once the last one is, /materials/upload_result says what became of the file. HEAD
 * answers Upload-Offset = Upload-Length for a finished upload (a client that lost the last answer).
 *
 * Refusals use tus status codes with a plain-text message in the caller's language
 * (Accept-Language): 400 bad or missing metadata, Upload-Length or deferred length; 413 over
 * MATERIAL_MAX_BYTES; 415 a type that is not accepted (at creation from `filetype`, after the last
 * chunk from the content itself); 422 a corrupt or truncated file; 404 an unknown upload or one
 * of another user. A refused file leaves nothing behind. Login and permission refusals on these
 * URLs answer HTTP 401 / 403 with the usual JSON envelope as the body.
 */
export const MATERIAL_TUS_PATH = '/api/material/tus';

const ids = z.array(idSchema).min(1).max(500);
const ref = z.object({ id: z.number().int(), name: z.string() });
const keyword = text().trim().max(100).optional();
const iso = z.string();
const nullableIso = z.string().nullable();

/** Upload limit when MATERIAL_MAX_BYTES is not set: 2 GiB. */
export const MATERIAL_MAX_BYTES_DEFAULT = 2 * 1024 ** 3;
/** tus chunk size the web client uses (the server accepts any). */
export const MATERIAL_CHUNK_BYTES = 8 * 1024 ** 2;

export const materialKindSchema = z.enum(['video', 'image']);
export type MaterialKind = z.infer<typeof materialKindSchema>;

/** Types accepted, decided from the file's content (magic bytes), never from its name. */
export const MATERIAL_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm', 'image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/** Languages offered for materials and dramas (ISO 639-1; the list is a suggestion, not a limit). */
export const MATERIAL_LANGUAGES = ['zh', 'en', 'es', 'pt', 'id', 'th', 'vi', 'ja', 'ko', 'ar', 'fr', 'de', 'ru', 'tr', 'it', 'ms', 'tl', 'hi'] as const;

const languageSchema = text().trim().min(2).max(16);
const tagSchema = text().trim().min(1).max(32);
const tagsSchema = z.array(tagSchema).max(30);

/**
 * One push of a material to one ad account. pending → uploading → processing (the platform
 * encodes a video) → ready; failed keeps the platform's message and can be retried.
 */
export const pushStateSchema = z.enum(['pending', 'uploading', 'processing', 'ready', 'failed']);
export type PushState = z.infer<typeof pushStateSchema>;

export const pushCountsSchema = z.object({
  pending: z.number().int(),
  uploading: z.number().int(),
  processing: z.number().int(),
  ready: z.number().int(),
  failed: z.number().int(),
});
export type PushCounts = z.infer<typeof pushCountsSchema>;

export const materialSchema = z.object({
  id: z.number().int(),
  kind: materialKindSchema,
  platform: platformSchema,
  /** The name the file was uploaded with (editable: it is what people search for). */
  file_name: z.string(),
  /** Detected from the content. */
  mime_type: z.string(),
  size_bytes: z.number().int(),
  md5: z.string(),
  /** Seconds; null for images. */
  duration_s: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Same-origin URLs carrying a short-lived signature, usable in <img>/<video> without a header. */
  thumbnail_url: z.string().nullable(),
  file_url: z.string(),
  drama: ref.nullable(),
  product: ref.nullable(),
  language: z.string().nullable(),
  editor: ref.nullable(),
  tags: z.array(z.string()),
  remark: z.string(),
  uploader: ref,
  department: ref.nullable(),
  push_counts: pushCountsSchema,
  /** Ads that use the material; a material in use cannot be deleted. */
  ads_using: z.number().int(),
  created_at: iso,
  updated_at: iso,
});
export type Material = z.infer<typeof materialSchema>;

export const MATERIAL_SORT_FIELDS = ['id', 'created_at', 'file_name', 'size_bytes', 'duration_s'] as const;

/** none = never pushed; some = pushed to at least one account; failed = a push failed; active = pending/uploading/processing. */
export const pushFilterSchema = z.enum(['none', 'some', 'failed', 'active']);

export const listMaterialsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(MATERIAL_SORT_FIELDS).optional(),
  /** File name, remark or md5. */
  keyword,
  kind: materialKindSchema.optional(),
  platform: platformSchema.optional(),
  drama_id: idSchema.optional(),
  product_id: idSchema.optional(),
  editor_id: idSchema.optional(),
  uploader_id: idSchema.optional(),
  language: text().trim().max(16).optional(),
  /** Materials having every one of these tags. */
  tags: z.array(tagSchema).max(10).optional(),
  /** Upload date, inclusive, YYYY-MM-DD in the reporting timezone. */
  date_from: daySchema.optional(),
  date_to: daySchema.optional(),
  push: pushFilterSchema.optional(),
  /** With `push`: only pushes to this ad account count. */
  ad_account_id: idSchema.optional(),
});
export type ListMaterialsBody = z.infer<typeof listMaterialsBodySchema>;

/** Edit one material. Omitted fields stay; null clears. */
export const editMaterialBodySchema = z.object({
  id: idSchema,
  file_name: text().trim().min(1).max(255).optional(),
  drama_id: idSchema.nullable().optional(),
  product_id: idSchema.nullable().optional(),
  language: languageSchema.nullable().optional(),
  editor_id: idSchema.nullable().optional(),
  tags: tagsSchema.optional(),
  remark: text().trim().max(500).optional(),
});
export type EditMaterialBody = z.infer<typeof editMaterialBodySchema>;

/** The same fields for many materials at once; tags apply with `tags_mode` (default add). */
export const batchEditMaterialsBodySchema = z.object({
  ids,
  drama_id: idSchema.nullable().optional(),
  product_id: idSchema.nullable().optional(),
  language: languageSchema.nullable().optional(),
  editor_id: idSchema.nullable().optional(),
  tags: tagsSchema.optional(),
  tags_mode: assignModeSchema.optional(),
  remark: text().trim().max(500).optional(),
});
export type BatchEditMaterialsBody = z.infer<typeof batchEditMaterialsBodySchema>;

export const deleteMaterialsBodySchema = z.object({ ids });

/** Before uploading: is a file with this content already in the library? */
export const checkMaterialHashBodySchema = z.object({ md5: md5HexSchema });
export const checkMaterialHashResultSchema = z.object({ material: materialSchema.nullable() });

/** /materials/upload_result: what became of a finished tus upload (`upload_id` is the last part of its URL). */
export const uploadResultBodySchema = z.object({ upload_id: text().trim().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'upload_id') });
export const uploadResultSchema = z.object({
  /** created: a new material; duplicate: the same content was already there (the upload was discarded). */
  status: z.enum(['created', 'duplicate']),
  material: materialSchema,
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** /materials/facets: the filter choices of one platform's library (all platforms when omitted). */
export const materialFacetsBodySchema = z.object({ platform: platformSchema.optional() }).optional();

/** Filter choices for the library: tags in use and the editors / uploaders that appear. */
export const materialFacetsSchema = z.object({
  tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
  editors: z.array(ref),
  uploaders: z.array(ref),
  languages: z.array(z.string()),
});
export type MaterialFacets = z.infer<typeof materialFacetsSchema>;

// ---------------------------------------------------------------------------------------------
// Pushing materials to ad accounts.

export const materialPushSchema = z.object({
  id: z.number().int(),
  material: ref,
  ad_account: ref.extend({ platform_id: z.string() }),
  state: pushStateSchema,
  /** advideo id (video) or image hash (image) once the platform has the file. */
  platform_ref: z.string().nullable(),
  /** The platform's message when failed. */
  error: z.string().nullable(),
  attempts: z.number().int(),
  pushed_by: ref.nullable(),
  task_id: z.number().int().nullable(),
  created_at: iso,
  updated_at: iso,
  finished_at: nullableIso,
});
export type MaterialPush = z.infer<typeof materialPushSchema>;

/** Push materials to ad accounts as one background task; pairs already pushed (or on their way) are skipped. */
export const pushMaterialsBodySchema = z.object({
  material_ids: ids,
  ad_account_ids: ids,
});
export type PushMaterialsBody = z.infer<typeof pushMaterialsBodySchema>;
export const pushMaterialsResultSchema = z.object({
  /** null when every pair was already pushed. */
  task_id: z.number().int().nullable(),
  queued: z.number().int(),
  skipped: z.number().int(),
});
export type PushMaterialsResult = z.infer<typeof pushMaterialsResultSchema>;

export const listPushesBodySchema = pageBodySchema.extend({
  sort_field: z.enum(['id', 'updated_at', 'state']).optional(),
  material_id: idSchema.optional(),
  ad_account_id: idSchema.optional(),
  state: pushStateSchema.optional(),
  task_id: idSchema.optional(),
});
export type ListPushesBody = z.infer<typeof listPushesBodySchema>;

/** Retry failed pushes: these ids, or every failed push of a material (one of the two). */
export const retryPushesBodySchema = z
  .object({ push_ids: ids.optional(), material_id: idSchema.optional() })
  .refine((b) => b.push_ids !== undefined || b.material_id !== undefined, { message: 'push_ids or material_id' });
export type RetryPushesBody = z.infer<typeof retryPushesBodySchema>;
