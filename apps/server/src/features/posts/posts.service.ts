import { randomUUID } from 'node:crypto';
import { both, type CreatePostsBody, type ListPostMaterialsBody, type ListPostsBody, type PostMaterial, type PagePost, type PostPage } from '@ads/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { defineJob, type JobContext } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { secretBoxFor, SecretUnreadableError } from '../../lib/crypto.ts';
import { forAssets, seesEverything, visibleAdAccountIds, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import type { Jobs } from '../../jobs/types.ts';
import { PlatformError } from '../../platform/types.ts';
import { platformDetail } from '../../lib/platform-errors.ts';
import { materialBytes, type MaterialService } from '../materials/materials.service.ts';
import { escapeLike } from '../../lib/sql.ts';

// Page posts (帖子管理): a bulk create stores one row per (post, page) and queues a job per person
// (`poster:<user>`) that makes them with each page's token. A row goes pending → creating (the
// call went out) → created | failed; a run that finds a row `creating` (its answer was lost, or
// the server died) looks the post up by message and material before it sends it again.

export const POSTS_JOB = 'page-posts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Pages the actor may post on: every page for wide scopes; else theirs, or those of ad accounts in scope. */
async function usablePages(db: Db, actor: ScopeActor, ids?: readonly number[]) {
  const a = await forAssets(db, actor);
  let q = db.selectFrom('pages as p').select(['p.id', 'p.platform_id', 'p.name', 'p.picture_url']);
  if (ids) q = q.where('p.id', 'in', ids.length ? [...ids] : [0]);
  if (!seesEverything(a)) {
    const accounts = await visibleAdAccountIds(db, a);
    q = q.where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('page_users as u').select('u.page_id').whereRef('u.page_id', '=', 'p.id').where('u.user_id', '=', a.id)),
        eb.exists(eb.selectFrom('page_ad_accounts as x').select('x.page_id').whereRef('x.page_id', '=', 'p.id').where('x.ad_account_id', 'in', accounts?.length ? accounts : [0])),
      ]),
    );
  }
  return q
    .select(
      sql<SqlBool>`exists (select 1 from personal_account_pages pp join personal_accounts pa on pa.id = pp.personal_account_id
        where pp.page_id = p.id and pp.reachable and pp.page_token_enc is not null and pa.token_enc is not null and pa.status <> 'invalid')`.as('has_token'),
    )
    .orderBy('p.name')
    .execute();
}

export interface PostServiceDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  materials: MaterialService;
}

export function createPostService({ db, clock, jobs, materials }: PostServiceDeps) {
  return {
    async pages(ctx: RequestContext): Promise<{ list: PostPage[] }> {
      const rows = await usablePages(db, ctx.actor);
      return { list: rows.map((r) => ({ ...r, has_token: Boolean(r.has_token) })) };
    },

    async materials(ctx: RequestContext, body: ListPostMaterialsBody): Promise<{ list: PostMaterial[]; total: number }> {
      const page = await materials.list(ctx, { page: body.page, page_size: body.page_size, ...(body.keyword && { keyword: body.keyword }), ...(body.kind && { kind: body.kind }) });
      return { total: page.total, list: page.list.map((m) => ({ id: m.id, kind: m.kind, file_name: m.file_name })) };
    },

    async create(ctx: RequestContext, body: CreatePostsBody): Promise<{ batch_id: string; task_id: number; count: number }> {
      const pageIds = [...new Set(body.page_ids)];
      const pages = await usablePages(db, ctx.actor, pageIds);
      if (pages.length !== pageIds.length) throw new AppError('POST_PAGE_NOT_ALLOWED', {}, 'page_ids');
      const noToken = pages.find((p) => !p.has_token);
      if (noToken) throw new AppError('POST_PAGE_NO_TOKEN', {}, 'page_ids');
      const materialIds = [...new Set(body.posts.map((p) => p.material_id).filter((m): m is number => m !== null))];
      const visible = new Map((await materials.visibleForPublish(ctx.actor, materialIds)).map((m) => [m.id, m]));
      if (visible.size !== materialIds.length) throw new AppError('POST_MATERIAL_NOT_FOUND', {}, 'posts');
      const batchId = randomUUID();
      const now = clock.now();
      const rows = pageIds.flatMap((pageId) =>
        body.posts.map((p) => ({
          batch_id: batchId,
          page_id: pageId,
          kind: p.material_id === null ? ('link' as const) : visible.get(p.material_id)!.kind === 'video' ? ('video' as const) : ('photo' as const),
          material_id: p.material_id,
          message: p.message,
          link: p.link,
          call_to_action: p.call_to_action,
          published: body.published,
          created_by: ctx.actor.id,
          created_at: now,
          updated_at: now,
        })),
      );
      const taskId = await db.transaction().execute(async (trx) => {
        await trx.insertInto('page_posts').values(rows).execute();
        const id = await jobs.enqueue(POSTS_JOB, { batch_id: batchId }, { createdBy: ctx.actor.id, key: `poster:${ctx.actor.id}`, trx });
        await trx.updateTable('page_posts').set({ task_id: id }).where('batch_id', '=', batchId).execute();
        return id;
      });
      return { batch_id: batchId, task_id: taskId, count: rows.length };
    },

    async list(ctx: RequestContext, body: ListPostsBody): Promise<{ list: PagePost[]; total: number }> {
      let q = db
        .selectFrom('page_posts as x')
        .innerJoin('pages as p', 'p.id', 'x.page_id')
        .innerJoin('users as u', 'u.id', 'x.created_by')
        .leftJoin('materials as m', 'm.id', 'x.material_id');
      const users = await visibleUserIds(db, ctx.actor);
      if (users) q = q.where('x.created_by', 'in', users.length ? users : [0]);
      if (body.page_id) q = q.where('x.page_id', '=', body.page_id);
      if (body.status) q = q.where('x.status', '=', body.status);
      if (body.published !== undefined) q = q.where('x.published', '=', body.published);
      if (body.kind) q = q.where('x.kind', '=', body.kind);
      if (body.batch_id) q = q.where('x.batch_id', '=', body.batch_id);
      if (body.keyword) q = q.where('x.message', 'ilike', `%${escapeLike(body.keyword)}%`);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['x.id', 'x.batch_id', 'x.kind', 'x.message', 'x.link', 'x.call_to_action', 'x.published', 'x.status', 'x.platform_post_id', 'x.error', 'x.error_en', 'x.created_at', 'x.posted_at'])
        .select(['p.id as page_id', 'p.name as page_name', 'p.platform_id as page_platform_id', 'u.id as user_id', 'u.name as user_name', 'm.id as material_id', 'm.file_name as material_name'])
        .orderBy('x.id', 'desc')
        .limit(body.page_size)
        .offset((body.page - 1) * body.page_size)
        .execute();
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          batch_id: r.batch_id,
          page: { id: r.page_id, name: r.page_name, platform_id: r.page_platform_id },
          kind: r.kind,
          material: r.material_id ? { id: r.material_id, name: r.material_name ?? '' } : null,
          message: r.message,
          link: r.link,
          call_to_action: r.call_to_action,
          published: r.published,
          status: r.status,
          platform_post_id: r.platform_post_id,
          error: ctx.lang === 'en' ? (r.error_en ?? r.error) : r.error,
          created_by: { id: r.user_id, name: r.user_name },
          created_at: iso(r.created_at)!,
          posted_at: iso(r.posted_at),
        })),
      };
    },
  };
}

export type PostService = ReturnType<typeof createPostService>;

/** The page's token from a personal account that holds one (the first that decrypts). */
async function pageToken(ctx: JobContext<unknown>, pageId: number): Promise<string | null> {
  const secrets = secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log, ctx.config.tokenEncryptionKeyPrevious);
  const rows = await ctx.db
    .selectFrom('personal_account_pages as pp')
    .innerJoin('personal_accounts as pa', 'pa.id', 'pp.personal_account_id')
    .select('pp.page_token_enc')
    .where('pp.page_id', '=', pageId)
    .where('pp.reachable', '=', true)
    .where('pp.page_token_enc', 'is not', null)
    .where('pa.token_enc', 'is not', null)
    .where('pa.status', '<>', 'invalid')
    .orderBy('pa.status')
    .execute();
  for (const r of rows) {
    try {
      return await secrets.decrypt(r.page_token_enc!);
    } catch (err) {
      if (!(err instanceof SecretUnreadableError)) throw err;
    }
  }
  return null;
}

/** Makes a batch's posts; a retry (or a restart) resumes, looking up calls whose answer was lost. */
export const pagePostsJob = defineJob<{ batch_id: string }>({
  name: POSTS_JOB,
  title: { zh: '批量发帖', en: 'Create page posts' },
  description: { zh: '用主页令牌在所选主页上创建帖子（视频、图片或链接），逐条记录结果；中断后先查找再重发，不重复发帖。', en: 'Creates posts (video, photo or link) on the chosen pages with their page tokens, one result per post; after an interruption it looks a post up before sending it again.' },
  defaultSchedule: null,
  retryLimit: 3,
  // A retry looks the lost post up first: no reason to wait long.
  retryDelaySeconds: 2,
  expireInSeconds: 3600,
  concurrency: { perKey: true, max: 4 },
  async run(ctx) {
    const { db, clock } = ctx;
    const rows = await db
      .selectFrom('page_posts as x')
      .innerJoin('pages as p', 'p.id', 'x.page_id')
      .select(['x.id', 'x.page_id', 'x.kind', 'x.material_id', 'x.message', 'x.link', 'x.call_to_action', 'x.published', 'x.status', 'p.platform_id as page_platform_id'])
      .where('x.batch_id', '=', ctx.data.batch_id)
      .orderBy('x.id')
      .execute();
    const names = new Map((await db.selectFrom('materials').select(['id', 'file_name']).where('id', 'in', [0, ...rows.map((r) => r.material_id ?? 0)]).execute()).map((m) => [m.id, m.file_name]));
    const tokens = new Map<number, Promise<string | null>>();
    const fail = (id: number, text: { zh: string; en: string }) => db.updateTable('page_posts').set({ status: 'failed', error: text.zh, error_en: text.en, updated_at: clock.now() }).where('id', '=', id).execute();
    const created = (id: number, r: { postId: string; mediaId: string | null }) =>
      db.updateTable('page_posts').set({ status: 'created', platform_post_id: r.postId, platform_media_id: r.mediaId, error: null, error_en: null, posted_at: clock.now(), updated_at: clock.now() }).where('id', '=', id).execute();
    for (const [i, r] of rows.entries()) {
      ctx.signal.throwIfAborted();
      await ctx.progress(i, rows.length);
      if (r.status === 'created' || r.status === 'failed') continue;
      if (!tokens.has(r.page_id)) tokens.set(r.page_id, pageToken(ctx, r.page_id));
      const token = await tokens.get(r.page_id)!;
      if (!token) {
        await fail(r.id, both('POST_PAGE_NO_TOKEN'));
        continue;
      }
      const fileName = r.material_id ? names.get(r.material_id) : undefined;
      // The video's title: how a lost create is told apart from other posts of the same text.
      const title = fileName ? fileName.replace(/\.[^.]+$/, '') : null;
      const input = { kind: r.kind, message: r.message, title };
      if (r.status === 'creating') {
        // The call went out before: it may have been applied. Posts already recorded are not it.
        const known = new Set((await db.selectFrom('page_posts').select('platform_post_id').where('page_id', '=', r.page_id).where('platform_post_id', 'is not', null).execute()).map((k) => k.platform_post_id!));
        const found = await ctx.platform.findPagePost(token, r.page_platform_id, input, known, { signal: ctx.signal });
        if (found) {
          await created(r.id, found);
          continue;
        }
      }
      const file = r.material_id ? await materialBytes(db, ctx.config.materials.storage, r.material_id) : null;
      if (r.material_id && !file) {
        await fail(r.id, both('POST_MATERIAL_NOT_FOUND'));
        continue;
      }
      await db.updateTable('page_posts').set({ status: 'creating', attempts: sql`attempts + 1`, updated_at: clock.now() }).where('id', '=', r.id).execute();
      try {
        const out = await ctx.platform.createPagePost(
          token,
          r.page_platform_id,
          { ...input, link: r.link, callToAction: r.call_to_action, published: r.published, file: file ? { data: file.data, filename: file.filename, ...(file.contentType && { contentType: file.contentType }) } : null },
          { signal: ctx.signal },
        );
        await created(r.id, out);
      } catch (err) {
        // A lost answer or a limit: the run is retried and looks the post up first.
        if (ctx.signal.aborted || !(err instanceof PlatformError) || err.retryable) throw err;
        const detail = platformDetail(err);
        await fail(r.id, { zh: detail, en: detail });
      }
    }
    const counts = await db
      .selectFrom('page_posts')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .where('batch_id', '=', ctx.data.batch_id)
      .groupBy('status')
      .execute();
    const n = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
    const summary = { ok: n('created'), failed: n('failed') };
    await ctx.progress(rows.length, rows.length);
    return { status: summary.ok === 0 && summary.failed > 0 ? 'failed' : 'success', summary, message: both('JOB_POSTS_DONE', summary) };
  },
});
