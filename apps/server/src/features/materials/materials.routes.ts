import { CODE_ERROR, endpoints, formatMessage, idSchema } from '@ads/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpoint } from '../../lib/endpoint.ts';
import { SIGNED_URL_TTL_S } from '../../lib/signed-url.ts';
import type { MaterialService } from './materials.service.ts';
import type { MaterialStorage } from './storage.ts';
import type { createTusUploads } from './tus.ts';

const api = endpoints.materials;

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
): FastifyPluginAsync {
  return async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    endpoint(app, api.list, async (req) => materials.list(req.ctx(), req.body));
    endpoint(app, api.facets, async (req) => materials.facets(req.ctx(), req.body?.platform));
    endpoint(app, api.get, async (req) => materials.get(req.ctx(), req.body.id));
    endpoint(app, api.edit, async (req) => materials.edit(req.ctx(), req.body));
    endpoint(app, api.batch_edit, async (req) => materials.batchEdit(req.ctx(), req.body));
    endpoint(app, api.delete, async (req) => materials.remove(req.ctx(), req.body.ids));
    endpoint(app, api.check_hash, async (req) => materials.checkHash(req.ctx(), req.body.md5));
    endpoint(app, api.push, async (req) => materials.push(req.ctx(), req.body));
    endpoint(app, api.pushes, async (req) => materials.pushes(req.ctx(), req.body));
    endpoint(app, api.retry_push, async (req) => materials.retryPush(req.ctx(), req.body));
    endpoint(app, api.upload_result, async (req) => {
      const ctx = req.ctx();
      return materials.uploadResult(ctx, req.body.upload_id, () => uploads.pending(req.body.upload_id, ctx));
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
      const opts = { schema: { tags: ['materials'], params: fileParams, hide: true }, config: { signed: true }, exposeHeadRoute: false };
      app.get(`/material/${which}/:id`, opts, serve(which));
      // A HEAD of its own: Fastify's automatic one would read the whole file to throw it away.
      app.head(`/material/${which}/:id`, opts, serve(which));
    }
  };
}
