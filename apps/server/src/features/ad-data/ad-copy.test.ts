import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../config.ts';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import type { JobContext } from '../../jobs/types.ts';
import { adAccountId, connectUser, graph, syncClocks } from '../../test/ad-data.ts';
import { buildTestApp, driver, type TestApp } from '../../test/build-test-app.ts';
import { createDepartment, createUser } from '../../test/factories.ts';
import { FAST, readRun, testLog } from '../../test/jobs.ts';
import { makeTestMedia, materialsConfig, type TestMedia } from '../../test/materials.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { jobRegistry } from '../../jobs/registry.ts';
import { copyAdObjectsJob, syncAdAccountJob } from './ad-data.jobs.ts';
import type { CopyJobData } from './ad-ops.service.ts';

// Copies into another ad account, through the API and the job engine against the simulator over
// HTTP: the ad set and its ads are read and re-created there, the video pushed to that account and
// processed first, budgets converted between USD and JPY at the day's rates, a target outside the
// caller's scope refused, a create whose answer was lost found again instead of made twice (and a
// person's retry reusing everything), and every object logged ok or failed with the reason.

const PATHS = ['/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group', '/advertising/copy-log'];

let sim: TestSimulator;
let media: TestMedia;
let dir: string;
let config: Config;
let runner: JobRunner;
let t: TestApp;
let fb: SimUser;
let tokens: Record<'manager' | 'staff', string>;
let staffId: number;
/** Our ad accounts: A (USD, the source), J (JPY), X (USD, outside the staff's scope). */
let acc: Record<'A' | 'J' | 'X', number>;
let act: Record<'A' | 'J' | 'X', string>;
let materialId: number;
/** The source on the platform: a campaign in A with an ad set ($20/day) and two video ads. */
let src: { campaignId: string; adsetId: string; adIds: string[]; videoId: string };
let srcAdset: number;

function ctx<T>(data: T): JobContext<T> {
  return { data, db: t.db, platform: sim.platform, clock: t.clock, config, log: testLog(), runId: 0, signal: new AbortController().signal, progress: async () => {} };
}
const syncAccount = async (id: number) => expect((await syncAdAccountJob.run(ctx({ ad_account_id: id, mode: 'recent' }))).status).toBe('success');
const idOf = async (table: 'ad_sets' | 'ad_campaigns', platformId: string) => (await t.db.selectFrom(table).select('id').where('platform_id', '=', platformId).executeTakeFirstOrThrow()).id;
const copy = (body: Record<string, unknown>, token = tokens.staff) => t.call('/api/ad-ops/copy', body, { token, lang: 'en' });

async function pushRow(accountId: number) {
  return t.db.selectFrom('material_pushes').selectAll().where('material_id', '=', materialId).where('ad_account_id', '=', accountId).executeTakeFirst();
}

/** Waits for the material's push to an account to reach `state`, moving the simulator clock past the video's processing once uploaded. */
async function pushedTo(accountId: number) {
  await vi.waitFor(
    async () => {
      const row = await pushRow(accountId);
      if (row?.state === 'processing') await sim.advance('2m');
      if (row?.state !== 'ready') throw new Error(`push is ${JSON.stringify(row)}`);
    },
    { timeout: 30_000, interval: 50 },
  );
  return (await pushRow(accountId))!.platform_ref!;
}

/** A campaign (ad sets hold the budget) in an account, mirrored. */
async function targetCampaign(account: 'A' | 'J', name: string) {
  const c = await graph(sim, fb.access_token, 'POST', `${act[account]}/campaigns`, { name, objective: 'OUTCOME_SALES', status: 'PAUSED', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
  await syncAccount(acc[account]);
  return { platformId: c.id as string, id: await idOf('ad_campaigns', c.id) };
}

/** The ad sets and ads under a campaign on the platform (what really exists there). */
async function onPlatform(campaignPlatformId: string) {
  const sets = await graph(sim, fb.access_token, 'GET', `${campaignPlatformId}/adsets`, { fields: 'id,name,daily_budget,promoted_object,status' });
  const ads = await graph(sim, fb.access_token, 'GET', `${campaignPlatformId}/ads`, { fields: 'id,name,adset_id,creative{id,object_story_spec}' });
  return { sets: sets.data as any[], ads: ads.data as any[] };
}

async function runCopy(body: Record<string, unknown>) {
  const res = await copy(body);
  expect(res.code, res.message).toBe(0);
  expect(res.data.task_id).toEqual(expect.any(Number));
  // While the copy waits for the video on the target, the platform's processing is moved along.
  const run = await vi.waitFor(
    async () => {
      const push = await pushRow(body.target_ad_account_id as number);
      if (push?.state === 'processing') await sim.advance('2m');
      const row = await readRun(t.db, res.data.task_id);
      if (!row || !['success', 'failed'].includes(row.status)) throw new Error(`run is ${JSON.stringify(row)}`);
      return row;
    },
    { timeout: 40_000, interval: 100 },
  );
  expect(run.summary, 'the copy finished without waiting for a continuation').not.toHaveProperty('waiting');
  const rows = await t.call('/api/ad-operations/list', { log: 'all', batch_id: res.data.batch_id, sort_order: 'ascend', page_size: 50 }, { token: tokens.staff, lang: 'en' });
  return { res, run, rows: rows.data.list as any[] };
}

beforeAll(async () => {
  sim = await startTestSimulator();
  await sim.control('PUT', '/__sim/settings', { video_chunk_bytes: 64 * 1024, video_processing_seconds: 60 });
  media = makeTestMedia();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-copy-'));
  config = materialsConfig(dir, { pushWaitMs: 30_000, pushPollMs: 50 });
  t = await buildTestApp({
    platform: sim.platform,
    config: { dataDir: config.dataDir, materials: config.materials },
    jobs: async ({ db, clock }) => {
      runner = createJobs({
        db,
        platform: sim.platform,
        clock,
        config,
        log: testLog(),
        // Pushes of materials (and their check), and the copy: the jobs a copy to another account runs.
        registry: jobRegistry.filter((j) => ['push-materials', 'check-material-pushes', 'copy-ad-objects'].includes(j.name)),
        options: { workers: true, concurrency: 3, reclaim: driver === 'pglite' ? 'all-at-start' : 'heartbeat', ...FAST },
      });
      await runner.start();
      return runner;
    },
  });
  await syncClocks(t, sim);

  const manager = await createUser(t.db, { is_admin: 1 });
  const dept = await createDepartment(t.db);
  const staff = await createUser(t.db, { department_id: dept.id, paths: PATHS, name: 'Copier' });
  staffId = staff.id;
  tokens = { manager: await t.login(manager.account, manager.password), staff: await t.login(staff.account, staff.password) };

  fb = await sim.createUser({ ad_accounts: [{ currency: 'USD', timezone_name: 'America/Los_Angeles' }, { currency: 'JPY', timezone_name: 'Asia/Tokyo' }, { currency: 'USD' }], pages: 1, pixels: 1 });
  await connectUser(t, tokens.manager, fb, sim.platform);
  act = { A: fb.ad_accounts[0]!.id, J: fb.ad_accounts[1]!.id, X: fb.ad_accounts[2]!.id };
  acc = { A: await adAccountId(t.db, act.A), J: await adAccountId(t.db, act.J), X: await adAccountId(t.db, act.X) };
  await t.db.insertInto('user_ad_accounts').values([{ user_id: staffId, ad_account_id: acc.A, created_at: new Date() }, { user_id: staffId, ad_account_id: acc.J, created_at: new Date() }]).execute();
  // A rate of the day that is not the seeded one: the conversion must use the table.
  expect((await t.call('/api/fx-rates/save', { currency: 'JPY', day: '2026-01-01', units_per_usd: 145.5 }, { token: tokens.manager })).code).toBe(0);

  // The video in the library, pushed to A as a person would.
  const md5 = createHash('md5').update(media.video).digest('hex');
  const key = `${md5.slice(0, 2)}/${md5}.mp4`;
  // Where the local material storage keeps a key (features/materials/storage.ts).
  const storageDir = (config.materials.storage as { dir: string }).dir;
  fs.mkdirSync(path.join(storageDir, md5.slice(0, 2)), { recursive: true });
  fs.writeFileSync(path.join(storageDir, key), media.video);
  const now = new Date();
  materialId = (
    await t.db
      .insertInto('materials')
      .values({ kind: 'video', platform: 'dj', file_name: 'ep1-hook.mp4', mime_type: 'video/mp4', size_bytes: media.video.length, md5, duration_s: 2, width: 320, height: 240, storage_key: key, thumb_key: null, drama_id: null, product_id: null, language: null, editor_id: null, tags: [], uploader_id: staffId, department_id: dept.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  expect((await t.call('/api/materials/push', { material_ids: [materialId], ad_account_ids: [acc.A] }, { token: tokens.manager })).code).toBe(0);
  const videoId = await pushedTo(acc.A);

  // The source: campaign → ad set ($20.00 a day, the pixel) → a video creative → two ads.
  const token = fb.access_token;
  const campaign = await graph(sim, token, 'POST', `${act.A}/campaigns`, { name: 'Spring', objective: 'OUTCOME_SALES', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
  const adset = await graph(sim, token, 'POST', `${act.A}/adsets`, {
    name: 'US 25-44',
    campaign_id: campaign.id,
    status: 'ACTIVE',
    daily_budget: 2000,
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { pixel_id: fb.pixels[0]!.id, custom_event_type: 'PURCHASE' },
    targeting: { geo_locations: { countries: ['US'] }, age_min: 25, age_max: 44, targeting_automation: { advantage_audience: 0 } },
  });
  const creative = await graph(sim, token, 'POST', `${act.A}/adcreatives`, {
    name: 'Hook creative',
    object_story_spec: {
      page_id: fb.pages[0]!.id,
      video_data: { video_id: videoId, image_url: 'https://cdn.example/thumb.jpg', title: 'Episode 1', message: 'Watch now', call_to_action: { type: 'LEARN_MORE', value: { link: 'https://drama.example/ep1' } } },
    },
    url_tags: 'utm_source=fb',
  });
  const adIds: string[] = [];
  for (const name of ['Hook A', 'Hook B']) adIds.push((await graph(sim, token, 'POST', `${act.A}/ads`, { name, adset_id: adset.id, status: 'ACTIVE', creative: { creative_id: creative.id } })).id);
  src = { campaignId: campaign.id, adsetId: adset.id, adIds, videoId };
  await syncAccount(acc.A);
  srcAdset = await idOf('ad_sets', adset.id);
}, 90_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

describe('copy to another ad account', { timeout: 90_000 }, () => {
  it('refuses a target outside the caller’s scope, before anything is queued or logged', async () => {
    const campaign = await targetCampaign('A', 'Unused');
    const res = await copy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.X, parent_id: campaign.id });
    expect(res.code).not.toBe(0);
    expect(res.message).toMatch(/outside your data scope/);
    expect(await t.db.selectFrom('job_runs').select('id').where('job_name', '=', 'copy-ad-objects').execute()).toEqual([]);
    expect(await t.db.selectFrom('ad_operations').select('id').where('ad_account_id', '=', acc.X).execute()).toEqual([]);
    // The pickers offer only accounts in scope, with their currency, and refuse to describe another.
    const accounts = await t.call('/api/ad-ops/copy_accounts', {}, { token: tokens.staff, lang: 'en' });
    expect(accounts.data.list.map((a: any) => [a.id, a.currency, a.reachable]).sort()).toEqual([
      [acc.A, 'USD', true],
      [acc.J, 'JPY', true],
    ].sort());
    const targets = await t.call('/api/ad-ops/copy_targets', { ad_account_id: acc.X }, { token: tokens.staff, lang: 'en' });
    expect(targets.message).toMatch(/outside your data scope/);
    const jp = await t.call('/api/ad-ops/copy_targets', { ad_account_id: acc.J }, { token: tokens.staff, lang: 'en' });
    expect(jp.data).toMatchObject({ ad_account: { id: acc.J, currency: 'JPY' }, reachable: true, pixels: [{ platform_id: fb.pixels[0]!.id }] });
    expect(jp.data.events).toContain('PURCHASE');
  });

  it('previews what will be created: the ad set and its ads, the budget in yen at the day’s rate, the video to push', async () => {
    const target = await targetCampaign('J', 'JP launch');
    const res = await copy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id, dry_run: true });
    expect(res.code, res.message).toBe(0);
    expect(res.data.results.map((r: any) => [r.level, r.name, r.result])).toEqual([
      ['adset', 'US 25-44', 'preview'],
      ['ad', 'Hook A', 'preview'],
      ['ad', 'Hook B', 'preview'],
    ]);
    // $20.00 at 1 USD = 145.5 JPY is ¥2,910 (JPY has no minor unit: 2910 minor units).
    expect(res.data.results[0].after).toMatchObject({ ad_account: act.J, daily_budget_minor: 2910, currency: 'JPY', pixel_id: fb.pixels[0]!.id, custom_event_type: 'PURCHASE' });
    expect(res.data.results[0].before).toMatchObject({ ad_account: act.A, daily_budget_minor: 2000, currency: 'USD' });
    expect(res.data.notes.join('\n')).toMatch(/from USD to JPY: 1 USD = 1 USD = 145\.5 JPY .*USD 20\.00 → JPY 2,910/);
    expect(res.data.notes.join('\n')).toMatch(/ep1-hook\.mp4/);
    // Nothing happened: no task, no log rows, nothing on the platform.
    expect(res.data.task_id).toBeUndefined();
    expect((await onPlatform(target.platformId)).sets).toEqual([]);
    // A pixel the last sync did not see shared with the target: the row says which and where.
    const pixel = await t.db.selectFrom('pixels').select('id').where('platform_id', '=', fb.pixels[0]!.id).executeTakeFirstOrThrow();
    const links = await t.db.deleteFrom('pixel_ad_accounts').where('pixel_id', '=', pixel.id).where('ad_account_id', '=', acc.J).returningAll().execute();
    const unshared = await copy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id, dry_run: true });
    await t.db.insertInto('pixel_ad_accounts').values(links).execute();
    expect(unshared.data.results[0].result).toBe('failed');
    expect(unshared.data.results[0].error).toContain(`The pixel ${fb.pixels[0]!.id} is not shared with the ad account`);
    expect(unshared.data.results[1].error).toMatch(/its ad set "US 25-44" could not be created/);
  });

  it('copies an ad set with its ads into a JPY account: the video pushed and processed there first, the budget converted, every object logged', async () => {
    const target = await targetCampaign('J', 'JP main');
    const { res, run, rows } = await runCopy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id, status: 'PAUSED' });
    expect(run.status, JSON.stringify(run)).toBe('success');
    expect(res.data.notes.join('\n')).toMatch(/queued as a task/);

    // The platform: one ad set under the target campaign, ¥2,910 a day, the pixel; two ads whose creative uses the video pushed to J.
    // The copy went on once the platform said the video was ready (the push job may record it a moment later).
    const videoOnJ = (await pushRow(acc.J))!;
    expect(['processing', 'ready']).toContain(videoOnJ.state);
    expect((await graph(sim, fb.access_token, 'GET', videoOnJ.platform_ref!, { fields: 'status' })).status.video_status).toBe('ready');
    expect(videoOnJ.platform_ref).not.toBe(src.videoId);
    const made = await onPlatform(target.platformId);
    expect(made.sets).toHaveLength(1);
    expect(made.sets[0]).toMatchObject({ name: 'US 25-44', daily_budget: '2910', status: 'PAUSED', promoted_object: { pixel_id: fb.pixels[0]!.id, custom_event_type: 'PURCHASE' } });
    expect(made.ads.map((a) => a.name).sort()).toEqual(['Hook A', 'Hook B']);
    for (const ad of made.ads) {
      expect(ad.creative.object_story_spec.video_data).toMatchObject({ video_id: videoOnJ.platform_ref, title: 'Episode 1', message: 'Watch now' });
      expect(ad.creative.object_story_spec.page_id).toBe(fb.pages[0]!.id);
    }
    // Both ads share one new creative, as their sources did.
    expect(new Set(made.ads.map((a) => a.creative.id)).size).toBe(1);

    // The mirror has them in J, the ads matched to the library's material through the push.
    const mirrored = await t.db.selectFrom('ads').select(['name', 'material_id', 'ad_account_id']).where('platform_id', 'in', made.ads.map((a) => a.id)).execute();
    expect(mirrored.map((m) => [m.ad_account_id, m.material_id])).toEqual([
      [acc.J, materialId],
      [acc.J, materialId],
    ]);
    const set = await t.db.selectFrom('ad_sets').select(['daily_budget_minor', 'currency', 'pixel_id']).where('platform_id', '=', made.sets[0].id).executeTakeFirstOrThrow();
    expect(set).toEqual({ daily_budget_minor: 2910, currency: 'JPY', pixel_id: fb.pixels[0]!.id });

    // One log row per object, before → after, ok, in the target account.
    expect(rows.map((r) => [r.level, r.object_name, r.result, r.ad_account.id])).toEqual([
      ['adset', 'US 25-44', 'ok', acc.J],
      ['ad', 'Hook A', 'ok', acc.J],
      ['ad', 'Hook B', 'ok', acc.J],
    ]);
    expect(rows[0].before).toMatchObject({ source_id: src.adsetId, ad_account: act.A, daily_budget_minor: 2000, currency: 'USD' });
    expect(rows[0].after).toMatchObject({ ad_account: act.J, copied_id: made.sets[0].id, daily_budget_minor: 2910, currency: 'JPY' });
    expect(rows.every((r) => r.actor?.id === staffId && r.action === 'copy')).toBe(true);
  });

  it('copies from JPY back to USD: ¥2,910 is $20.00 at the same rate; a name already taken there is reused, not made twice', async () => {
    const copied = await t.db.selectFrom('ad_sets').select('id').where('ad_account_id', '=', acc.J).where('name', '=', 'US 25-44').executeTakeFirstOrThrow();
    const target = await targetCampaign('A', 'Back home');
    const preview = await copy({ level: 'adset', ids: [copied.id], target_ad_account_id: acc.A, parent_id: target.id, dry_run: true });
    expect(preview.data.results[0].after).toMatchObject({ daily_budget_minor: 2000, currency: 'USD' });
    expect(preview.data.notes.join('\n')).toMatch(/from JPY to USD: 1 USD = 145\.5 JPY = 1 USD .*JPY 2,910 → USD 20\.00/);
    const { run, rows } = await runCopy({ level: 'adset', ids: [copied.id], target_ad_account_id: acc.A, parent_id: target.id });
    expect(run.status, JSON.stringify(run)).toBe('success');
    const made = await onPlatform(target.platformId);
    expect(made.sets).toEqual([expect.objectContaining({ name: 'US 25-44', daily_budget: '2000' })]);
    // The video is on A already: its creative uses A's video, no second push.
    expect(made.ads[0].creative.object_story_spec.video_data.video_id).toBe(src.videoId);
    expect(rows.map((r) => r.result)).toEqual(['ok', 'ok', 'ok']);

    // Into the source's own campaign, where "US 25-44" exists: reused, said so, nothing new.
    const again = await runCopy({ level: 'adset', ids: [copied.id], target_ad_account_id: acc.A, parent_id: await idOf('ad_campaigns', src.campaignId) });
    expect(again.rows[0].after).toMatchObject({ copied_id: src.adsetId, reused: true });
    expect((await onPlatform(src.campaignId)).sets).toHaveLength(1);
    expect((await onPlatform(src.campaignId)).ads).toHaveLength(2);
  });

  it('a create whose answer was lost is found again, and a person’s retry creates nothing twice', async () => {
    const target = await targetCampaign('J', 'JP retry');
    // The platform creates the ad set, then the connection drops before the answer.
    await sim.control('POST', '/__sim/faults', { path: `/${act.J}/adsets`, method: 'POST', apply_then_drop: true });
    const first = await runCopy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id });
    expect(first.run.status, JSON.stringify(first.run)).toBe('success');
    let made = await onPlatform(target.platformId);
    expect(made.sets).toHaveLength(1);
    expect(made.ads).toHaveLength(2);
    expect(first.rows.map((r) => r.result)).toEqual(['ok', 'ok', 'ok']);
    expect(first.rows[0].after.copied_id).toBe(made.sets[0].id);

    // The person copies again: everything is found by name under its parent and reused.
    const second = await runCopy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id });
    expect(second.rows.map((r) => [r.level, r.result, r.after.reused])).toEqual([
      ['adset', 'ok', true],
      ['ad', 'ok', true],
      ['ad', 'ok', true],
    ]);
    made = await onPlatform(target.platformId);
    expect(made.sets).toHaveLength(1);
    expect(made.ads).toHaveLength(2);
  });

  it('a job retried after a crash logs each object once: what the first attempt made and logged gets no second "reused" row', async () => {
    const target = await targetCampaign('J', 'JP crash');
    const input = { level: 'adset' as const, ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id };
    const staff = await t.db.selectFrom('users').select(['id', 'is_admin', 'is_leader', 'department_id']).where('id', '=', staffId).executeTakeFirstOrThrow();
    const data: CopyJobData = { batch_id: crypto.randomUUID(), actor: { type: 'user', actor: staff }, input, pushed: true };
    // The first attempt dies after the ad set and the first ad were made and logged (the process stops before the second ad).
    const crash = new Error('the process stopped');
    const dying = { ...ctx(data), progress: async (done: number) => { if (done === 2) throw crash; } };
    await expect(copyAdObjectsJob.run(dying)).rejects.toBe(crash);
    const log = async () => (await t.call('/api/ad-operations/list', { log: 'all', batch_id: data.batch_id, sort_order: 'ascend', page_size: 50 }, { token: tokens.staff, lang: 'en' })).data.list as any[];
    const before = await log();
    expect(before.map((r) => [r.level, r.object_name, r.result])).toEqual([
      ['adset', 'US 25-44', 'ok'],
      ['ad', 'Hook A', 'ok'],
    ]);

    // The engine runs the job again with the same data (its batch): the second ad is made, nothing is logged twice.
    const retry = await copyAdObjectsJob.run(ctx(data));
    expect(retry.status, JSON.stringify(retry)).toBe('success');
    const rows = await log();
    expect(rows.map((r) => [r.level, r.object_name, r.result])).toEqual([
      ['adset', 'US 25-44', 'ok'],
      ['ad', 'Hook A', 'ok'],
      ['ad', 'Hook B', 'ok'],
    ]);
    expect(rows.slice(0, 2).map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(rows.some((r) => r.after.reused)).toBe(false);
    const made = await onPlatform(target.platformId);
    expect(made.sets.map((x) => x.id)).toEqual([rows[0].after.copied_id]);
    expect(made.ads.map((a) => a.id).sort()).toEqual([rows[1].after.copied_id, rows[2].after.copied_id].sort());
    expect(made.ads.find((a) => a.id === rows[2].after.copied_id)?.adset_id).toBe(rows[0].after.copied_id);

    // A third run of the same batch (a retry after the last object) adds no row and makes nothing.
    expect((await copyAdObjectsJob.run(ctx(data))).status).toBe('success');
    expect((await log()).map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect((await onPlatform(target.platformId)).ads).toHaveLength(2);
  });

  it('logs a platform refusal of one object as failed with the platform’s reason; the others are created', async () => {
    const target = await targetCampaign('J', 'JP partial');
    await sim.control('POST', '/__sim/faults', {
      path: `/${act.J}/ads`,
      method: 'POST',
      count: 1,
      error: { code: 100, message: '(#100) Invalid parameter', error_user_msg: 'The ad name contains words this ad account may not use.' },
    });
    const { run, rows } = await runCopy({ level: 'adset', ids: [srcAdset], target_ad_account_id: acc.J, parent_id: target.id });
    expect(run.status).toBe('failed');
    expect(rows.map((r) => [r.level, r.object_name, r.result])).toEqual([
      ['adset', 'US 25-44', 'ok'],
      ['ad', 'Hook A', 'failed'],
      ['ad', 'Hook B', 'ok'],
    ]);
    expect(rows[1].error).toMatch(/may not use/);
    expect((await onPlatform(target.platformId)).ads.map((a) => a.name)).toEqual(['Hook B']);
    // The failure is in 系统日志 with the reason, filtered by result.
    const failed = await t.call('/api/ad-operations/list', { log: 'all', result: 'failed', ad_account_id: acc.J }, { token: tokens.staff, lang: 'en' });
    expect(failed.data.list.map((r: any) => r.object_name)).toContain('Hook A');

    // The missing ad alone, copied into that ad set: made, and the ad set now holds both.
    const adsetInJ = await idOf('ad_sets', (await onPlatform(target.platformId)).sets[0].id);
    const hookA = (await t.db.selectFrom('ads').select('id').where('platform_id', '=', src.adIds[0]!).executeTakeFirstOrThrow()).id;
    const single = await runCopy({ level: 'ad', ids: [hookA], target_ad_account_id: acc.J, parent_id: adsetInJ });
    expect(single.rows.map((r) => [r.level, r.object_name, r.result])).toEqual([['ad', 'Hook A', 'ok']]);
    expect((await onPlatform(target.platformId)).ads.map((a) => a.name).sort()).toEqual(['Hook A', 'Hook B']);
  });

  it('copies a whole campaign into another account: the campaign, its ad set and ads, the ad set budget converted', async () => {
    const spring = await idOf('ad_campaigns', src.campaignId);
    const { run, rows } = await runCopy({ level: 'campaign', ids: [spring], target_ad_account_id: acc.J });
    expect(run.status, JSON.stringify(run)).toBe('success');
    expect(rows.map((r) => [r.level, r.object_name, r.result])).toEqual([
      ['campaign', 'Spring', 'ok'],
      ['adset', 'US 25-44', 'ok'],
      ['ad', 'Hook A', 'ok'],
      ['ad', 'Hook B', 'ok'],
    ]);
    const campaign = rows[0].after.copied_id as string;
    const onJ = await graph(sim, fb.access_token, 'GET', campaign, { fields: 'account_id,name,objective,status' });
    expect(onJ).toMatchObject({ account_id: act.J.replace('act_', ''), name: 'Spring', objective: 'OUTCOME_SALES', status: 'PAUSED' });
    const made = await onPlatform(campaign);
    expect(made.sets).toEqual([expect.objectContaining({ name: 'US 25-44', daily_budget: '2910' })]);
    expect(made.ads).toHaveLength(2);
    expect(await t.db.selectFrom('ad_campaigns').select('ad_account_id').where('platform_id', '=', campaign).executeTakeFirstOrThrow()).toEqual({ ad_account_id: acc.J });
  });
});
