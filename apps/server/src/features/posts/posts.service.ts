import { randomUUID } from 'node:crypto';
import { both, POST_SCHEDULE, type Bilingual, type CancelPostsBody, type CreatePostsBody, type ListPostMaterialsBody, type ListPostsBody, type ListPlatformPostsBody, type PlatformPost, type PostActResult, type ReschedulePostsBody, type RetryPostsBody, type PostMaterial, type PagePost, type PostPage } from '@ads/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { defineJob, type JobContext } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { secretBoxFor, SecretUnreadableError, type SecretBox } from '../../lib/crypto.ts';
import { forAssets, seesEverything, visibleAdAccountIds, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import type { Jobs } from '../../jobs/types.ts';
import { PlatformError, type AdPlatformClient } from '../../platform/types.ts';
import { platformDetail, requirePlatform, toAppError } from '../../lib/platform-errors.ts';
import { materialBytes, type MaterialService } from '../materials/materials.service.ts';
import { escapeLike } from '../../lib/sql.ts';
import { writeAudit } from '../audit/audit.service.ts';

// Page posts (帖子管理): a bulk create stores one row per (post, page) and queues a job per person
// (`poster:<user>`) that makes them with each page's token. A row goes pending → creating (the
// call went out) → created | failed; a run that finds a row `creating` (its answer was lost, or
// the server died) looks the post up by message and material before it sends it again. A
// created post still scheduled can be moved to another time, or cancelled (deleted on the
// platform) → cancelled.

export const POSTS_JOB = 'page-posts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Posts acted on at once by a reschedule or cancel: the platform calls of a few overlap, not a hundred. */
const ACT_CONCURRENCY = 4;

/** Refuses a schedule outside the window (POST_SCHEDULE, a little inside Meta's own). */
function assertScheduleWindow(at: Date, now: Date): void {
  const ahead = at.getTime() - now.getTime();
  if (ahead < POST_SCHEDULE.minMinutes * 60_000 || ahead > POST_SCHEDULE.maxDays * 86_400_000) {
    throw new AppError('POST_SCHEDULE_WINDOW', { min: POST_SCHEDULE.minMinutes, max: POST_SCHEDULE.maxDays }, 'scheduled_at');
  }
}

/** A platform failure (or our refusal) in both languages: our words for its kind, with its own reason; null for anything else. */
function failureText(err: unknown): Bilingual | null {
  if (err instanceof PlatformError && err.kind === 'not_found') return both('POST_GONE');
  const app = toAppError(err);
  return app instanceof AppError ? both(app.key, app.params) : null;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

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
  /** Reads the pages' existing posts; without one, that list says the platform is not configured. */
  platform?: AdPlatformClient;
  secrets: SecretBox;
}

export function createPostService({ db, clock, jobs, materials, platform, secrets }: PostServiceDeps) {
  type ActRow = { id: number; page_id: number; status: string; scheduled_at: Date; platform_post_id: string };

  /**
   * A reschedule or cancel, post by post: a post out of the caller's scope, on a page they may
   * not use, or not a scheduled post made here still ahead is refused without a platform call;
   * the others go to `run` with their page's token (its refusal, or a platform failure, fails
   * that post alone).
   */
  async function act(ctx: RequestContext, ids: readonly number[], run: (row: ActRow, token: string) => Promise<Bilingual | null>): Promise<{ results: PostActResult[] }> {
    const unique = [...new Set(ids)];
    const users = await visibleUserIds(db, ctx.actor);
    const rows = new Map(
      (await db.selectFrom('page_posts').select(['id', 'page_id', 'status', 'published', 'scheduled_at', 'platform_post_id', 'created_by']).where('id', 'in', unique).execute())
        .filter((r) => !users || users.includes(r.created_by))
        .map((r) => [r.id, r]),
    );
    const usable = new Set((await usablePages(db, ctx.actor, [...new Set([...rows.values()].map((r) => r.page_id))])).map((p) => p.id));
    const tokens = new Map<number, Promise<string | null>>();
    const outcome = new Map<number, Bilingual | null>();
    let unexpected: unknown;
    const now = clock.now();
    await eachLimited(unique, ACT_CONCURRENCY, async (id) => {
      const r = rows.get(id);
      const scheduledAt = r?.scheduled_at ? new Date(r.scheduled_at) : null;
      const refused = !r
        ? both('POST_NOT_FOUND')
        : !usable.has(r.page_id)
          ? both('POST_PAGE_NOT_ALLOWED')
          : r.status !== 'created' || !r.platform_post_id || r.published || !scheduledAt || scheduledAt.getTime() <= now.getTime()
            ? both('POST_NOT_SCHEDULED')
            : null;
      if (refused || !r?.platform_post_id || !scheduledAt) {
        outcome.set(id, refused);
        return;
      }
      try {
        if (!tokens.has(r.page_id)) tokens.set(r.page_id, pageTokenOf(db, secrets, r.page_id));
        const token = await tokens.get(r.page_id)!;
        outcome.set(id, token ? await run({ id: r.id, page_id: r.page_id, status: r.status, scheduled_at: scheduledAt, platform_post_id: r.platform_post_id }, token) : both('POST_PAGE_NO_TOKEN'));
      } catch (err) {
        const text = failureText(err);
        if (text) outcome.set(id, text);
        else unexpected ??= err;
      }
    });
    // A bug or a lost database is the request's failure (logged with its id), not a post's.
    if (unexpected !== undefined) throw unexpected;
    return {
      results: unique.map((id) => {
        const error = outcome.get(id) ?? null;
        return { id, result: error ? ('failed' as const) : ('ok' as const), error: error ? error[ctx.lang] : null };
      }),
    };
  }

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
      const now = clock.now();
      const scheduledAt = body.scheduled_at ? new Date(body.scheduled_at) : null;
      if (scheduledAt) assertScheduleWindow(scheduledAt, now);
      const batchId = randomUUID();
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
          scheduled_at: scheduledAt,
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

    /**
     * "Retry failed": the batch's failed posts go back to pending, and posts a run left `creating`
     * when it gave up stay so; the job looks up every post whose call ever went out before it
     * sends it again, so nothing is posted twice. Created posts are never touched.
     */
    async retryFailed(ctx: RequestContext, body: RetryPostsBody): Promise<{ items: number; task_id: number }> {
      const users = await visibleUserIds(db, ctx.actor);
      const rows = await db.selectFrom('page_posts').select(['id', 'page_id', 'status', 'task_id', 'created_by']).where('batch_id', '=', body.batch_id).execute();
      if (!rows.length || (users && rows.some((r) => !users.includes(r.created_by)))) throw new AppError('POST_BATCH_NOT_FOUND', {}, 'batch_id');
      const taskIds = [...new Set(rows.map((r) => r.task_id).filter((t): t is number => t !== null).map(Number))];
      const active = taskIds.length
        ? await db.selectFrom('job_runs').select('id').where('id', 'in', taskIds).where('status', 'in', ['queued', 'running']).executeTakeFirst()
        : undefined;
      if (active) throw new AppError('POST_BATCH_BUSY');
      // No run is under way: anything not created nor failed was left behind by a run that gave up.
      const again = rows.filter((r) => r.status !== 'created' && r.status !== 'cancelled');
      if (!again.length) throw new AppError('POST_NOTHING_TO_RETRY');
      // The caller must still be able to use every page posted on again (and it must hold a token).
      const pageIds = [...new Set(again.map((r) => r.page_id))];
      const pages = await usablePages(db, ctx.actor, pageIds);
      if (pages.length !== pageIds.length) throw new AppError('POST_PAGE_NOT_ALLOWED', {}, 'batch_id');
      const ids = again.map((r) => r.id);
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        await trx.updateTable('page_posts').set({ status: 'pending', error: null, error_en: null, updated_at: now }).where('id', 'in', ids).where('status', '=', 'failed').execute();
        const taskId = await jobs.enqueue(POSTS_JOB, { batch_id: body.batch_id }, { createdBy: ctx.actor.id, key: `poster:${ctx.actor.id}`, trx });
        await trx.updateTable('page_posts').set({ task_id: taskId }).where('id', 'in', ids).execute();
        await writeAudit(trx, ctx, { action: 'posts.retry_failed', entity_type: 'page_post_batch', entity_id: body.batch_id, after: { items: ids.length, task_id: taskId } });
        return { items: ids.length, task_id: taskId };
      });
    },

    /**
     * Moves scheduled posts made here that have not gone live to `scheduled_at` (inside the
     * window, else the whole call is refused before any platform call). Each post is checked on
     * its own (the caller's scope, a page they may use, still scheduled) and refused without a
     * platform call when it fails one; the platform refuses a post that went live meanwhile.
     */
    async reschedule(ctx: RequestContext, body: ReschedulePostsBody): Promise<{ results: PostActResult[] }> {
      const at = new Date(body.scheduled_at);
      assertScheduleWindow(at, clock.now());
      return act(ctx, body.ids, async (row, token) => {
        await requirePlatform(platform).reschedulePagePost(token, row.platform_post_id, at);
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('page_posts').set({ scheduled_at: at, updated_at: clock.now() }).where('id', '=', row.id).execute();
          await writeAudit(trx, ctx, { action: 'posts.reschedule', entity_type: 'page_post', entity_id: row.id, before: { scheduled_at: iso(row.scheduled_at) }, after: { scheduled_at: at.toISOString() } });
        });
        return null;
      });
    },

    /**
     * Cancels scheduled posts made here that have not gone live: each is deleted on the platform,
     * then marked cancelled. The same checks as a reschedule; the post is read first, so one our
     * clock still thinks ahead but the platform has published is refused, not deleted, and one
     * the token cannot find is refused too (gone, or out of the token's reach: it may still go
     * live). A delete whose answer is lost is settled by reading the post again.
     */
    async cancel(ctx: RequestContext, body: CancelPostsBody): Promise<{ results: PostActResult[] }> {
      return act(ctx, body.ids, async (row, token) => {
        const client = requirePlatform(platform);
        const onPage = await client.getPagePost(token, row.platform_post_id);
        if (!onPage) return both('POST_GONE');
        if (onPage.isPublished) return both('POST_ALREADY_LIVE');
        try {
          await client.deletePagePost(token, row.platform_post_id);
        } catch (err) {
          // The token reached the post a moment ago: missing now means deleted (by a cancel beside this one, or by this delete).
          const settled = err instanceof PlatformError && (err.kind === 'not_found' || (err.retryable && (await client.getPagePost(token, row.platform_post_id)) === null));
          if (!settled) throw err;
        }
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('page_posts').set({ status: 'cancelled', error: null, error_en: null, updated_at: clock.now() }).where('id', '=', row.id).execute();
          await writeAudit(trx, ctx, { action: 'posts.cancel', entity_type: 'page_post', entity_id: row.id, before: { status: row.status, scheduled_at: iso(row.scheduled_at), platform_post_id: row.platform_post_id }, after: { status: 'cancelled' } });
        });
        return null;
      });
    },

    /**
     * The page's existing posts read from the platform with its token (made here or elsewhere,
     * published, unpublished or scheduled), a cursor page at a time; posts made here are marked.
     */
    async platformPosts(ctx: RequestContext, body: ListPlatformPostsBody): Promise<{ list: PlatformPost[]; after: string | null }> {
      const [page] = await usablePages(db, ctx.actor, [body.page_id]);
      if (!page) throw new AppError('POST_PAGE_NOT_ALLOWED', {}, 'page_id');
      const token = page.has_token ? await pageTokenOf(db, secrets, page.id) : null;
      if (!token) throw new AppError('POST_PAGE_NO_TOKEN', {}, 'page_id');
      let answer: Awaited<ReturnType<AdPlatformClient['listPagePosts']>>;
      try {
        answer = await requirePlatform(platform).listPagePosts(token, page.platform_id, { limit: body.limit, ...(body.after && { after: body.after }) });
      } catch (err) {
        throw toAppError(err);
      }
      const ids = answer.posts.map((p) => p.id);
      const local = new Map(ids.length ? (await db.selectFrom('page_posts').select(['id', 'platform_post_id']).where('platform_post_id', 'in', ids).execute()).map((r) => [r.platform_post_id!, r.id]) : []);
      return {
        after: answer.after,
        list: answer.posts.map((p) => ({
          id: p.id,
          message: p.message,
          created_time: p.createdTime ? p.createdTime.toISOString() : null,
          is_published: p.isPublished,
          media_type: p.mediaType,
          picture: p.picture,
          link: p.link,
          permalink: p.permalink,
          scheduled_publish_time: p.scheduledPublishTime ? p.scheduledPublishTime.toISOString() : null,
          local_id: local.get(p.id) ?? null,
        })),
      };
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
      // A scheduled post counts as published once its time has passed (the platform made it live).
      const now = clock.now();
      // A cancelled post never went live.
      if (body.published === true) q = q.where('x.status', '<>', 'cancelled').where((eb) => eb.or([eb('x.published', '=', true), eb('x.scheduled_at', '<=', now)]));
      if (body.published === false) q = q.where('x.published', '=', false).where((eb) => eb.or([eb('x.scheduled_at', 'is', null), eb('x.scheduled_at', '>', now), eb('x.status', '=', 'cancelled')]));
      if (body.kind) q = q.where('x.kind', '=', body.kind);
      if (body.batch_id) q = q.where('x.batch_id', '=', body.batch_id);
      if (body.keyword) q = q.where('x.message', 'ilike', `%${escapeLike(body.keyword)}%`);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['x.id', 'x.batch_id', 'x.kind', 'x.message', 'x.link', 'x.call_to_action', 'x.published', 'x.scheduled_at', 'x.status', 'x.platform_post_id', 'x.error', 'x.error_en', 'x.created_at', 'x.posted_at'])
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
          published: r.status !== 'cancelled' && (r.published || (r.scheduled_at !== null && new Date(r.scheduled_at).getTime() <= now.getTime())),
          scheduled_at: iso(r.scheduled_at),
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
  return pageTokenOf(ctx.db, secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log, ctx.config.tokenEncryptionKeyPrevious), pageId);
}

async function pageTokenOf(db: Db, secrets: SecretBox, pageId: number): Promise<string | null> {
  const rows = await db
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
      .select(['x.id', 'x.page_id', 'x.kind', 'x.material_id', 'x.message', 'x.link', 'x.call_to_action', 'x.published', 'x.scheduled_at', 'x.status', 'x.attempts', 'p.platform_id as page_platform_id'])
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
      if (r.status === 'created' || r.status === 'failed' || r.status === 'cancelled') continue;
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
      if (r.status === 'creating' || r.attempts > 0) {
        // The call went out before (a lost answer, a dead run, or a retried failure): it may have
        // been applied. Posts already recorded are not it.
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
          { ...input, link: r.link, callToAction: r.call_to_action, published: r.published, scheduledPublishTime: r.scheduled_at ? new Date(r.scheduled_at) : null, file: file ? { data: file.data, filename: file.filename, ...(file.contentType && { contentType: file.contentType }) } : null },
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
