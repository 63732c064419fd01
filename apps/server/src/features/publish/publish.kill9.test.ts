import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type Simulator } from '@ads/meta-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { md5Hex } from '../../lib/passwords.ts';
import { driver } from '../../test/build-test-app.ts';
import { createDrama, createSite, createUser } from '../../test/factories.ts';

/**
 * A real kill -9: the server runs as its own process (main.ts, PGlite in a DATA_DIR, the
 * simulator in this process over HTTP), publishes a scheme of 40 ads, is killed with SIGKILL
 * while the ads are being created, and is started again on the same data: the run resumes, every
 * item ends created, and the simulator holds each object exactly once.
 */
const root = path.resolve(import.meta.dirname, '../../../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-kill9-'));
const children: ChildProcess[] = [];
let sim: Simulator;
let fb: { access_token: string; ad_accounts: { id: string; account_id: string; currency: string; timezone_name: string }[]; pages: { id: string; name: string; access_token: string }[]; pixels: { id: string }[]; user: { id: string; name: string } };
let staff: { account: string; password: string };
let accountId: number;
let pageId: number;
let pixelId: number;
let dramaId: number;
const posts: string[] = [];

async function control(method: string, p: string, body?: unknown) {
  const res = await fetch(`${sim.url}${p}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${JSON.stringify(json)}`);
  return json as any;
}

/** The server process; resolves with its URL once it listens. */
async function startServer() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', META_GRAPH_URL: sim.url, META_APP_ID: sim.appId, META_APP_SECRET: sim.appSecret, DEMO: '' },
    detached: false,
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let i = 0; i < 1200; i++) {
    const m = /Open (http:\/\/localhost:\d+)/.exec(out);
    if (m) return { child, url: m[1]!.replace('localhost', '127.0.0.1'), exited, output: () => out };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not start:\n${out.slice(-2000)}`);
}

async function api<T = any>(url: string, route: string, body: unknown, token?: string): Promise<{ code: number; message: string; data: T }> {
  const res = await fetch(`${url}/api${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  return (await res.json()) as { code: number; message: string; data: T };
}
const login = async (url: string) => (await api<{ token: string }>(url, '/login', { account: staff.account, pwd: md5Hex(staff.password) })).data.token;

/** What the platform holds in the account, every status. */
async function platformObjects() {
  const act = fb.ad_accounts[0]!.id;
  const list = async (edge: string, statuses?: string[]) => {
    const q = new URLSearchParams({ limit: '500', fields: 'id,name', ...(statuses && { effective_status: JSON.stringify(statuses) }) });
    const res = await fetch(`${sim.url}/v25.0/${act}/${edge}?${q}`, { headers: { authorization: `Bearer ${fb.access_token}` } });
    return ((await res.json()) as { data: { id: string; name: string }[] }).data;
  };
  const all = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DISAPPROVED', 'PENDING_REVIEW', 'PREAPPROVED'];
  return { campaigns: await list('campaigns', all.slice(0, 6)), adsets: await list('adsets', all.slice(0, 7)), ads: await list('ads', all), creatives: await list('adcreatives') };
}

beforeAll(async () => {
  if (driver !== 'pglite') return;
  sim = await startSimulator({ port: 0 });
  fb = await control('POST', '/__sim/users', { ad_accounts: [{ name: 'Kill one', currency: 'USD', timezone_name: 'America/Los_Angeles' }], pages: 1, pixels: 1 });
  // Four page posts: the ads' creatives (no media to push or process).
  for (let i = 0; i < 4; i++) {
    const page = fb.pages[0]!;
    const body = new URLSearchParams({ access_token: page.access_token, message: `Episode teaser ${i + 1}`, link: 'https://drama.example.com/play/K1?ep=1' });
    const res = await fetch(`${sim.url}/v25.0/${page.id}/feed`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    const json = (await res.json()) as { id?: string };
    if (!json.id) throw new Error(`post: ${JSON.stringify(json)}`);
    posts.push(json.id);
  }

  // The server's database, prepared before it starts (it owns the directory while it runs).
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db);
    const db = database.db;
    const user = await createUser(db, { paths: ['/advertising/publish'] });
    staff = user;
    const secrets = secretBoxFor(db, undefined);
    const pa = await db
      .insertInto('personal_accounts')
      .values({ fb_user_id: fb.user.id, name: fb.user.name, token_enc: await secrets.encrypt(fb.access_token), scopes: ['ads_management'], status: 'valid', owner_user_id: user.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const a = fb.ad_accounts[0]!;
    accountId = (await db.insertInto('ad_accounts').values({ platform_id: a.id, account_id: a.account_id, name: 'Kill one', currency: a.currency, timezone_name: a.timezone_name, account_status: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('personal_account_ad_accounts').values({ personal_account_id: pa.id, ad_account_id: accountId }).execute();
    await db.insertInto('user_ad_accounts').values({ user_id: user.id, ad_account_id: accountId }).execute();
    pageId = (await db.insertInto('pages').values({ platform_id: fb.pages[0]!.id, name: fb.pages[0]!.name }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('page_ad_accounts').values({ page_id: pageId, ad_account_id: accountId }).execute();
    pixelId = (await db.insertInto('pixels').values({ platform_id: fb.pixels[0]!.id, name: 'Pixel' }).returning('id').executeTakeFirstOrThrow()).id;
    await db.insertInto('pixel_ad_accounts').values({ pixel_id: pixelId, ad_account_id: accountId, source: 'platform' }).execute();
    const site = await createSite(db, { domain: 'drama.example.com' });
    dramaId = (await createDrama(db, { site_id: site.id, external_id: 'K1', name: 'Killjoy' })).id;
  } finally {
    await database.close();
  }
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(driver === 'pglite')('a server killed with SIGKILL mid-scheme', () => {
  it('resumes on restart: 40 ads, every item created, no object twice', { timeout: 240_000 }, async () => {
    const first = await startServer();
    const token = await login(first.url);
    // Ad creates answer slowly (two seconds), so the kill lands while they are out.
    await control('POST', '/__sim/faults', { path: '/act_*/ads', method: 'POST', count: null, latency_ms: 2000 });
    const draft = {
      platform: 'dj',
      what: { drama_id: dramaId, episode: 1 },
      creatives: { source: 'posts', posts: posts.map((post_id) => ({ post_id, page_id: pageId })) },
      where: { accounts: [{ ad_account_id: accountId, page_id: pageId, pixel_id: pixelId, link: 'https://drama.example.com/play/K1?ep=1', url_tags: 'c={{campaign.id}}&a={{ad.id}}' }] },
      structure: { campaigns_per_account: 1, adsets_per_campaign: 10, ads_per_adset: null },
      campaign: { objective: 'OUTCOME_SALES', budget_level: 'campaign', budget_kind: 'daily', budget: 50, budget_basis: 'account' },
      adset: { countries: ['US'], optimization_goal: 'OFFSITE_CONVERSIONS', conversion_event: 'PURCHASE' },
      ad: { call_to_action: 'WATCH_MORE' },
      naming: { campaign: 'kill-{seq}', adset: 'kill-set-{seq}', ad: 'kill-ad-{seq}' },
    };
    const sub = await api<{ scheme_id: number; totals: { ads: number } }>(first.url, '/publish/submit', { draft }, token);
    expect(sub.code, sub.message).toBe(0);
    expect(sub.data.totals.ads).toBe(40);
    const schemeId = sub.data.scheme_id;
    const progress = async (url: string, t: string) => (await api<{ status: string; counts: { total: number; created: number; creating: number; failed: number } }>(url, '/publish-schemes/get', { id: schemeId }, t)).data;

    // Kill while the ads are being sent: the campaign, ad sets and creatives exist, ads are under
    // way (some applied on the platform, their answers not yet recorded).
    let before = await progress(first.url, token);
    for (let i = 0; i < 1200 && !(before.counts.created >= 1 + 10 + 4 && before.counts.creating > 0); i++) {
      await new Promise((r) => setTimeout(r, 50));
      before = await progress(first.url, token);
    }
    // Calls are out (items committed as `creating`), their answers not recorded: the hazard a restart must survive.
    expect(before.counts.creating).toBeGreaterThan(0);
    expect(before.counts.created).toBeLessThan(before.counts.total);
    first.child.kill('SIGKILL');
    await first.exited;
    await control('DELETE', '/__sim/faults');

    const second = await startServer();
    const token2 = await login(second.url);
    let after = await progress(second.url, token2);
    for (let i = 0; i < 1200 && !['done', 'partial', 'failed', 'cancelled'].includes(after.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await progress(second.url, token2);
    }
    expect(after.status).toBe('done');
    expect(after.counts).toMatchObject({ total: 1 + 10 + 4 + 40, created: 55, failed: 0 });

    // The platform holds each object once: 1 campaign, 10 ad sets, 4 creatives, 40 ads.
    const o = await platformObjects();
    const kill = (rows: { name: string }[]) => rows.filter((r) => r.name.startsWith('kill') || r.name.startsWith(`S${schemeId}·`));
    const counts = [kill(o.campaigns).length, kill(o.adsets).length, kill(o.creatives).length, kill(o.ads).length];
    expect(counts).toEqual([1, 10, 4, 40]);
    const items = (await api<{ list: { status: string; platform_id: string | null }[]; total: number }>(second.url, '/publish-schemes/items', { scheme_id: schemeId, page: 1, page_size: 100 }, token2)).data;
    expect(items.total).toBe(55);
    expect(items.list.every((i) => i.status === 'created' && i.platform_id)).toBe(true);
    expect(new Set(items.list.map((i) => i.platform_id)).size).toBe(55);

    second.child.kill('SIGTERM');
    await second.exited;
  });
});
