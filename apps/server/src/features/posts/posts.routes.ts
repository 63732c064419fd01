import { endpoints } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import type { PostService } from './posts.service.ts';

const { pagePosts } = endpoints;

/** Page posts (帖子管理): pages, materials and posts are checked against the caller's scope in the service. */
export function postRoutes(s: PostService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, pagePosts.pages, async (req) => s.pages(req.ctx()));
    endpoint(app, pagePosts.materials, async (req) => s.materials(req.ctx(), req.body));
    endpoint(app, pagePosts.create, async (req) => s.create(req.ctx(), req.body));
    endpoint(app, pagePosts.platform, async (req) => s.platformPosts(req.ctx(), req.body));
    endpoint(app, pagePosts.retry_failed, async (req) => s.retryFailed(req.ctx(), req.body));
    endpoint(app, pagePosts.reschedule, async (req) => s.reschedule(req.ctx(), req.body));
    endpoint(app, pagePosts.cancel, async (req) => s.cancel(req.ctx(), req.body));
    endpoint(app, pagePosts.list, async (req) => s.list(req.ctx(), req.body));
  };
}
