import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PublishDraftInput } from '@ads/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000 });
import { buildApp, type App } from '../../app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { fixedClock } from '../../lib/clock.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { PlatformError, type AdPlatformClient } from '../../platform/types.ts';
import { createAdSync } from '../ad-data/ad-sync.service.ts';
import { driver, freshDatabase } from '../../test/build-test-app.ts';
import { createDrama, createSite, createUser } from '../../test/factories.ts';
import { FAST, testLog } from '../../test/jobs.ts';
import { makeTestMedia, materialsConfig, tusClient, type TestMedia } from '../../test/materials.ts';
import { startTestSimulator, TEST_START, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { jobRegistry } from '../../jobs/registry.ts';

/**
 * The publishing engine against the simulator over real HTTP, with the job runner: schemes of
 * several ad accounts × videos × texts, budgets converted per currency, materials pushed first and
 * videos waited for by continuation, rate limits, a video failing processing, a run that dies right
 * after the platform applied a call, retry of failed items and cancel — each ending with exactly
 * the objects planned in the simulator, never one twice.
 */
let sim: TestSimulator;
let media: TestMedia;
let database: Database;
let dir: string;
let config: Config;
let runner: JobRunner;
let app: App;
let baseUrl: string;
let token: string;
let staffId: number;
let fb: SimUser;
/** Our ids: the USD account, the JPY account, a third (USD) account kept for other tests. */
const acc: number[] = [];
const pages: number[] = [];
const pixels: number[] = [];
let dramaId: number;
const m: Record<'video' | 'video2' | 'image', number> = {} as never;
const clock = fixedClock(TEST_START);

/**
 * Create calls pass through here: a test can make the run die right after the platform applied a
 * call (`crash`: the process stops), or lose the answer of an applied call (`drop`: the connection
 * broke after the platform did the work). Validate-only checks do not count.
 */
let crashAfterCreates: number | null = null;
let crashMode: 'crash' | 'drop' = 'crash';
class SimulatedCrash extends Error {}
function crashable(inner: AdPlatformClient): AdPlatformClient {
  const wrap =
    <K extends 'createCampaign' | 'createAdSet' | 'createCreative' | 'createAd' | 'createMany'>(k: K) =>
    async (...args: Parameters<AdPlatformClient[K]>) => {
      const result = await (inner[k] as (...a: unknown[]) => Promise<unknown>)(...args);
      const validateOnly = (args[3] as { validateOnly?: boolean } | undefined)?.validateOnly;
      if (crashAfterCreates !== null && !validateOnly) {
        crashAfterCreates -= k === 'createMany' ? (args[2] as unknown[]).length : 1;
        // Applied on the platform, answer lost: the process dies before recording it.
        if (crashAfterCreates <= 0) {
          crashAfterCreates = null;
          if (crashMode === 'drop') throw new PlatformError('unavailable', 'Graph API request failed: socket hang up', { retryable: true });
          throw new SimulatedCrash('simulated crash after the platform applied the call');
        }
      }
      return result;
    };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'createCampaign' || prop === 'createAdSet' || prop === 'createCreative' || prop === 'createAd' || prop === 'createMany') return wrap(prop);
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

async function call<T = any>(route: string, body: unknown, as = token): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${baseUrl}/api${route}`, { method: 'POST', headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json', 'accept-language': 'en' }, body: JSON.stringify(body) });
  return res.json() as Promise<{ code: number; message: string; data: T }>;
}

async function login(user: { account: string; password: string }) {
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: user.account, pwd: md5Hex(user.password) }) });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** What the platform holds in an account: every campaign, ad set, ad and creative (all statuses). */
async function platformObjects(act: string) {
  const list = async (edge: string, extra: Record<string, string> = {}) => {
    const q = new URLSearchParams({ limit: '500', ...extra });
    const res = await fetch(`${sim.url}/v25.0/${act}/${edge}?${q}`, { headers: { authorization: `Bearer ${fb.access_token}` } });
    const body = (await res.json()) as { data?: any[] };
    if (!body.data) throw new Error(`${edge}: ${JSON.stringify(body)}`);
    return body.data;
  };
  const all = JSON.stringify(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DISAPPROVED', 'PENDING_REVIEW', 'PREAPPROVED', 'PENDING_BILLING_INFO']);
  return {
    campaigns: await list('campaigns', { fields: 'id,name,status,daily_budget', effective_status: JSON.stringify(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES']) }),
    adsets: await list('adsets', { fields: 'id,name,status,campaign_id', effective_status: JSON.stringify(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'CAMPAIGN_PAUSED']) }),
    ads: await list('ads', { fields: 'id,name,status,adset_id,creative', effective_status: all }),
    creatives: await list('adcreatives', { fields: 'id,name' }),
  };
}

const names = (rows: { name: string }[]) => rows.map((r) => r.name);
const dupes = (rows: { name: string }[]) => names(rows).filter((n, i, a) => a.indexOf(n) !== i);
/** Names found more than once per level (a duplicate object). */
const dupesPerLevel = (o: Record<string, { name: string }[]>) => Object.values(o).flatMap(dupes);

/** The objects of one scheme in an account of the simulator (by the scheme's item names). */
async function schemeObjects(schemeId: number, accountIndex: number) {
  const items = await database.db.selectFrom('publish_scheme_items').select(['level', 'name']).where('scheme_id', '=', schemeId).where('ad_account_id', '=', acc[accountIndex]!).execute();
  const want = (level: string) => new Set(items.filter((i) => i.level === level).map((i) => i.name));
  const found = await platformObjects(fb.ad_accounts[accountIndex]!.id);
  // A simulator without validate_only creates the preview's check object; the client deletes it at once.
  const all = { campaigns: found.campaigns.filter((c) => c.status !== 'DELETED'), adsets: found.adsets, ads: found.ads, creatives: found.creatives };
  return {
    campaigns: all.campaigns.filter((c) => want('campaign').has(c.name)),
    adsets: all.adsets.filter((c) => want('adset').has(c.name)),
    ads: all.ads.filter((c) => want('ad').has(c.name)),
    creatives: all.creatives.filter((c) => want('creative').has(c.name)),
  };
}

function draft(over: Partial<PublishDraftInput> & { accounts?: number[]; videos?: number[]; texts?: string[] } = {}): PublishDraftInput {
  const { accounts = [acc[0]!, acc[1]!], videos = [m.video, m.video2], texts = ['Watch the first episode now', 'She never saw it coming'], ...rest } = over;
  return {
    platform: 'dj',
    scheme_name: null,
    what: { drama_id: dramaId, episode: 1 },
    creatives: { source: 'materials', videos: videos.map((id) => ({ material_id: id })), images: [], texts: { primary_texts: texts, headlines: ['Episode 1'], descriptions: [], language: 'en' }, combination: 'cartesian' },
    where: {
      accounts: accounts.map((id) => ({ ad_account_id: id, page_id: pages[acc.indexOf(id)]!, pixel_id: pixels[acc.indexOf(id)]!, link: 'https://drama.example.com/play/D1?ep=1', url_tags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}' })),
    },
    structure: { campaigns_per_account: 1, adsets_per_campaign: 1, ads_per_adset: null },
    campaign: { objective: 'OUTCOME_SALES', budget_level: 'campaign', budget_kind: 'daily', budget: 20, budget_basis: 'usd', bid_strategy: 'LOWEST_COST_WITHOUT_CAP' },
    adset: { countries: ['US'], optimization_goal: 'OFFSITE_CONVERSIONS', conversion_event: 'PURCHASE' },
    ad: { call_to_action: 'WATCH_MORE' },
    naming: { campaign: '{drama}-{optimizer}-{date}-{seq}', adset: '{drama}-{country}-{seq}', ad: '{drama}-{material}-{seq}' },
    ...rest,
  };
}

const schemeRow = (id: number) => database.db.selectFrom('publish_schemes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The scheme's latest run. */
const latestRun = (id: number) =>
  database.db.selectFrom('job_runs').selectAll().where('job_name', '=', 'publish-scheme').where('concurrency_key', '=', `scheme:${id}`).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

/**
 * Drives a scheme to its end: whenever it waits (videos processing, a rate limit) with its next
 * run queued for later, the clocks move on (the simulator's by minutes, processing the videos).
 */
async function runToEnd(id: number, opts: { onWait?: (round: number) => Promise<void> } = {}) {
  for (let round = 0; round < 15; round++) {
    const state = await vi.waitFor(
      async () => {
        const s = await schemeRow(id);
        const run = await latestRun(id);
        if (['done', 'partial', 'failed', 'cancelled'].includes(s.status) && run.status !== 'running' && run.status !== 'queued') return 'end';
        if (run.status === 'queued' && run.start_at && run.start_at.getTime() > clock.now().getTime()) return 'wait';
        throw new Error(`scheme ${s.status} (${s.message_en ?? ''}), run ${run.id} ${run.status} ${run.error ?? ''}`);
      },
      { timeout: 30_000, interval: 40 },
    );
    if (state === 'end') return schemeRow(id);
    await opts.onWait?.(round);
    const run = await latestRun(id);
    await sim.advance('3m');
    clock.set(new Date(Math.max(clock.now().getTime(), run.start_at!.getTime()) + 1000));
  }
  throw new Error('the scheme did not end');
}

async function submit(d: PublishDraftInput) {
  const res = await call('/publish/submit', { draft: d });
  expect(res.code, res.message).toBe(0);
  return res.data as { scheme_id: number; task_id: number; totals: any };
}

beforeAll(async () => {
  sim = await startTestSimulator();
  await sim.control('PUT', '/__sim/settings', { video_processing_seconds: 60 });
  media = makeTestMedia();
  database = await freshDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-publish-'));
  // The push job does not wait for processing: the scheme asks about its videos itself.
  config = materialsConfig(dir, { pushWaitMs: 0 });
  const platform = crashable(sim.platform);
  runner = createJobs({
    db: database.db,
    platform,
    clock,
    config,
    log: testLog(),
    // Publishing and the materials push it uses; no scheduled syncs.
    registry: jobRegistry.filter((j) => ['publish-scheme', 'publish-start', 'push-materials', 'check-material-pushes'].includes(j.name)),
    options: { workers: true, concurrency: 4, reclaim: driver === 'pglite' ? 'all-at-start' : 'heartbeat', ...FAST },
  });
  await runner.start();
  app = await buildApp({ config, db: database.db, driver: database.driver, clock, logger: false, checkAnswers: true, jobs: runner, platform });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const staff = await createUser(database.db, { paths: ['/advertising/publish', '/material/upload'] });
  staffId = staff.id;
  token = await login(staff);

  fb = await sim.createUser({
    ad_accounts: [
      { name: 'US one', currency: 'USD', timezone_name: 'America/Los_Angeles' },
      { name: 'JP one', currency: 'JPY', timezone_name: 'Asia/Tokyo' },
      { name: 'US two', currency: 'USD', timezone_name: 'America/New_York' },
    ],
    pages: 3,
    pixels: 1,
  });
  const secrets = secretBoxFor(database.db, config.tokenEncryptionKey);
  const pa = await database.db
    .insertInto('personal_accounts')
    .values({ fb_user_id: fb.user.id, name: fb.user.name, token_enc: await secrets.encrypt(fb.access_token), scopes: ['ads_management'], status: 'valid', owner_user_id: staffId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pixel = await database.db.insertInto('pixels').values({ platform_id: fb.pixels[0]!.id, name: 'Pixel' }).returning('id').executeTakeFirstOrThrow();
  for (const [k, a] of fb.ad_accounts.entries()) {
    const row = await database.db
      .insertInto('ad_accounts')
      .values({ platform_id: a.id, account_id: a.account_id, name: ['US one', 'JP one', 'US two'][k]!, currency: a.currency, timezone_name: a.timezone_name, account_status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    acc.push(row.id);
    await database.db.insertInto('personal_account_ad_accounts').values({ personal_account_id: pa.id, ad_account_id: row.id }).execute();
    await database.db.insertInto('user_ad_accounts').values({ user_id: staffId, ad_account_id: row.id }).execute();
    const page = await database.db.insertInto('pages').values({ platform_id: fb.pages[k]!.id, name: fb.pages[k]!.name }).returning('id').executeTakeFirstOrThrow();
    await database.db.insertInto('page_ad_accounts').values({ page_id: page.id, ad_account_id: row.id }).execute();
    pages.push(page.id);
    await database.db.insertInto('pixel_ad_accounts').values({ pixel_id: pixel.id, ad_account_id: row.id, source: 'platform' }).execute();
    pixels.push(pixel.id);
  }
  const site = await createSite(database.db, { domain: 'drama.example.com' });
  dramaId = (await createDrama(database.db, { site_id: site.id, external_id: 'D1', name: 'Moonlit' })).id;

  const tus = tusClient(baseUrl, token);
  for (const [name, bytes, filetype] of [
    ['video', media.video, 'video/mp4'],
    ['video2', media.video2, 'video/mp4'],
    ['image', media.bigImage, 'image/png'],
  ] as const) {
    const { location } = await tus.upload(bytes, { filename: `${name}.${filetype === 'image/png' ? 'png' : 'mp4'}`, filetype, platform: 'dj', drama_id: dramaId }, 256 * 1024);
    m[name] = (await tus.result(location!)).data.material.id;
  }
}, 240_000);

afterEach(async () => {
  expect(app.answerMismatches).toEqual([]);
  crashAfterCreates = null;
  crashMode = 'crash';
  await sim.control('DELETE', '/__sim/faults');
});

afterAll(async () => {
  await app?.close();
  await runner?.stop();
  await database?.close();
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

describe('a scheme of 2 accounts × 2 videos × 2 texts', () => {
  let schemeId: number;

  it('previews every object with its name and the budgets in each currency (USD basis: $20 → 20.00 USD and ¥3000)', async () => {
    const res = await call('/publish/preview', { draft: draft() });
    expect(res.code, res.message).toBe(0);
    const p = res.data;
    expect(p.issues.filter((i: any) => i.level === 'error')).toEqual([]);
    expect(p.ok).toBe(true);
    expect(p.platform_checked).toBe(true);
    expect(p.totals).toMatchObject({ accounts: 2, campaigns: 2, adsets: 2, ads: 8 });
    expect(p.totals.daily_budget).toEqual(
      expect.arrayContaining([
        { currency: 'USD', minor: 2000, major: 20, usd: 20 },
        { currency: 'JPY', minor: 3000, major: 3000, usd: 20 },
      ]),
    );
    expect(p.totals.daily_budget_usd).toBe(40);
    const us = p.accounts.find((a: any) => a.ad_account_id === acc[0]);
    expect(us.campaigns[0].name).toMatch(/^Moonlit-u\w+-\d{8}-1$/);
    expect(us.campaigns[0].budget).toMatchObject({ kind: 'daily', currency: 'USD', minor: 2000 });
    expect(us.campaigns[0].adsets[0].name).toBe('Moonlit-US-1');
    expect(us.campaigns[0].adsets[0].ads.map((a: any) => a.name)).toEqual(['Moonlit-video-1', 'Moonlit-video-2', 'Moonlit-video2-3', 'Moonlit-video2-4']);
    expect(us.campaigns[0].adsets[0].ads.map((a: any) => a.creative.primary_text)).toEqual(['Watch the first episode now', 'She never saw it coming', 'Watch the first episode now', 'She never saw it coming']);
    // Nothing is on the platform yet: the preview created nothing (validate-only included).
    expect((await platformObjects(fb.ad_accounts[0]!.id)).campaigns.filter((c) => c.status !== 'DELETED')).toEqual([]);
    expect(us.materials_to_push.sort()).toEqual([m.video, m.video2].sort());
  });

  it('submits, pushes the videos first, waits for processing and creates exactly the planned objects, PAUSED', async () => {
    const sub = await submit(draft());
    schemeId = sub.scheme_id;
    const end = await runToEnd(schemeId);
    expect(end.status).toBe('done');
    for (const [k, currency, budget] of [
      [0, 'USD', '2000'],
      [1, 'JPY', '3000'],
    ] as const) {
      const o = await schemeObjects(schemeId, k);
      expect(o.campaigns).toHaveLength(1);
      expect(o.campaigns[0]).toMatchObject({ status: 'PAUSED', daily_budget: budget });
      expect(o.adsets).toHaveLength(1);
      expect(o.adsets[0].status).toBe('PAUSED');
      expect(o.ads).toHaveLength(4);
      expect(o.ads.every((a: any) => a.status === 'PAUSED' && a.adset_id === o.adsets[0].id)).toBe(true);
      expect(o.creatives).toHaveLength(4);
      expect(dupesPerLevel(o)).toEqual([]);
      expect(currency).toBeTruthy();
    }
    // Mirrored with the scheme, its items and the publisher as owner; materials and their usages recorded.
    const ads = await database.db.selectFrom('ads').select(['scheme_id', 'scheme_item_id', 'owner_user_id', 'owner_source', 'material_id', 'drama_id']).where('scheme_id', '=', schemeId).execute();
    expect(ads).toHaveLength(8);
    expect(ads.every((a) => a.owner_user_id === staffId && a.owner_source === 'scheme' && a.scheme_item_id !== null && [m.video, m.video2].includes(a.material_id!))).toBe(true);
    expect(await database.db.selectFrom('ad_campaigns').select('id').where('scheme_id', '=', schemeId).execute()).toHaveLength(2);
    const usages = await database.db.selectFrom('material_usages').select(['material_id', 'role', 'ad_id']).where('ad_id', 'is not', null).execute();
    expect(usages.filter((u) => u.material_id === m.video && u.role === 'video')).toHaveLength(4);
    expect((await call('/materials/get', { id: m.video })).data.ads_using).toBe(4);
    const items = await call('/publish-schemes/items', { scheme_id: schemeId, page_size: 100 });
    expect(items.data.total).toBe(2 * (1 + 1 + 4 + 4));
    expect(items.data.list.every((i: any) => i.status === 'created' && i.platform_id && i.object_id)).toBe(true);
    const detail = await call('/publish-schemes/get', { id: schemeId });
    expect(detail.data).toMatchObject({ status: 'done', counts: { total: 20, created: 20, failed: 0 }, created_objects: { campaigns: 2, adsets: 2, ads: 8 } });
    expect(detail.data.accounts).toHaveLength(2);
  });

  it('a deleted ad no longer holds its material', async () => {
    const ad = await database.db.selectFrom('ads').select(['id']).where('scheme_id', '=', schemeId).where('material_id', '=', m.video).limit(1).executeTakeFirstOrThrow();
    await database.db.updateTable('ads').set({ deleted_at: clock.now(), effective_status: 'DELETED' }).where('id', '=', ad.id).execute();
    expect((await call('/materials/get', { id: m.video })).data.ads_using).toBe(3);
  });
});

describe('one dynamic creative', () => {
  it('publishes an is_dynamic_creative ad set with one ad whose creative is the asset feed Meta requires', async () => {
    const d = draft({ accounts: [acc[0]!], videos: [m.video, m.video2], texts: ['Dyn body one', 'Dyn body two'], naming: { campaign: 'dyn-{seq}', adset: 'dyn-{seq}', ad: 'dyn-{material}-{seq}' } });
    const { scheme_id } = await submit({ ...d, creatives: { ...(d.creatives as any), images: [m.image], texts: { primary_texts: ['Dyn body one', 'Dyn body two'], headlines: ['Episode 1', 'Tonight'], descriptions: ['Free to watch'], language: 'en' }, combination: 'dynamic' } });
    const end = await runToEnd(scheme_id);
    expect(end.status, end.message_en ?? '').toBe('done');
    const o = await schemeObjects(scheme_id, 0);
    expect([o.campaigns.length, o.adsets.length, o.ads.length, o.creatives.length]).toEqual([1, 1, 1, 1]);
    const get = async (id: string, fields: string) => (await (await fetch(`${sim.url}/v25.0/${id}?fields=${fields}`, { headers: { authorization: `Bearer ${fb.access_token}` } })).json()) as any;
    expect((await get(o.adsets[0].id, 'is_dynamic_creative')).is_dynamic_creative).toBe(true);
    const creative = await get(o.ads[0].creative.id, 'asset_feed_spec,object_story_spec,url_tags');
    // The videos and the image as pushed to this account, each video with a thumbnail.
    const pushed = async (id: number) => (await database.db.selectFrom('material_pushes').select('platform_ref').where('material_id', '=', id).where('ad_account_id', '=', acc[0]!).executeTakeFirstOrThrow()).platform_ref;
    const feed = creative.asset_feed_spec;
    expect(feed.videos.map((v: any) => v.video_id).sort()).toEqual([await pushed(m.video), await pushed(m.video2)].sort());
    expect(feed.videos.every((v: any) => /^[0-9a-f]{32}$/.test(v.thumbnail_hash))).toBe(true);
    expect(feed.images).toEqual([{ hash: await pushed(m.image) }]);
    expect(feed).toMatchObject({
      bodies: [{ text: 'Dyn body one' }, { text: 'Dyn body two' }],
      titles: [{ text: 'Episode 1' }, { text: 'Tonight' }],
      descriptions: [{ text: 'Free to watch' }],
      link_urls: [{ website_url: 'https://drama.example.com/play/D1?ep=1' }],
      call_to_action_types: ['WATCH_MORE'],
      // Videos and an image together: the one format that mixes them.
      ad_formats: ['AUTOMATIC_FORMAT'],
    });
    expect(creative.object_story_spec).toEqual({ page_id: fb.pages[0]!.id });
    expect(creative.url_tags).toBe('c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}');
  });

  it('refuses more assets than a dynamic creative takes in preview, naming the limit', async () => {
    const d = draft({ accounts: [acc[0]!] });
    const res = await call('/publish/preview', { draft: { ...d, creatives: { ...(d.creatives as any), texts: { primary_texts: ['a'], headlines: ['1', '2', '3', '4', '5', '6'], descriptions: [], language: 'en' }, combination: 'dynamic' }, validate: false } });
    expect(res.code, res.message).toBe(0);
    expect(res.data.issues.filter((i: any) => i.code === 'PUB_DYNAMIC_LIMIT').map((i: any) => i.message)).toEqual(['A dynamic creative holds at most 10 videos, 10 images and 5 each of primary texts, headlines and descriptions.']);
  });
});

describe('faults mid-scheme', () => {
  it('a rate limit stops one account’s creates; the scheme goes on by continuation and ends with every object once', async () => {
    await sim.control('POST', '/__sim/faults', { path: '/act_*/ads', method: 'POST', count: null, error: { code: 17, error_subcode: 2446079, message: '(#17) User request limit reached' } });
    const { scheme_id } = await submit(draft({ accounts: [acc[2]!], videos: [m.video], texts: ['Rate limited text'] }));
    let sawWaiting = false;
    const end = await runToEnd(scheme_id, {
      onWait: async () => {
        const s = await schemeRow(scheme_id);
        const pending = await database.db.selectFrom('publish_scheme_items').select(['status']).where('scheme_id', '=', scheme_id).where('level', '=', 'ad').execute();
        // Waiting on the limit: the campaign, ad set and creative exist, the ad does not yet.
        if (s.message_en?.includes('limiting calls')) {
          sawWaiting = true;
          expect(pending.every((p) => p.status === 'pending')).toBe(true);
          await sim.control('DELETE', '/__sim/faults');
        }
      },
    });
    expect(sawWaiting).toBe(true);
    expect(end.status).toBe('done');
    const o = await schemeObjects(scheme_id, 2);
    expect([o.campaigns.length, o.adsets.length, o.creatives.length, o.ads.length]).toEqual([1, 1, 1, 1]);
  });

  it('a video that fails processing fails its items with the platform’s reason; the rest is created', async () => {
    const { scheme_id } = await submit(draft({ accounts: [acc[2]!], videos: [m.video, m.video2], texts: ['One text'], naming: { campaign: 'vf-{seq}', adset: 'vf-{seq}', ad: 'vf-{material}-{seq}' } }));
    const end = await runToEnd(scheme_id, {
      onWait: async (round) => {
        if (round !== 0) return;
        // The first time it waits, video2 is being processed on the third account: make it fail.
        const push = await database.db.selectFrom('material_pushes').selectAll().where('material_id', '=', m.video2).where('ad_account_id', '=', acc[2]!).executeTakeFirstOrThrow();
        await vi.waitFor(async () => {
          const p = await database.db.selectFrom('material_pushes').select(['state', 'platform_ref']).where('id', '=', push.id).executeTakeFirstOrThrow();
          if (p.state !== 'processing' && p.state !== 'ready') throw new Error(p.state);
          if (p.state === 'processing') await sim.control('POST', `/__sim/videos/${p.platform_ref}/fail`, { message: 'The video could not be decoded' });
        }, { timeout: 30_000, interval: 40 });
      },
    });
    const items = await database.db.selectFrom('publish_scheme_items').select(['level', 'status', 'error_en', 'material_id']).where('scheme_id', '=', scheme_id).execute();
    expect(end.status).toBe('partial');
    const v2 = items.filter((i) => i.material_id === m.video2);
    expect(v2.map((i) => [i.level, i.status]).sort()).toEqual([
      ['ad', 'failed'],
      ['creative', 'failed'],
    ]);
    expect(v2.find((i) => i.level === 'creative')!.error_en).toContain('The video could not be decoded');
    expect(v2.find((i) => i.level === 'ad')!.error_en).toBe('Its parent was not created.');
    expect(items.filter((i) => i.material_id === m.video).every((i) => i.status === 'created')).toBe(true);
    const o = await schemeObjects(scheme_id, 2);
    expect([o.campaigns.length, o.adsets.length, o.creatives.length, o.ads.length]).toEqual([1, 1, 1, 1]);
  });

  it('a run that dies right after the platform applied its calls resumes and creates nothing twice', async () => {
    // Materials already on the account (earlier tests), so the run goes straight to creating.
    crashAfterCreates = 3;
    const { scheme_id } = await submit(draft({ accounts: [acc[0]!], videos: [m.video, m.video2], texts: ['Crash one', 'Crash two'], naming: { campaign: 'crash-{seq}', adset: 'crash-{seq}', ad: 'crash-{material}-{seq}' } }));
    const end = await runToEnd(scheme_id);
    expect(end.status).toBe('done');
    const runs = await database.db.selectFrom('job_runs').select(['attempt', 'status', 'error']).where('concurrency_key', '=', `scheme:${scheme_id}`).orderBy('id').execute();
    expect(runs.some((r) => r.attempt > 1)).toBe(true);
    const o = await schemeObjects(scheme_id, 0);
    expect([o.campaigns.length, o.adsets.length, o.creatives.length, o.ads.length]).toEqual([1, 1, 4, 4]);
    expect(dupesPerLevel(o)).toEqual([]);
  });

  it('a batch whose answer is lost after being applied is found by lookup, not sent again', async () => {
    crashMode = 'drop';
    crashAfterCreates = 10; // 1 campaign + 1 ad set + 4 creatives + 4 ads: dies after the ads' batch.
    const { scheme_id } = await submit(draft({ accounts: [acc[1]!], videos: [m.video, m.video2], texts: ['Drop one', 'Drop two'], naming: { campaign: 'drop-{seq}', adset: 'drop-{seq}', ad: 'drop-{material}-{seq}' } }));
    const end = await runToEnd(scheme_id);
    expect(end.status).toBe('done');
    const o = await schemeObjects(scheme_id, 1);
    expect([o.campaigns.length, o.adsets.length, o.creatives.length, o.ads.length]).toEqual([1, 1, 4, 4]);
    expect(dupesPerLevel(o)).toEqual([]);
    // One run: the lost answers were looked up on the next turn, never sent again.
    const ads = await database.db.selectFrom('publish_scheme_items').select(['attempts', 'status']).where('scheme_id', '=', scheme_id).where('level', '=', 'ad').execute();
    expect(ads.every((a) => a.status === 'created' && a.attempts === 1)).toBe(true);
  });
});

describe('fairness', () => {
  it('a scheme slowed by its account’s rate limit never holds up another user’s: the second finishes while the first still waits', async () => {
    // Another optimizer with the first US account, who has the video in their library too.
    const other = await createUser(database.db, { paths: ['/advertising/publish', '/material/upload'] });
    await database.db.insertInto('user_ad_accounts').values({ user_id: other.id, ad_account_id: acc[0]! }).execute();
    await database.db.insertInto('material_uploads').values({ id: `fair-${other.id}`, user_id: other.id, material_id: m.video, status: 'duplicate', size_bytes: 1, created_at: clock.now() }).execute();
    const otherToken = await login(other);

    // The third account is throttled: every ad create there is refused with the ad-account rate limit.
    await sim.control('POST', '/__sim/faults', { path: `/${fb.ad_accounts[2]!.id}/ads`, method: 'POST', count: null, error: { code: 17, error_subcode: 2446079, message: '(#17) User request limit reached' } });
    const slow = await submit(draft({ accounts: [acc[2]!], videos: [m.video], texts: ['Slow one', 'Slow two'], naming: { campaign: 'slow-{seq}', adset: 'slow-{seq}', ad: 'slow-{material}-{seq}' } }));
    await vi.waitFor(
      async () => {
        const s = await schemeRow(slow.scheme_id);
        if (s.status !== 'waiting') throw new Error(s.status);
      },
      { timeout: 30_000, interval: 40 },
    );

    const res = await call('/publish/submit', { draft: draft({ accounts: [acc[0]!], videos: [m.video], texts: ['Fast one', 'Fast two'], naming: { campaign: 'fast-{seq}', adset: 'fast-{seq}', ad: 'fast-{material}-{seq}' } }) }, otherToken);
    expect(res.code, res.message).toBe(0);
    const fast = res.data as { scheme_id: number };
    expect((await runToEnd(fast.scheme_id)).status).toBe('done');
    // The throttled scheme is still going (waiting for the limit), not done and not failed.
    const meanwhile = await schemeRow(slow.scheme_id);
    expect(['waiting', 'running', 'queued']).toContain(meanwhile.status);
    expect(meanwhile.finished_at).toBeNull();
    const f = await schemeObjects(fast.scheme_id, 0);
    expect([f.campaigns.length, f.adsets.length, f.creatives.length, f.ads.length]).toEqual([1, 1, 2, 2]);
    expect((await schemeRow(fast.scheme_id)).created_by).toBe(other.id);

    // The limit lifts: the first scheme ends too, each object once.
    await sim.control('DELETE', '/__sim/faults');
    expect((await runToEnd(slow.scheme_id)).status).toBe('done');
    const o = await schemeObjects(slow.scheme_id, 2);
    expect([o.campaigns.length, o.adsets.length, o.creatives.length, o.ads.length]).toEqual([1, 1, 2, 2]);
    expect(dupesPerLevel(o)).toEqual([]);
  });
});

describe('mirrors that arrive later', () => {
  it('objects whose mirror refresh failed join their scheme when the account’s periodic sync brings them', async () => {
    // The engine's refresh right after the creates lists the account's campaigns: refused, so nothing is mirrored by the run.
    await sim.control('POST', '/__sim/faults', { path: '/act_*/campaigns', method: 'GET', count: null, error: { code: 100, message: '(#100) Invalid parameter' } });
    const { scheme_id } = await submit(draft({ accounts: [acc[2]!], videos: [m.video], texts: ['Late one', 'Late two'], naming: { campaign: 'late-{seq}', adset: 'late-{seq}', ad: 'late-{material}-{seq}' } }));
    expect((await runToEnd(scheme_id)).status).toBe('done');
    const items = () => database.db.selectFrom('publish_scheme_items').select(['id', 'level', 'platform_id', 'object_id']).where('scheme_id', '=', scheme_id).orderBy('id').execute();
    expect((await items()).every((i) => i.platform_id && i.object_id === null)).toBe(true);
    expect(await database.db.selectFrom('ads').select('id').where('scheme_id', '=', scheme_id).execute()).toEqual([]);

    await sim.control('DELETE', '/__sim/faults');
    const sync = createAdSync({ db: database.db, platform: sim.platform, clock, secrets: secretBoxFor(database.db, config.tokenEncryptionKey), reportTimezone: config.reportTimezone });
    await sync.syncAccount(acc[2]!, { mode: 'recent' });

    // Every object: its scheme, its own item, the publisher as owner; the items point at their mirrors.
    const after = await items();
    expect(after.every((i) => i.object_id !== null)).toBe(true);
    for (const [level, table] of [
      ['campaign', 'ad_campaigns'],
      ['adset', 'ad_sets'],
      ['ad', 'ads'],
    ] as const) {
      const mine = after.filter((i) => i.level === level);
      const rows = await database.db.selectFrom(table).select(['id', 'platform_id', 'scheme_id', 'scheme_item_id', 'owner_user_id', 'owner_source']).where('platform_id', 'in', mine.map((i) => i.platform_id!)).orderBy('id').execute();
      expect(rows).toHaveLength(mine.length);
      for (const r of rows) {
        const item = mine.find((i) => i.platform_id === r.platform_id)!;
        expect(r).toMatchObject({ id: item.object_id, scheme_id, scheme_item_id: item.id, owner_user_id: staffId, owner_source: 'scheme' });
      }
    }
    // The ads carry their material and count as its usages.
    const ads = await database.db.selectFrom('ads').select(['id', 'material_id']).where('scheme_id', '=', scheme_id).execute();
    expect(ads).toHaveLength(2);
    expect(ads.every((a) => a.material_id === m.video)).toBe(true);
    const usages = await database.db.selectFrom('material_usages').select(['ad_id', 'role']).where('ad_id', 'in', ads.map((a) => a.id)).execute();
    expect(usages.map((u) => u.role)).toEqual(['video', 'video']);
  });
});

describe('retry failed and cancel', () => {
  it('retry-failed runs only the failed items again', async () => {
    // The platform refuses creatives once each (an invalid parameter): every creative and ad fails.
    await sim.control('POST', '/__sim/faults', { path: '/act_*/adcreatives', method: 'POST', count: 2, error: { code: 100, message: '(#100) Invalid parameter', error_user_msg: 'The link is not allowed.' } });
    const { scheme_id } = await submit(draft({ accounts: [acc[0]!], videos: [m.video, m.video2], texts: ['Retry text'], naming: { campaign: 'retry-{seq}', adset: 'retry-{seq}', ad: 'retry-{material}-{seq}' } }));
    const first = await runToEnd(scheme_id);
    expect(first.status).toBe('partial');
    const failed = await database.db.selectFrom('publish_scheme_items').select(['id', 'level', 'error']).where('scheme_id', '=', scheme_id).where('status', '=', 'failed').execute();
    expect(failed.map((f) => f.level).sort()).toEqual(['ad', 'ad', 'creative', 'creative']);
    // The platform's own words (the same in both languages).
    expect(failed.find((f) => f.level === 'creative')!.error).toBe('The link is not allowed.');
    const createdBefore = await database.db.selectFrom('publish_scheme_items').select(['id', 'platform_id', 'updated_at']).where('scheme_id', '=', scheme_id).where('status', '=', 'created').execute();

    const retry = await call('/publish-schemes/retry_failed', { id: scheme_id });
    expect(retry.data.items).toBe(4);
    const second = await runToEnd(scheme_id);
    expect(second.status).toBe('done');
    // The campaign and ad set were not touched: same platform ids, same rows.
    const createdAfter = await database.db.selectFrom('publish_scheme_items').select(['id', 'platform_id', 'updated_at']).where('id', 'in', createdBefore.map((c) => c.id)).execute();
    expect(createdAfter.map((c) => c.platform_id).sort()).toEqual(createdBefore.map((c) => c.platform_id).sort());
    const o = await schemeObjects(scheme_id, 0);
    expect([o.campaigns.length, o.adsets.length, o.creatives.length, o.ads.length]).toEqual([1, 1, 2, 2]);
    expect((await call('/publish-schemes/retry_failed', { id: scheme_id })).message).toBe('The scheme has no failed items.');
  });

  it('cancel stops a scheme waiting for its turn; nothing more is created', async () => {
    await sim.control('POST', '/__sim/faults', { path: '/act_*/adsets', method: 'POST', count: null, error: { code: 17, error_subcode: 2446079, message: '(#17) User request limit reached' } });
    const { scheme_id } = await submit(draft({ accounts: [acc[2]!], videos: [m.video], texts: ['Cancel me'], naming: { campaign: 'cancel-{seq}', adset: 'cancel-{seq}', ad: 'cancel-{material}-{seq}' } }));
    await vi.waitFor(
      async () => {
        const s = await schemeRow(scheme_id);
        if (s.status !== 'waiting') throw new Error(s.status);
      },
      { timeout: 30_000, interval: 40 },
    );
    const res = await call('/publish-schemes/cancel', { id: scheme_id });
    expect(res.code, res.message).toBe(0);
    await sim.control('DELETE', '/__sim/faults');
    const end = await runToEnd(scheme_id);
    expect(end.status).toBe('cancelled');
    const o = await schemeObjects(scheme_id, 2);
    expect([o.campaigns.length, o.adsets.length, o.ads.length]).toEqual([1, 0, 0]);
    const items = await database.db.selectFrom('publish_scheme_items').select(['level', 'status']).where('scheme_id', '=', scheme_id).execute();
    expect(items.filter((i) => i.status === 'cancelled').length).toBe(items.length - 1);
  });
});

describe('launch', () => {
  it('“start now” creates ad sets and ads active under paused campaigns, then switches the campaigns on, logged', async () => {
    const { scheme_id } = await submit(draft({ accounts: [acc[2]!], videos: [m.video], texts: ['Start now'], naming: { campaign: 'start-{seq}', adset: 'start-{seq}', ad: 'start-{material}-{seq}' }, launch: { mode: 'now' } }));
    expect((await runToEnd(scheme_id)).status).toBe('done');
    const startTask = await vi.waitFor(async () => {
      const s = await schemeRow(scheme_id);
      if (!s.start_task_id) throw new Error('no start task');
      const run = await database.db.selectFrom('job_runs').select(['status', 'summary']).where('id', '=', Number(s.start_task_id)).executeTakeFirstOrThrow();
      if (run.status !== 'success') throw new Error(run.status);
      return run;
    }, { timeout: 30_000, interval: 40 });
    expect(startTask.summary).toMatchObject({ ok: 1 });
    const o = await schemeObjects(scheme_id, 2);
    expect(o.campaigns[0].status).toBe('ACTIVE');
    const ops = await database.db.selectFrom('ad_operations').select(['action', 'actor_type', 'result']).where('object_platform_id', '=', o.campaigns[0].id).execute();
    expect(ops).toEqual([{ action: 'activate', actor_type: 'start_task', result: 'ok' }]);
  });
});
