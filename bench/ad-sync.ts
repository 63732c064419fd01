// The ad data sync (issue 7 "Benchmark"): after the asset sync has brought the person's 500 ad
// accounts in, each gets 40 ads in the simulator (2 campaigns, 10 ad sets, back-dated two days so
// yesterday delivered), then the server's own sync-ad-account job runs for every account in
// 'recent' mode (structure, today's and yesterday's daily and hourly insights, the report facts),
// four accounts at a time as the job engine runs it, with the same metered platform client as the
// asset sync. Twice: the first run (everything new) and the repeat a 15-minute tick makes.
// See README.md "Ad data sync".
import { sql } from 'kysely';
import type { Database } from '../apps/server/src/db/database.ts';
import { syncAdAccountJob, type AdAccountSyncData } from '../apps/server/src/features/ad-data/ad-data.jobs.ts';
import { withTimeout } from './cleanup.ts';
import { countingFetch, sleepMeter, type CallCounts, type DbMeter } from './sync-meter.ts';
import { control, platformClient, setBudget, type Harness } from './sync.ts';

/** Ads per ad account: 2 campaigns × 5 ad sets × 4 ads (issue 7: 40). */
export const CAMPAIGNS_PER_ACCOUNT = 2;
export const ADSETS_PER_CAMPAIGN = 5;
export const ADS_PER_ADSET = 4;
export const ADS_PER_ACCOUNT = CAMPAIGNS_PER_ACCOUNT * ADSETS_PER_CAMPAIGN * ADS_PER_ADSET;
/** sync-ad-account runs at once (its defineJob concurrency, the engine's default JOBS_CONCURRENCY). */
const RUNS_AT_ONCE = 4;
/** Days the objects are back-dated: yesterday delivers all day. */
const BACKDATE_DAYS = 2;
const RUN_TIMEOUT_MS = 300_000;
/** Accounts whose stored insights are compared with the simulator's own account totals. */
const CHECKED_ACCOUNTS = 5;

export interface AdSyncRun {
  phase: string;
  wallMs: number;
  accounts: number;
  accountsPerS: number;
  failedRuns: number;
  /** Runs a rate limit paused (the job then returns a continuation). */
  pausedRuns: number;
  calls: CallCounts;
  callsPerAccount: { httpRequests: number; batchItems: number; graphCalls: number };
  /** Calls per second the simulator's app budget allows (standard tier: 200,000 per hour). */
  budgetCallsPerS: number;
  /** The least time the app budget takes to admit these calls at its hourly rate: calls ÷ budget per second. */
  floorMs: number;
  /** wall ÷ floor: below 1 the run is a burst the rolling hour absorbs; 1 = exactly the rate the budget sustains. */
  floorRatio: number;
  /** Share of the hourly app budget one run spends (× 4 for a run every 15 minutes). */
  budgetShare: number;
  waits: { count: number; askedMs: number; realMs: number };
  db: { statements: number; ms: number; statementsPerAccount: number };
  /** Rows written, from the job summaries. */
  rows: { campaigns: number; adsets: number; ads: number; dailyRows: number; hourlyRows: number; statRows: number };
  problems: string[];
}

export interface AdSyncFigures {
  accounts: number;
  adsPerAccount: number;
  setupMs: number;
  setupRequests: number;
  first: AdSyncRun;
  repeat: AdSyncRun;
  problems: string[];
}

interface BatchAnswer {
  code: number;
  body: string;
}

/** A form body; values in `raw` are written as they are (batch `{result=…}` references must stay literal). */
function formBody(params: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const parts = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`);
  for (const [k, v] of Object.entries(raw)) parts.push(`${k}=${v}`);
  return parts.join('&');
}

async function graphBatch(h: Harness, items: { method: 'POST'; relative_url: string; name?: string; body: string }[]): Promise<BatchAnswer[]> {
  const form = new URLSearchParams({ access_token: h.user.access_token, batch: JSON.stringify(items) });
  const res = await fetch(`${h.sim.url}/v25.0/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), signal: AbortSignal.timeout(60_000) });
  const answers = (await res.json()) as BatchAnswer[] | { error?: { message?: string } };
  if (!res.ok || !Array.isArray(answers)) throw new Error(`simulator batch → HTTP ${res.status} ${JSON.stringify(answers).slice(0, 300)}`);
  const bad = answers.findIndex((a) => !a || a.code >= 400);
  if (bad >= 0) throw new Error(`simulator batch item ${bad} → ${answers[bad] ? `${answers[bad].code} ${answers[bad].body.slice(0, 300)}` : 'no answer'}`);
  return answers;
}

/**
 * 40 ads in every ad account of the person, then back-dated: the campaigns and the creative in one
 * batch request, the ad sets in one per ad set of a campaign (a batch may hold only one ad set per
 * campaign, reference §14), the ads in one.
 */
async function createAds(h: Harness): Promise<{ ms: number; requests: number }> {
  const started = performance.now();
  const page = h.user.pages[0]!.id;
  const pixel = h.user.pixels[0]!.id;
  let requests = 0;
  const lanes = 4;
  const accounts = h.user.ad_accounts.map((a) => a.id);
  const id = (a: BatchAnswer) => (JSON.parse(a.body) as { id: string }).id;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < accounts.length; i += lanes) {
        const act = accounts[i]!;
        const first: { method: 'POST'; relative_url: string; body: string }[] = [];
        for (let c = 0; c < CAMPAIGNS_PER_ACCOUNT; c++) {
          first.push({ method: 'POST', relative_url: `${act}/campaigns`, body: formBody({ name: `Bench ${act} campaign ${c + 1}`, objective: 'OUTCOME_SALES', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false }) });
        }
        first.push({
          method: 'POST',
          relative_url: `${act}/adcreatives`,
          body: formBody({ name: `Bench ${act} creative`, object_story_spec: { page_id: page, link_data: { link: 'https://drama.example.com/play/D1?ep=1', message: 'Watch now' } }, url_tags: 'c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}' }),
        });
        const made = await graphBatch(h, first);
        requests++;
        const campaigns = made.slice(0, CAMPAIGNS_PER_ACCOUNT).map(id);
        const creative = id(made[made.length - 1]!);
        const adsets: string[] = [];
        for (let k = 0; k < ADSETS_PER_CAMPAIGN; k++) {
          const batch = campaigns.map((campaign, c) => ({
            method: 'POST' as const,
            relative_url: `${act}/adsets`,
            body: formBody({
              name: `Bench ${act} ad set ${c * ADSETS_PER_CAMPAIGN + k + 1}`,
              campaign_id: campaign,
              status: 'ACTIVE',
              daily_budget: 5000,
              billing_event: 'IMPRESSIONS',
              optimization_goal: 'OFFSITE_CONVERSIONS',
              promoted_object: { pixel_id: pixel, custom_event_type: 'PURCHASE' },
              targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
            }),
          }));
          adsets.push(...(await graphBatch(h, batch)).map(id));
          requests++;
        }
        const ads = adsets.flatMap((adset, s) =>
          Array.from({ length: ADS_PER_ADSET }, (_, n) => ({ method: 'POST' as const, relative_url: `${act}/ads`, body: formBody({ name: `Bench ${act} ad ${s + 1}.${n + 1}`, adset_id: adset, status: 'ACTIVE', creative: { creative_id: creative } }) })),
        );
        for (let k = 0; k < ads.length; k += 50) {
          await graphBatch(h, ads.slice(k, k + 50));
          requests++;
        }
        await control(h.sim, 'POST', '/__sim/backdate', { account_id: act, days: BACKDATE_DAYS });
      }
    }),
  );
  return { ms: performance.now() - started, requests };
}

const sumOf = (xs: Record<string, unknown>[], k: string) => xs.reduce((n, x) => n + (typeof x[k] === 'number' ? (x[k] as number) : 0), 0);

/** sync-ad-account for every ad account, RUNS_AT_ONCE at a time, with one metered platform client (the server keeps one). */
async function runAll(phase: string, h: Harness, database: Database, dbMeter: DbMeter, ids: number[]): Promise<AdSyncRun> {
  const fetch = countingFetch();
  const sleep = sleepMeter();
  let warnings = 0;
  const platform = platformClient(h, { fetch, sleep, db: dbMeter }, () => warnings++);
  const summaries: Record<string, unknown>[] = [];
  const problems: string[] = [];
  let failedRuns = 0;
  let pausedRuns = 0;
  const queue = [...ids];
  dbMeter.reset();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: RUNS_AT_ONCE }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const data: AdAccountSyncData = { ad_account_id: id, mode: 'recent' };
        try {
          const r = await withTimeout(
            syncAdAccountJob.run({
              data,
              db: database.db,
              platform,
              clock: h.clock,
              config: h.config,
              log: { info: () => {}, warn: () => warnings++, error: () => warnings++ },
              runId: 0,
              signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
              progress: async () => {},
            }),
            RUN_TIMEOUT_MS + 10_000,
            `sync-ad-account ${id}`,
          );
          if (r.continuation) pausedRuns++;
          if (r.status !== 'success') {
            failedRuns++;
            if (problems.length < 5) problems.push(`ad account ${id}: ${r.status} ${typeof r.message === 'object' ? r.message.en : (r.message ?? '')}`);
          }
          if (r.summary) summaries.push(r.summary);
        } catch (err) {
          failedRuns++;
          if (problems.length < 5) problems.push(`ad account ${id}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    }),
  );
  const wallMs = performance.now() - started;
  const c = fetch.counts;
  const n = ids.length;
  const budgetCallsPerS = h.callsPerHour / 3600;
  const floorMs = (c.graphCalls / budgetCallsPerS) * 1000;
  if (pausedRuns) problems.push(`${pausedRuns} runs were paused by the rate limit`);
  return {
    phase,
    wallMs,
    accounts: n,
    accountsPerS: n / (wallMs / 1000),
    failedRuns,
    pausedRuns,
    calls: { ...c },
    callsPerAccount: { httpRequests: c.httpRequests / n, batchItems: c.batchItems / n, graphCalls: c.graphCalls / n },
    budgetCallsPerS,
    floorMs,
    floorRatio: wallMs / floorMs,
    budgetShare: (c.graphCalls - c.refused - c.refusedItems) / h.callsPerHour,
    waits: { count: sleep.waits, askedMs: sleep.askedMs, realMs: sleep.realMs },
    db: { statements: dbMeter.statements, ms: dbMeter.ms, statementsPerAccount: dbMeter.statements / n },
    rows: {
      campaigns: sumOf(summaries, 'campaigns'),
      adsets: sumOf(summaries, 'adsets'),
      ads: sumOf(summaries, 'ads'),
      dailyRows: sumOf(summaries, 'daily_rows'),
      hourlyRows: sumOf(summaries, 'hourly_rows'),
      statRows: sumOf(summaries, 'stat_rows'),
    },
    problems: [...problems, ...(warnings ? [] : [])],
  };
}

/** What the database must hold after a sync: every ad, and yesterday's spend of a few accounts equal to the simulator's own account total. */
async function verifyAdData(h: Harness, database: Database, ids: number[]): Promise<string[]> {
  const problems: string[] = [];
  const db = database.db;
  const ads = Number((await sql<{ n: number }>`select count(*)::int as n from ads`.execute(db)).rows[0]!.n);
  const want = ids.length * ADS_PER_ACCOUNT;
  if (ads !== want) problems.push(`ads: ${ads} mirrored, expected ${want}`);
  const states = await db.selectFrom('ad_account_sync_state').select(['status', 'insights_synced_at']).execute();
  const idle = states.filter((s) => s.status === 'idle' && s.insights_synced_at).length;
  if (idle !== ids.length) problems.push(`sync state: ${idle} of ${ids.length} accounts idle with insights synced`);
  const checked = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / CHECKED_ACCOUNTS)) === 0).slice(0, CHECKED_ACCOUNTS);
  for (const id of checked) {
    const a = await db.selectFrom('ad_accounts').select(['platform_id', 'timezone_name']).where('id', '=', id).executeTakeFirstOrThrow();
    const yesterday = new Date(h.clock.now().getTime() - 86_400_000).toLocaleDateString('en-CA', { timeZone: a.timezone_name });
    const stored = Number(
      (await sql<{ s: number }>`select coalesce(sum(d.spend_minor), 0)::bigint as s from ad_insights_daily d join ads x on x.id = d.ad_id where x.ad_account_id = ${id} and d.date = ${yesterday}`.execute(db)).rows[0]!.s,
    );
    const res = await fetch(
      `${h.sim.url}/v25.0/${a.platform_id}/insights?${new URLSearchParams({ access_token: h.user.access_token, fields: 'spend', time_range: JSON.stringify({ since: yesterday, until: yesterday }), level: 'account' })}`,
      { signal: AbortSignal.timeout(30_000) },
    );
    const body = (await res.json()) as { data?: { spend?: string }[] };
    const simSpend = Math.round(Number(body.data?.[0]?.spend ?? 0) * 100);
    if (stored !== simSpend) problems.push(`${a.platform_id} ${yesterday}: stored spend ${stored} minor units, the simulator's account total ${simSpend}`);
    if (simSpend === 0) problems.push(`${a.platform_id} ${yesterday}: the simulator reports no spend (the ads did not deliver)`);
  }
  return problems;
}

/** The section's part on one database where the asset sync has run: objects in the simulator, then the two runs. */
export async function measureAdSync(h: Harness, database: Database, dbMeter: DbMeter, log: (line: string) => void): Promise<AdSyncFigures> {
  log(`  ad data: ${ADS_PER_ACCOUNT} ads in each of the ${h.user.ad_accounts.length} ad accounts (simulator batch calls), back-dated ${BACKDATE_DAYS} days…`);
  // Creating 20,000 objects is set-up: the standard budget is restored (and its counters cleared) before each measured run.
  const setup = await createAds(h);
  const ids = (await database.db.selectFrom('ad_accounts').select('id').orderBy('id').execute()).map((r) => r.id);
  log(`  ${setup.requests} set-up requests in ${(setup.ms / 1000).toFixed(1)} s; sync-ad-account (recent: today and yesterday) for ${ids.length} accounts, ${RUNS_AT_ONCE} at a time…`);
  await setBudget(h.sim);
  const first = await runAll('first', h, database, dbMeter, ids);
  first.problems.push(...(await verifyAdData(h, database, ids)));
  await setBudget(h.sim);
  const repeat = await runAll('repeat', h, database, dbMeter, ids);
  repeat.problems.push(...(await verifyAdData(h, database, ids)));
  return {
    accounts: ids.length,
    adsPerAccount: ADS_PER_ACCOUNT,
    setupMs: setup.ms,
    setupRequests: setup.requests,
    first,
    repeat,
    problems: [...first.problems.map((p) => `ad sync first: ${p}`), ...repeat.problems.map((p) => `ad sync repeat: ${p}`)],
  };
}
