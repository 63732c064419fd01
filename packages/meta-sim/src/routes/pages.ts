import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { NodeDef, NodeRegistry } from '../graph/node.ts';
import type { PageRecord, PostRecord } from '../store/state.ts';
import { formatGraphTime } from '../time.ts';
import { renderList } from './users.ts';

// Pages and page posts (reference §8). `/me/accounts` hands out page tokens; posting to a
// page's feed needs one.

const PAGE_READ = ['pages_show_list', 'pages_read_engagement', 'pages_manage_ads', 'business_management'];
const TASKS = ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'];

function pageVisible(ctx: GraphContext, page: PageRecord): boolean {
  if (ctx.token.type === 'PAGE') return ctx.token.page_id === page.id;
  return page.user_ids.includes(ctx.token.user_id);
}

function postsOf(ctx: GraphContext, page: PageRecord, adPosts: boolean): PostRecord[] {
  return Object.values(ctx.sim.store.state.posts).filter((p) => p.page_id === page.id && (adPosts ? p.is_ad_post : p.is_published));
}

/** Posts are ordered newest first by their numeric part (`<page>_<n>`). */
function byNewest(posts: PostRecord[]): PostRecord[] {
  return posts.sort((a, b) => Number(b.id.split('_')[1]) - Number(a.id.split('_')[1]));
}

function createPost(ctx: GraphContext, page: PageRecord): { id: string } {
  // Publishing as a page needs that page's token (reference §8).
  if (ctx.token.type !== 'PAGE') {
    throw errors.missingPermission('pages_manage_posts and a page access token', 200);
  }
  ctx.sim.tokens.requireScope(ctx.token, ['pages_manage_posts']);
  const message = ctx.params.string('message');
  const link = ctx.params.string('link');
  if (message === undefined && link === undefined) throw errors.requiredParameter('message');
  const post: PostRecord = {
    id: `${page.id}_${ctx.sim.store.newId()}`,
    page_id: page.id,
    message,
    link,
    is_published: ctx.params.bool('published') ?? true,
    is_ad_post: false,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const cta = ctx.params.object('call_to_action');
  if (cta !== undefined) post.call_to_action = cta;
  ctx.sim.store.state.posts[post.id] = post;
  ctx.sim.store.changed();
  return { id: post.id };
}

export function pageNode(registry: NodeRegistry): NodeDef<PageRecord> {
  const list = (ctx: GraphContext, posts: PostRecord[]) => renderList(ctx, registry, 'post', byNewest(posts), ['created_time', 'message', 'id']);
  return {
    kind: 'page',
    typeName: 'Page',
    load: (ctx, id) => ctx.sim.store.state.pages[id],
    visible: pageVisible,
    fields: {
      id: (p) => p.id,
      name: (p) => p.name,
      category: (p) => p.category,
      link: (p) => `https://www.facebook.com/${p.id}`,
      picture: (p, ctx) => ({ data: { url: `${ctx.sim.baseUrl()}/__sim/media/page-${p.id}.png`, width: 50, height: 50, is_silhouette: false } }),
      is_published: () => true,
      tasks: () => TASKS,
      // A page token derived from the caller's user token (what /me/accounts hands out).
      access_token: (p, ctx) => (ctx.token.type === 'PAGE' ? ctx.accessToken : ctx.sim.tokens.pageToken(ctx.token, p.id).token),
    },
    defaultFields: ['name', 'id'],
    scopes: { read: PAGE_READ, write: ['pages_manage_posts'] },
    edges: {
      posts: { scopes: { read: ['pages_read_engagement'] }, get: (ctx, p) => list(ctx, postsOf(ctx, p, false)) },
      published_posts: { scopes: { read: ['pages_read_engagement'] }, get: (ctx, p) => list(ctx, postsOf(ctx, p, false)) },
      feed: { scopes: { read: ['pages_read_engagement'], write: ['pages_manage_posts'] }, get: (ctx, p) => list(ctx, postsOf(ctx, p, false)), post: createPost },
      ads_posts: { scopes: { read: ['pages_read_engagement', 'pages_manage_ads'] }, get: (ctx, p) => list(ctx, postsOf(ctx, p, true)) },
    },
  };
}

export function postNode(): NodeDef<PostRecord> {
  const picture = (ctx: GraphContext, p: PostRecord) =>
    p.image_hash || p.video_id ? `${ctx.sim.baseUrl()}/__sim/media/post-${p.id}.png` : undefined;
  return {
    kind: 'post',
    typeName: 'Post',
    load: (ctx, id) => ctx.sim.store.state.posts[id],
    visible: (ctx, p) => {
      const page = ctx.sim.store.state.pages[p.page_id];
      return !!page && pageVisible(ctx, page);
    },
    fields: {
      id: (p) => p.id,
      message: (p) => p.message,
      created_time: (p) => formatGraphTime(p.created_at),
      updated_time: (p) => formatGraphTime(p.updated_at),
      full_picture: (p, ctx) => picture(ctx, p),
      picture: (p, ctx) => picture(ctx, p),
      permalink_url: (p) => `https://www.facebook.com/${p.id.replace('_', '/posts/')}`,
      status_type: (p) => (p.video_id ? 'added_video' : p.link ? 'shared_story' : 'mobile_status_update'),
      is_published: (p) => p.is_published,
      is_hidden: () => false,
      is_eligible_for_promotion: () => true,
      promotable_id: (p) => p.id,
      attachments: (p) =>
        p.link || p.video_id
          ? { data: [{ media_type: p.video_id ? 'video' : 'link', target: { id: p.video_id, url: p.link }, url: p.link }] }
          : undefined,
      from: (p, ctx) => ({ id: p.page_id, name: ctx.sim.store.state.pages[p.page_id]?.name }),
      call_to_action: (p) => p.call_to_action,
    },
    defaultFields: ['created_time', 'message', 'id'],
    scopes: { read: ['pages_read_engagement', 'pages_manage_ads', 'ads_management'], write: ['pages_manage_posts'] },
    edges: {},
  };
}
