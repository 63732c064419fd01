import { CODE_ERROR, endpoints, formatMessage } from '@ads/contracts';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { endpoint } from '../../lib/endpoint.ts';
import { WEBHOOK_BODY_LIMIT, type OrderService } from './orders.service.ts';

/**
 * `POST /api/orders/webhook/:siteId` (API.md "Orders"): public (the signature proves the sender),
 * answering real HTTP statuses. Its own plugin: the body is read as raw bytes whatever the
 * content type (the signature covers exactly them), and its own error handler keeps the statuses.
 */
export function orderWebhookRoutes(orders: OrderService): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));
    app.setErrorHandler(async (err: FastifyError, req, reply) => {
      const lang = req.lang ?? 'zh';
      const siteId = (req.params as { siteId?: string } | undefined)?.siteId ?? '';
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        const message = formatMessage('ORDER_BODY_TOO_LARGE', lang, { max: '1 MiB' });
        const known = await orders.refusedEarly(siteId, 413, 'too_large', message, Number(req.headers['content-length']) || 0).catch(() => true);
        if (!known) return reply.status(404).send({ code: CODE_ERROR, message: formatMessage('SITE_NOT_FOUND', lang), data: null });
        return reply.status(413).send({ code: CODE_ERROR, message, data: null });
      }
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        req.log.info({ err }, 'order webhook: client error');
        return reply.status(400).send({ code: CODE_ERROR, message: formatMessage('BAD_JSON', lang), data: null });
      }
      // Not the sender's fault (the database is down…): a 503 makes the site resend later.
      req.log.error({ err }, 'order webhook failed');
      return reply.status(503).send({ code: CODE_ERROR, message: formatMessage('INTERNAL', lang), data: null });
    });

    app.post(
      '/orders/webhook/:siteId',
      { schema: { tags: ['orders'], params: z.object({ siteId: z.string() }) }, config: { public: true, binary: true }, bodyLimit: WEBHOOK_BODY_LIMIT },
      async (req, reply) => {
        const { siteId } = req.params as { siteId: string };
        const a = await orders.receive(siteId, req.body as Buffer | undefined, req.headers['x-signature'], req.lang);
        return reply.status(a.status).header('cache-control', 'no-store').send(a.body);
      },
    );
  };
}

/** Session calls of orders (endpoint table; the order list and analysis screens come with issue 9's later parts). */
export function orderRoutes(orders: OrderService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, endpoints.orders.import, async (req) => orders.importOrders(req.ctx(), req.body));
  };
}
