// The publishing section (issue 8 "Benchmark"): 1,000 ads over 20 ad accounts (50 campaigns)
// submitted through POST /api/publish/submit to the real server (a child process on PostgreSQL),
// whose publish-scheme jobs create them in the Graph API simulator over HTTP. The server reaches
// the simulator through a counting proxy in this process, so every Graph call it makes is counted
// (batch items too). Figures: wall time from the first submit to both schemes done, Graph calls
// against the floor the simulator's rate limits allow, and the server's memory before, at its peak
// and after. Checked: exactly the planned objects exist in the simulator, none twice.
// See README.md "Publishing".
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { PublishDraftInput } from '@ads/contracts';
import { startSimulator, type Simulator } from '@ads/meta-sim';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Db } from '../apps/server/src/db/database.ts';
import { createMediaTools } from '../apps/server/src/features/materials/media.ts';
import { secretBoxFor } from '../apps/server/src/lib/crypto.ts';
import { createDrama, createSite, createUser } from '../apps/server/src/test/factories.ts';
import { tusClient } from '../apps/server/src/test/materials.ts';
import { onCleanup, removeTempDir, trackTempDir } from './cleanup.ts';
import { createBenchDatabase } from './postgres.ts';
import { apiLogin, assertLoopback, freePort, HOST, startServer } from './server.ts';
import { control, setBudget } from './sync.ts';

/** Issue 8: 1,000 ads over 20 ad accounts, 50 campaigns — two schemes: 10 accounts × 3 campaigns and 10 × 2, one ad set each, 20 ads per ad set (4 images × 5 texts). */
export const PUBLISH_ACCOUNTS = 20;
const SCHEMES = [
  { accounts: 10, campaignsPerAccount: 3 },
  { accounts: 10, campaignsPerAccount: 2 },
] as const;
const IMAGES = 4;
const TEXTS = ['Watch the first episode now', 'She never saw it coming', 'The twist nobody expected', 'Episode one is free tonight', 'Start the story from the beginning'];
const ADS_PER_ADSET = IMAGES * TEXTS.length;
export const PUBLISH_CAMPAIGNS = SCHEMES.reduce((n, s) => n + s.accounts * s.campaignsPerAccount, 0);
export const PUBLISH_ADS = PUBLISH_CAMPAIGNS * ADS_PER_ADSET;
const DONE_TIMEOUT_MS = 20 * 60_000;

export interface ProxyCounts {
  httpRequests: number;
  batchRequests: number;
  batchItems: number;
  /** httpRequests + batchItems: the Graph calls made, each metered against the app budget. */
  graphCalls: number;
  gets: number;
  /** Requests answered with a throttle code (4, 17, 32, 341, 613, 80000–80014). */
  refused: number;
  /** Other error answers. */
  failed: number;
}

export interface PublishFigures {
  accounts: number;
  campaigns: number;
  adsets: number;
  ads: number;
  creatives: number;
  schemes: { id: number; status: string; items: number; message: string | null }[];
  /** First submit to both schemes finished (done / partial / failed). */
  wallMs: number;
  /** Submit requests alone (validation, plan, items stored). */
  submitMs: number;
  calls: ProxyCounts;
  callsPerAd: number;
  /** Calls per second the app budget sustains (standard tier 200,000 per hour). */
  budgetCallsPerS: number;
  /** calls ÷ the app budget's rate: the least time the hourly budget takes to admit them at its rate. */
  floorMs: number;
  /** wall ÷ floor. */
  floorRatio: number;
  /** Per-account limits: ad-creation throttle (ads per account per hour) and score (writes cost 3). */
  perAccount: { maxAds: number; adCreationsPerHour: number; maxScore: number; scoreMax: number; scoreWindowS: number };
  /** Server VmRSS (MB): after set-up, highest while publishing (sampled every 100 ms), after the schemes finished. */
  rss: { beforeMB: number; peakMB: number; afterMB: number };
  /** GET /v25.0/me one after the other through the same proxy, for 2 s: the simulator's answer rate. */
  bareGetPerS: number;
  /** A third scheme whose server is killed with SIGKILL once part of its ads exist, then restarted on the same database. */
  kill: KillFigures;
  problems: string[];
}

export interface KillFigures {
  ads: number;
  /** Ad items created when the server was killed. */
  adsBeforeKill: number;
  /** Restart: spawn → healthy, then until the scheme finished. */
  restartMs: number;
  resumeMs: number;
  status: string;
  /** Objects found twice under one parent in the simulator, over every account (must be 0). */
  duplicates: number;
  /** Ads of the scheme in the simulator (must equal `ads`). */
  adsOnPlatform: number;
}

/** The kill -9 scheme: 10 accounts × 1 campaign × 20 ads; the server is killed once this share of its ads exists. */
const KILL_ACCOUNTS = 10;
const KILL_AT_SHARE = 0.3;


const rssMB = (pid: number): number => {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const isThrottleCode = (code: unknown) => typeof code === 'number' && ([4, 17, 32, 341, 613].includes(code) || (code >= 80000 && code <= 80014));

/** A loopback HTTP proxy to the simulator that counts the Graph calls passing through. */
async function countingProxy(target: string): Promise<{ url: string; counts: ProxyCounts; reset(): void; close(): Promise<void> }> {
  const empty = (): ProxyCounts => ({ httpRequests: 0, batchRequests: 0, batchItems: 0, graphCalls: 0, gets: 0, refused: 0, failed: 0 });
  const state = { counts: empty() };
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const c = state.counts;
      c.httpRequests += 1;
      c.graphCalls += 1;
      if (req.method === 'GET') c.gets += 1;
      if (req.method === 'POST' && (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        const batch = new URLSearchParams(body.toString('utf8')).get('batch');
        if (batch) {
          try {
            const items = JSON.parse(batch) as unknown[];
            c.batchRequests += 1;
            c.batchItems += items.length;
            c.graphCalls += items.length;
          } catch {
            // not a batch the platform would accept either
          }
        }
      }
      const up = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (p: Buffer) => parts.push(p));
        answer.on('end', () => {
          const text = Buffer.concat(parts);
          if ((answer.statusCode ?? 500) >= 400) {
            let code: unknown;
            try {
              code = (JSON.parse(text.toString('utf8')) as { error?: { code?: unknown } }).error?.code;
            } catch {
              code = undefined;
            }
            if (isThrottleCode(code)) c.refused += 1;
            else c.failed += 1;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
        });
      });
      up.on('error', (err) => {
        c.failed += 1;
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message, code: 2 } }));
      });
      up.end(body);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, HOST, resolve));
  return {
    url: `http://${HOST}:${port}`,
    get counts() {
      return state.counts;
    },
    reset() {
      state.counts = empty();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface SimUser {
  user: { id: string; name: string };
  access_token: string;
  ad_accounts: { id: string; account_id: string; currency: string; timezone_name: string }[];
  pages: { id: string; name: string }[];
  pixels: { id: string; name: string }[];
}

/** Distinct PNGs made with the server's own ffmpeg (lavfi test sources). */
function makeImages(dir: string): Buffer[] {
  const ffmpeg = createMediaTools(loadConfig({ DATA_DIR: dir, PATH: process.env.PATH ?? '' }).materials.media).ffmpeg.path;
  const sources = ['testsrc', 'smptebars', 'testsrc2', 'rgbtestsrc', 'smptehdbars', 'yuvtestsrc'];
  return Array.from({ length: IMAGES }, (_, i) => {
    const out = path.join(dir, `bench-${i}.png`);
    execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `${sources[i % sources.length]}=duration=1:size=${640 + i * 16}x${360 + i * 8}:rate=1`, '-frames:v', '1', out], { timeout: 30_000 });
    return fs.readFileSync(out);
  });
}

/** The platform's objects of an ad account (every status), read straight from the simulator. */
async function platformObjects(sim: Simulator, token: string, act: string) {
  const list = async (edge: string, extra: Record<string, string> = {}, parent = '') => {
    const out: { id: string; name: string; parent: string }[] = [];
    let url: string | null = `${sim.url}/v25.0/${act}/${edge}?${new URLSearchParams({ limit: '500', fields: `id,name${parent ? `,${parent}` : ''}`, ...extra })}`;
    for (let page = 0; url && page < 20; page++) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(60_000) });
      const body = (await res.json()) as { data?: Record<string, string>[]; paging?: { next?: string } };
      if (!body.data) throw new Error(`${act}/${edge}: ${JSON.stringify(body).slice(0, 300)}`);
      out.push(...body.data.map((r) => ({ id: r.id!, name: r.name!, parent: parent ? r[parent]! : '' })));
      url = body.paging?.next ?? null;
    }
    return out;
  };
  const all = JSON.stringify(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DISAPPROVED', 'PENDING_REVIEW', 'PREAPPROVED', 'PENDING_BILLING_INFO']);
  return {
    campaigns: await list('campaigns', { effective_status: JSON.stringify(['ACTIVE', 'PAUSED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES']) }),
    adsets: await list('adsets', { effective_status: JSON.stringify(['ACTIVE', 'PAUSED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES', 'CAMPAIGN_PAUSED']) }, 'campaign_id'),
    ads: await list('ads', { effective_status: all }, 'adset_id'),
    creatives: await list('adcreatives'),
  };
}

/** Names found more than once under the same parent (names are unique per parent: publish.plan.ts): a duplicate object. */
const dupes = (rows: { name: string; parent: string }[]) => rows.map((r) => `${r.parent}/${r.name}`).filter((n, i, a) => a.indexOf(n) !== i);

/** Set-up (not measured), then both schemes submitted at once and waited for. */
export async function measurePublish(log: (line: string) => void): Promise<PublishFigures> {
  const problems: string[] = [];
  const sim = await startSimulator({ port: 0, host: HOST, speed: 1, orderIntervalMs: 0, logLevel: 'silent' });
  const stopSim = onCleanup('publish simulator', () => sim.close());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-publish-'));
  trackTempDir(tmp);
  try {
    assertLoopback(sim.url);
    const proxy = await countingProxy(sim.url);
    const stopProxy = onCleanup('publish proxy', () => proxy.close());
    try {
      const fb = await control<SimUser>(sim, 'POST', '/__sim/users', { name: 'Bench Publisher', ad_accounts: PUBLISH_ACCOUNTS, pages: PUBLISH_ACCOUNTS, pixels: 1 });
      const standard = await setBudget(sim);
      const limits = await control<{ app_calls_per_hour: number; ad_creations_per_hour: number; account_score_max: number; account_score_decay_seconds: number }>(sim, 'GET', '/__sim/rate-limits');
      const key = randomBytes(32).toString('base64');
      const config = loadConfig({ DATA_DIR: tmp, TOKEN_ENCRYPTION_KEY: key, META_GRAPH_URL: proxy.url, META_APP_ID: sim.appId, META_APP_SECRET: sim.appSecret });

      const bench = await createBenchDatabase();
      if ('unavailable' in bench) throw new Error(`PostgreSQL unavailable: ${bench.unavailable}`);
      try {
        const serverEnv = { META_GRAPH_URL: proxy.url, META_APP_ID: sim.appId, META_APP_SECRET: sim.appSecret, TOKEN_ENCRYPTION_KEY: key, REPORT_TIMEZONE: 'Asia/Shanghai' };
        let server = await startServer('PostgreSQL publish', bench.url, { env: serverEnv, keepDataDir: true });
        const dataDir = server.dataDir;
        trackTempDir(dataDir);
        try {
          log(`  simulator ${sim.url} behind the counting proxy ${proxy.url}; server healthy after ${(server.startMs / 1000).toFixed(1)} s on ${bench.name}`);
          const database = await openDatabase({ databaseUrl: bench.url });
          let staffToken: string;
          const acc: number[] = [];
          const pages: number[] = [];
          let pixelId: number;
          let dramaId: number;
          try {
            // What the asset sync and an administrator would have set up: a person's token, its ad
            // accounts, pages and pixel, assigned to one optimizer; a site and a drama.
            const db: Db = database.db;
            const staff = await createUser(db, { paths: ['/advertising/publish', '/material/upload'] });
            staffToken = await apiLogin(server, staff.account, staff.password);
            const secrets = secretBoxFor(db, config.tokenEncryptionKey);
            const pa = await db
              .insertInto('personal_accounts')
              .values({ fb_user_id: fb.user.id, name: fb.user.name, token_enc: await secrets.encrypt(fb.access_token), scopes: ['ads_management'], status: 'valid', owner_user_id: staff.id })
              .returning('id')
              .executeTakeFirstOrThrow();
            pixelId = (await db.insertInto('pixels').values({ platform_id: fb.pixels[0]!.id, name: 'Bench pixel' }).returning('id').executeTakeFirstOrThrow()).id;
            for (const [k, a] of fb.ad_accounts.entries()) {
              const row = await db
                .insertInto('ad_accounts')
                .values({ platform_id: a.id, account_id: a.account_id, name: `Bench publish ${k + 1}`, currency: a.currency, timezone_name: a.timezone_name, account_status: 1 })
                .returning('id')
                .executeTakeFirstOrThrow();
              acc.push(row.id);
              await db.insertInto('personal_account_ad_accounts').values({ personal_account_id: pa.id, ad_account_id: row.id }).execute();
              await db.insertInto('user_ad_accounts').values({ user_id: staff.id, ad_account_id: row.id }).execute();
              const page = await db.insertInto('pages').values({ platform_id: fb.pages[k]!.id, name: fb.pages[k]!.name }).returning('id').executeTakeFirstOrThrow();
              await db.insertInto('page_ad_accounts').values({ page_id: page.id, ad_account_id: row.id }).execute();
              pages.push(page.id);
              await db.insertInto('pixel_ad_accounts').values({ pixel_id: pixelId, ad_account_id: row.id, source: 'platform' }).execute();
            }
            const site = await createSite(db, { domain: 'drama.example.com' });
            dramaId = (await createDrama(db, { site_id: site.id, external_id: 'D1', name: 'Moonlit' })).id;
          } finally {
            await database.close();
          }

          // The images, uploaded through tus as the web client does.
          const tus = tusClient(server.baseUrl, staffToken);
          const images: number[] = [];
          for (const [i, bytes] of makeImages(tmp).entries()) {
            const { location, res } = await tus.upload(bytes, { filename: `bench-${i + 1}.png`, filetype: 'image/png', platform: 'dj', drama_id: dramaId }, 1024 * 1024);
            if (!location) throw new Error(`tus upload refused: HTTP ${res.status}`);
            const result = await tus.result(location);
            if (result.code !== 0) throw new Error(`upload_result: ${result.message}`);
            images.push(result.data.material.id as number);
          }

          const draft = (accounts: number[], campaignsPerAccount: number): PublishDraftInput => ({
            platform: 'dj',
            what: { drama_id: dramaId, episode: 1 },
            creatives: { source: 'materials', videos: [], images, texts: { primary_texts: TEXTS, headlines: ['Episode 1'], descriptions: [], language: 'en' }, combination: 'cartesian' },
            where: { accounts: accounts.map((id) => ({ ad_account_id: id, page_id: pages[acc.indexOf(id)]!, pixel_id: pixelId, link: 'https://drama.example.com/play/D1?ep=1', url_tags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}' })) },
            structure: { campaigns_per_account: campaignsPerAccount, adsets_per_campaign: 1, ads_per_adset: null },
            campaign: { objective: 'OUTCOME_SALES', budget_level: 'campaign', budget_kind: 'daily', budget: 20, budget_basis: 'usd', bid_strategy: 'LOWEST_COST_WITHOUT_CAP' },
            adset: { countries: ['US'], optimization_goal: 'OFFSITE_CONVERSIONS', conversion_event: 'PURCHASE' },
            ad: { call_to_action: 'WATCH_MORE' },
            naming: { campaign: '{drama}-{optimizer}-{date}-{seq}', adset: '{drama}-{country}-{seq}', ad: '{drama}-{material}-{seq}' },
          });
          const submit = async (d: PublishDraftInput) => {
            const res = await fetch(`${server.baseUrl}/api/publish/submit`, {
              method: 'POST',
              headers: { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json', 'accept-language': 'en' },
              body: JSON.stringify({ draft: d }),
              signal: AbortSignal.timeout(300_000),
            });
            const body = (await res.json()) as { code: number; message: string; data?: { scheme_id: number } };
            if (body.code !== 0 || !body.data) throw new Error(`publish/submit → ${body.code} ${body.message}`);
            return body.data.scheme_id;
          };

          // The simulator's answer rate through the proxy, sequential GET /me, as a yardstick.
          const bareStarted = performance.now();
          let bareCalls = 0;
          while (performance.now() - bareStarted < 2000) {
            const r = await fetch(`${proxy.url}/v25.0/me?fields=id,name`, { headers: { authorization: `Bearer ${fb.access_token}` }, signal: AbortSignal.timeout(10_000) });
            await r.arrayBuffer();
            bareCalls += 1;
          }
          const bareGetPerS = bareCalls / ((performance.now() - bareStarted) / 1000);

          await setBudget(sim);
          proxy.reset();
          const rssBefore = rssMB(server.pid);
          let rssPeak = rssBefore;
          const sampler = setInterval(() => {
            try {
              rssPeak = Math.max(rssPeak, rssMB(server.pid));
            } catch {
              // the server exited: the wait below reports it
            }
          }, 100);
          log(`  ${PUBLISH_ADS} ads in ${PUBLISH_CAMPAIGNS} campaigns over ${PUBLISH_ACCOUNTS} ad accounts: two schemes submitted at once; server RSS ${rssBefore.toFixed(0)} MB…`);
          const started = performance.now();
          let ids: number[];
          let submitMs: number;
          let wallMs: number;
          const check = await openDatabase({ databaseUrl: bench.url });
          try {
            let offset = 0;
            const drafts = SCHEMES.map((s) => {
              const accounts = acc.slice(offset, offset + s.accounts);
              offset += s.accounts;
              return draft(accounts, s.campaignsPerAccount);
            });
            ids = await Promise.all(drafts.map(submit));
            submitMs = performance.now() - started;
            const deadline = Date.now() + DONE_TIMEOUT_MS;
            for (;;) {
              const rows = await check.db.selectFrom('publish_schemes').select(['id', 'status']).where('id', 'in', ids).execute();
              if (rows.length === ids.length && rows.every((r) => ['done', 'partial', 'failed', 'cancelled'].includes(r.status))) break;
              if (Date.now() > deadline) throw new Error(`schemes not finished after ${DONE_TIMEOUT_MS / 60_000} min: ${rows.map((r) => `${r.id} ${r.status}`).join(', ')}`);
              await new Promise((r) => setTimeout(r, 100));
            }
            wallMs = performance.now() - started;
          } finally {
            clearInterval(sampler);
          }
          const calls = { ...proxy.counts };
          // Settled: a moment for the last writes and the garbage collector.
          await new Promise((r) => setTimeout(r, 2000));
          const rssAfter = rssMB(server.pid);

          const schemes: PublishFigures['schemes'] = [];
          let items = { campaign: 0, adset: 0, creative: 0, ad: 0 };
          try {
            for (const id of ids) {
              const s = await check.db.selectFrom('publish_schemes').select(['id', 'status', 'message_en']).where('id', '=', id).executeTakeFirstOrThrow();
              const its = await check.db.selectFrom('publish_scheme_items').select(['level', 'status']).where('scheme_id', '=', id).execute();
              for (const i of its) if (i.status === 'created') items = { ...items, [i.level]: items[i.level as keyof typeof items] + 1 };
              const notCreated = its.filter((i) => i.status !== 'created');
              if (s.status !== 'done' || notCreated.length) problems.push(`scheme ${id} ${s.status}: ${notCreated.length} items not created (${s.message_en ?? ''})`);
              schemes.push({ id, status: s.status, items: its.length, message: s.message_en });
            }
          } finally {
            await check.close();
          }
          // The simulator holds exactly what was planned, nothing twice.
          const onPlatform = { campaigns: 0, adsets: 0, ads: 0, creatives: 0 };
          let maxAds = 0;
          for (const a of fb.ad_accounts) {
            const o = await platformObjects(sim, fb.access_token, a.id);
            for (const [level, rows] of Object.entries(o)) {
              const d = dupes(rows);
              if (d.length) problems.push(`${a.id} ${level}: ${d.length} names twice (${d.slice(0, 3).join(', ')})`);
            }
            onPlatform.campaigns += o.campaigns.length;
            onPlatform.adsets += o.adsets.length;
            onPlatform.ads += o.ads.length;
            onPlatform.creatives += o.creatives.length;
            maxAds = Math.max(maxAds, o.ads.length);
          }
          if (onPlatform.ads !== PUBLISH_ADS || onPlatform.campaigns !== PUBLISH_CAMPAIGNS || onPlatform.adsets !== PUBLISH_CAMPAIGNS) {
            problems.push(`simulator holds ${onPlatform.campaigns} campaigns, ${onPlatform.adsets} ad sets, ${onPlatform.ads} ads (planned ${PUBLISH_CAMPAIGNS}, ${PUBLISH_CAMPAIGNS}, ${PUBLISH_ADS})`);
          }
          if (items.ad !== PUBLISH_ADS) problems.push(`${items.ad} ad items created of ${PUBLISH_ADS}`);

          // kill -9 mid-scheme (not timed against a floor): a third scheme, the server killed with
          // SIGKILL once a share of its ads exists, a new server on the same database and DATA_DIR,
          // then every account's objects counted again for duplicates.
          const killAds = KILL_ACCOUNTS * ADS_PER_ADSET;
          const killDraft = draft(acc.slice(0, KILL_ACCOUNTS), 1);
          killDraft.naming = { campaign: 'K9-{drama}-{optimizer}-{date}-{seq}', adset: 'K9-{drama}-{country}-{seq}', ad: 'K9-{drama}-{material}-{seq}' };
          const killCheck = await openDatabase({ databaseUrl: bench.url });
          let kill: KillFigures;
          try {
            const killId = await submit(killDraft);
            const createdAds = async () =>
              Number(
                (
                  await killCheck.db
                    .selectFrom('publish_scheme_items')
                    .select((eb) => eb.fn.countAll<string>().as('n'))
                    .where('scheme_id', '=', killId)
                    .where('level', '=', 'ad')
                    .where('status', '=', 'created')
                    .executeTakeFirstOrThrow()
                ).n,
              );
            const killDeadline = Date.now() + DONE_TIMEOUT_MS;
            let adsBeforeKill = 0;
            for (;;) {
              adsBeforeKill = await createdAds();
              if (adsBeforeKill >= killAds * KILL_AT_SHARE) break;
              if (Date.now() > killDeadline) throw new Error(`kill scheme: ${adsBeforeKill} ads after ${DONE_TIMEOUT_MS / 60_000} min`);
              await new Promise((r) => setTimeout(r, 20));
            }
            process.kill(server.pid, 'SIGKILL');
            adsBeforeKill = await createdAds();
            log(`  kill -9: server killed with ${adsBeforeKill} of ${killAds} ads of scheme #${killId} created; restarting on the same database…`);
            await server.stop();
            server = await startServer('PostgreSQL publish (after kill -9)', bench.url, { env: serverEnv, dataDir, managerPassword: server.managerPassword });
            const restartMs = server.startMs;
            const resumed = performance.now();
            let status = '';
            for (;;) {
              status = (await killCheck.db.selectFrom('publish_schemes').select('status').where('id', '=', killId).executeTakeFirstOrThrow()).status;
              if (['done', 'partial', 'failed', 'cancelled'].includes(status)) break;
              if (Date.now() > killDeadline) throw new Error(`kill scheme #${killId} still ${status} after the restart`);
              await new Promise((r) => setTimeout(r, 100));
            }
            const resumeMs = performance.now() - resumed;
            let duplicates = 0;
            let adsOnPlatform = 0;
            for (const a of fb.ad_accounts) {
              const o = await platformObjects(sim, fb.access_token, a.id);
              for (const [level, rows] of Object.entries(o)) {
                const d = dupes(rows);
                duplicates += d.length;
                if (d.length) problems.push(`after kill -9: ${a.id} ${level}: ${d.length} names twice (${d.slice(0, 3).join(', ')})`);
              }
              adsOnPlatform += o.ads.filter((x) => x.name.startsWith('K9-')).length;
            }
            if (status !== 'done') problems.push(`kill scheme #${killId} ended ${status}`);
            if (adsOnPlatform !== killAds) problems.push(`after kill -9 the simulator holds ${adsOnPlatform} ads of the scheme (planned ${killAds})`);
            kill = { ads: killAds, adsBeforeKill, restartMs, resumeMs, status, duplicates, adsOnPlatform };
          } finally {
            await killCheck.close();
          }

          const budgetCallsPerS = standard.app_calls_per_hour / 3600;
          const floorMs = (calls.graphCalls / budgetCallsPerS) * 1000;
          // Writes per account (score 3 each): the campaigns, ad sets, creatives and ads of the account, its image uploads.
          const maxWrites = Math.max(...SCHEMES.map((s) => s.campaignsPerAccount * (2 + 2 * ADS_PER_ADSET))) + IMAGES;
          return {
            accounts: PUBLISH_ACCOUNTS,
            campaigns: onPlatform.campaigns,
            adsets: onPlatform.adsets,
            ads: onPlatform.ads,
            creatives: onPlatform.creatives,
            schemes,
            wallMs,
            submitMs,
            calls,
            callsPerAd: calls.graphCalls / PUBLISH_ADS,
            budgetCallsPerS,
            floorMs,
            floorRatio: wallMs / floorMs,
            perAccount: { maxAds, adCreationsPerHour: limits.ad_creations_per_hour, maxScore: maxWrites * 3, scoreMax: limits.account_score_max, scoreWindowS: limits.account_score_decay_seconds },
            rss: { beforeMB: rssBefore, peakMB: rssPeak, afterMB: rssAfter },
            bareGetPerS,
            kill,
            problems,
          };
        } finally {
          await server.stop();
        }
      } finally {
        await bench.drop();
      }
    } finally {
      await stopProxy.now();
    }
  } finally {
    await stopSim.now();
    removeTempDir(tmp);
  }
}
