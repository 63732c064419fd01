import { z } from 'zod';
import { flagInput, idSchema, numberInput, pageBodySchema } from './envelope.ts';
import { callToActionSchema, PUBLISH_PATHS } from './publish.ts';
import { httpUrl, instantSchema, text } from './text.ts';

/**
 * Page posts (帖子管理 /advertising/post, issue 8): posts made in bulk on chosen pages (those the
 * caller may use whose token a personal account holds) from library materials (a video or an
 * image) or as link posts, with a text, a call to action and a link, published or not (an
 * unpublished post only shows in ads). The wizard's "existing page posts" picks from them.
 */

export const POST_PATHS = ['/advertising/post'] as const;
/** Lists are read by the post screen and by the publish wizards' step 2. */
export const POST_READ_PATHS = [...POST_PATHS, ...PUBLISH_PATHS] as const;

/** `acts`: posts one reschedule or cancel may name (each is a platform call or two, made while the caller waits). */
export const POST_LIMITS = { pages: 50, posts: 50, items: 500, acts: 100 } as const;

/**
 * How far ahead a post may be scheduled, in minutes. Meta takes 10 minutes to 30 days from the
 * call; we ask 15 minutes so that a post queued behind others still meets Meta's minimum.
 */
export const POST_SCHEDULE = { minMinutes: 15, maxDays: 30 } as const;

export const postKindSchema = z.enum(['video', 'photo', 'link']);
export type PostKind = z.infer<typeof postKindSchema>;
/** `cancelled`: a scheduled post deleted on the platform before it went live. */
export const postStatusSchema = z.enum(['pending', 'creating', 'created', 'failed', 'cancelled']);
export type PostStatus = z.infer<typeof postStatusSchema>;

/** A page the caller may post on. */
export const postPageSchema = z.object({
  id: z.number().int(),
  platform_id: z.string(),
  name: z.string(),
  picture_url: z.string().nullable(),
  /** A personal account holds a working page token (without one, posting is refused). */
  has_token: z.boolean(),
});
export type PostPage = z.infer<typeof postPageSchema>;

export const postDraftSchema = z.object({
  /** A video or image of the library; none: a link post. */
  material_id: idSchema.nullable().default(null),
  message: text().trim().min(1).max(5000),
  link: httpUrl().nullable().default(null),
  call_to_action: callToActionSchema.nullable().default(null),
});

export const createPostsBodySchema = z.object({
  page_ids: z.array(idSchema).min(1).max(POST_LIMITS.pages),
  posts: z.array(postDraftSchema).min(1).max(POST_LIMITS.posts),
  published: flagInput,
  /** A scheduled post: made unpublished, published by the platform at this instant (needs `published: false`). */
  scheduled_at: instantSchema.optional(),
})
  .refine((b) => b.scheduled_at === undefined || !b.published, { message: 'scheduled_published', path: ['scheduled_at'] })
  .refine((b) => b.page_ids.length * b.posts.length <= POST_LIMITS.items, { message: 'too_many', path: ['posts'] })
  .refine((b) => b.posts.every((p) => p.material_id !== null || p.link !== null), { message: 'link_required', path: ['posts'] })
  .refine((b) => b.posts.every((p) => p.call_to_action === null || p.link !== null), { message: 'cta_link', path: ['posts'] });
export type CreatePostsBody = z.infer<typeof createPostsBodySchema>;

export const createPostsResultSchema = z.object({ batch_id: z.string(), task_id: z.number().int(), count: z.number().int() });

/** "Retry failed": the batch's failed posts (and any left unfinished by a run that gave up) run again. */
export const retryPostsBodySchema = z.object({ batch_id: text().trim().min(1).max(64) });
export type RetryPostsBody = z.infer<typeof retryPostsBodySchema>;
export const retryPostsResultSchema = z.object({ items: z.number().int(), task_id: z.number().int() });

const postIdsSchema = z.array(idSchema).min(1).max(POST_LIMITS.acts);

/** A new time for scheduled posts made here that have not gone live yet, inside the window (POST_SCHEDULE). */
export const reschedulePostsBodySchema = z.object({ ids: postIdsSchema, scheduled_at: instantSchema });
export type ReschedulePostsBody = z.infer<typeof reschedulePostsBodySchema>;

/** Scheduled posts made here that have not gone live yet: deleted on the platform, so they never go live. */
export const cancelPostsBodySchema = z.object({ ids: postIdsSchema });
export type CancelPostsBody = z.infer<typeof cancelPostsBodySchema>;

/** One post's outcome of a reschedule or cancel; a refused post was not sent to the platform. */
export const postActResultSchema = z.object({
  id: z.number().int(),
  result: z.enum(['ok', 'failed']),
  /** Why it failed (our refusal or the platform's reason), in the caller's language. */
  error: z.string().nullable(),
});
export type PostActResult = z.infer<typeof postActResultSchema>;
export const postActResultsSchema = z.object({ results: z.array(postActResultSchema) });

export const listPostsBodySchema = pageBodySchema.extend({
  page_id: idSchema.optional(),
  status: postStatusSchema.optional(),
  published: flagInput.optional(),
  kind: postKindSchema.optional(),
  batch_id: text().trim().max(64).optional(),
  keyword: text().trim().max(100).optional(),
});
export type ListPostsBody = z.infer<typeof listPostsBodySchema>;

const ref = z.object({ id: z.number().int(), name: z.string() });

export const pagePostSchema = z.object({
  id: z.number().int(),
  batch_id: z.string(),
  page: ref.extend({ platform_id: z.string() }),
  kind: postKindSchema,
  material: ref.nullable(),
  message: z.string(),
  link: z.string().nullable(),
  call_to_action: z.string().nullable(),
  /** Live on the page: published when made, or scheduled and its time has come (never a cancelled post). */
  published: z.boolean(),
  /** A scheduled post's time (live once it has passed); null for others. */
  scheduled_at: z.string().nullable(),
  status: postStatusSchema,
  /** `<page id>_<post id>` once created: an ad's object_story_id. */
  platform_post_id: z.string().nullable(),
  /** The platform's reason, in the caller's language. */
  error: z.string().nullable(),
  created_by: ref,
  created_at: z.string(),
  posted_at: z.string().nullable(),
});
export type PagePost = z.infer<typeof pagePostSchema>;

/** The page's own posts read from the platform (any that ads may use), a cursor page at a time. */
export const listPlatformPostsBodySchema = z.object({
  page_id: idSchema,
  /** The platform's cursor of the next page (the previous answer's `after`). */
  after: text().trim().min(1).max(500).optional(),
  limit: numberInput(z.number().int().min(1).max(100)).default(25),
});
export type ListPlatformPostsBody = z.infer<typeof listPlatformPostsBodySchema>;

export const platformPostSchema = z.object({
  /** `<page id>_<post id>`: an ad's object_story_id. */
  id: z.string(),
  message: z.string().nullable(),
  created_time: z.string().nullable(),
  is_published: z.boolean(),
  media_type: postKindSchema.nullable(),
  picture: z.string().nullable(),
  link: z.string().nullable(),
  permalink: z.string().nullable(),
  /** When an unpublished post goes live by itself (a scheduled post); null otherwise. */
  scheduled_publish_time: z.string().nullable(),
  /** The row under 帖子管理 when the post was made here; null for posts made elsewhere. */
  local_id: z.number().int().nullable(),
});
export type PlatformPost = z.infer<typeof platformPostSchema>;
export const platformPostsResultSchema = z.object({ list: z.array(platformPostSchema), after: z.string().nullable() });

/** Library materials to post (the caller's scope), by name. */
export const listPostMaterialsBodySchema = pageBodySchema.extend({
  keyword: text().trim().max(100).optional(),
  kind: z.enum(['video', 'image']).optional(),
});
export type ListPostMaterialsBody = z.infer<typeof listPostMaterialsBodySchema>;
export const postMaterialSchema = z.object({ id: z.number().int(), kind: z.enum(['video', 'image']), file_name: z.string() });
export type PostMaterial = z.infer<typeof postMaterialSchema>;
