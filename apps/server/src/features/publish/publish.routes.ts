import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { PublishService } from './publish.service.ts';

const { publish, publishSchemes, publishTemplates } = endpoints;

/** Publishing (issue 8): the wizards' lookups, preview and submit; schemes; templates. Scope is checked in the service. */
export function publishRoutes(s: PublishService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, publish.accounts, async (req) => s.accounts(req.ctx(), req.body));
    endpoint(app, publish.catalog, async (req) => s.catalog(req.ctx(), req.body));
    endpoint(app, publish.materials, async (req) => s.materials(req.ctx(), req.body));
    endpoint(app, publish.link_preview, async (req) => s.linkPreview(req.ctx(), req.body));
    endpoint(app, publish.preview, async (req) => s.preview(req.ctx(), req.body));
    endpoint(app, publish.submit, async (req) => s.submit(req.ctx(), req.body));

    endpoint(app, publishSchemes.list, async (req) => s.listSchemes(req.ctx(), req.body));
    endpoint(app, publishSchemes.get, async (req) => s.getScheme(req.ctx(), req.body.id));
    endpoint(app, publishSchemes.items, async (req) => s.items(req.ctx(), req.body));
    endpoint(app, publishSchemes.retry_failed, async (req) => s.retryFailed(req.ctx(), req.body.id));
    endpoint(app, publishSchemes.cancel, async (req) => s.cancel(req.ctx(), req.body.id));
    endpoint(app, publishSchemes.draft, async (req) => s.draftOf(req.ctx(), req.body.id));

    endpoint(app, publishTemplates.list, async (req) => s.listTemplates(req.ctx(), req.body));
    endpoint(app, publishTemplates.save, async (req) => s.saveTemplate(req.ctx(), req.body));
    endpoint(app, publishTemplates.delete, async (req) => s.deleteTemplate(req.ctx(), req.body.id));
  };
}
