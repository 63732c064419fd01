import { z } from 'zod';
import { pageResultSchema } from '../envelope.ts';
import { createPostsBodySchema, createPostsResultSchema, listPostMaterialsBodySchema, listPostsBodySchema, postMaterialSchema, pagePostSchema, POST_PATHS, POST_READ_PATHS, postPageSchema, listPlatformPostsBodySchema, platformPostsResultSchema, retryPostsBodySchema, retryPostsResultSchema, reschedulePostsBodySchema, cancelPostsBodySchema, postActResultsSchema } from '../posts.ts';
import { define } from './define.ts';

// Page posts (帖子管理, issue 8). The server checks that every page is one the caller may use and
// every material is in their scope; lists show the posts of people in the caller's scope.

export const pagePosts = {
  pages: define({ path: '/page-posts/pages', answer: z.object({ list: z.array(postPageSchema) }), allow: POST_READ_PATHS, tag: 'posts', summary: 'Pages the caller may post on, with whether a page token is held' }),
  materials: define({ path: '/page-posts/materials', body: listPostMaterialsBodySchema, answer: pageResultSchema(postMaterialSchema), allow: POST_PATHS, tag: 'posts', summary: 'Videos and images of the library in the caller’s scope, to post' }),
  create: define({ path: '/page-posts/create', body: createPostsBodySchema, answer: createPostsResultSchema, allow: POST_PATHS, tag: 'posts', summary: 'Queues posts (every post on every chosen page) as one batch; per-item results' }),
  platform: define({ path: '/page-posts/platform', body: listPlatformPostsBodySchema, answer: platformPostsResultSchema, allow: POST_READ_PATHS, tag: 'posts', summary: 'The page’s existing posts read from the platform (published, unpublished, scheduled), cursor-paged, each marked when made here' }),
  retry_failed: define({ path: '/page-posts/retry_failed', body: retryPostsBodySchema, answer: retryPostsResultSchema, allow: POST_PATHS, tag: 'posts', summary: 'Runs a batch’s failed posts again (only those), looking each up on the platform before it is resent' }),
  reschedule: define({ path: '/page-posts/reschedule', body: reschedulePostsBodySchema, answer: postActResultsSchema, allow: POST_PATHS, tag: 'posts', summary: 'Moves scheduled posts made here that have not gone live to a new time inside the window; per-post results' }),
  cancel: define({ path: '/page-posts/cancel', body: cancelPostsBodySchema, answer: postActResultsSchema, allow: POST_PATHS, tag: 'posts', summary: 'Deletes scheduled posts made here from their pages before they go live; per-post results' }),
  list: define({ path: '/page-posts/list', body: listPostsBodySchema, answer: pageResultSchema(pagePostSchema), allow: POST_READ_PATHS, tag: 'posts', summary: 'Posts made here, per page, with status, material and link' }),
};
