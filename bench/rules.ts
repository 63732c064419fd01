// The rules section (issue 10 "Benchmark"): 20 hosting rules over 100,000 ads in 2,000 hosted ad
// accounts. The company's objects and their figures (ad_stats_daily for the last 7 days,
// ad_insights_hourly for the last 3 hours) are written straight into the database; the first
// accounts also exist in the simulator with the same objects (created through the Graph API), so
// the acts — pauses and budget raises — go through the server's own ad operations and platform
// client to the simulator over HTTP. Timed: one tick of the engine's job (`run-hosting-rules`:
// every rule due, each evaluated over all its objects, then acting), beside two baselines of the
// same run: the same 20 evaluations as dry runs (the engine's reading and deciding, no acting),
// and a raw GROUP BY of today's facts of all 100,000 ads. Acts per second are set against the
// platform's limits and against bare status updates sent to the simulator by the same client.
// See README.md "Rules".
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOSTING_RULE_PATHS, ruleDraftSchema, type RuleDraftIn } from '@ads/contracts';
import { startSimulator, type Simulator } from '@ads/meta-sim';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { openDatabase, pgliteParsers, type Db } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedInitialUsers } from '../apps/server/src/db/seed.ts';
import { ruleEngineOf, runHostingRulesJob } from '../apps/server/src/features/rules/rules.jobs.ts';
import { findRule } from '../apps/server/src/features/rules/rules.repository.ts';
import { ruleProfiler, specOf } from '../apps/server/src/features/rules/rules.evaluator.ts';
import type { JobContext } from '../apps/server/src/jobs/types.ts';
import { secretBoxFor } from '../apps/server/src/lib/crypto.ts';
import { hashPassword, md5Hex } from '../apps/server/src/lib/passwords.ts';
import { addDays, dayIn } from '../apps/server/src/lib/tz.ts';
import { createMetaPlatformClient } from '../apps/server/src/platform/meta-adapter.ts';
import { onCleanup, trackTempDir, withTimeout } from './cleanup.ts';
import { createBenchDatabase } from './postgres.ts';
import { assertLoopback, HOST } from './server.ts';

const envInt = (name: string, def: number, min: number, max: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? def : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
};

/** Issue 10: 100,000 ads in 2,000 hosted accounts (50 per account: 5 campaigns × 2 ad sets × 5 ads). */
export const RULES_ADS = envInt('BENCH_RULES_ADS', 100_000, 500, 1_000_000);
export const RULES_ACCOUNTS = envInt('BENCH_RULES_ACCOUNTS', 2_000, 10, 20_000);
/** PGlite runs the same at this size (0 skips it). */
export const RULES_PGLITE_ADS = envInt('BENCH_RULES_PGLITE_ADS', 10_000, 0, 1_000_000);
/** Accounts that also exist in the simulator: the only ones whose objects rules act on. */
export const LIVE_ACCOUNTS = envInt('BENCH_RULES_LIVE_ACCOUNTS', 20, 1, 200);
export const RULE_COUNT = 20;
/** Issue 10's aim: one tick under 10 s on PostgreSQL. */
export const AIM_TICK_MS = 10_000;
const ADS_PER_ADSET = 5;
const ADSETS_PER_CAMPAIGN = 2;
const STAT_DAYS = 7;
const HOURLY_HOURS = 3;
const BARE_UPDATES = 200;

export interface RulesDriverFigures {
  driver: 'PostgreSQL' | 'PGlite';
  ads: number;
  adsets: number;
  campaigns: number;
  accounts: number;
  liveAccounts: number;
  rows: { adStatsDaily: number; adInsightsHourly: number };
  generateMs: number;
  /** One tick of the job with all 20 rules due. */
  tick: { ms: number; rules: number; acted: number; failed: number; status: string; byRule: { name: string; level: string; checked: number; matched: number; acted: number; failed: number; skipped: number; dryRunMs: number; tickMs: number }[] };
  /** Baseline 1: the 20 evaluations as dry runs (reading and deciding, no acting, nothing written). */
  dryRunMs: number;
  /** Baseline 2: the raw GROUP BY of today's ad_stats_daily of every ad (what any evaluation must read at least). */
  rawGroupByMs: number;
  tickVsDryRun: number;
  tickVsRawGroupBy: number;
  /** Acts: the tick's time beyond the dry runs, per act. */
  actsPerS: number;
  /** Bare POST /<ad> status=… to the simulator with the same client, one after the other. */
  bareUpdatesPerS: number;
  actsVsBare: number;
  /** What the platform allows: the app's calls per hour and one ad account's write score, as calls per second. */
  platform: { appCallsPerS: number; accountWritesPerS: number; graphCallsPerAct: number; actsVsAppLimit: number };
  aimMet: boolean | null;
  /**
   * Where the tick's time goes: per engine phase the summed milliseconds and how often it ran
   * (acts of 8 accounts run side by side, so `act.*` sums exceed their wall time), and the Graph
   * requests by method with their summed time.
   */
  phases: Record<string, { ms: number; n: number }>;
  /** The query plans of the heaviest statements (EXPLAIN ANALYZE), for the README. */
  explain: Record<string, string[]>;
}

export interface RulesFigures {
  postgres?: RulesDriverFigures;
  postgresSkipped?: string;
  pglite?: RulesDriverFigures;
  problems: string[];
}

interface Layout {
  ads: number;
  adsets: number;
  campaigns: number;
  accounts: number;
  campaignsPerAccount: number;
}

export function layoutOf(ads: number, accounts: number): Layout {
  const perAccount = Math.max(ADS_PER_ADSET * ADSETS_PER_CAMPAIGN, Math.round(ads / accounts / (ADS_PER_ADSET * ADSETS_PER_CAMPAIGN)) * ADS_PER_ADSET * ADSETS_PER_CAMPAIGN);
  const campaignsPerAccount = perAccount / (ADS_PER_ADSET * ADSETS_PER_CAMPAIGN);
  return { ads: perAccount * accounts, adsets: campaignsPerAccount * ADSETS_PER_CAMPAIGN * accounts, campaigns: campaignsPerAccount * accounts, accounts, campaignsPerAccount };
}

// ---------------------------------------------------------------------------------------------
// The simulator's side: the live accounts with the same objects as in the database.

interface LiveObjects {
  token: string;
  userId: string;
  accounts: string[];
  campaigns: string[];
  adsets: string[];
  ads: string[];
}

async function graph(sim: Simulator, token: string, method: 'GET' | 'POST', route: string, params: Record<string, unknown> = {}): Promise<any> {
  const body = new URLSearchParams({ access_token: token });
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  const url = method === 'GET' ? `${sim.url}${route}?${body}` : `${sim.url}${route}`;
  const res = await fetch(url, method === 'GET' ? {} : { method, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function control(sim: Simulator, method: 'POST' | 'PUT', route: string, body: unknown): Promise<any> {
  const res = await fetch(`${sim.url}${route}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates the live accounts' campaigns, ad sets and ads in the database's order (account by account, ids ascending). */
export async function createLive(sim: Simulator, layout: Layout, live: number, tz: string): Promise<LiveObjects> {
  const user = await control(sim, 'POST', '/__sim/users', { name: 'Bench Rules', ad_accounts: Array.from({ length: live }, () => ({ currency: 'USD', timezone_name: tz })), pages: 1, pixels: 1 });
  const out: LiveObjects = { token: user.access_token, userId: user.user.id, accounts: user.ad_accounts.map((a: { id: string }) => a.id), campaigns: [], adsets: [], ads: [] };
  const page = user.pages[0].id;
  const pixel = user.pixels[0];
  for (const account of out.accounts) {
    const creative = await graph(sim, out.token, 'POST', `/${account}/adcreatives`, { name: 'Bench creative', object_story_spec: { page_id: page, link_data: { link: 'https://drama.example/ep1', message: 'Watch now' } } });
    for (let c = 0; c < layout.campaignsPerAccount; c++) {
      const campaign = await graph(sim, out.token, 'POST', `/${account}/campaigns`, { name: `Bench campaign ${c + 1}`, objective: 'OUTCOME_SALES', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
      out.campaigns.push(campaign.id);
      for (let s = 0; s < ADSETS_PER_CAMPAIGN; s++) {
        const adset = await graph(sim, out.token, 'POST', `/${account}/adsets`, {
          name: `Bench ad set ${c + 1}.${s + 1}`, campaign_id: campaign.id, status: 'ACTIVE', daily_budget: 5000, billing_event: 'IMPRESSIONS', optimization_goal: 'OFFSITE_CONVERSIONS',
          promoted_object: { pixel_id: pixel.id ?? pixel, custom_event_type: 'PURCHASE' }, targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
        });
        out.adsets.push(adset.id);
        for (let a = 0; a < ADS_PER_ADSET; a++) {
          const ad = await graph(sim, out.token, 'POST', `/${account}/ads`, { name: `Bench ad ${c + 1}.${s + 1}.${a + 1}`, adset_id: adset.id, status: 'ACTIVE', creative: { creative_id: creative.id } });
          out.ads.push(ad.id);
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The database's side, generated in SQL.

const USER_ID_BASE = 2000;
const FILLED = ['spend_minor', 'spend_usd_cents', 'impressions', 'clicks', 'link_clicks', 'landing_page_views', 'purchases', 'purchase_value_minor', 'purchase_value_usd_cents'];

/** Pseudo-random 0…(n−1) from an integer SQL expression. */
const spread = (expr: unknown, n: number) => sql`(abs(hashint8((${expr})::bigint)::bigint) % ${sql.lit(n)})`;

/**
 * The owner (an optimizer with the hosting page, all accounts assigned), the hosted accounts and
 * their objects, the live ones' platform ids from the simulator, the token of the live accounts,
 * and the facts. Live ads are the losers and their ad sets the winners; every other ad spends
 * $10–$30 a day with 1–3 purchases, so the rules read all 100,000 ads and act on the live ones.
 */
export async function generate(db: Db, layout: Layout, liveObjects: LiveObjects, config: Config, today: string, log: (line: string) => void): Promise<number> {
  const run = (q: { execute(db: Db): Promise<unknown> }) => q.execute(db);
  const now = new Date();
  const liveAccounts = liveObjects.accounts.length;
  const liveAds = liveObjects.ads.length;
  const pwd = await hashPassword(md5Hex(`bench-${randomBytes(6).toString('hex')}`));
  await run(sql`insert into users (id, account, name, pwd_hash, is_admin, is_leader, department_id, remark) values (${USER_ID_BASE + 1}, 'bench_rules_owner', '托管投手', ${pwd}, 0, 0, null, 'bench')`);
  await run(sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`);
  await run(sql`insert into roles (name, paths) values ('托管 (bench)', ${sql`array[${sql.join(['/operation', ...HOSTING_RULE_PATHS, '/advertising', '/advertising/close-log'])}]::text[]`})`);
  await run(sql`insert into user_roles (user_id, role_id) select ${USER_ID_BASE + 1}, id from roles where name = '托管 (bench)'`);
  const owner = USER_ID_BASE + 1;
  const P = layout.campaignsPerAccount;
  await run(sql`
    insert into ad_accounts (id, platform_id, account_id, name, currency, timezone_name, account_status, platform, business_id, business_name, hosted, hosted_at, created_at, updated_at)
    select a, 'act_' || (800000000 + a), (800000000 + a)::text, 'Hosted account ' || a, 'USD', ${config.reportTimezone}, 1, case when a % 5 = 0 then 'ec' else 'dj' end, '900000001', 'Bench business', true, now(), now(), now()
    from generate_series(1, ${layout.accounts}) a`);
  await run(sql`select setval(pg_get_serial_sequence('ad_accounts', 'id'), (select max(id) from ad_accounts))`);
  await run(sql`insert into user_ad_accounts (user_id, ad_account_id, created_at) select ${owner}, a, now() from generate_series(1, ${layout.accounts}) a`);
  await run(sql`
    insert into ad_campaigns (id, platform_id, ad_account_id, name, status, effective_status, objective, budget_level, daily_budget_minor, currency, owner_user_id, owner_source, platform, synced_at, created_time, updated_time)
    select c, (130200000000000 + c)::text, (c - 1) / ${P} + 1, 'Campaign ' || c, 'ACTIVE', 'ACTIVE', 'OUTCOME_SALES', 'adset', null, 'USD', ${owner}, 'account',
           case when ((c - 1) / ${P} + 1) % 5 = 0 then 'ec' else 'dj' end, now(), now() - interval '10 days', now() - interval '3 days'
    from generate_series(1, ${layout.campaigns}) c`);
  await run(sql`select setval(pg_get_serial_sequence('ad_campaigns', 'id'), (select max(id) from ad_campaigns))`);
  await run(sql`
    insert into ad_sets (id, platform_id, ad_account_id, campaign_id, name, status, effective_status, daily_budget_minor, currency, optimization_goal, billing_event, countries, owner_user_id, owner_source, synced_at, created_time, updated_time)
    select s.id, (130210000000000 + s.id)::text, c.ad_account_id, c.id, 'Ad set ' || s.id, 'ACTIVE', 'ACTIVE', 5000, 'USD', 'OFFSITE_CONVERSIONS', 'IMPRESSIONS', array['US'], ${owner}, 'account', now(), now() - interval '10 days', now() - interval '3 days'
    from generate_series(1, ${layout.adsets}) s(id) join ad_campaigns c on c.id = (s.id - 1) / ${ADSETS_PER_CAMPAIGN} + 1`);
  await run(sql`select setval(pg_get_serial_sequence('ad_sets', 'id'), (select max(id) from ad_sets))`);
  await run(sql`
    insert into ads (id, platform_id, ad_account_id, campaign_id, adset_id, name, status, effective_status, owner_user_id, owner_source, synced_at, created_time, updated_time)
    select x.id, (130220000000000 + x.id)::text, s.ad_account_id, s.campaign_id, s.id, 'Ad ' || x.id, 'ACTIVE', 'ACTIVE', ${owner}, 'account', now(), now() - interval '10 days', now() - interval '3 days'
    from generate_series(1, ${layout.ads}) x(id) join ad_sets s on s.id = (x.id - 1) / ${ADS_PER_ADSET} + 1`);
  await run(sql`select setval(pg_get_serial_sequence('ads', 'id'), (select max(id) from ads))`);

  // The live accounts are the first ones: their rows carry the simulator's ids, in the same order.
  const remap = async (table: string, ids: string[]) => {
    await run(sql`update ${sql.table(table)} t set platform_id = m.pid from (select unnest(${sql.val(`{${ids.map((_, i) => i + 1).join(',')}}`)}::int[]) as id, unnest(${sql.val(`{${ids.join(',')}}`)}::text[]) as pid) m where t.id = m.id`);
  };
  await remap('ad_accounts', liveObjects.accounts);
  await run(sql`update ad_accounts set account_id = substring(platform_id from 5) where id <= ${liveAccounts}`);
  await remap('ad_campaigns', liveObjects.campaigns);
  await remap('ad_sets', liveObjects.adsets);
  await remap('ads', liveObjects.ads);

  // The token that reaches the live accounts, encrypted as the app stores it.
  const secrets = secretBoxFor(db, config.tokenEncryptionKey);
  await secrets.ready();
  const tokenEnc = await secrets.encrypt(liveObjects.token);
  const pa = await db
    .insertInto('personal_accounts')
    .values({ fb_user_id: liveObjects.userId, name: 'Bench Rules', token_enc: tokenEnc, token_expires_at: null, data_access_expires_at: null, scopes: ['ads_management', 'ads_read'], token_type: 'USER', status_reason_key: null, status_reason_params: '{}', owner_user_id: owner, hosted: true, last_checked_at: now, last_synced_at: now, last_sync_status: 'success', last_sync_error: null, last_sync_error_en: null, created_at: now, updated_at: now, deleted_at: null } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await run(sql`insert into personal_account_ad_accounts (personal_account_id, ad_account_id, reachable, first_seen_at, last_seen_at) select ${pa.id}, a, true, now(), now() from generate_series(1, ${liveAccounts}) a`);
  // Every account synced a minute ago: the tick refreshes nothing (the ad sync has its own section).
  await run(sql`insert into ad_account_sync_state (ad_account_id, structure_synced_at, insights_synced_at, last_active_date, status) select id, now() - interval '1 minute', now() - interval '1 minute', current_date, 'idle' from ad_accounts`);

  // Facts: the last 7 report days of every ad, and the last 3 hours.
  const started = performance.now();
  const first = addDays(today, -(STAT_DAYS - 1));
  const n = sql`(d.day - date '2000-01-01')`;
  await run(sql`
    insert into ad_stats_daily (ad_id, day, ad_account_id, campaign_id, adset_id, owner_user_id, platform, drama_id, product_id, material_id, country, currency, ${sql.join(FILLED.map((c) => sql.ref(c)))})
    select x.ad_id, x.day, x.ad_account_id, x.campaign_id, x.adset_id, x.owner_user_id, x.platform, null, null, null, 'US', 'USD',
           x.spend, x.spend, x.imp, x.clicks, x.clicks * 8 / 10, x.clicks * 6 / 10, x.purchases, x.value, x.value
    from (
      select a.id as ad_id, d.day, a.ad_account_id, a.campaign_id, a.adset_id, a.owner_user_id, c.platform, sp.spend,
             sp.spend * 70 / 100 as imp, sp.spend * 70 / 100 * 15 / 1000 as clicks,
             case when a.id <= ${liveAds} and a.id % 2 = 1 then 0 else 1 + ${spread(sql`a.id * 31 + ${n}`, 3)} end as purchases,
             case when a.id <= ${liveAds} and a.id % 2 = 0 then sp.spend * 4 when a.id <= ${liveAds} then 0 else (1 + ${spread(sql`a.id * 31 + ${n}`, 3)}) * 499 end as value
      from (select day::date as day from generate_series(${first}::date, ${today}::date, interval '1 day') day) d
      cross join ads a join ad_campaigns c on c.id = a.campaign_id
      cross join lateral (select case when a.id <= ${liveAds} then 6000 + ${spread(sql`a.id * 7 + ${n}`, 2000)} else 1000 + ${spread(sql`a.id * 7 + ${n}`, 2000)} end as spend) sp
    ) x order by x.day, x.ad_id`);
  const hour0 = Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (HOURLY_HOURS - 1) * 3_600_000;
  await run(sql`
    insert into ad_insights_hourly (ad_id, hour, spend_minor, impressions, clicks, synced_at)
    select a.id, to_timestamp(${hour0 / 1000} + h * 3600), 100 + ${spread(sql`a.id * 5 + h`, 300)}, 1000, 15, now()
    from ads a cross join generate_series(0, ${HOURLY_HOURS - 1}) h`);
  for (const t of ['ad_stats_daily', 'ad_insights_hourly', 'ads', 'ad_sets', 'ad_campaigns', 'ad_accounts', 'user_ad_accounts']) await sql`analyze ${sql.table(t)}`.execute(db);
  log(`    facts: ${(layout.ads * STAT_DAYS).toLocaleString('en-US')} ad-day rows, ${(layout.ads * HOURLY_HOURS).toLocaleString('en-US')} ad-hour rows (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  return owner;
}

/**
 * The 20 rules: the four templates' shapes over every level and window — stop-loss at ad level
 * (today, yesterday, last 3 days, last 6 hours), low pixel ROAS over 7 days and lifetime, age
 * and budget-use conditions, winners' budgets raised at ad-set level, and notify-only rules.
 * Each reads every ad, ad set or campaign of the 2,000 accounts; the acting ones match only the
 * live accounts' objects.
 */
function rules(owner: number): RuleDraftIn[] {
  const base = { enabled: true, owner_user_id: owner, scope: { type: 'all' as const }, schedule: { type: 'interval' as const, minutes: 15 }, cooldown_minutes: 60, max_actions_per_run: 500 };
  const cond = (metric: string, operator: string, value: number, window: object = { type: 'today' }) => ({ metric, operator, value, window });
  const all = (...conditions: object[]) => ({ match: 'all', groups: [{ match: 'all', conditions }] });
  const out: RuleDraftIn[] = [];
  // 1–4: stop-loss on the live losers (spend ≥ $55 with no purchase), with different windows.
  out.push({ ...base, name: 'Stop-loss today', level: 'ad', conditions: all(cond('spend', 'gte', 55), cond('purchases', 'eq', 0)), action: { type: 'pause' }, stop_loss: { enabled: true, revive: true, revive_conditions: null } } as never);
  out.push({ ...base, name: 'Stop-loss yesterday', level: 'ad', conditions: all(cond('spend', 'gte', 55, { type: 'yesterday' }), cond('purchases', 'eq', 0, { type: 'yesterday' }), cond('spend', 'gte', 55)), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Stop-loss 3 days', level: 'ad', conditions: all(cond('spend', 'gte', 160, { type: 'last_days', n: 3 }), cond('purchases', 'eq', 0, { type: 'last_days', n: 3 })), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Spend last 6 h, no purchase today', level: 'ad', conditions: all(cond('spend', 'gte', 5, { type: 'last_hours', n: 6 }), cond('purchases', 'eq', 0), cond('spend', 'gte', 55)), action: { type: 'pause' } } as never);
  // 5–8: weak ROAS and costly clicks, with age and budget-use conditions.
  out.push({ ...base, name: 'Low ROAS 7 days', level: 'ad', conditions: all(cond('pixel_roas', 'lt', 0.1, { type: 'last_days', n: 7 }), cond('spend', 'gte', 300, { type: 'last_days', n: 7 })), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Low ROAS lifetime, older than 2 days', level: 'ad', conditions: all(cond('object_age_hours', 'gte', 48, { type: 'lifetime' }), cond('pixel_roas', 'lt', 0.1, { type: 'lifetime' }), cond('spend', 'gte', 300, { type: 'lifetime' })), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'CPC too high (any of two)', level: 'ad', conditions: { match: 'all', groups: [{ match: 'any', conditions: [cond('cpc', 'gt', 50), cond('cpm', 'gt', 500)] }, { match: 'all', conditions: [cond('spend', 'gte', 1)] }] }, action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Budget used, no purchase', level: 'ad', conditions: all(cond('budget_used_pct', 'gte', 1000), cond('purchases', 'eq', 0)), action: { type: 'pause' } } as never);
  // 9–12: winners' ad sets +20 % (the live ad sets: ROAS 2 today), and cuts that match nothing.
  out.push({ ...base, name: 'Scale winners +20 %', level: 'adset', conditions: all(cond('pixel_roas', 'gt', 1.5), cond('spend', 'gte', 20)), action: { type: 'raise_budget', percent: 20, max_usd: 500 }, cooldown_minutes: 240 } as never);
  out.push({ ...base, name: 'Scale winners 3 days +10 %', level: 'adset', conditions: all(cond('pixel_roas', 'gt', 1.5, { type: 'last_days', n: 3 }), cond('spend', 'gte', 60, { type: 'last_days', n: 3 })), action: { type: 'raise_budget', percent: 10, max_usd: 500 }, cooldown_minutes: 240 } as never);
  out.push({ ...base, name: 'Cut losers' + ' −20 %', level: 'adset', conditions: all(cond('pixel_roas', 'lt', 0.05), cond('spend', 'gte', 400)), action: { type: 'lower_budget', percent: 20, min_usd: 20 } } as never);
  out.push({ ...base, name: 'Set budget of idle ad sets', level: 'adset', conditions: all(cond('impressions', 'lt', 1)), action: { type: 'set_budget', amount_usd: 20 } } as never);
  // 13–16: campaign level.
  out.push({ ...base, name: 'Campaign no purchase 7 days', level: 'campaign', conditions: all(cond('purchases', 'eq', 0, { type: 'last_days', n: 7 }), cond('spend', 'gte', 100, { type: 'last_days', n: 7 })), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Campaign CTR low', level: 'campaign', conditions: all(cond('ctr', 'lt', 0.1), cond('impressions', 'gte', 1000)), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Campaign yesterday spend cap', level: 'campaign', conditions: all(cond('spend', 'gt', 100000, { type: 'yesterday' })), action: { type: 'pause' } } as never);
  out.push({ ...base, name: 'Campaign hours since change', level: 'campaign', conditions: all(cond('hours_since_change', 'gte', 24 * 365)), action: { type: 'pause' } } as never);
  // 17–20: notify-only rules and ones reading the order facts (ROI, new payers).
  out.push({ ...base, name: 'Notify: ROI below 30 % with big spend', level: 'ad', conditions: all(cond('roi', 'lt', 30), cond('spend', 'gte', 1000)), action: { type: 'notify' } } as never);
  out.push({ ...base, name: 'Notify: CPA high', level: 'adset', conditions: all(cond('cpa', 'gt', 1000, { type: 'last_days', n: 7 })), action: { type: 'notify' } } as never);
  out.push({ ...base, name: 'Notify: ad set spend > $1,000 today', level: 'adset', conditions: all(cond('spend', 'gt', 1000)), action: { type: 'notify' } } as never);
  out.push({ ...base, name: 'Pause ads with CTR under 0.1 %', level: 'ad', conditions: all(cond('ctr', 'lt', 0.1), cond('impressions', 'gte', 100)), action: { type: 'pause' } } as never);
  return out;
}

export async function insertRules(db: Db, owner: number): Promise<number[]> {
  const ids: number[] = [];
  const now = new Date();
  for (const input of rules(owner)) {
    const draft = ruleDraftSchema.parse(input);
    const json = (v: unknown) => JSON.stringify(v);
    const row = await db
      .insertInto('hosting_rules')
      .values({
        name: draft.name, enabled: draft.enabled, owner_user_id: owner, template: draft.template, scope: json(draft.scope), level: draft.level, filters: json(draft.filters),
        conditions: json(draft.conditions), action: json(draft.action), action_type: draft.action.type, stop_loss: json(draft.stop_loss), schedule: json(draft.schedule),
        cooldown_minutes: draft.cooldown_minutes, max_actions_per_run: draft.max_actions_per_run, notify: json(draft.notify), created_by: owner, created_at: now, updated_at: now,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

async function explain(db: Db, label: string, query: ReturnType<typeof sql>): Promise<[string, string[]]> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers off, costs off) ${query}`.execute(db);
  return [label, rows.map((r) => r['QUERY PLAN'])];
}

async function measureDriver(driver: 'PostgreSQL' | 'PGlite', db: Db, sim: Simulator, layout: Layout, log: (line: string) => void): Promise<RulesDriverFigures> {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir(), META_GRAPH_URL: sim.url, META_APP_ID: sim.appId, META_APP_SECRET: sim.appSecret, TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  const today = dayIn(Date.now(), config.reportTimezone);
  const live = Math.min(LIVE_ACCOUNTS, layout.accounts);
  const genStarted = performance.now();
  const objects = await createLive(sim, layout, live, config.reportTimezone);
  log(`    simulator: ${live} live accounts with ${objects.campaigns.length} campaigns, ${objects.adsets.length} ad sets, ${objects.ads.length} ads (${((performance.now() - genStarted) / 1000).toFixed(0)} s)`);
  await migrateToLatest(db);
  await seedInitialUsers(db, { managerPassword: `bench-${randomBytes(6).toString('hex')}`, adminPassword: `bench-${randomBytes(6).toString('hex')}` });
  const owner = await generate(db, layout, objects, config, today, log);
  const ruleIds = await insertRules(db, owner);
  const generateMs = performance.now() - genStarted;

  let graphCalls = 0;
  let phases: Record<string, { ms: number; n: number }> | null = null;
  const record = (phase: string, ms: number) => {
    if (!phases) return;
    const p = (phases[phase] ??= { ms: 0, n: 0 });
    p.ms += ms;
    p.n++;
  };
  const countingFetch: typeof fetch = async (input, init) => {
    graphCalls++;
    const t0 = performance.now();
    try {
      return await fetch(input, init);
    } finally {
      record(`graph.${init?.method ?? 'GET'}`, performance.now() - t0);
    }
  };
  const platform = createMetaPlatformClient({ ...config.meta, graphUrl: sim.url, appId: sim.appId, appSecret: sim.appSecret }, { fetch: countingFetch, log: { debug: () => {}, warn: () => {} } });
  const ctx: JobContext<Record<string, never>> = {
    data: {}, db, platform, clock: { now: () => new Date() }, config,
    log: { info: () => {}, warn: () => {}, error: () => {} },
    runId: 0, signal: new AbortController().signal, progress: async () => {},
  };

  // Baseline 2: the raw GROUP BY of today's facts of every ad.
  const raw = async () => {
    const t0 = performance.now();
    await sql`select ad_id, sum(spend_usd_cents), sum(purchases), sum(impressions), sum(clicks) from ad_stats_daily where day = ${today} group by ad_id`.execute(db);
    return performance.now() - t0;
  };
  await raw();
  const rawGroupByMs = Math.min(await raw(), await raw(), await raw());

  // Baseline 1: the 20 evaluations as dry runs (the engine's reading and deciding).
  const engine = ruleEngineOf(ctx as never);
  const dryByRule = new Map<number, number>();
  const dry = async () => {
    const t0 = performance.now();
    for (const id of ruleIds) {
      const r0 = performance.now();
      const rule = (await findRule(db, id))!;
      await engine.evaluator.dryRun(specOf(rule), rule.owner_user_id, rule.id);
      const ms = performance.now() - r0;
      dryByRule.set(id, Math.min(dryByRule.get(id) ?? Infinity, ms));
    }
    return performance.now() - t0;
  };
  await dry();
  const dryRunMs = Math.min(await dry(), await dry());
  log(`    baselines: raw GROUP BY of today ${rawGroupByMs.toFixed(0)} ms; the 20 rules as dry runs ${dryRunMs.toFixed(0)} ms`);

  // The tick.
  graphCalls = 0;
  const tickPhases: Record<string, { ms: number; n: number }> = {};
  phases = tickPhases;
  ruleProfiler.record = record;
  const t0 = performance.now();
  let result;
  try {
    result = await withTimeout(runHostingRulesJob.run(ctx as never), 600_000, 'rules tick');
  } finally {
    ruleProfiler.record = null;
    phases = null;
  }
  const tickMs = performance.now() - t0;
  const tickCalls = graphCalls;
  const evals = await db.selectFrom('rule_evaluations as e').innerJoin('hosting_rules as r', 'r.id', 'e.rule_id').select(['r.id', 'r.name', 'r.level', 'e.objects_checked', 'e.matched', 'e.acted', 'e.failed', 'e.skipped', 'e.started_at', 'e.finished_at']).where('e.trigger', '=', 'schedule').orderBy('e.rule_id').execute();
  const byRule = evals.map((e) => ({ name: e.name, level: e.level, checked: e.objects_checked, matched: e.matched, acted: e.acted, failed: e.failed, skipped: e.skipped, dryRunMs: dryByRule.get(e.id) ?? NaN, tickMs: e.finished_at && e.started_at ? new Date(e.finished_at).getTime() - new Date(e.started_at).getTime() : NaN }));
  const failedWhy = await db.selectFrom('rule_firings').select(['error_en']).select((eb) => eb.fn.countAll<number>().as('n')).where('outcome', '=', 'failed').groupBy('error_en').orderBy('n', 'desc').limit(5).execute();
  for (const f of failedWhy) log(`    failed acts: ${f.n} × ${f.error_en ?? '(no reason)'}`);
  const acted = byRule.reduce((s, r) => s + r.acted, 0);
  const failed = byRule.reduce((s, r) => s + r.failed, 0);
  const notified = (await db.selectFrom('rule_firings').select((eb) => eb.fn.countAll<number>().as('n')).where('outcome', '=', 'notified').executeTakeFirstOrThrow()).n;
  const platformActs = acted - Number(notified);
  // Over the whole tick: since the tick reads its figures once for all rules, it can take less
  // than the rules' separate dry runs, and "tick minus dry runs" is no longer the acting time.
  const actsPerS = platformActs / Math.max(0.001, tickMs / 1000);

  // Bare status updates through the same client: what the simulator takes one after the other.
  const bareStarted = performance.now();
  for (let i = 0; i < BARE_UPDATES; i++) {
    const ad = objects.ads[i % objects.ads.length]!;
    await platform.updateAdObject(objects.token, ad, { status: 'PAUSED' });
  }
  const bareUpdatesPerS = BARE_UPDATES / ((performance.now() - bareStarted) / 1000);

  const limits = await (await fetch(`${sim.url}/__sim/rate-limits`)).json() as { app_calls_per_hour: number; account_score_max: number; account_score_decay_seconds: number };
  const appCallsPerS = limits.app_calls_per_hour / 3600;
  // A write scores 3 against the account's score, which decays over its window.
  const accountWritesPerS = limits.account_score_max / 3 / limits.account_score_decay_seconds;
  const graphCallsPerAct = platformActs ? tickCalls / platformActs : 0;

  const explainRows: Record<string, string[]> = {};
  if (driver === 'PostgreSQL') {
    const ids = `{${Array.from({ length: layout.ads }, (_, i) => i + 1).join(',')}}`;
    for (const [label, q] of [
      ['candidates ad', sql`select x.id from ads x join ad_sets s on s.id = x.adset_id join ad_campaigns c on c.id = x.campaign_id join ad_accounts acc on acc.id = x.ad_account_id where x.ad_account_id = any(${`{${Array.from({ length: layout.accounts }, (_, i) => i + 1).join(',')}}`}::int[]) and x.deleted_at is null and x.effective_status = 'ACTIVE' order by x.id`],
      ['windowSums ad today', sql`select u.k, sum(u.spend_usd_cents)::bigint, sum(u.purchases)::bigint from (select f.ad_id as k, f.day, f.spend_usd_cents, f.purchases from ad_stats_daily f where f.ad_id = any(${ids}::int[]) and f.day >= ${today} and f.day <= ${today}) u group by u.k`],
      // The statement the tick runs (multiWindowSums): every day window of the ad rules in one pass over the accounts' facts.
      ['multiWindowSums ad (today … 7 days, by accounts)', sql`select f.ad_id as k,
          sum(f.spend_usd_cents) filter (where f.day = ${today})::bigint, sum(f.purchases) filter (where f.day = ${today})::bigint,
          sum(f.spend_usd_cents) filter (where f.day = ${addDays(today, -1)})::bigint, sum(f.spend_usd_cents) filter (where f.day >= ${addDays(today, -2)})::bigint,
          sum(f.spend_usd_cents)::bigint, sum(f.clicks)::bigint, sum(f.impressions)::bigint
        from ad_stats_daily f where f.ad_account_id = any(${`{${Array.from({ length: layout.accounts }, (_, i) => i + 1).join(',')}}`}::int[]) and f.day >= ${addDays(today, -6)} and f.day <= ${today} group by f.ad_id`],
      ['hourSums ad 6 h', sql`select a.id as k, acc.currency, sum(h.spend_minor)::bigint from ad_insights_hourly h join ads a on a.id = h.ad_id join ad_accounts acc on acc.id = a.ad_account_id where a.id = any(${ids}::int[]) and h.hour >= now() - interval '6 hours' group by 1, 2`],
    ] as const) {
      const [k, v] = await explain(db, label, q as never);
      explainRows[k] = v;
    }
  }

  return {
    driver,
    ads: layout.ads, adsets: layout.adsets, campaigns: layout.campaigns, accounts: layout.accounts, liveAccounts: live,
    rows: { adStatsDaily: layout.ads * STAT_DAYS, adInsightsHourly: layout.ads * HOURLY_HOURS },
    generateMs,
    tick: { ms: tickMs, rules: byRule.length, acted, failed, status: result.status, byRule },
    dryRunMs, rawGroupByMs, tickVsDryRun: tickMs / dryRunMs, tickVsRawGroupBy: tickMs / rawGroupByMs,
    actsPerS, bareUpdatesPerS, actsVsBare: actsPerS / bareUpdatesPerS,
    platform: { appCallsPerS, accountWritesPerS, graphCallsPerAct, actsVsAppLimit: (actsPerS * graphCallsPerAct) / appCallsPerS },
    aimMet: driver === 'PostgreSQL' ? tickMs < AIM_TICK_MS : null,
    phases: tickPhases,
    explain: explainRows,
  };
}

async function withSimulator<T>(fn: (sim: Simulator) => Promise<T>): Promise<T> {
  // Review passes at once so the live objects deliver; the clock is frozen (nothing moves under the tick).
  const sim = await startSimulator({ port: 0, host: HOST, speed: 0, orderIntervalMs: 0, logLevel: 'silent', settings: { review_delay_seconds: 0 } });
  const stop = onCleanup('rules simulator', () => sim.close());
  try {
    assertLoopback(sim.url);
    return await fn(sim);
  } finally {
    await stop.now();
  }
}

export async function measureRules(log: (line: string) => void): Promise<RulesFigures> {
  const out: RulesFigures = { problems: [] };
  const check = (f: RulesDriverFigures) => {
    if (f.tick.status === 'failed') out.problems.push(`rules ${f.driver}: the tick failed`);
    if (f.tick.rules !== RULE_COUNT) out.problems.push(`rules ${f.driver}: ${f.tick.rules} rules evaluated, expected ${RULE_COUNT}`);
    if (f.tick.failed) out.problems.push(`rules ${f.driver}: ${f.tick.failed} acts failed`);
    if (!f.tick.acted) out.problems.push(`rules ${f.driver}: nothing acted`);
  };
  const pgLayout = layoutOf(RULES_ADS, RULES_ACCOUNTS);
  // BENCH_RULES_POSTGRES=0 runs the PGlite part alone.
  const bench = process.env.BENCH_RULES_POSTGRES === '0' ? { unavailable: 'BENCH_RULES_POSTGRES=0' } : await createBenchDatabase();
  if ('unavailable' in bench) {
    out.postgresSkipped = bench.unavailable;
    log(`  skipped PostgreSQL: ${bench.unavailable}`);
  } else {
    try {
      log(`  PostgreSQL database ${bench.name}: ${pgLayout.ads.toLocaleString('en-US')} ads in ${pgLayout.accounts.toLocaleString('en-US')} hosted accounts, ${RULE_COUNT} rules…`);
      const database = await openDatabase({ databaseUrl: bench.url });
      try {
        out.postgres = await withSimulator((sim) => measureDriver('PostgreSQL', database.db, sim, pgLayout, log));
        check(out.postgres);
      } finally {
        await database.close();
      }
    } finally {
      await bench.drop();
    }
  }
  if (RULES_PGLITE_ADS > 0) {
    const layout = layoutOf(RULES_PGLITE_ADS, Math.max(10, Math.round(RULES_PGLITE_ADS / (RULES_ADS / RULES_ACCOUNTS))));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-rules-'));
    trackTempDir(dataDir);
    log(`  PGlite (temp DATA_DIR): ${layout.ads.toLocaleString('en-US')} ads in ${layout.accounts.toLocaleString('en-US')} hosted accounts, ${RULE_COUNT} rules…`);
    const pglite = await withTimeout(PGlite.create(path.join(dataDir, 'pgdata'), { parsers: pgliteParsers }), 60_000, 'PGlite start');
    const database = await openDatabase({ pglite });
    const closing = onCleanup('rules PGlite database', async () => {
      await database.close();
      await pglite.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    try {
      out.pglite = await withSimulator((sim) => measureDriver('PGlite', database.db, sim, layout, log));
      check(out.pglite);
    } finally {
      await closing.now();
    }
  }
  return out;
}
