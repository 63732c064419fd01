import { ADS_READ, ADS_WRITE, CALL_TO_ACTION_TYPES } from '../domain.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { EdgeDef, NodeDef, NodeRegistry } from '../graph/node.ts';
import type { AdAccountRecord, CreativeRecord, PostRecord } from '../store/state.ts';
import type { Store } from '../store/store.ts';
import { accountTime, listEdge, userCanUseAccount } from './common.ts';
import { imageUrl } from './images.ts';
import { videoState } from './videos.ts';

// Ad creatives (reference §6): an existing page post (`object_story_id`) or an
// `object_story_spec`, which creates an unpublished ("dark") page post. Immutable except
// name and status.

const STORY_KINDS = ['link_data', 'video_data', 'photo_data', 'text_data', 'template_data'] as const;

type Spec = Record<string, unknown>;
const asSpec = (v: unknown): Spec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Spec) : undefined);

function usablePage(ctx: GraphContext, pageId: string, field: string[]) {
  const page = ctx.sim.store.state.pages[pageId];
  if (!page || !page.user_ids.includes(ctx.token.user_id)) {
    throw errors.invalidParameter(`The page ${pageId} is not available to you`, { data: { blame_field_specs: [field] } });
  }
  // Using a page in ads needs pages_manage_ads (reference §8).
  ctx.sim.tokens.requireScope(ctx.token, ['pages_manage_ads']);
  return page;
}

function assertImage(ctx: GraphContext, accountId: string, hash: unknown, field: string[]): void {
  if (hash === undefined) return;
  const image = ctx.sim.store.state.images[`${accountId}:${String(hash)}`];
  if (!image || image.status !== 'ACTIVE') throw errors.invalidParameter(`Invalid image hash ${String(hash)}`, { data: { blame_field_specs: [field] } });
}

function assertCallToAction(cta: unknown, field: string[]): void {
  const spec = asSpec(cta);
  if (cta !== undefined && (!spec || !(CALL_TO_ACTION_TYPES as readonly string[]).includes(String(spec.type)))) {
    throw errors.invalidEnum([...field, 'type'].join('.'), CALL_TO_ACTION_TYPES);
  }
}

/** Validates an object_story_spec and returns the dark post it creates. */
function storyFromSpec(ctx: GraphContext, accountId: string, spec: Spec): { post: PostRecord; objectType: string } {
  const pageId = spec.page_id === undefined ? undefined : String(spec.page_id);
  if (!pageId) throw errors.requiredParameter('object_story_spec[page_id]');
  usablePage(ctx, pageId, ['object_story_spec', 'page_id']);
  const kinds = STORY_KINDS.filter((k) => spec[k] !== undefined);
  if (kinds.length !== 1) throw errors.invalidParameter(`object_story_spec needs exactly one of ${STORY_KINDS.join(', ')}`, { data: { blame_field_specs: [['object_story_spec']] } });
  const kind = kinds[0]!;
  const data = asSpec(spec[kind]);
  if (!data) throw errors.invalidParameter(`object_story_spec[${kind}] must be an object`);

  const post: PostRecord = {
    id: `${pageId}_${ctx.sim.store.newId()}`,
    page_id: pageId,
    message: data.message === undefined ? undefined : String(data.message),
    is_published: false,
    is_ad_post: true,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const cta = asSpec(data.call_to_action);
  assertCallToAction(data.call_to_action, ['object_story_spec', kind, 'call_to_action']);
  post.call_to_action = cta;
  const ctaLink = asSpec(cta?.value)?.link;

  if (kind === 'video_data') {
    if (data.video_id === undefined) throw errors.requiredParameter('object_story_spec[video_data][video_id]');
    if (data.image_hash === undefined && data.image_url === undefined) throw errors.videoThumbnailMissing();
    const videoId = String(data.video_id);
    const video = ctx.sim.store.state.videos[videoId];
    if (!video || video.account_id !== accountId) {
      throw errors.invalidParameter(`The video ${videoId} does not exist in this ad account`, { data: { blame_field_specs: [['object_story_spec', 'video_data', 'video_id']] } });
    }
    if (videoState(video, ctx.now).status !== 'ready') throw errors.videoNotReady(videoId);
    assertImage(ctx, accountId, data.image_hash, ['object_story_spec', 'video_data', 'image_hash']);
    Object.assign(post, { video_id: videoId, image_hash: data.image_hash, name: data.title, description: data.link_description, link: ctaLink });
    return { post, objectType: 'VIDEO' };
  }
  if (kind === 'link_data') {
    if (data.link === undefined) throw errors.requiredParameter('object_story_spec[link_data][link]');
    assertImage(ctx, accountId, data.image_hash, ['object_story_spec', 'link_data', 'image_hash']);
    Object.assign(post, { link: String(data.link), image_hash: data.image_hash, name: data.name, description: data.description });
    return { post, objectType: 'SHARE' };
  }
  if (kind === 'photo_data') {
    assertImage(ctx, accountId, data.image_hash, ['object_story_spec', 'photo_data', 'image_hash']);
    Object.assign(post, { image_hash: data.image_hash, message: data.caption ?? post.message, link: ctaLink });
    return { post, objectType: 'PHOTO' };
  }
  return { post: { ...post, link: ctaLink === undefined ? undefined : String(ctaLink) }, objectType: 'STATUS' };
}

/** Meta's ad formats of a dynamic creative's asset feed; AUTOMATIC_FORMAT mixes images and videos. */
const FEED_FORMATS = ['SINGLE_IMAGE', 'SINGLE_VIDEO', 'CAROUSEL_IMAGE', 'AUTOMATIC_FORMAT'] as const;
/** Asset counts Meta allows in one dynamic creative (Dynamic Creative guide). */
export const FEED_LIMITS = { media: 10, texts: 5 } as const;

/**
 * A dynamic creative's asset feed (Dynamic Creative guide, asset feed spec options): one ad
 * format; images (by hash, in the account's library) for image formats, videos (the account's)
 * for SINGLE_VIDEO, either for AUTOMATIC_FORMAT; at most 10 of each, 5 bodies, titles and
 * descriptions; a website link; the story spec names the page only.
 */
function assertAssetFeed(ctx: GraphContext, accountId: string, feed: Spec, story: Spec | undefined): void {
  const list = (k: string): Spec[] => {
    const v = feed[k];
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw errors.assetFeedInvalid(`asset_feed_spec.${k} must be an array`, `asset_feed_spec.${k}`);
    return v.map((x) => asSpec(x) ?? {});
  };
  const formats = Array.isArray(feed.ad_formats) ? feed.ad_formats.map(String) : [];
  if (formats.length !== 1 || !(FEED_FORMATS as readonly string[]).includes(formats[0]!)) {
    throw errors.assetFeedInvalid(`asset_feed_spec.ad_formats must name one of ${FEED_FORMATS.join(', ')}`, 'asset_feed_spec.ad_formats');
  }
  const format = formats[0]!;
  const images = list('images');
  const videos = list('videos');
  if (images.length > FEED_LIMITS.media || videos.length > FEED_LIMITS.media) throw errors.assetFeedInvalid(`A dynamic creative takes at most ${FEED_LIMITS.media} images and ${FEED_LIMITS.media} videos`, images.length > FEED_LIMITS.media ? 'asset_feed_spec.images' : 'asset_feed_spec.videos');
  if (format === 'SINGLE_VIDEO' && (!videos.length || images.length)) throw errors.assetFeedInvalid('SINGLE_VIDEO needs videos and no images; use AUTOMATIC_FORMAT to mix them', 'asset_feed_spec.ad_formats');
  if ((format === 'SINGLE_IMAGE' || format === 'CAROUSEL_IMAGE') && (!images.length || videos.length)) throw errors.assetFeedInvalid(`${format} needs images and no videos; use AUTOMATIC_FORMAT to mix them`, 'asset_feed_spec.ad_formats');
  if (format === 'AUTOMATIC_FORMAT' && !images.length && !videos.length) throw errors.assetFeedInvalid('AUTOMATIC_FORMAT needs images or videos', 'asset_feed_spec.ad_formats');
  for (const img of images) {
    if (img.hash === undefined ? img.url === undefined : !ctx.sim.store.state.images[`${accountId}:${String(img.hash)}`]) throw errors.assetFeedInvalid(`Image ${String(img.hash ?? '')} is not in the ad account's library`, 'asset_feed_spec.images');
  }
  for (const v of videos) {
    const video = ctx.sim.store.state.videos[String(v.video_id)];
    if (!video || video.account_id !== accountId) throw errors.assetFeedInvalid(`Video ${String(v.video_id ?? '')} does not belong to the ad account`, 'asset_feed_spec.videos');
    if (videoState(video, ctx.now).status !== 'ready') throw errors.videoNotReady(video.id);
  }
  for (const k of ['bodies', 'titles', 'descriptions'] as const) {
    const texts = list(k);
    if (texts.length > FEED_LIMITS.texts) throw errors.assetFeedInvalid(`A dynamic creative takes at most ${FEED_LIMITS.texts} ${k}`, `asset_feed_spec.${k}`);
    if (texts.some((t) => typeof t.text !== 'string' || !t.text.trim())) throw errors.assetFeedInvalid(`Every entry of asset_feed_spec.${k} needs a text`, `asset_feed_spec.${k}`);
  }
  const links = list('link_urls');
  if (!links.length || links.some((l) => typeof l.website_url !== 'string')) throw errors.assetFeedInvalid('asset_feed_spec.link_urls needs a website_url', 'asset_feed_spec.link_urls');
  if (story && (story.link_data !== undefined || story.video_data !== undefined || story.photo_data !== undefined)) {
    throw errors.assetFeedInvalid('With asset_feed_spec, object_story_spec names the page only (the assets come from the feed)', 'object_story_spec');
  }
}

/** Builds a creative from creative parameters (a create call or an inline ad creative). */
function buildCreative(ctx: GraphContext, accountId: string, input: Spec): CreativeRecord {
  const creative: CreativeRecord = {
    id: '',
    account_id: accountId,
    name: input.name === undefined ? undefined : String(input.name),
    status: 'ACTIVE',
    object_type: 'SHARE',
    url_tags: input.url_tags === undefined ? undefined : String(input.url_tags),
    degrees_of_freedom_spec: asSpec(input.degrees_of_freedom_spec),
    asset_feed_spec: asSpec(input.asset_feed_spec),
    created_at: ctx.now,
  };
  const feed = asSpec(input.asset_feed_spec);
  if (feed) {
    const story = asSpec(input.object_story_spec);
    assertAssetFeed(ctx, accountId, feed, story);
    if (!story?.page_id) throw errors.requiredParameter('object_story_spec');
    usablePage(ctx, String(story.page_id), ['object_story_spec', 'page_id']);
    creative.object_story_spec = story;
    creative.object_type = Array.isArray(feed.videos) && feed.videos.length ? 'VIDEO' : 'SHARE';
  } else if (input.object_story_id !== undefined) {
    const postId = String(input.object_story_id);
    const post = ctx.sim.store.state.posts[postId];
    if (!post) throw errors.invalidParameter(`The post ${postId} does not exist`, { data: { blame_field_specs: [['object_story_id']] } });
    usablePage(ctx, post.page_id, ['object_story_id']);
    // A page video post can run once its video is processed, like a video creative.
    const video = post.video_id ? ctx.sim.store.state.videos[post.video_id] : undefined;
    if (video && videoState(video, ctx.now).status !== 'ready') throw errors.videoNotReady(video.id);
    creative.object_story_id = postId;
    creative.effective_object_story_id = postId;
    creative.object_type = post.video_id ? 'VIDEO' : post.photo_id ? 'PHOTO' : post.link ? 'SHARE' : 'STATUS';
  } else {
    const spec = asSpec(input.object_story_spec);
    if (!spec) throw errors.requiredParameter('object_story_spec');
    const { post, objectType } = storyFromSpec(ctx, accountId, spec);
    if (!ctx.validateOnly) ctx.sim.store.state.posts[post.id] = post;
    creative.object_story_spec = spec;
    creative.effective_object_story_id = post.id;
    creative.object_type = objectType;
  }
  // validate_only: every check above ran; nothing is stored.
  if (ctx.validateOnly) return creative;
  creative.id = ctx.sim.store.newId();
  ctx.sim.store.state.creatives[creative.id] = creative;
  ctx.sim.store.changed();
  return creative;
}

/** Parameters arrive as JSON text in form fields; normalise them into a spec object. */
export function createCreative(ctx: GraphContext, account: AdAccountRecord): { id: string } | { success: true } {
  const p = ctx.params;
  const input: Spec = {
    name: p.string('name'),
    object_story_id: p.string('object_story_id'),
    object_story_spec: p.object('object_story_spec'),
    url_tags: p.string('url_tags'),
    degrees_of_freedom_spec: p.object('degrees_of_freedom_spec'),
    asset_feed_spec: p.object('asset_feed_spec'),
  };
  const creative = buildCreative(ctx, account.id, input);
  return ctx.validateOnly ? { success: true } : { id: creative.id };
}

export function createCreativeFromSpec(ctx: GraphContext, accountId: string, spec: Spec): CreativeRecord {
  return buildCreative(ctx, accountId, spec);
}

/** The destination link of a creative (its post's link or call-to-action link), if any. */
export function creativeLink(store: Store, creative: CreativeRecord): string | undefined {
  const postId = creative.effective_object_story_id;
  const post = postId ? store.state.posts[postId] : undefined;
  const ctaLink = asSpec(asSpec(post?.call_to_action)?.value)?.link;
  const link = post?.link ?? (ctaLink === undefined ? undefined : String(ctaLink));
  return link;
}

function storyData(store: Store, c: CreativeRecord): PostRecord | undefined {
  return c.effective_object_story_id ? store.state.posts[c.effective_object_story_id] : undefined;
}

export function creativeNode(): NodeDef<CreativeRecord> {
  return {
    kind: 'creative',
    typeName: 'AdCreative',
    load: (ctx, id) => ctx.sim.store.state.creatives[id],
    visible: (ctx, c) => userCanUseAccount(ctx, ctx.sim.store.account(c.account_id)),
    accountId: (c) => c.account_id,
    fields: {
      id: (c) => c.id,
      account_id: (c) => c.account_id,
      name: (c) => c.name,
      status: (c) => c.status,
      object_story_id: (c) => c.object_story_id,
      object_story_spec: (c) => c.object_story_spec,
      effective_object_story_id: (c) => c.effective_object_story_id,
      url_tags: (c) => c.url_tags,
      degrees_of_freedom_spec: (c) => c.degrees_of_freedom_spec,
      asset_feed_spec: (c) => c.asset_feed_spec,
      object_type: (c) => c.object_type,
      body: (c, ctx) => storyData(ctx.sim.store, c)?.message,
      title: (c, ctx) => storyData(ctx.sim.store, c)?.name,
      link_url: (c, ctx) => creativeLink(ctx.sim.store, c),
      image_hash: (c, ctx) => storyData(ctx.sim.store, c)?.image_hash,
      image_url: (c, ctx) => {
        const hash = storyData(ctx.sim.store, c)?.image_hash;
        return hash === undefined ? undefined : imageUrl(ctx, String(hash));
      },
      thumbnail_url: (c, ctx) => {
        const post = storyData(ctx.sim.store, c);
        return `${ctx.sim.baseUrl()}/__sim/media/thumb-${post?.image_hash ?? post?.video_id ?? c.id}.png`;
      },
      video_id: (c, ctx) => storyData(ctx.sim.store, c)?.video_id,
      call_to_action_type: (c, ctx) => asSpec(storyData(ctx.sim.store, c)?.call_to_action)?.type,
      instagram_user_id: (c) => (c.object_story_spec?.instagram_user_id === undefined ? undefined : String(c.object_story_spec.instagram_user_id)),
      created_time: (c, ctx) => accountTime(ctx, c.account_id, c.created_at),
    },
    defaultFields: ['id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    update: (ctx, c) => {
      const touched = ctx.params.names().filter((n) => !['access_token', 'appsecret_proof', 'fields', 'name', 'status'].includes(n));
      if (touched.length > 0) {
        throw errors.invalidParameter('Ad creatives cannot be edited except name and status; create a new creative instead', { data: { blame_field_specs: [touched] } });
      }
      const name = ctx.params.string('name');
      if (name !== undefined) c.name = name;
      const status = ctx.params.enumValue('status', ['ACTIVE', 'DELETED'] as const);
      if (status !== undefined) c.status = status;
      ctx.sim.store.changed();
      return { success: true };
    },
    remove: (ctx, c) => {
      c.status = 'DELETED';
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {},
  };
}

export function accountCreativesEdge(registry: NodeRegistry): EdgeDef<AdAccountRecord> {
  return {
    get: (ctx, a) => listEdge(ctx, registry, 'creative', Object.values(ctx.sim.store.state.creatives).filter((c) => c.account_id === a.id && c.status !== 'DELETED')),
    post: (ctx, a) => createCreative(ctx, a),
    validateOnly: true,
  };
}
