import {
  CODE_ERROR,
  batchEditMaterialsBodySchema,
  checkMaterialHashBodySchema,
  checkMaterialHashResultSchema,
  deleteMaterialsBodySchema,
  editMaterialBodySchema,
  envelope,
  formatMessage,
  idBodySchema,
  idSchema,
  listMaterialsBodySchema,
  listPushesBodySchema,
  materialFacetsBodySchema,
  materialFacetsSchema,
  materialPushSchema,
  materialSchema,
  pageResultSchema,
  pushMaterialsBodySchema,
  pushMaterialsResultSchema,
  retryPushesBodySchema,
  uploadResultBodySchema,
  uploadResultSchema,
} from '@ads/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import { SIGNED_URL_TTL_S } from '../../lib/signed-url.ts';
import { MATERIAL_PATHS, type MaterialService } from './materials.service.ts';
import type { MaterialStorage } from './storage.ts';
import type { createTusUploads } from './tus.ts';

/** A byte range of a file of `size` bytes: null = the whole file, 'unsatisfiable' = 416. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: answer the whole file, as RFC 9110 allows.
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** `inline; filename="…"; filename*=UTF-8''…`, so a download keeps the material's name. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Materials (素材管理): the library, uploads' results, pushes, and the signed file URLs (docs/api-materials.md). */
export function materialRoutes(
  materials: MaterialService,
  storage: MaterialStorage,
  uploads: Pick<ReturnType<typeof createTusUploads>, 'pending'>,
): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['materials'];
    const config = { paths: MATERIAL_PATHS };

    app.post('/materials/list', { schema: { tags, body: listMaterialsBodySchema, response: { 200: envelope(pageResultSchema(materialSchema)) } }, config }, async (req) =>
      ok(await materials.list(req.ctx(), req.body)),
    );
    app.post('/materials/facets', { schema: { tags, body: materialFacetsBodySchema.nullable(), response: { 200: envelope(materialFacetsSchema) } }, config }, async (req) =>
      ok(await materials.facets(req.ctx(), req.body?.platform)),
    );
    app.post('/materials/get', { schema: { tags, body: idBodySchema, response: { 200: envelope(materialSchema) } }, config }, async (req) => ok(await materials.get(req.ctx(), req.body.id)));
    app.post('/materials/edit', { schema: { tags, body: editMaterialBodySchema, response: { 200: envelope(materialSchema) } }, config }, async (req) => ok(await materials.edit(req.ctx(), req.body)));
    app.post('/materials/batch_edit', { schema: { tags, body: batchEditMaterialsBodySchema, response: { 200: envelope(z.object({ updated: z.number().int() })) } }, config }, async (req) =>
      ok(await materials.batchEdit(req.ctx(), req.body)),
    );
    app.post('/materials/delete', { schema: { tags, body: deleteMaterialsBodySchema, response: { 200: envelope(z.object({ deleted: z.number().int() })) } }, config }, async (req) =>
      ok(await materials.remove(req.ctx(), req.body.ids)),
    );
    app.post('/materials/check_hash', { schema: { tags, body: checkMaterialHashBodySchema, response: { 200: envelope(checkMaterialHashResultSchema) } }, config }, async (req) =>
      ok(await materials.checkHash(req.ctx(), req.body.md5)),
    );
    app.post('/materials/push', { schema: { tags, body: pushMaterialsBodySchema, response: { 200: envelope(pushMaterialsResultSchema) } }, config }, async (req) =>
      ok(await materials.push(req.ctx(), req.body)),
    );
    app.post('/materials/pushes', { schema: { tags, body: listPushesBodySchema, response: { 200: envelope(pageResultSchema(materialPushSchema)) } }, config }, async (req) =>
      ok(await materials.pushes(req.ctx(), req.body)),
    );
    app.post('/materials/retry_push', { schema: { tags, body: retryPushesBodySchema, response: { 200: envelope(pushMaterialsResultSchema) } }, config }, async (req) =>
      ok(await materials.retryPush(req.ctx(), req.body)),
    );
    app.post('/materials/upload_result', { schema: { tags, body: uploadResultBodySchema, response: { 200: envelope(uploadResultSchema) } }, config }, async (req) => {
      const ctx = req.ctx();
      return ok(await materials.uploadResult(ctx, req.body.upload_id, () => uploads.pending(req.body.upload_id, ctx)));
    });

    // ---- files: <img>/<video> load these without a header, so the URL carries a signature ----
    const fileParams = z.object({ id: idSchema });
    const serve = (which: 'file' | 'thumb') => async (req: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
      const file = await materials.fileOf(req.params.id, which);
      if (!file) return reply.status(404).header('cache-control', 'no-store').send({ code: CODE_ERROR, message: formatMessage('MATERIAL_NOT_FOUND', req.lang), data: null });
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', file.mime)
        .header('etag', file.etag)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', disposition(file.fileName))
        // The URL changes when its signature does; within its life the bytes never change (content-addressed).
        .header('cache-control', `private, max-age=${SIGNED_URL_TTL_S}`);
      if (req.headers['if-none-match'] === file.etag) return reply.status(304).send();
      const range = parseRange(req.headers.range, file.size);
      if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${file.size}`).send();
      const length = range ? range.end - range.start + 1 : file.size;
      reply.status(range ? 206 : 200).header('content-length', length);
      if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
      if (req.method === 'HEAD' || length === 0) return reply.send();
      return reply.send(await storage.read(file.key, range ?? undefined));
    };
    for (const which of ['file', 'thumb'] as const) {
      const opts = { schema: { tags, params: fileParams, hide: true }, config: { signed: true }, exposeHeadRoute: false };
      app.get(`/material/${which}/:id`, opts, serve(which));
      // A HEAD of its own: Fastify's automatic one would read the whole file to throw it away.
      app.head(`/material/${which}/:id`, opts, serve(which));
    }
  };
}
