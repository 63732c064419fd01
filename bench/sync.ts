// The asset-sync section: the server's real sync-personal-accounts job, on a fresh database, against
// the Graph API simulator, for one personal account reaching 500 ad accounts with pages and pixels.
// See README.md "Asset sync" for every figure.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSimulator, type Simulator } from '@ads/meta-sim';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { openDatabase, pgliteParsers, type Database, type Db } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedInitialUsers } from '../apps/server/src/db/seed.ts';
import { syncPersonalAccountsJob, type SyncJobData } from '../apps/server/src/features/personal-accounts/personal-accounts.jobs.ts';
import { createPersonalAccountService } from '../apps/server/src/features/personal-accounts/personal-accounts.service.ts';
import type { Jobs } from '../apps/server/src/jobs/types.ts';
import type { Actor } from '../apps/server/src/lib/actor.ts';
import type { Clock } from '../apps/server/src/lib/clock.ts';
import { secretBoxFor } from '../apps/server/src/lib/crypto.ts';
import { createMetaPlatformClient } from '../apps/server/src/platform/meta-adapter.ts';
import { onCleanup, removeTempDir, trackTempDir, withTimeout } from './cleanup.ts';
import { createBenchDatabase } from './postgres.ts';
import { assertLoopback, HOST } from './server.ts';
import { countingFetch, meterPg, meterPglite, sleepMeter, type CallCounts, type DbMeter, type RecordedRequest } from './sync-meter.ts';
import { measureAdSync, type AdSyncFigures } from './ad-sync.ts';

const envInt = (name: string, def: number, min: number, max: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? def : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
};

/** Ad accounts, pages and pixels of the simulated person (every pixel is shared with every ad account). */
export const SYNC_AD_ACCOUNTS = envInt('BENCH_SYNC_ACCOUNTS', 500, 1, 1000);
export const SYNC_PAGES = 50;
export const SYNC_PIXELS = 10;
/** Throttled re-sync: the app budget in calls per (sim) hour; 200 is the reference's platform limit for one daily user (§16). */
export const THROTTLE_CALLS_PER_HOUR = envInt('BENCH_SYNC_BUDGET', 200, 1, 1_000_000);
/** Bare GET /me loop of the baseline (ms). */
const BARE_MS = 2000;
/** Replays of the first sync's requests; the median is kept. */
const REPLAYS = 3;
/** No phase (connect, sync) may take longer than this. */
const PHASE_TIMEOUT_MS = 180_000;
const CALL_TIMEOUT_MS = 10_000;
/** Runs of one phase at most: the first and the continuations of its pauses. */
const MAX_RUNS = 12;

/** Tables a sync writes, in the order they are printed. */
const TABLES = ['ad_accounts', 'personal_account_ad_accounts', 'pages', 'personal_account_pages', 'pixels', 'pixel_ad_accounts', 'personal_accounts', 'audit_logs'] as const;
type Table = (typeof TABLES)[number];
export type RowWrites = Record<Table, { inserted: number; updated: number; deleted: number }>;
export type RowCounts = Record<Table, number>;

export interface PhaseFigures {
  phase: string;
  /** What the job answered (success / failed / skipped), or `error` when it threw. */
  status: string;
  message: string;
  wallMs: number;
  adAccounts: number;
  adAccountsPerS: number;
  calls: CallCounts;
  callsPerAdAccount: { httpRequests: number; batchItems: number; graphCalls: number };
  graphCallsPerS: number;
  /** The simulator's app budget in force, converted to calls per real second. */
  budgetCallsPerS: number;
  /** graphCallsPerS / budgetCallsPerS. */
  budgetRatio: number;
  /** Calls admitted (made minus refused) / the hourly app budget: the share of an hour's budget one run spends. */
  budgetShare: number;
  /** Waits the client asked for (pacing and backoff), in its own clock's ms, and their real duration. */
  waits: { count: number; askedMs: number; realMs: number };
  db: { statements: number; ms: number; statementsPerAdAccount: number };
  /** Where the wall time went: Graph HTTP exchanges, database statements, waits; the rest is JavaScript in between. */
  shares: { graph: number; db: number; waits: number; other: number };
  /** Row changes from pg_stat_user_tables (the sync's own statements only). */
  rows: RowWrites | null;
  progressCalls: number;
  /** The job's last progress report: steps done of total (one per ad account, one for pages, one per 50 accounts of pixels). */
  progress: { done: number; total: number };
  /** Client and job warnings (retries, failures logged). */
  warnings: number;
  /** Correctness checks that failed; empty = the database holds exactly what the simulator has. */
  problems: string[];
  /** Runs of the job in this phase: 1, or more when the rate limit paused it and continuations went on. */
  runs?: number;
  /** The pauses: when each continuation was due and what the paused run said. */
  pauses?: PhasePause[];
}

/**
 * The re-sync under a tight app budget, on a frozen sim clock that only the client's waits move:
 * rates here are per sim second (graphCallsPerS, budgetCallsPerS, budgetRatio), wall time is real.
 */
export interface ThrottledFigures extends PhaseFigures {
  callsPerHour: number;
  /** Sim time the run took (ms) = the client's waits: what the run takes at this budget in real life, database and CPU aside. */
  simMs: number;
  /** Calls the simulator admitted (refused ones are not metered against the budget). */
  admittedCalls: number;
  /** Shortest sim time any client needs for a complete run's calls (the first sync's) under a sliding hour of `callsPerHour`. */
  floorMs: number;
  /** floorMs / simMs: 1 = the client waited no longer than the budget forces; null when it waited 0 ms. */
  floorRatio: number | null;
}

export interface DriverFigures {
  driver: 'PGlite' | 'PostgreSQL';
  connect: PhaseFigures;
  first: PhaseFigures;
  resync: PhaseFigures;
  /** re-sync wall / first sync wall. */
  resyncRatio: number;
  counts: RowCounts;
  /** The ad data sync of 40 ads per ad account (ad-sync.ts), when it ran on this driver. */
  adData?: AdSyncFigures;
}

export interface SyncFigures {
  adAccounts: number;
  pages: number;
  pixels: number;
  setupMs: number;
  /** The simulator's standard budget (calls per hour) in force for the unthrottled phases. */
  standardCallsPerHour: number;
  baseline: {
    /** Sequential GET /me with the token: what the simulator answers one call after the other. */
    bareGetPerS: number;
    bareGetMs: number;
    /** The first sync's HTTP requests sent again as they were, one after the other, without the client or a database (median of 3). */
    replayMs: number;
    replayRequests: number;
    replayGraphCalls: number;
    replayGraphCallsPerS: number;
  };
  pglite?: DriverFigures;
  postgres?: DriverFigures;
  postgresSkipped?: string;
  /** PGlite first-sync wall / PostgreSQL first-sync wall. */
  pgliteVsPostgresWall?: number;
  throttled?: ThrottledFigures;
  /** first sync wall (PGlite) / replay. */
  wallVsReplay?: number;
  /** first sync Graph calls/s (PGlite) / bare GET /me per s. */
  callsVsBareGet?: number;
  problems: string[];
}

interface SimUser {
  user: { id: string; name: string };
  access_token: string;
  ad_accounts: { id: string }[];
  pages: { id: string; access_token: string }[];
  pixels: { id: string }[];
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function control<T>(sim: Simulator, method: 'GET' | 'POST' | 'PUT', route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sim.url}${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`simulator ${method} ${route} → HTTP ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Puts the simulator's rate limits back to the standard tier with `overrides`; clears its counters. */
export async function setBudget(sim: Simulator, overrides: Record<string, number> = {}): Promise<{ app_calls_per_hour: number }> {
  return control(sim, 'PUT', '/__sim/rate-limits', { preset: 'standard', ...overrides });
}

/** Sequential GET /v25.0/me for `ms`: the simulator's answer rate for its cheapest authenticated call. */
async function bareGet(sim: Simulator, token: string, ms: number): Promise<{ perS: number; calls: number; ms: number }> {
  const url = `${sim.url}/v25.0/me?fields=id,name`;
  const started = performance.now();
  let calls = 0;
  while (performance.now() - started < ms) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`baseline GET /me → HTTP ${res.status}`);
    calls += 1;
  }
  const took = performance.now() - started;
  return { perS: calls / (took / 1000), calls, ms: took };
}

/** Sends recorded requests again, one after the other; answers the time it took. */
async function replay(requests: RecordedRequest[]): Promise<number> {
  const started = performance.now();
  for (const r of requests) {
    const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    const text = await res.text();
    if (!res.ok || text.startsWith('{"error"')) throw new Error(`replay ${r.method} ${new URL(r.url).pathname} → HTTP ${res.status} ${text.slice(0, 200)}`);
  }
  return performance.now() - started;
}

async function countRows(db: Db): Promise<RowCounts> {
  const out = {} as RowCounts;
  for (const t of TABLES) out[t] = Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return out;
}

type StatRow = { relname: string; ins: number; upd: number; del: number };

/**
 * Tuples inserted / updated / deleted per table so far (pg_stat_user_tables). Backends publish
 * their counters when idle (at most ~1 s late on PostgreSQL, on request on PGlite), so this reads
 * until two readings agree.
 */
async function tupleStats(db: Db, driver: 'pglite' | 'pg'): Promise<Map<string, StatRow>> {
  const read = async () => {
    const { rows } = await sql<{ relname: string; ins: number; upd: number; del: number }>`select relname, n_tup_ins::int as ins, n_tup_upd::int as upd, n_tup_del::int as del from pg_stat_user_tables`.execute(db);
    return new Map(rows.map((r) => [r.relname, r]));
  };
  const flush = async () => {
    await sql`select pg_stat_force_next_flush()`.execute(db);
    await sql`select 1`.execute(db);
  };
  await flush();
  if (driver === 'pglite') return read();
  let last = await read();
  const deadline = Date.now() + 5000;
  for (;;) {
    await new Promise((r) => setTimeout(r, 600));
    await flush();
    const next = await read();
    const same = [...next.values()].every((r) => {
      const p = last.get(r.relname);
      return p && p.ins === r.ins && p.upd === r.upd && p.del === r.del;
    });
    if (same || Date.now() > deadline) return next;
    last = next;
  }
}

function diffStats(before: Map<string, StatRow>, after: Map<string, StatRow>): RowWrites {
  const out = {} as RowWrites;
  for (const t of TABLES) {
    const a = after.get(t);
    const b = before.get(t);
    out[t] = { inserted: (a?.ins ?? 0) - (b?.ins ?? 0), updated: (a?.upd ?? 0) - (b?.upd ?? 0), deleted: (a?.del ?? 0) - (b?.del ?? 0) };
  }
  return out;
}

/** What the database must hold after a sync of `user`: exactly its assets, linked, no duplicates. */
async function verify(db: Db, user: SimUser, personalAccountId: number, opts: { syncSucceeded?: boolean } = {}): Promise<string[]> {
  const problems: string[] = [];
  const sameSet = (what: string, got: string[], want: string[]) => {
    const g = new Set(got);
    const w = new Set(want);
    if (got.length !== g.size) problems.push(`${what}: ${got.length - g.size} duplicate rows`);
    const missing = [...w].filter((x) => !g.has(x)).length;
    const extra = [...g].filter((x) => !w.has(x)).length;
    if (missing || extra) problems.push(`${what}: ${g.size} rows, expected ${w.size} (${missing} missing, ${extra} unexpected)`);
  };
  const accounts = await db.selectFrom('ad_accounts').select(['id', 'platform_id']).execute();
  sameSet('ad_accounts', accounts.map((a) => a.platform_id), user.ad_accounts.map((a) => a.id));
  const accountLinks = await db
    .selectFrom('personal_account_ad_accounts as l')
    .innerJoin('ad_accounts as a', 'a.id', 'l.ad_account_id')
    .select(['a.platform_id', 'l.reachable'])
    .where('l.personal_account_id', '=', personalAccountId)
    .execute();
  sameSet('personal_account_ad_accounts', accountLinks.map((l) => l.platform_id), user.ad_accounts.map((a) => a.id));
  if (accountLinks.some((l) => !l.reachable)) problems.push('personal_account_ad_accounts: some links not reachable');

  const pages = await db.selectFrom('pages').select('platform_id').execute();
  sameSet('pages', pages.map((p) => p.platform_id), user.pages.map((p) => p.id));
  const pageLinks = await db
    .selectFrom('personal_account_pages as l')
    .innerJoin('pages as p', 'p.id', 'l.page_id')
    .select(['p.platform_id', 'l.reachable', 'l.page_token_enc'])
    .where('l.personal_account_id', '=', personalAccountId)
    .execute();
  sameSet('personal_account_pages', pageLinks.map((l) => l.platform_id), user.pages.map((p) => p.id));
  if (pageLinks.some((l) => !l.reachable || !l.page_token_enc)) problems.push('personal_account_pages: some links unreachable or without a page token');

  const pixels = await db.selectFrom('pixels').select('platform_id').execute();
  sameSet('pixels', pixels.map((p) => p.platform_id), user.pixels.map((p) => p.id));
  const pixelLinks = await db
    .selectFrom('pixel_ad_accounts as l')
    .innerJoin('pixels as p', 'p.id', 'l.pixel_id')
    .innerJoin('ad_accounts as a', 'a.id', 'l.ad_account_id')
    .select(['p.platform_id as pixel', 'a.platform_id as account', 'l.source'])
    .execute();
  // The simulator shares every pixel of the person's business with every one of its ad accounts.
  sameSet(
    'pixel_ad_accounts',
    pixelLinks.map((l) => `${l.pixel}|${l.account}`),
    user.pixels.flatMap((px) => user.ad_accounts.map((a) => `${px.id}|${a.id}`)),
  );
  if (pixelLinks.some((l) => l.source !== 'platform')) problems.push("pixel_ad_accounts: some links not from source 'platform'");

  const pa = await db.selectFrom('personal_accounts').select('last_sync_status').where('id', '=', personalAccountId).executeTakeFirst();
  if ((opts.syncSucceeded ?? true) && pa?.last_sync_status !== 'success') problems.push(`personal_accounts.last_sync_status is ${pa?.last_sync_status ?? 'missing'}, expected success`);
  return problems;
}

/** updated_at of every synced row and the stored page-token ciphertexts: a re-sync that changes nothing must keep them. */
async function stamps(db: Db): Promise<string> {
  const parts = [
    await db.selectFrom('ad_accounts').select(['id', 'updated_at']).orderBy('id').execute(),
    await db.selectFrom('pages').select(['id', 'updated_at']).orderBy('id').execute(),
    await db.selectFrom('pixels').select(['id', 'updated_at']).orderBy('id').execute(),
    await db.selectFrom('personal_account_pages').select(['page_id', 'page_token_enc']).orderBy('page_id').execute(),
  ];
  return JSON.stringify(parts);
}

export interface Harness {
  sim: Simulator;
  user: SimUser;
  config: Config;
  clock: Clock;
  /** The simulator's app budget in force, calls per hour (the sim clock runs in real time for every phase but the throttled one). */
  callsPerHour: number;
}

export interface PhaseMeters {
  fetch: ReturnType<typeof countingFetch>;
  sleep: ReturnType<typeof sleepMeter>;
  db: DbMeter;
}

/** The platform client exactly as the server builds it (lib/ad-platform.ts), with the meters injected. */
export function platformClient(h: Harness, m: PhaseMeters, logWarn: () => void, now?: () => number) {
  return createMetaPlatformClient(
    { ...h.config.meta, graphUrl: h.sim.url, appId: h.sim.appId, appSecret: h.sim.appSecret },
    { fetch: m.fetch.fetch, sleep: m.sleep.sleep, ...(now && { now }), log: { debug: () => {}, warn: logWarn } },
  );
}

interface PhaseOutcome {
  status: string;
  message: string;
  wallMs: number;
  adAccounts: number;
  rows: RowWrites | null;
  progressCalls: number;
  progress: { done: number; total: number };
  warnings: number;
  problems: string[];
}

function figures(phase: string, h: Harness, m: PhaseMeters, o: PhaseOutcome): PhaseFigures {
  const c = m.fetch.counts;
  // Per ad account of the person, whether or not the run got through all of them.
  const n = h.user.ad_accounts.length;
  const s = o.wallMs / 1000;
  const budget = h.callsPerHour / 3600;
  const share = (ms: number) => ms / o.wallMs;
  const waitsMs = m.sleep.realMs;
  return {
    phase,
    status: o.status,
    message: o.message,
    wallMs: o.wallMs,
    adAccounts: o.adAccounts,
    adAccountsPerS: o.adAccounts / s,
    calls: { ...c },
    callsPerAdAccount: { httpRequests: c.httpRequests / n, batchItems: c.batchItems / n, graphCalls: c.graphCalls / n },
    graphCallsPerS: c.graphCalls / s,
    budgetCallsPerS: budget,
    budgetRatio: c.graphCalls / s / budget,
    budgetShare: (c.graphCalls - c.refused - c.refusedItems) / h.callsPerHour,
    waits: { count: m.sleep.waits, askedMs: m.sleep.askedMs, realMs: waitsMs },
    db: { statements: m.db.statements, ms: m.db.ms, statementsPerAdAccount: m.db.statements / n },
    shares: { graph: share(c.httpMs), db: share(m.db.ms), waits: share(waitsMs), other: Math.max(0, 1 - share(c.httpMs) - share(m.db.ms) - share(waitsMs)) },
    rows: o.rows,
    progressCalls: o.progressCalls,
    progress: o.progress,
    warnings: o.warnings,
    problems: o.problems,
  };
}

/** A paused run's continuation, as the job engine would queue it. */
export interface PhasePause {
  /** When the continuation was due (the job's clock = sim time). */
  at: string;
  message: string;
}

/**
 * The real job for the personal account, metered. With `continueAt`, a run the rate limit paused
 * is followed by its continuation, as the job engine would run it: `continueAt` moves the clock to
 * the time the run named, and the job runs again with the continuation's data and the same
 * platform client (the server keeps one), until a run completes or `MAX_RUNS` have run.
 */
async function runSyncPhase(
  phase: string,
  h: Harness,
  database: Database,
  meters: { db: DbMeter; record?: boolean; now?: () => number; advance?: (ms: number) => Promise<void>; continueAt?: (at: Date) => Promise<void> },
  personalAccountId: number,
  check: (summary: Record<string, unknown> | undefined, succeeded: boolean) => Promise<string[]>,
  /** Verify the database even when the job did not succeed (the throttled run: whatever happened, nothing may be lost or doubled). */
  checkOnFailure = false,
): Promise<{ figures: PhaseFigures; recorded: RecordedRequest[] }> {
  const m: PhaseMeters = { fetch: countingFetch({ record: meters.record }), sleep: sleepMeter(meters.advance), db: meters.db };
  let warnings = 0;
  const platform = platformClient(h, m, () => warnings++, meters.now);
  const statsBefore = await tupleStats(database.db, database.driver);
  let progressCalls = 0;
  const lastProgress = { done: 0, total: 0 };
  const log = { info: () => {}, warn: () => warnings++, error: () => warnings++ };
  const context = (data: SyncJobData) => ({
    data,
    db: database.db,
    platform,
    clock: h.clock,
    config: h.config,
    log,
    runId: 0,
    signal: AbortSignal.timeout(PHASE_TIMEOUT_MS),
    progress: async (done: number, total: number) => {
      progressCalls++;
      lastProgress.done = done;
      lastProgress.total = total;
    },
  });
  m.db.reset();
  m.fetch.reset();
  m.sleep.reset();
  let wallMs = 0;
  let status: string;
  let msg: string;
  let summary: Record<string, unknown> | undefined;
  const pauses: PhasePause[] = [];
  let data: SyncJobData = { ids: [personalAccountId] };
  for (let run = 1; ; run++) {
    const started = performance.now();
    let next: { data: unknown; at: Date } | undefined;
    try {
      const result = await withTimeout(syncPersonalAccountsJob.run(context(data)), PHASE_TIMEOUT_MS + 10_000, phase);
      status = result.status;
      msg = typeof result.message === 'object' ? result.message.zh : (result.message ?? '');
      summary = result.summary;
      next = result.continuation;
    } catch (err) {
      status = 'error';
      msg = message(err);
    }
    wallMs += performance.now() - started;
    if (!next) break;
    pauses.push({ at: next.at.toISOString(), message: msg });
    if (!meters.continueAt || run >= MAX_RUNS) {
      status = 'paused';
      break;
    }
    await meters.continueAt(next.at);
    data = next.data as SyncJobData;
  }
  const db = { statements: m.db.statements, ms: m.db.ms };
  const statsAfter = await tupleStats(database.db, database.driver);
  const problems = status === 'success' ? await check(summary, true) : checkOnFailure ? await check(undefined, false) : [`the job ended ${status}: ${msg}`];
  const adAccounts = typeof summary?.ad_accounts === 'number' ? summary.ad_accounts : 0;
  const frozenDb: DbMeter = { ...db, reset: () => {} };
  const f = figures(phase, h, { ...m, db: frozenDb }, { status, message: msg, wallMs, adAccounts, rows: diffStats(statsBefore, statsAfter), progressCalls, progress: lastProgress, warnings, problems });
  return { figures: { ...f, runs: pauses.length + (status === 'paused' ? 0 : 1), pauses }, recorded: m.fetch.recorded };
}

/** Connects the person's token through the real service (debug_token, /me, encrypted insert); the queued sync is only recorded. */
async function connectPhase(h: Harness, database: Database, dbMeter: DbMeter): Promise<{ figures: PhaseFigures; id: number }> {
  const m: PhaseMeters = { fetch: countingFetch(), sleep: sleepMeter(), db: dbMeter };
  let warnings = 0;
  const platform = platformClient(h, m, () => warnings++);
  const secrets = secretBoxFor(database.db, h.config.tokenEncryptionKey);
  await secrets.ready();
  const manager = await database.db.selectFrom('users').select(['id', 'account', 'name', 'is_admin', 'is_leader', 'department_id']).where('account', '=', 'manager').executeTakeFirstOrThrow();
  const actor: Actor = { ...manager, sessionId: 0, paths: [], pathSet: new Set(), asset_scope: 'company' };
  const queued: unknown[] = [];
  const jobs: Jobs = {
    registry: new Map(),
    enqueue: async (_name, data) => {
      queued.push(data);
      return queued.length;
    },
    cancel: async () => false,
    applySchedules: async () => {},
    start: async () => {},
    stop: async () => {},
  };
  const service = createPersonalAccountService({ db: database.db, clock: h.clock, secrets, jobs, platform, publicUrl: 'http://127.0.0.1', log: { warn: () => warnings++, error: () => warnings++ } });
  m.db.reset();
  const started = performance.now();
  const connected = await withTimeout(service.connectToken({ actor, ip: HOST, requestId: 'bench', lang: 'zh' }, { access_token: h.user.access_token }), PHASE_TIMEOUT_MS, 'connect');
  const wallMs = performance.now() - started;
  const problems = queued.length === 1 ? [] : [`connect queued ${queued.length} syncs, expected 1`];
  return { id: connected.id, figures: figures('connect', h, m, { status: 'success', message: '', wallMs, adAccounts: 0, rows: null, progressCalls: 0, progress: { done: 0, total: 0 }, warnings, problems }) };
}

/** A fresh database on one driver: migrated, seeded, then connect, first sync, re-sync (and, when asked, the throttled re-sync). */
async function runDriver(
  driver: 'PGlite' | 'PostgreSQL',
  h: Harness,
  opened: { database: Database; meter: DbMeter },
  log: (line: string) => void,
  onFirst: (recorded: RecordedRequest[]) => Promise<void>,
  throttled?: (database: Database, meter: DbMeter, personalAccountId: number) => Promise<void>,
  adData = false,
): Promise<DriverFigures> {
  const { database, meter } = opened;
  await withTimeout(
    (async () => {
      await migrateToLatest(database.db);
      await seedInitialUsers(database.db, { adminPassword: `bench-${randomBytes(6).toString('hex')}`, managerPassword: `bench-${randomBytes(6).toString('hex')}` });
    })(),
    120_000,
    `${driver}: migrations and first users`,
  );
  await setBudget(h.sim);
  const connect = await connectPhase(h, database, meter);
  const id = connect.id;

  const n = h.user.ad_accounts.length;
  const expectSummary = (newOnes: boolean) => (summary: Record<string, unknown> | undefined) => {
    const want = { accounts: 1, synced: 1, ad_accounts: n, new_ad_accounts: newOnes ? n : 0, pages: h.user.pages.length, pixels: h.user.pixels.length };
    const wrong = Object.entries(want).filter(([k, v]) => summary?.[k] !== v);
    return wrong.length ? [`job summary: ${wrong.map(([k, v]) => `${k} ${String(summary?.[k])} (expected ${v})`).join(', ')}`] : [];
  };

  await setBudget(h.sim);
  const first = await runSyncPhase('first sync', h, database, { db: meter, record: true }, id, async (s) => [...expectSummary(true)(s), ...(await verify(database.db, h.user, id))]);
  await onFirst(first.recorded);

  const before = await stamps(database.db);
  const countsBefore = await countRows(database.db);
  await setBudget(h.sim);
  const resync = await runSyncPhase('re-sync', h, database, { db: meter }, id, async (s) => {
    const problems = [...expectSummary(false)(s), ...(await verify(database.db, h.user, id))];
    const countsAfter = await countRows(database.db);
    for (const t of TABLES) {
      if (t !== 'audit_logs' && countsAfter[t] !== countsBefore[t]) problems.push(`re-sync changed the row count of ${t}: ${countsBefore[t]} → ${countsAfter[t]}`);
    }
    if ((await stamps(database.db)) !== before) problems.push('re-sync moved updated_at or re-encrypted page tokens although nothing changed');
    return problems;
  });
  if (throttled) await throttled(database, meter, id);
  const counts = await countRows(database.db);
  const ads = adData ? await measureAdSync(h, database, meter, log) : undefined;
  return { driver, connect: connect.figures, first: first.figures, resync: resync.figures, resyncRatio: resync.figures.wallMs / first.figures.wallMs, counts, ...(ads && { adData: ads }) };
}

async function openPglite(): Promise<{ database: Database; meter: DbMeter; close: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-sync-'));
  trackTempDir(dir);
  const pglite = await withTimeout(PGlite.create(path.join(dir, 'pgdata'), { parsers: pgliteParsers }), 60_000, 'PGlite start');
  const meter = meterPglite(pglite);
  const database = await openDatabase({ pglite });
  const handle = onCleanup('sync PGlite database', async () => {
    await database.close();
    await pglite.close();
    removeTempDir(dir);
  });
  return { database, meter, close: handle.now };
}

/**
 * The whole section. `log` prints progress lines; figures are returned for the summary.
 * `opts.pglite`: the PGlite driver and its throttled re-sync (the asset-sync figures); `opts.adData`:
 * the ad data sync of 40 ads per account on PostgreSQL after its asset sync.
 */
export async function measureSync(log: (line: string) => void, opts: { pglite: boolean; adData: boolean } = { pglite: true, adData: true }): Promise<SyncFigures> {
  const problems: string[] = [];
  const sim = await startSimulator({ port: 0, host: HOST, speed: 1, orderIntervalMs: 0, logLevel: 'silent' });
  const stopSim = onCleanup('simulator', () => sim.close());
  try {
    assertLoopback(sim.url);
    const setupStarted = performance.now();
    const user = await control<SimUser>(sim, 'POST', '/__sim/users', { name: 'Bench Person', ad_accounts: SYNC_AD_ACCOUNTS, pages: SYNC_PAGES, pixels: SYNC_PIXELS });
    const setupMs = performance.now() - setupStarted;
    const standard = await setBudget(sim);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: os.tmpdir(),
      META_GRAPH_URL: sim.url,
      META_APP_ID: sim.appId,
      META_APP_SECRET: sim.appSecret,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    const h: Harness = { sim, user, config, clock: { now: () => new Date(sim.now()) }, callsPerHour: standard.app_calls_per_hour };
    log(`  simulator at ${sim.url}: 1 person, ${user.ad_accounts.length} ad accounts, ${user.pages.length} pages, ${user.pixels.length} pixels (${(setupMs / 1000).toFixed(1)} s)`);

    const bare = await bareGet(sim, user.access_token, BARE_MS);
    const out: SyncFigures = {
      adAccounts: user.ad_accounts.length,
      pages: user.pages.length,
      pixels: user.pixels.length,
      setupMs,
      standardCallsPerHour: standard.app_calls_per_hour,
      baseline: { bareGetPerS: bare.perS, bareGetMs: bare.ms, replayMs: NaN, replayRequests: 0, replayGraphCalls: 0, replayGraphCallsPerS: NaN },
      problems,
    };

    const onFirst = async (recorded: RecordedRequest[]) => {
      if (out.baseline.replayRequests) return;
      const times: number[] = [];
      for (let i = 0; i < REPLAYS; i++) {
        await setBudget(sim);
        times.push(await replay(recorded));
      }
      const items = recorded.reduce((n, r) => n + (r.body ? (JSON.parse(new URLSearchParams(r.body).get('batch') ?? '[]') as unknown[]).length : 0), 0);
      out.baseline.replayMs = median(times);
      out.baseline.replayRequests = recorded.length;
      out.baseline.replayGraphCalls = recorded.length + items;
      out.baseline.replayGraphCallsPerS = out.baseline.replayGraphCalls / (out.baseline.replayMs / 1000);
    };

    const throttled = async (database: Database, meter: DbMeter, id: number) => {
      const budget = await setBudget(sim, { app_calls_per_hour: THROTTLE_CALLS_PER_HOUR });
      // Frozen: only the client's waits move the clock, so database and CPU time cost no sim time
      // and the run is the same on any machine, however loaded.
      await control(sim, 'POST', '/__sim/clock', { speed: 0 });
      const simStarted = sim.now();
      try {
        const callsPerHour = budget.app_calls_per_hour;
        const { figures: f } = await runSyncPhase(
          'throttled re-sync',
          { ...h, callsPerHour },
          database,
          {
            db: meter,
            now: () => sim.now(),
            advance: async (ms) => void (await control(sim, 'POST', '/__sim/clock', { advance_seconds: ms / 1000 })),
            // The engine runs a paused run's continuation at the time it named (pg-boss startAfter): the sim clock goes there.
            continueAt: async (at) => void (await control(sim, 'POST', '/__sim/clock', { advance_seconds: Math.max(0, (at.getTime() - sim.now()) / 1000) })),
          },
          id,
          async (_summary, succeeded) => verify(database.db, user, id, { syncSucceeded: succeeded }),
          true,
        );
        const simMs = sim.now() - simStarted;
        const admitted = f.calls.graphCalls - f.calls.refused - f.calls.refusedItems;
        // A sliding hour of N calls: call k (from 0) cannot go before floor(k / N) hours after the first.
        const needed = out.baseline.replayGraphCalls || f.calls.graphCalls;
        const floorMs = Math.floor(Math.max(0, needed - 1) / callsPerHour) * 3_600_000;
        const perSimS = simMs > 0 ? f.calls.graphCalls / (simMs / 1000) : NaN;
        out.throttled = {
          ...f,
          graphCallsPerS: perSimS,
          budgetRatio: perSimS / f.budgetCallsPerS,
          callsPerHour,
          simMs,
          admittedCalls: admitted,
          floorMs,
          floorRatio: simMs > 0 ? floorMs / simMs : null,
        };
      } finally {
        await control(sim, 'POST', '/__sim/clock', { speed: 1 });
        await setBudget(sim);
      }
    };

    if (opts.pglite) {
      log(`  PGlite (temp dir): connect, first sync, re-sync, throttled re-sync (${THROTTLE_CALLS_PER_HOUR} calls/hour)…`);
      const lite = await openPglite();
      try {
        out.pglite = await runDriver('PGlite', h, lite, log, onFirst, throttled);
      } finally {
        await lite.close();
      }
    }

    const pgdb = await createBenchDatabase();
    if ('unavailable' in pgdb) {
      out.postgresSkipped = pgdb.unavailable;
    } else {
      log(`  PostgreSQL (database ${pgdb.name}): connect, first sync, re-sync…`);
      const meter = meterPg();
      try {
        const database = await openDatabase({ databaseUrl: pgdb.url });
        try {
          out.postgres = await runDriver('PostgreSQL', h, { database, meter }, log, onFirst, undefined, opts.adData);
        } finally {
          await database.close();
        }
      } finally {
        meter.restore();
        await pgdb.drop();
      }
    }

    for (const d of [out.pglite, out.postgres]) {
      for (const p of d ? [d.connect, d.first, d.resync] : []) for (const x of p.problems) problems.push(`sync ${d!.driver} ${p.phase}: ${x}`);
      for (const x of d?.adData?.problems ?? []) problems.push(`sync ${d!.driver} ${x}`);
    }
    for (const x of out.throttled?.problems ?? []) problems.push(`sync throttled re-sync: ${x}`);
    if (out.pglite && out.postgres) out.pgliteVsPostgresWall = out.pglite.first.wallMs / out.postgres.first.wallMs;
    if (out.pglite) {
      out.wallVsReplay = out.pglite.first.wallMs / out.baseline.replayMs;
      out.callsVsBareGet = out.pglite.first.graphCallsPerS / out.baseline.bareGetPerS;
    }
    return out;
  } finally {
    await stopSim.now();
  }
}
