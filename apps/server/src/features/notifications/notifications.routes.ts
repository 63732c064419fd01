import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { NotificationService } from './notifications.service.ts';

// Notification channels and their deliveries (issue 10), on /operation/account.

const { notificationChannels, notifications } = endpoints;

export function notificationRoutes(s: NotificationService, rulesPerChannel: () => Promise<Map<number, number>>): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, notificationChannels.list, async (req) => s.listChannels(req.ctx(), req.body, await rulesPerChannel()));
    endpoint(app, notificationChannels.save, async (req) => s.saveChannel(req.ctx(), req.body, (await rulesPerChannel()).get(req.body.id ?? 0) ?? 0));
    endpoint(app, notificationChannels.delete, async (req) => s.deleteChannel(req.ctx(), req.body.id));
    endpoint(app, notificationChannels.test, async (req) => s.test(req.ctx(), req.body.id));
    endpoint(app, notifications.list, async (req) => s.listDeliveries(req.ctx(), req.body));
  };
}
