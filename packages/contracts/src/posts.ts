import { z } from 'zod';
import { flagInput, idSchema, pageBodySchema } from './envelope.ts';
import { callToActionSchema, PUBLISH_PATHS } from './publish.ts';
import { httpUrl, text } from './text.ts';

/**
 * Page posts (帖子管理 /advertising/post, issue 8): posts made in bulk on chosen pages (those the
 * caller may use whose token a personal account holds) from library materials (a video or an
 * image) or as link posts, with a text, a call to action and a link, published or not (an
 * unpublished post only shows in ads). The wizard's "existing page posts" picks from them.
 */

export const POST_PATHS = ['/advertising/post'] as const;
/** Lists are read by the post screen and by the publish wizards' step 2. */
export const POST_READ_PATHS = [...POST_PATHS, ...PUBLISH_PATHS] as const;

export const POST_LIMITS = { pages: 50, posts: 50, items: 500 } as const;

export const postKindSchema = z.enum(['video', 'photo', 'link']);
export type PostKind = z.infer<typeof postKindSchema>;
export const postStatusSchema = z.enum(['pending', 'creating', 'created', 'failed']);
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
})
  .refine((b) => b.page_ids.length * b.posts.length <= POST_LIMITS.items, { message: 'too_many', path: ['posts'] })
  .refine((b) => b.posts.every((p) => p.material_id !== null || p.link !== null), { message: 'link_required', path: ['posts'] })
  .refine((b) => b.posts.every((p) => p.call_to_action === null || p.link !== null), { message: 'cta_link', path: ['posts'] });
export type CreatePostsBody = z.infer<typeof createPostsBodySchema>;

export const createPostsResultSchema = z.object({ batch_id: z.string(), task_id: z.number().int(), count: z.number().int() });

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
  published: z.boolean(),
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

/** Library materials to post (the caller's scope), by name. */
export const listPostMaterialsBodySchema = pageBodySchema.extend({
  keyword: text().trim().max(100).optional(),
  kind: z.enum(['video', 'image']).optional(),
});
export type ListPostMaterialsBody = z.infer<typeof listPostMaterialsBodySchema>;
export const postMaterialSchema = z.object({ id: z.number().int(), kind: z.enum(['video', 'image']), file_name: z.string() });
export type PostMaterial = z.infer<typeof postMaterialSchema>;
