import { adEffectiveStatus } from '../delivery/status.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { NodeDef, NodeRegistry } from '../graph/node.ts';
import type { PageRecord, PostRecord, VideoRecord } from '../store/state.ts';
import { formatGraphTime } from '../time.ts';
import { pageVisible } from './common.ts';
import { renderList } from './users.ts';
import { BYTES_PER_SECOND, markUploaded } from './videos.ts';
import { postPublished, SCHEDULE_MAX_MS, SCHEDULE_MIN_MS } from './post-schedule.ts';

// Pages and page posts (reference §8). `/me/accounts` hands out page tokens; publishing as a page
// (`/feed`, `/photos`, `/videos`, published or not) needs that page's token with
// pages_manage_posts and pages_read_engagement. Any page post can be an ad's creative
// (`object_story_id`); unpublished ones are "dark" posts that only ads show.

const PAGE_READ = ['pages_show_list', 'pages_read_engagement', 'pages_manage_ads', 'business_management'];
const TASKS = ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'];
const POST_LIST_DEFAULTS = ['created_time', 'message', 'id'];

/** Scheduled and not yet live. */
const isScheduled = (p: PostRecord, now: number) => p.scheduled_publish_time !== undefined && now < p.scheduled_publish_time;

/** The page's own posts as readers see them: published ones. */
function publishedPosts(ctx: GraphContext, page: PageRecord): PostRecord[] {
  return Object.values(ctx.sim.store.state.posts).filter((p) => p.page_id === page.id && postPublished(p, ctx.now));
}

/** The page's posts waiting for their scheduled time (`/scheduled_posts`). */
function scheduledPosts(ctx: GraphContext, page: PageRecord): PostRecord[] {
  return Object.values(ctx.sim.store.state.posts).filter((p) => p.page_id === page.id && isScheduled(p, ctx.now));
}

/**
 * Posts made for ads: inline-created ones (an `object_story_spec` creative makes one) and the
 * page's unpublished posts; `include_inline_create=false` leaves the inline ones out.
 */
function adsPosts(ctx: GraphContext, page: PageRecord): PostRecord[] {
  const inline = ctx.params.bool('include_inline_create') ?? true;
  return Object.values(ctx.sim.store.state.posts).filter((p) => p.page_id === page.id && ((inline && p.is_ad_post) || (p.by_page && !postPublished(p, ctx.now))));
}

/** Every post of the page that an ad may use, published or not (`is_published` filters). */
function promotablePosts(ctx: GraphContext, page: PageRecord): PostRecord[] {
  const published = ctx.params.bool('is_published');
  return Object.values(ctx.sim.store.state.posts).filter((p) => p.page_id === page.id && (published === undefined || postPublished(p, ctx.now) === published));
}

/** Posts are ordered newest first by their numeric part (`<page>_<n>`). */
function byNewest(posts: PostRecord[]): PostRecord[] {
  return posts.sort((a, b) => Number(b.id.split('_')[1]) - Number(a.id.split('_')[1]));
}

/** Publishing as a page: that page's token, with pages_manage_posts and pages_read_engagement. */
function assertCanPost(ctx: GraphContext, page: PageRecord): void {
  const t = ctx.token;
  if (t.type !== 'PAGE' || t.page_id !== page.id || !t.scopes.includes('pages_manage_posts') || !t.scopes.includes('pages_read_engagement')) {
    throw errors.pagePostPermission();
  }
}

/** A schedule counts from the request: 10 minutes to 30 days ahead, for a new post and a moved one alike. */
function assertScheduleWindow(ctx: GraphContext, scheduled: number): void {
  const ahead = scheduled - ctx.now;
  if (ahead < SCHEDULE_MIN_MS || ahead > SCHEDULE_MAX_MS) throw errors.scheduledTimeInvalid();
}

/**
 * A new page post (not yet stored): published unless `published=false`. A scheduled one needs
 * `published=false` and a `scheduled_publish_time` (unix seconds or ISO) inside the window.
 */
function newPost(ctx: GraphContext, page: PageRecord): PostRecord {
  const published = ctx.params.bool('published') ?? true;
  const scheduled = ctx.params.time('scheduled_publish_time');
  if (scheduled !== undefined) {
    if (published) throw errors.scheduledPublished();
    assertScheduleWindow(ctx, scheduled);
  }
  const post: PostRecord = {
    id: `${page.id}_${ctx.sim.store.newId()}`,
    page_id: page.id,
    is_published: published,
    ...(scheduled !== undefined && { scheduled_publish_time: scheduled }),
    is_ad_post: false,
    by_page: true,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const cta = ctx.params.object('call_to_action');
  if (cta !== undefined) post.call_to_action = cta;
  return post;
}

function save(ctx: GraphContext, post: PostRecord): void {
  ctx.sim.store.state.posts[post.id] = post;
  ctx.sim.store.changed();
}

/** `POST /<page>/feed`: a text or link post. */
function createFeedPost(ctx: GraphContext, page: PageRecord): { id: string } {
  assertCanPost(ctx, page);
  const message = ctx.params.string('message');
  const link = ctx.params.string('link');
  if (message === undefined && link === undefined) throw errors.requiredParameter('message');
  const post = newPost(ctx, page);
  Object.assign(post, { message, link, name: ctx.params.string('name'), description: ctx.params.string('description') });
  save(ctx, post);
  return { id: post.id };
}

/** `POST /<page>/photos`: an image by `url` or as a file part → `{id: <photo>, post_id}`. */
function createPhotoPost(ctx: GraphContext, page: PageRecord): { id: string; post_id: string } {
  assertCanPost(ctx, page);
  const url = ctx.params.string('url');
  const file = ctx.files.find((f) => f.field === 'source') ?? ctx.files[0];
  if (!url && !file) throw errors.missingImageFile();
  const post = newPost(ctx, page);
  const photoId = ctx.sim.store.newId();
  // A `url` is never fetched: the simulator contacts nothing and serves a placeholder.
  Object.assign(post, {
    photo_id: photoId,
    photo_url: url ?? `${ctx.sim.baseUrl()}/__sim/media/photo-${photoId}.png`,
    message: ctx.params.string('message') ?? ctx.params.string('caption'),
  });
  save(ctx, post);
  return { id: photoId, post_id: post.id };
}

function pageSession(ctx: GraphContext, page: PageRecord) {
  const id = ctx.params.requiredString('upload_session_id');
  const s = ctx.sim.store.state.upload_sessions[id];
  if (!s || s.page_id !== page.id) throw errors.invalidParameter(`Invalid upload_session_id ${id}`, { data: { blame_field_specs: [['upload_session_id']] } });
  return s;
}

/**
 * `POST /<page>/videos` with `upload_phase` (the resumable upload): `start` with `file_size` →
 * `{video_id, upload_session_id, start_offset, end_offset}`; `transfer` chunks exactly at the
 * offsets the platform gives (`start_offset`, `video_file_chunk`), each answered with the next
 * ones (a chunk elsewhere: 1363037 with the offsets it expects); `finish` with the post's
 * fields (description, title, published, scheduled_publish_time, call_to_action) makes the post
 * → `{success: true}`; `cancel` drops it. Chunks are `video_chunk_bytes` long.
 */
function pageVideoUpload(ctx: GraphContext, page: PageRecord, phase: 'start' | 'transfer' | 'finish' | 'cancel'): unknown {
  const state = ctx.sim.store.state;
  const chunk = state.settings.video_chunk_bytes;
  let result: unknown;
  if (phase === 'start') {
    const size = ctx.params.uint('file_size');
    if (!size) throw errors.requiredParameter('file_size');
    const video: VideoRecord = { id: ctx.sim.store.newId(), account_id: '', page_id: page.id, file_size: size, failed: false, created_at: ctx.now, updated_at: ctx.now };
    state.videos[video.id] = video;
    const s = { id: ctx.sim.store.newId(), video_id: video.id, account_id: '', page_id: page.id, file_size: size, received: 0 };
    state.upload_sessions[s.id] = s;
    result = { video_id: video.id, upload_session_id: s.id, start_offset: '0', end_offset: String(Math.min(chunk, size)) };
  } else if (phase === 'transfer') {
    const s = pageSession(ctx, page);
    const expectedEnd = Math.min(s.received + chunk, s.file_size);
    const file = ctx.files.find((f) => f.field === 'video_file_chunk');
    if (!file) throw errors.requiredParameter('video_file_chunk');
    if (ctx.params.uint('start_offset') !== s.received || file.size !== expectedEnd - s.received) throw errors.videoChunkOffset(s.received, expectedEnd);
    s.received += file.size;
    result = { start_offset: String(s.received), end_offset: String(Math.min(s.received + chunk, s.file_size)) };
  } else if (phase === 'finish') {
    const s = pageSession(ctx, page);
    if (s.received < s.file_size) throw errors.videoChunkOffset(s.received, Math.min(s.received + chunk, s.file_size));
    const video = state.videos[s.video_id]!;
    const post = newPost(ctx, page);
    Object.assign(video, { post_id: post.id, title: ctx.params.string('title'), description: ctx.params.string('description') });
    markUploaded(ctx, video);
    Object.assign(post, { video_id: video.id, message: video.description, name: video.title });
    const ctaLink = (post.call_to_action?.value as { link?: unknown } | undefined)?.link;
    if (ctaLink !== undefined) post.link = String(ctaLink);
    save(ctx, post);
    delete state.upload_sessions[s.id];
    result = { success: true };
  } else {
    const s = pageSession(ctx, page);
    delete state.videos[s.video_id];
    delete state.upload_sessions[s.id];
    result = { success: true };
  }
  ctx.sim.store.changed();
  return result;
}

/** `POST /<page>/videos`: a `source` file or `file_url`; processed like an ad video → `{id: <video>}`. */
function createVideoPost(ctx: GraphContext, page: PageRecord): unknown {
  assertCanPost(ctx, page);
  const phase = ctx.params.enumValue('upload_phase', ['start', 'transfer', 'finish', 'cancel'] as const);
  if (phase) return pageVideoUpload(ctx, page, phase);
  const file = ctx.files.find((f) => f.field === 'source');
  const fileUrl = ctx.params.string('file_url');
  if (!file && !fileUrl) throw errors.requiredParameter('source');
  const post = newPost(ctx, page);
  const video: VideoRecord = {
    id: ctx.sim.store.newId(),
    account_id: '',
    page_id: page.id,
    post_id: post.id,
    title: ctx.params.string('title'),
    description: ctx.params.string('description'),
    // A `file_url` is never fetched: it counts as a 30 s video.
    file_size: file?.size ?? 30 * BYTES_PER_SECOND,
    failed: false,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  markUploaded(ctx, video);
  Object.assign(post, { video_id: video.id, message: video.description, name: video.title });
  const ctaLink = (post.call_to_action?.value as { link?: unknown } | undefined)?.link;
  if (ctaLink !== undefined) post.link = String(ctaLink);
  ctx.sim.store.state.videos[video.id] = video;
  save(ctx, post);
  return { id: video.id };
}

/** Parameters a post update takes besides the call's own (token, proof, fields). */
const POST_UPDATE_PARAMS = ['message', 'scheduled_publish_time'];

/**
 * `POST /<post>`: a new `scheduled_publish_time` (unix seconds or ISO) for a post that has not gone
 * live, inside the same window as a new one, and/or a new `message`; with the page's token. A
 * live post (published when made, or its time has come) takes no schedule: Meta's 100 for a
 * schedule on a published post. Other fields are refused [U: Meta takes more, e.g. is_hidden].
 */
function updatePost(ctx: GraphContext, post: PostRecord): { success: true } {
  assertCanPost(ctx, ctx.sim.store.state.pages[post.page_id]!);
  const other = ctx.params.names().filter((n) => !['access_token', 'appsecret_proof', 'fields', ...POST_UPDATE_PARAMS].includes(n));
  if (other.length > 0) throw errors.invalidParameter(`Param ${other[0]} is not supported on post updates`, { data: { blame_field_specs: [other] } });
  const scheduled = ctx.params.time('scheduled_publish_time');
  if (scheduled !== undefined) {
    if (postPublished(post, ctx.now)) throw errors.scheduledPublished();
    assertScheduleWindow(ctx, scheduled);
    post.scheduled_publish_time = scheduled;
  }
  const message = ctx.params.string('message');
  if (message !== undefined) post.message = message;
  post.updated_at = ctx.now;
  save(ctx, post);
  return { success: true };
}

/**
 * `DELETE /<post>` with the page's token, live or not: a scheduled one then never goes live. The
 * post is gone, so a second delete (or any call on it) answers 100 / 33, object missing. A video
 * post takes its video with it [U].
 */
function removePost(ctx: GraphContext, post: PostRecord): { success: true } {
  assertCanPost(ctx, ctx.sim.store.state.pages[post.page_id]!);
  const state = ctx.sim.store.state;
  delete state.posts[post.id];
  if (post.video_id) delete state.videos[post.video_id];
  ctx.sim.store.changed();
  return { success: true };
}

/**
 * Whether the post is being promoted: `active` while an ad using it delivers, `inactive` when
 * its ads are off or it has none [U: Meta's full value list is longer].
 */
function promotionStatus(ctx: GraphContext, post: PostRecord): string {
  const state = ctx.sim.store.state;
  const creatives = new Set(Object.values(state.creatives).filter((c) => c.effective_object_story_id === post.id).map((c) => c.id));
  if (creatives.size === 0) return 'inactive';
  const live = Object.values(state.ads).some((ad) => creatives.has(ad.creative_id) && adEffectiveStatus(ctx.sim.store, ad, ctx.now) === 'ACTIVE');
  return live ? 'active' : 'inactive';
}

export function pageNode(registry: NodeRegistry): NodeDef<PageRecord> {
  const list = (ctx: GraphContext, posts: PostRecord[]) => renderList(ctx, registry, 'post', byNewest(posts), POST_LIST_DEFAULTS);
  const read = { read: ['pages_read_engagement'] };
  // Publishing checks the page token itself (Meta's own message), not the generic scope error.
  const publish = { read: ['pages_read_engagement'], write: [] };
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
      posts: { scopes: read, get: (ctx, p) => list(ctx, publishedPosts(ctx, p)) },
      published_posts: { scopes: read, get: (ctx, p) => list(ctx, publishedPosts(ctx, p)) },
      feed: { scopes: publish, get: (ctx, p) => list(ctx, publishedPosts(ctx, p)), post: createFeedPost },
      photos: { scopes: publish, get: (ctx, p) => list(ctx, publishedPosts(ctx, p).filter((x) => x.photo_id)), post: createPhotoPost },
      videos: {
        scopes: publish,
        get: (ctx, p) => renderList(ctx, registry, 'video', Object.values(ctx.sim.store.state.videos).filter((v) => v.page_id === p.id), ['id', 'title', 'description']),
        post: createVideoPost,
      },
      scheduled_posts: { scopes: read, get: (ctx, p) => list(ctx, scheduledPosts(ctx, p)) },
      ads_posts: { scopes: { read: ['pages_read_engagement', 'pages_manage_ads'] }, get: (ctx, p) => list(ctx, adsPosts(ctx, p)) },
      // Removed from current SDKs but still how tools list dark posts [U]; served for them.
      promotable_posts: { scopes: { read: ['pages_read_engagement', 'pages_manage_ads'] }, get: (ctx, p) => list(ctx, promotablePosts(ctx, p)) },
    },
  };
}

export function postNode(): NodeDef<PostRecord> {
  const picture = (ctx: GraphContext, p: PostRecord) =>
    p.photo_url ?? (p.image_hash || p.video_id ? `${ctx.sim.baseUrl()}/__sim/media/post-${p.id}.png` : undefined);
  const mediaType = (p: PostRecord) => (p.video_id ? 'video' : p.photo_id ? 'photo' : p.link ? 'link' : undefined);
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
      status_type: (p) => (p.video_id ? 'added_video' : p.photo_id ? 'added_photos' : p.link ? 'shared_story' : 'mobile_status_update'),
      is_published: (p, ctx) => postPublished(p, ctx.now),
      // Unix seconds, as Meta gives it, while the post waits for its time.
      scheduled_publish_time: (p, ctx) => (isScheduled(p, ctx.now) ? Math.floor(p.scheduled_publish_time! / 1000) : undefined),
      is_hidden: () => false,
      is_inline_created: (p) => p.is_ad_post,
      is_eligible_for_promotion: () => true,
      promotable_id: (p) => p.id,
      promotion_status: (p, ctx) => promotionStatus(ctx, p),
      timeline_visibility: (p, ctx) => (postPublished(p, ctx.now) ? 'normal' : 'hidden'),
      attachments: (p) => {
        const type = mediaType(p);
        if (!type) return undefined;
        const target = p.video_id ? { id: p.video_id, url: p.link } : p.photo_id ? { id: p.photo_id, url: p.photo_url } : { url: p.link };
        return { data: [{ media_type: type, target, url: p.link ?? p.photo_url }] };
      },
      from: (p, ctx) => ({ id: p.page_id, name: ctx.sim.store.state.pages[p.page_id]?.name }),
      call_to_action: (p) => p.call_to_action,
    },
    defaultFields: POST_LIST_DEFAULTS,
    scopes: { read: ['pages_read_engagement', 'pages_manage_ads', 'ads_management'], write: ['pages_manage_posts'] },
    update: updatePost,
    remove: removePost,
    edges: {},
  };
}
