import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../config.ts';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { jobRegistry } from '../../jobs/registry.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { PlatformError, type AdPlatformClient } from '../../platform/types.ts';
import { adAccountId, connectUser, graph, syncClocks } from '../../test/ad-data.ts';
import { buildTestApp, driver, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { FAST, testLog, waitForRun } from '../../test/jobs.ts';
import { createMaterial, makeTestMedia, materialsConfig, putMaterialFile, type TestMedia } from '../../test/materials.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';

vi.setConfig({ testTimeout: 60_000 });

// Page posts (帖子管理) through the API and the job runner against the simulator over HTTP: a
// batch of video, photo and link posts on two pages, published and not, one page whose stored token
// cannot post (that item fails with the platform's reason, the others are made); a create whose
// answer was lost is found by a lookup instead of posted twice; pages and materials outside the
// caller's scope refused with nothing stored; scheduled posts moved and cancelled post by post,
// refusals made without a platform call.

let sim: TestSimulator;
let media: TestMedia;
let config: Config;
let runner: JobRunner;
let t: TestApp;
let fb: SimUser;
let staff: string;
let staffId: number;
/** Our pages: two the staff may use, one they may not. */
const page: number[] = [];
const m: Record<'video' | 'image' | 'foreign', number> = {} as never;
/** The batch with failures (page 2's token cannot post), retried later. */
let failedBatch = '';
/** Answers of createPagePost calls to lose (the platform applied them). */
let dropNext = 0;

/** Page videos above this go up in chunks of this size (the simulator's chunk size too). */
const CHUNK = 4096;
/** The start_offset of every chunk transfer sent, in order. */
const transfers: number[] = [];
/** Lose the answer of this transfer (1-based, counted over the file) after the platform took the chunk. */
let dropTransferAt = 0;
const lossyFetch: typeof fetch = async (input, init) => {
  const form = init?.body instanceof FormData && init.body.get('upload_phase') === 'transfer' ? init.body : null;
  if (form) transfers.push(Number(form.get('start_offset')));
  const res = await fetch(input, init);
  if (form && res.ok && transfers.length === dropTransferAt) throw new TypeError('fetch failed: other side closed');
  return res;
};

/** The reschedule and cancel calls that reached the platform client, as `<method> <post id>`. */
const postCalls: string[] = [];
const POST_ACT_CALLS = new Set<PropertyKey>(['getPagePost', 'reschedulePagePost', 'deletePagePost']);

function droppable(inner: AdPlatformClient): AdPlatformClient {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (POST_ACT_CALLS.has(prop)) {
        const fn = Reflect.get(target, prop, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          postCalls.push(`${String(prop)} ${String(args[1])}`);
          return fn.apply(target, args);
        };
      }
      if (prop !== 'createPagePost') return Reflect.get(target, prop, receiver) as unknown;
      return async (...args: Parameters<AdPlatformClient['createPagePost']>) => {
        const out = await target.createPagePost(...args);
        if (dropNext > 0) {
          dropNext--;
          throw new PlatformError('unavailable', 'Graph API request failed: socket hang up', { retryable: true });
        }
        return out;
      };
    },
  });
}

const call = (p: string, body: unknown, token = staff) => t.call(`/api/page-posts/${p}`, body, { token, lang: 'en' });
const count = async () => Number((await t.db.selectFrom('page_posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
/** Every post of a page on the simulator, published or not. */
const simPosts = async (pageIndex: number) => (await graph(sim, fb.pages[pageIndex]!.access_token, 'GET', `${fb.pages[pageIndex]!.id}/promotable_posts`, { fields: 'id,message,is_published,attachments', limit: 100 })).data as any[];

beforeAll(async () => {
  sim = await startTestSimulator({ fetch: lossyFetch, pageVideoResumableBytes: CHUNK });
  await sim.control('PUT', '/__sim/settings', { video_chunk_bytes: CHUNK });
  media = makeTestMedia();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-posts-'));
  config = materialsConfig(dir);
  const platform = droppable(sim.platform);
  t = await buildTestApp({
    platform,
    config: { dataDir: config.dataDir, materials: config.materials },
    jobs: async ({ db, clock }) => {
      runner = createJobs({
        db,
        platform,
        clock,
        config,
        log: testLog(),
        registry: jobRegistry.filter((j) => j.name === 'page-posts'),
        options: { workers: true, concurrency: 2, reclaim: driver === 'pglite' ? 'all-at-start' : 'heartbeat', ...FAST },
      });
      await runner.start();
      return runner;
    },
  });
  await syncClocks(t, sim);
  const manager = await createUser(t.db, { is_admin: 1 });
  const managerToken = await t.login(manager.account, manager.password);
  const user = await createUser(t.db, { paths: ['/advertising/post'], name: 'Poster' });
  staffId = user.id;
  staff = await t.login(user.account, user.password);

  fb = await sim.createUser({ ad_accounts: [{ currency: 'USD' }], pages: 3, pixels: 0 });
  await connectUser(t, managerToken, fb, sim.platform);
  for (const p of fb.pages) page.push((await t.db.selectFrom('pages').select('id').where('platform_id', '=', p.id).executeTakeFirstOrThrow()).id);
  await t.db.insertInto('page_users').values([page[0]!, page[1]!].map((id) => ({ page_id: id, user_id: staffId, created_at: new Date() }))).execute();
  expect(await adAccountId(t.db, fb.ad_accounts[0]!.id)).toBeGreaterThan(0);

  // Library files: the staff's video and image, and a material of someone else.
  const other = await createUser(t.db, {});
  for (const [k, bytes, kind, owner] of [
    ['video', media.video, 'video', staffId],
    ['image', media.bigImage, 'image', staffId],
    ['foreign', media.video2, 'video', other.id],
  ] as const) {
    const row = await createMaterial(t.db, { uploader_id: owner, kind, file_name: `${k}.${kind === 'video' ? 'mp4' : 'png'}`, size_bytes: bytes.length });
    await putMaterialFile(t.db, config, row.id, bytes, kind === 'video' ? 'video/mp4' : 'image/png');
    m[k] = row.id;
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('page posts', () => {
  it('lists the pages the caller may use, with their token', async () => {
    const res = await call('pages', {});
    expect(res.code, res.message).toBe(0);
    expect(res.data.list.map((p: any) => p.id).sort()).toEqual([page[0], page[1]].sort());
    expect(res.data.list.every((p: any) => p.has_token)).toBe(true);
  });

  it('refuses a page or a material outside the caller’s scope, storing nothing', async () => {
    const before = await count();
    const badPage = await call('create', { page_ids: [page[0], page[2]], posts: [{ material_id: m.video, message: 'Hi' }], published: true });
    expect(badPage.message).toMatch(/may not use it/);
    const badMaterial = await call('create', { page_ids: [page[0]], posts: [{ material_id: m.foreign, message: 'Hi' }], published: true });
    expect(badMaterial.message).toMatch(/outside your scope/);
    const noLink = await call('create', { page_ids: [page[0]], posts: [{ material_id: null, message: 'A link post without a link' }], published: true });
    expect(noLink.code).not.toBe(0);
    const noPath = await createUser(t.db, { paths: ['/index'] });
    const denied = await call('create', { page_ids: [page[0]], posts: [{ material_id: m.video, message: 'Hi' }], published: true }, await t.login(noPath.account, noPath.password));
    expect(denied.code).not.toBe(0);
    expect(await count()).toBe(before);
  });

  it('creates a batch on two pages, unpublished, with one page failing with the platform’s reason', async () => {
    // Page 2's stored token is page 1's: the platform refuses to post with it.
    const secrets = secretBoxFor(t.db, config.tokenEncryptionKey);
    await t.db.updateTable('personal_account_pages').set({ page_token_enc: await secrets.encrypt(fb.pages[0]!.access_token) }).where('page_id', '=', page[1]!).execute();
    const res = await call('create', {
      page_ids: [page[0], page[1]],
      posts: [
        { material_id: m.video, message: 'Episode 1 is out', link: 'https://drama.example.com/play/1', call_to_action: 'WATCH_MORE' },
        { material_id: m.image, message: 'Poster of the week' },
        { material_id: null, message: 'Read the story', link: 'https://drama.example.com/story' },
      ],
      published: false,
    });
    expect(res.code, res.message).toBe(0);
    expect(res.data.count).toBe(6);
    failedBatch = res.data.batch_id;
    const run = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success' || r.status === 'failed', 30_000);
    expect(run.status).toBe('success');
    expect(run.summary).toMatchObject({ ok: 3, failed: 3 });

    const list = await call('list', { batch_id: res.data.batch_id, page_size: 50 });
    const rows = list.data.list as any[];
    const ok = rows.filter((r) => r.page.id === page[0]);
    expect(ok.map((r) => r.status)).toEqual(['created', 'created', 'created']);
    expect(ok.map((r) => r.kind).sort()).toEqual(['link', 'photo', 'video']);
    expect(ok.every((r) => /^\d+_\d+$/.test(r.platform_post_id) && r.published === false)).toBe(true);
    expect(ok.find((r) => r.kind === 'video').material).toEqual({ id: m.video, name: 'video.mp4' });
    const failed = rows.filter((r) => r.page.id === page[1]);
    expect(failed.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    expect(failed[0].error).toMatch(/missing permissions/);

    // On the platform: exactly those three, unpublished, on page 1; nothing on page 2.
    const posts = await simPosts(0);
    expect(posts.map((p) => p.message).sort()).toEqual(['Episode 1 is out', 'Poster of the week', 'Read the story']);
    expect(posts.every((p) => p.is_published === false)).toBe(true);
    expect(posts.map((p) => p.id).sort()).toEqual(ok.map((r) => r.platform_post_id).sort());
    expect(await simPosts(1)).toEqual([]);

    const filtered = await call('list', { page_id: page[0], status: 'created', kind: 'video', page_size: 50 });
    expect(filtered.data.list.map((r: any) => r.id)).toEqual([ok.find((r) => r.kind === 'video').id]);
  });

  it('retries only the failed posts of a batch, adopting one the platform had made instead of posting it again', async () => {
    const rowsOf = async () => (await call('list', { batch_id: failedBatch, page_size: 50 })).data.list as any[];
    const before = await rowsOf();
    const createdIds = new Map(before.filter((r) => r.status === 'created').map((r) => [r.id, r.platform_post_id]));
    expect(createdIds.size).toBe(3);
    // Someone else cannot retry it; a run cannot start while the batch's own is going.
    const other = await createUser(t.db, { paths: ['/advertising/post'] });
    const refused = await call('retry_failed', { batch_id: failedBatch }, await t.login(other.account, other.password));
    expect(refused.message).toMatch(/outside your scope/);
    expect((await call('retry_failed', { batch_id: 'no-such-batch' })).message).toMatch(/outside your scope/);

    // Page 2 gets a working token; one photo the platform made is recorded as failed with its
    // call sent (its answer said otherwise): the retry must find it, not post it a second time.
    const secrets = secretBoxFor(t.db, config.tokenEncryptionKey);
    await t.db.updateTable('personal_account_pages').set({ page_token_enc: await secrets.encrypt(fb.pages[1]!.access_token) }).where('page_id', '=', page[1]!).execute();
    const photo = before.find((r) => r.page.id === page[0] && r.kind === 'photo');
    await t.db.updateTable('page_posts').set({ status: 'failed', platform_post_id: null, error: 'lost', error_en: 'lost' }).where('id', '=', photo.id).execute();
    const simBefore = (await simPosts(0)).length;

    const res = await call('retry_failed', { batch_id: failedBatch });
    expect(res.code, res.message).toBe(0);
    expect(res.data.items).toBe(4);
    const busy = await call('retry_failed', { batch_id: failedBatch });
    const run = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success' || r.status === 'failed', 30_000);
    if (busy.code !== 0) expect(busy.message).toMatch(/still posting|no failed posts/);
    expect(run.status).toBe('success');
    expect(run.summary).toMatchObject({ ok: 6, failed: 0 });

    const after = await rowsOf();
    expect(after.map((r) => r.status)).toEqual(Array(6).fill('created'));
    expect(after.every((r) => r.error === null)).toBe(true);
    // The two created before kept their posts; the adopted photo got its original id back.
    for (const [id, postId] of createdIds) expect(after.find((r) => r.id === id).platform_post_id).toBe(postId);
    expect((await simPosts(0)).length).toBe(simBefore);
    expect((await simPosts(0)).filter((p) => p.message === 'Poster of the week')).toHaveLength(1);
    const page2 = await simPosts(1);
    expect(page2.map((p) => p.message).sort()).toEqual(['Episode 1 is out', 'Poster of the week', 'Read the story']);
    expect(page2.map((p) => p.id).sort()).toEqual(after.filter((r) => r.page.id === page[1]).map((r) => r.platform_post_id).sort());
    const audit = await t.db.selectFrom('audit_logs').select(['entity_id']).where('action', '=', 'posts.retry_failed').execute();
    expect(audit).toEqual([{ entity_id: failedBatch }]);

    const nothing = await call('retry_failed', { batch_id: failedBatch });
    expect(nothing.message).toBe('The batch has no failed posts.');
  });

  it('finds a post whose answer was lost instead of posting it twice', async () => {
    dropNext = 1;
    const res = await call('create', { page_ids: [page[0]], posts: [{ material_id: m.image, message: 'Lost answer photo' }], published: true });
    expect(res.code, res.message).toBe(0);
    const run = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success' || r.status === 'failed', 30_000);
    expect(run.status).toBe('success');
    expect(run.attempt).toBeGreaterThan(1);
    const row = await t.db.selectFrom('page_posts').selectAll().where('batch_id', '=', res.data.batch_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('created');
    expect(row.attempts).toBe(1);
    const same = (await simPosts(0)).filter((p) => p.message === 'Lost answer photo');
    expect(same).toHaveLength(1);
    expect(same[0].id).toBe(row.platform_post_id);
  });

  it('shows a staff user only their own and their scope’s posts', async () => {
    const other = await createUser(t.db, { paths: ['/advertising/post'] });
    const res = await call('list', {}, await t.login(other.account, other.password));
    expect(res.code, res.message).toBe(0);
    expect(res.data.total).toBe(0);
    const mine = await call('list', { page_size: 1 });
    expect(mine.data.total).toBe(7);
  });

  it('lists a page’s existing posts from the platform a cursor page at a time, marking those made here', async () => {
    // Two posts made on the page outside this system.
    for (const message of ['Made elsewhere 1', 'Made elsewhere 2']) {
      const made = await graph(sim, fb.pages[0]!.access_token, 'POST', `${fb.pages[0]!.id}/feed`, { message, link: 'https://drama.example.com/x', published: false });
      expect(made.id).toMatch(/_/);
    }
    const all = await simPosts(0);
    expect(all.length).toBeGreaterThan(4);
    const seen: any[] = [];
    let after: string | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await call('platform', { page_id: page[0], limit: 2, ...(after && { after }) });
      expect(res.code, res.message).toBe(0);
      expect(res.data.list.length).toBeLessThanOrEqual(2);
      seen.push(...res.data.list);
      if (!res.data.after) break;
      after = res.data.after;
    }
    expect(seen.map((p) => p.id).sort()).toEqual(all.map((p) => p.id).sort());
    expect(new Set(seen.map((p) => p.id)).size).toBe(seen.length);
    const local = new Map((await t.db.selectFrom('page_posts').select(['id', 'platform_post_id']).where('page_id', '=', page[0]!).execute()).map((r) => [r.platform_post_id, r.id]));
    for (const p of seen) expect(p.local_id).toBe(local.get(p.id) ?? null);
    const elsewhere = seen.find((p) => p.message === 'Made elsewhere 1');
    expect(elsewhere).toMatchObject({ local_id: null, is_published: false, media_type: 'link', scheduled_publish_time: null });
    expect(seen.find((p) => p.message === 'Episode 1 is out')).toMatchObject({ media_type: 'video', local_id: expect.any(Number) });

    expect((await call('platform', { page_id: page[2] })).message).toMatch(/may not use it/);
    const noPath = await createUser(t.db, { paths: ['/index'] });
    expect((await call('platform', { page_id: page[0] }, await t.login(noPath.account, noPath.password))).code).not.toBe(0);
  });

  it('schedules posts within the window: made unpublished with their time, live once the platform’s clock reaches it', async () => {
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const body = (scheduled_at: string, published = false) => ({ page_ids: [page[0]], posts: [{ material_id: null, message: 'Scheduled story', link: 'https://drama.example.com/s' }], published, scheduled_at });
    const before = await count();
    expect((await call('create', body(at(5 * 60_000)))).message).toBe('A scheduled post must go live between 15 minutes and 30 days from now.');
    expect((await call('create', body(at(31 * 86_400_000)))).message).toBe('A scheduled post must go live between 15 minutes and 30 days from now.');
    const published = await call('create', body(at(3_600_000), true));
    expect(published.code).not.toBe(0);
    expect(published.data.errors[0].field).toBe('scheduled_at');
    expect(await count()).toBe(before);

    const when = new Date(now + 2 * 3_600_000);
    const res = await call('create', { ...body(when.toISOString()), posts: [{ material_id: null, message: 'Scheduled story', link: 'https://drama.example.com/s' }, { material_id: m.image, message: 'Scheduled poster' }] });
    expect(res.code, res.message).toBe(0);
    const run = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success' || r.status === 'failed', 30_000);
    expect(run.summary).toMatchObject({ ok: 2, failed: 0 });
    const rows = (await call('list', { batch_id: res.data.batch_id, page_size: 50 })).data.list as any[];
    expect(rows.map((r) => [r.status, r.published, r.scheduled_at])).toEqual([
      ['created', false, when.toISOString()],
      ['created', false, when.toISOString()],
    ]);
    const onSim = async (id: string) => graph(sim, fb.pages[0]!.access_token, 'GET', id, { fields: 'is_published,scheduled_publish_time' });
    for (const r of rows) expect(await onSim(r.platform_post_id)).toEqual({ id: r.platform_post_id, is_published: false, scheduled_publish_time: Math.floor(when.getTime() / 1000) });
    const listed = (await call('platform', { page_id: page[0], limit: 100 })).data.list as any[];
    expect(listed.find((p) => p.id === rows[0].platform_post_id)).toMatchObject({ is_published: false, scheduled_publish_time: when.toISOString(), local_id: rows[0].id });
    expect((await call('list', { batch_id: res.data.batch_id, published: false })).data.total).toBe(2);

    // The platform's clock (and ours) passes the time: live on the page, and shown as published.
    await sim.control('POST', '/__sim/clock', { advance: '2h' });
    await syncClocks(t, sim);
    for (const r of rows) expect(await onSim(r.platform_post_id)).toEqual({ id: r.platform_post_id, is_published: true });
    const after = (await call('list', { batch_id: res.data.batch_id, page_size: 50 })).data.list as any[];
    expect(after.every((r) => r.published === true && r.scheduled_at === when.toISOString())).toBe(true);
    expect((await call('list', { batch_id: res.data.batch_id, published: true })).data.total).toBe(2);
    expect((await call('list', { batch_id: res.data.batch_id, published: false })).data.total).toBe(0);
  });

  it('sends a large video in chunks at the offsets the platform gives, going on where it says after a chunk whose answer was lost', async () => {
    const size = media.video.length;
    expect(size).toBeGreaterThan(3 * CHUNK);
    transfers.length = 0;
    dropTransferAt = 2;
    const res = await call('create', { page_ids: [page[0]], posts: [{ material_id: m.video, message: 'Chunked episode', link: 'https://drama.example.com/c', call_to_action: 'WATCH_MORE' }], published: true });
    expect(res.code, res.message).toBe(0);
    const run = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success' || r.status === 'failed', 30_000);
    expect(run.status).toBe('success');
    expect(run.attempt).toBe(1);
    const chunks = Math.ceil(size / CHUNK);
    // Every chunk once at its own offset, but the second sent again after its answer was lost;
    // the platform had it, and the next one went from the offset it named.
    const expected = Array.from({ length: chunks }, (_, k) => k * CHUNK);
    expect(transfers.filter((o, k) => transfers.indexOf(o) !== k)).toEqual([CHUNK]);
    expect([...new Set(transfers)]).toEqual(expected);
    expect(transfers.indexOf(2 * CHUNK)).toBe(transfers.lastIndexOf(CHUNK) + 1);
    const row = await t.db.selectFrom('page_posts').selectAll().where('batch_id', '=', res.data.batch_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('created');
    const same = (await simPosts(0)).filter((p) => p.message === 'Chunked episode');
    expect(same.map((p) => p.id)).toEqual([row.platform_post_id]);
    const video = await graph(sim, fb.pages[0]!.access_token, 'GET', row.platform_media_id!, { fields: 'post_id,published,title' });
    expect(video).toMatchObject({ post_id: row.platform_post_id, published: true, title: 'video' });
    dropTransferAt = 0;
  });
});

describe('rescheduling and cancelling scheduled posts', () => {
  const HOUR = 3_600_000;
  const WINDOW = 'A scheduled post must go live between 15 minutes and 30 days from now.';
  const NOT_SCHEDULED = 'Only scheduled posts made here that have not gone live yet can be rescheduled or cancelled.';
  const OUTSIDE = 'The post does not exist or is outside your scope.';
  const GONE = 'The platform cannot find the post: it was deleted, or the page token can no longer reach it.';

  /** A batch scheduled `ahead` from now, made by the job; its rows in the order made (page by page). */
  async function schedule(messages: string[], pages = [page[0]!], ahead = 2 * HOUR) {
    const when = new Date(t.clock.now().getTime() + ahead);
    const res = await call('create', { page_ids: pages, posts: messages.map((message) => ({ material_id: null, message, link: 'https://drama.example.com/later' })), published: false, scheduled_at: when.toISOString() });
    expect(res.code, res.message).toBe(0);
    const run = await waitForRun(t.db, res.data.task_id, (r) => r.status === 'success' || r.status === 'failed', 30_000);
    expect(run.summary).toMatchObject({ ok: messages.length * pages.length, failed: 0 });
    const rows = ((await call('list', { batch_id: res.data.batch_id, page_size: 50 })).data.list as any[]).reverse();
    return { when, rows };
  }
  const tokenOf = (postId: string) => fb.pages.find((p) => postId.startsWith(`${p.id}_`))!.access_token;
  const onSim = (postId: string) => graph(sim, tokenOf(postId), 'GET', postId, { fields: 'is_published,scheduled_publish_time' });
  const unix = (d: Date) => Math.floor(d.getTime() / 1000);
  const listed = async (id: number) => ((await call('list', { page_size: 100 })).data.list as any[]).find((r) => r.id === id);
  const audits = (action: string) => t.db.selectFrom('audit_logs').select(['entity_id', 'before', 'after']).where('action', '=', action).orderBy('id').execute();

  it('moves a scheduled post to another time inside the window: on the platform, in the list and in the audit log', async () => {
    const { when, rows } = await schedule(['Move me', 'Leave me']);
    const [moved, left] = rows;
    const later = new Date(when.getTime() + 3 * HOUR);
    postCalls.length = 0;
    const res = await call('reschedule', { ids: [moved.id], scheduled_at: later.toISOString() });
    expect(res.code, res.message).toBe(0);
    expect(res.data.results).toEqual([{ id: moved.id, result: 'ok', error: null }]);
    expect(postCalls).toEqual([`reschedulePagePost ${moved.platform_post_id}`]);
    expect(await onSim(moved.platform_post_id)).toEqual({ id: moved.platform_post_id, is_published: false, scheduled_publish_time: unix(later) });
    expect(await onSim(left.platform_post_id)).toEqual({ id: left.platform_post_id, is_published: false, scheduled_publish_time: unix(when) });
    expect(await listed(moved.id)).toMatchObject({ status: 'created', published: false, scheduled_at: later.toISOString() });
    expect((await listed(left.id)).scheduled_at).toBe(when.toISOString());
    expect(await audits('posts.reschedule')).toEqual([{ entity_id: String(moved.id), before: { scheduled_at: when.toISOString() }, after: { scheduled_at: later.toISOString() } }]);
  });

  it('refuses a time outside the window, or malformed input, before any platform call, changing nothing', async () => {
    const { when, rows } = await schedule(['Stay put']);
    const [post] = rows;
    const now = t.clock.now().getTime();
    postCalls.length = 0;
    for (const at of [now + 5 * 60_000, now + 31 * 86_400_000, now - HOUR]) {
      const res = await call('reschedule', { ids: [post.id], scheduled_at: new Date(at).toISOString() });
      expect(res.message).toBe(WINDOW);
      expect(res.data.errors[0].field).toBe('scheduled_at');
    }
    for (const body of [{ ids: [], scheduled_at: when.toISOString() }, { ids: Array.from({ length: 101 }, (_, i) => i + 1), scheduled_at: when.toISOString() }, { ids: [post.id], scheduled_at: 'tomorrow' }, { ids: ['x'] }]) {
      const res = await call('reschedule', body);
      expect(res.code, JSON.stringify(body)).toBe(-2);
      expect(res.data.errors.length).toBeGreaterThan(0);
    }
    expect((await call('cancel', { ids: [] })).code).toBe(-2);
    expect(postCalls).toEqual([]);
    expect(await onSim(post.platform_post_id)).toEqual({ id: post.platform_post_id, is_published: false, scheduled_publish_time: unix(when) });
    expect((await listed(post.id)).scheduled_at).toBe(when.toISOString());
    expect(await audits('posts.reschedule')).toHaveLength(1);
  });

  it('cancels a scheduled post: deleted on the platform, listed as cancelled and never published; a second cancel is refused without a call', async () => {
    const { rows } = await schedule(['Cancel me']);
    const [post] = rows;
    postCalls.length = 0;
    const res = await call('cancel', { ids: [post.id] });
    expect(res.code, res.message).toBe(0);
    expect(res.data.results).toEqual([{ id: post.id, result: 'ok', error: null }]);
    expect(postCalls).toEqual([`getPagePost ${post.platform_post_id}`, `deletePagePost ${post.platform_post_id}`]);
    await expect(onSim(post.platform_post_id)).rejects.toThrow(/"code":100,"error_subcode":33/);
    expect((await simPosts(0)).map((p) => p.id)).not.toContain(post.platform_post_id);
    expect(await listed(post.id)).toMatchObject({ status: 'cancelled', published: false, platform_post_id: post.platform_post_id });
    expect((await call('list', { status: 'cancelled', page_size: 50 })).data.list.map((r: any) => r.id)).toEqual([post.id]);
    expect(await audits('posts.cancel')).toEqual([{ entity_id: String(post.id), before: { status: 'created', scheduled_at: post.scheduled_at, platform_post_id: post.platform_post_id }, after: { status: 'cancelled' } }]);

    postCalls.length = 0;
    expect((await call('cancel', { ids: [post.id] })).data.results).toEqual([{ id: post.id, result: 'failed', error: NOT_SCHEDULED }]);
    expect((await call('reschedule', { ids: [post.id], scheduled_at: new Date(t.clock.now().getTime() + HOUR).toISOString() })).data.results[0].error).toBe(NOT_SCHEDULED);
    expect(postCalls).toEqual([]);
    // Its time passes: still not live, anywhere.
    await sim.control('POST', '/__sim/clock', { advance: '3h' });
    await syncClocks(t, sim);
    expect(await listed(post.id)).toMatchObject({ status: 'cancelled', published: false });
    expect((await call('list', { published: true, page_size: 100 })).data.list.map((r: any) => r.id)).not.toContain(post.id);
    expect((await call('list', { published: false, page_size: 100 })).data.list.map((r: any) => r.id)).toContain(post.id);
  });

  it('refuses posts already published, posts whose time has passed and posts never scheduled, in Chinese by default, without a platform call', async () => {
    const mine = (await t.db.selectFrom('page_posts').select(['id', 'message', 'published', 'scheduled_at', 'status']).where('created_by', '=', staffId).execute());
    const publishedWhenMade = mine.find((r) => r.message === 'Lost answer photo')!;
    const wentLive = mine.find((r) => r.message === 'Scheduled poster')!;
    const darkPost = mine.find((r) => r.message === 'Read the story' && r.status === 'created')!;
    expect([publishedWhenMade.published, wentLive.scheduled_at !== null && new Date(wentLive.scheduled_at) < t.clock.now(), darkPost.scheduled_at]).toEqual([true, true, null]);
    const ids = [publishedWhenMade.id, wentLive.id, darkPost.id];
    postCalls.length = 0;
    const cancel = await call('cancel', { ids });
    expect(cancel.data.results).toEqual(ids.map((id) => ({ id, result: 'failed', error: NOT_SCHEDULED })));
    const zh = await t.call('/api/page-posts/reschedule', { ids, scheduled_at: new Date(t.clock.now().getTime() + HOUR).toISOString() }, { token: staff });
    expect(zh.data.results.map((r: any) => r.error)).toEqual(Array(3).fill('只能改期或取消在本系统创建、尚未发布的定时帖子'));
    expect(postCalls).toEqual([]);
    expect((await simPosts(0)).filter((p) => p.message === 'Scheduled poster').map((p) => p.is_published)).toEqual([true]);
  });

  it('lets no one act on the posts of people outside their scope, nor without the post screen', async () => {
    const { when, rows } = await schedule(['Not yours']);
    const [post] = rows;
    // Another team's staff who may even use the same page.
    const other = await createUser(t.db, { paths: ['/advertising/post'] });
    await t.db.insertInto('page_users').values({ page_id: page[0]!, user_id: other.id, created_at: new Date() }).execute();
    const otherToken = await t.login(other.account, other.password);
    postCalls.length = 0;
    const later = new Date(when.getTime() + HOUR).toISOString();
    expect((await call('reschedule', { ids: [post.id, 999_999], scheduled_at: later }, otherToken)).data.results).toEqual([
      { id: post.id, result: 'failed', error: OUTSIDE },
      { id: 999_999, result: 'failed', error: OUTSIDE },
    ]);
    expect((await call('cancel', { ids: [post.id] }, otherToken)).data.results).toEqual([{ id: post.id, result: 'failed', error: OUTSIDE }]);
    const noPath = await createUser(t.db, { paths: ['/index'] });
    expect((await call('cancel', { ids: [post.id] }, await t.login(noPath.account, noPath.password))).code).toBe(403);
    expect(postCalls).toEqual([]);
    expect(await onSim(post.platform_post_id)).toEqual({ id: post.platform_post_id, is_published: false, scheduled_publish_time: unix(when) });
    // The staff who made it no longer may use the page: refused as well.
    await t.db.deleteFrom('page_users').where('page_id', '=', page[0]!).where('user_id', '=', staffId).execute();
    expect((await call('cancel', { ids: [post.id] })).data.results[0].error).toBe('The page does not exist or you may not use it.');
    await t.db.insertInto('page_users').values({ page_id: page[0]!, user_id: staffId, created_at: new Date() }).execute();
    expect(postCalls).toEqual([]);
  });

  it('acts on each post of a bulk alone: a post gone from the platform or live there fails, the others go through', async () => {
    const { when, rows } = await schedule(['Bulk one', 'Bulk two', 'Bulk three'], [page[0]!, page[1]!]);
    expect(rows.map((r) => r.page.id)).toEqual([page[0], page[0], page[0], page[1], page[1], page[1]]);
    const [a, b, c, d, e, f] = rows;
    // b is deleted on Facebook itself; e goes live on the platform while our clock lags behind.
    await graph(sim, tokenOf(b.platform_post_id), 'DELETE', b.platform_post_id);
    await t.db.updateTable('page_posts').set({ scheduled_at: new Date(t.clock.now().getTime() + 15 * 60_000) }).where('id', '=', e.id).execute();
    await graph(sim, tokenOf(e.platform_post_id), 'POST', e.platform_post_id, { scheduled_publish_time: unix(t.clock.now()) + 15 * 60 });

    const later = new Date(when.getTime() + HOUR);
    const moved = await call('reschedule', { ids: [a.id, b.id, d.id, a.id], scheduled_at: later.toISOString() });
    expect(moved.data.results).toEqual([
      { id: a.id, result: 'ok', error: null },
      { id: b.id, result: 'failed', error: GONE },
      { id: d.id, result: 'ok', error: null },
    ]);
    for (const r of [a, d]) expect((await onSim(r.platform_post_id)).scheduled_publish_time).toBe(unix(later));
    expect((await listed(b.id)).scheduled_at).toBe(when.toISOString());

    await sim.control('POST', '/__sim/clock', { advance: '16m' });
    // A delete whose answer is lost: the post is read again and counts as cancelled.
    await sim.control('POST', '/__sim/faults', { path: `/${f.platform_post_id}`, method: 'DELETE', apply_then_drop: true });
    const cancelled = await call('cancel', { ids: [a.id, b.id, c.id, e.id, f.id] });
    expect(cancelled.data.results).toEqual([
      { id: a.id, result: 'ok', error: null },
      { id: b.id, result: 'failed', error: GONE },
      { id: c.id, result: 'ok', error: null },
      { id: e.id, result: 'failed', error: 'The post has already gone live on the page; it was not cancelled.' },
      { id: f.id, result: 'ok', error: null },
    ]);
    expect(await onSim(e.platform_post_id)).toEqual({ id: e.platform_post_id, is_published: true });
    for (const r of [a, c, f]) await expect(onSim(r.platform_post_id)).rejects.toThrow(/does not exist/);
    expect((await onSim(d.platform_post_id)).is_published).toBe(false);
    const statuses = await t.db.selectFrom('page_posts').select(['id', 'status']).where('id', 'in', rows.map((r) => r.id)).orderBy('id').execute();
    expect(statuses.map((r) => r.status)).toEqual(['cancelled', 'created', 'cancelled', 'created', 'created', 'cancelled']);
    // Posts run a few at a time, so their entries may come in any order.
    expect((await audits('posts.cancel')).map((r) => r.entity_id).slice(-3).sort()).toEqual([a, c, f].map((r) => String(r.id)).sort());
  });
});
