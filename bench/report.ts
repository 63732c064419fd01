// The report section (issue 7 "Benchmark"): a company's ad data generated in SQL (report-data.ts),
// the real server on it, and the optimizer, ad account and campaign views over the last 30 days
// requested through POST /api/ad-reports/list by 20 signed-in users at once (staff, leaders and a
// manager, each with their data scope), beside a raw GROUP BY of the same ad-day rows with the
// same scopes run by as many callers straight on the database, in the same run.
// See README.md "Reports".
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FACT_COLUMNS, METRIC_KEYS, metrics, type MetricKey } from '@ads/contracts';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { openDatabase, pgliteParsers, type Db } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedInitialUsers } from '../apps/server/src/db/seed.ts';
import { reportScope } from '../apps/server/src/features/ad-data/ad-reports.service.ts';
import type { ReportScope } from '../apps/server/src/features/ad-data/ad-reports.repository.ts';
import { refreshRollups } from '../apps/server/src/features/ad-data/dim-rollups.ts';
import { drainAllCohorts } from '../apps/server/src/features/orders/cohorts.ts';
import { addDays } from '../apps/server/src/lib/tz.ts';
import { onCleanup, removeTempDir, trackTempDir, withTimeout } from './cleanup.ts';
import { createBenchDatabase, existingBenchDatabase, KEEP_DB, REUSE_DB, type BenchDatabase } from './postgres.ts';
import { analyze, companyLayout, countOf, generateFacts, generateStructure, peopleOf, reportToday, type CompanyLayout, type Person } from './report-data.ts';
import { apiLogin, startServer, type RunningServer } from './server.ts';
import { loadAsUsers, loadDirect, type Latencies, type LoadUser, type UserLoadFigures } from './user-load.ts';

const envInt = (name: string, def: number, min: number, max: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? def : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
};

/** PostgreSQL: ads × days ad-day rows (issue 7: 20 million, e.g. 50,000 ads over 400 days). */
export const PG_ADS = envInt('BENCH_REPORT_ADS', 50_000, 100, 1_000_000);
export const REPORT_DAYS = envInt('BENCH_REPORT_DAYS', 400, 31, 1000);
/** PGlite: the 2-million-row variant. */
export const PGLITE_ADS = envInt('BENCH_REPORT_PGLITE_ADS', 5_000, 0, 100_000);
/** Concurrent users and the range they ask for. */
export const USERS = envInt('BENCH_REPORT_USERS', 20, 1, 200);
export const RANGE_DAYS = 30;
/** Measured seconds per view (after a 2 s warm-up). */
export const REPORT_SECONDS = envInt('BENCH_REPORT_SECONDS', 10, 1, 120);
/** Aim of issue 7: p95 ≤ 300 ms. */
export const AIM_P95_MS = 300;
export const REPORT_TIMEZONE = 'Asia/Shanghai';

export const VIEWS = ['optimizer', 'account', 'campaign'] as const;
export type View = (typeof VIEWS)[number];
const GROUP_KEY: Record<View, string> = { optimizer: 'owner_user_id', account: 'ad_account_id', campaign: 'campaign_id' };

/**
 * The metric columns 广告数据 shows until a user picks others (the registry's defaults), which its
 * list asks for: the server sums only their facts.
 */
export const SCREEN_COLUMNS: MetricKey[] = METRIC_KEYS.filter((k) => metrics[k].defaultVisible);

export interface ViewFigures {
  view: View;
  /** The screen's default columns, or every metric (no `columns`: what a list asked for before 2026-11-25). */
  columns: 'screen' | 'every metric';
  endpoint: UserLoadFigures;
  /** The raw GROUP BY over ad_stats_daily with each user's scope, as many callers, straight on the database. */
  baseline: Latencies & { byKind: Record<string, Latencies> };
  p50Ratio: number;
  p95Ratio: number;
  aimMet: boolean;
}

export interface CompanyFigures {
  layout: CompanyLayout;
  rows: { adStatsDaily: number; campaignStatsDaily: number };
  /** Generation (structure, facts, indexes, vacuum analyze) wall time. */
  generateMs: number;
  databaseMB: number;
}

export interface DriverReportFigures extends CompanyFigures {
  driver: 'PostgreSQL' | 'PGlite';
  serverStartMs: number;
  users: Record<string, number>;
  range: { from: string; to: string };
  views: ViewFigures[];
}

export interface ReportFigures {
  postgres?: DriverReportFigures;
  postgresSkipped?: string;
  pglite?: DriverReportFigures;
  problems: string[];
}

/** The 20 users: mostly staff, a few leaders, one manager — each with the data scope PRODUCT.md gives them. */
export function loadUsersOf(layout: CompanyLayout, count = USERS): (Person | { id: 0; account: 'manager'; role: 'manager' })[] {
  const people = peopleOf(layout);
  const leaders = people.filter((p) => p.role === 'leader');
  const staff = people.filter((p) => p.role === 'staff');
  const wantLeaders = Math.min(leaders.length, Math.max(1, Math.round(count / 5)));
  const out: (Person | { id: 0; account: 'manager'; role: 'manager' })[] = [{ id: 0, account: 'manager', role: 'manager' }];
  out.push(...leaders.slice(0, Math.min(wantLeaders, count - out.length)));
  out.push(...staff.slice(0, count - out.length));
  return out;
}

/** Generates the company on a migrated database whose first users are seeded; one connection (session settings hold). */
export async function buildCompany(db: Db, layout: CompanyLayout, log: (line: string) => void): Promise<CompanyFigures> {
  const started = performance.now();
  await db.connection().execute(async (conn) => {
    await generateStructure(conn, layout);
    log(`    structure: ${layout.adAccounts} ad accounts, ${layout.campaigns} campaigns, ${layout.adsets} ad sets, ${layout.ads} ads, ${layout.people} people in ${layout.departments} departments`);
    await generateFacts(conn, layout, log);
    await analyze(conn, ['ad_stats_daily', 'campaign_stats_daily', 'ads', 'ad_sets', 'ad_campaigns', 'ad_accounts', 'users', 'user_ad_accounts']);
  });
  const generateMs = performance.now() - started;
  const rows = { adStatsDaily: await countOf(db, 'ad_stats_daily'), campaignStatsDaily: await countOf(db, 'campaign_stats_daily') };
  const { rows: size } = await sql<{ mb: number }>`select pg_database_size(current_database()) / 1048576.0 as mb`.execute(db);
  return { layout, rows, generateMs, databaseMB: Number(size[0]!.mb) };
}

/** Each load user's scope as the report service computes it (the optimizer view is scoped by people only). */
async function scopesOf(db: Db, users: ReturnType<typeof loadUsersOf>): Promise<ReportScope[]> {
  const out: ReportScope[] = [];
  for (const u of users) {
    const row = await db.selectFrom('users').select(['id', 'is_admin', 'is_leader', 'department_id']).where('account', '=', u.account).executeTakeFirstOrThrow();
    out.push(await reportScope(db, row));
  }
  return out;
}

/** The baseline: every fact column summed per group over the raw ad-day rows of the range and the scope. */
function rawGroupBy(view: View, scope: ReportScope, from: string, to: string) {
  const key = sql.ref(`f.${GROUP_KEY[view]}`);
  let s = scope;
  if (view === 'optimizer' && s.userIds !== null) s = { adAccountIds: [], userIds: s.userIds };
  const where =
    s.adAccountIds === null && s.userIds === null
      ? sql`true`
      : sql`(${s.adAccountIds?.length ? sql`f.ad_account_id in (${sql.join(s.adAccountIds)})` : sql`false`} or ${s.userIds?.length ? sql`f.owner_user_id in (${sql.join(s.userIds)})` : sql`false`})`;
  return sql`select ${key} as k, ${sql.join(FACT_COLUMNS.map((c) => sql`sum(f.${sql.ref(c)})::bigint as ${sql.ref(c)}`))}
    from ad_stats_daily f where f.day >= ${from} and f.day <= ${to} and ${where} group by ${key}`;
}

type Baselines = Record<View, ViewFigures['baseline']>;

/** The raw GROUP BYs, `users.length` callers at once on `db`, one load per view. */
async function measureBaselines(db: Db, users: ReturnType<typeof loadUsersOf>, scopes: ReportScope[], range: { from: string; to: string }): Promise<Baselines> {
  const out = {} as Baselines;
  for (const view of VIEWS) {
    out[view] = await loadDirect(users.length, REPORT_SECONDS, (i) => rawGroupBy(view, scopes[i]!, range.from, range.to).execute(db), (i) => users[i]!.role);
  }
  return out;
}

async function measureViews(server: RunningServer, layout: CompanyLayout, users: ReturnType<typeof loadUsersOf>, baselines: Baselines, range: { from: string; to: string }): Promise<ViewFigures[]> {
  const tokens: LoadUser[] = [];
  for (const u of users) tokens.push({ token: await apiLogin(server, u.account, layout.password), kind: u.role });
  const out: ViewFigures[] = [];
  // Each view as the screen asks for it, then the campaign view once more with every metric.
  const runs: [View, ViewFigures['columns']][] = [...VIEWS.map((v): [View, ViewFigures['columns']] => [v, 'screen']), ['campaign', 'every metric']];
  for (const [view, columns] of runs) {
    const body = { level: view, date_from: range.from, date_to: range.to, page: 1, page_size: 20, ...(columns === 'screen' && { columns: SCREEN_COLUMNS }) };
    const endpoint = await loadAsUsers(server.baseUrl, '/api/ad-reports/list', body, tokens, REPORT_SECONDS, `${server.label} ${view} view (${columns})`);
    const baseline = baselines[view];
    out.push({ view, columns, endpoint, baseline, p50Ratio: endpoint.p50Ms / baseline.p50Ms, p95Ratio: endpoint.p95Ms / baseline.p95Ms, aimMet: endpoint.p95Ms <= AIM_P95_MS });
  }
  return out;
}

const countKinds = (users: ReturnType<typeof loadUsersOf>) => users.reduce<Record<string, number>>((m, u) => ({ ...m, [u.role]: (m[u.role] ?? 0) + 1 }), {});

/** A fresh PostgreSQL database with the company generated (`ads` ads over REPORT_DAYS days); the caller drops it. */
export async function preparePostgresCompany(ads: number, log: (line: string) => void): Promise<{ db: BenchDatabase; company: CompanyFigures; reused: boolean } | { unavailable: string }> {
  if (REUSE_DB) {
    // A database kept by an earlier run (BENCH_KEEP_DB=1): its company as generated then.
    const bench = existingBenchDatabase(REUSE_DB);
    const database = await openDatabase({ databaseUrl: bench.url });
    try {
      const { rows } = await sql<{ company: CompanyFigures }>`select company from bench_company`.execute(database.db);
      const company = rows[0]!.company;
      log(`  PostgreSQL database ${bench.name} reused (BENCH_REUSE_DB): ${company.rows.adStatsDaily.toLocaleString('en-US')} ad-day rows generated ${company.layout.lastDay}`);
      return { db: bench, company, reused: true };
    } finally {
      await database.close();
    }
  }
  const bench = await createBenchDatabase({ keep: KEEP_DB });
  if ('unavailable' in bench) return bench;
  try {
    const layout = companyLayout(ads, REPORT_DAYS, reportToday(REPORT_TIMEZONE), `bench-${randomBytes(6).toString('hex')}`);
    log(`  PostgreSQL database ${bench.name}: ${layout.ads.toLocaleString('en-US')} ads × ${layout.days} days = ${(layout.ads * layout.days).toLocaleString('en-US')} ad-day rows…`);
    const database = await openDatabase({ databaseUrl: bench.url });
    try {
      await migrateToLatest(database.db);
      await seedInitialUsers(database.db, { managerPassword: layout.password, adminPassword: `bench-${randomBytes(6).toString('hex')}` });
      const company = await buildCompany(database.db, layout, log);
      if (KEEP_DB) {
        await sql`create table bench_company (company jsonb not null)`.execute(database.db);
        await sql`insert into bench_company values (${JSON.stringify(company)}::jsonb)`.execute(database.db);
        log(`  BENCH_KEEP_DB: ${bench.name} is kept (BENCH_REUSE_DB=${bench.name} measures it again; dropdb when done)`);
      }
      return { db: bench, company, reused: false };
    } finally {
      await database.close();
    }
  } catch (err) {
    await bench.drop();
    throw err;
  }
}

/**
 * Brings the change logs to empty before a measurement: a database kept from an earlier run holds
 * that run's webhook orders still waiting for the cohort and rollup refreshers, which readers and
 * the server's jobs would otherwise drain while the views are measured (one refresher at a time,
 * readers waiting on its lock), making runs of the same code differ by 100 ms and more.
 */
export async function drainChangeLogs(db: Db, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const cohorts = await drainAllCohorts(db, { maxRounds: 10_000 });
  let pairs = 0;
  for (let round = 0; round < 10_000; round++) {
    const r = await refreshRollups(db, { maxPairs: 500 });
    pairs += r.pairs;
    if (!r.more) break;
  }
  if (cohorts.pairs || pairs) log(`  change logs drained before measuring: ${cohorts.pairs} cohort and ${pairs} rollup pairs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The views on PostgreSQL, on a company prepared by preparePostgresCompany. */
export async function measurePostgresReport(bench: BenchDatabase, company: CompanyFigures, log: (line: string) => void): Promise<DriverReportFigures> {
  const { layout } = company;
  const users = loadUsersOf(layout);
  const range = { from: addDays(layout.lastDay, -(RANGE_DAYS - 1)), to: layout.lastDay };
  const database = await openDatabase({ databaseUrl: bench.url });
  let baselines: Baselines;
  try {
    await drainChangeLogs(database.db, log);
    // Ten connections, as the server's pool has: the same database capacity for both.
    baselines = await measureBaselines(database.db, users, await scopesOf(database.db, users), range);
  } finally {
    await database.close();
  }
  const server = await startServer('PostgreSQL report', bench.url, { managerPassword: layout.password, env: serverEnv() });
  try {
    log(`  server healthy after ${(server.startMs / 1000).toFixed(1)} s; ${users.length} users sign in, ${REPORT_SECONDS} s per view…`);
    const views = await measureViews(server, layout, users, baselines, range);
    return { driver: 'PostgreSQL', ...company, serverStartMs: server.startMs, users: countKinds(users), range, views };
  } finally {
    await server.stop();
  }
}

/** Environment of the report and orders servers: no Graph API (nothing here calls it, and no simulator registers sites or sends orders). */
export const serverEnv = (): Record<string, string> => ({ META_GRAPH_URL: 'http://127.0.0.1:9', REPORT_TIMEZONE });

/** The 2-million-row variant on PGlite: generated in a DATA_DIR by this process, which then hands it to the server. */
export async function measurePgliteReport(log: (line: string) => void): Promise<DriverReportFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-bench-report-'));
  trackTempDir(dataDir);
  const layout = companyLayout(PGLITE_ADS, REPORT_DAYS, reportToday(REPORT_TIMEZONE), `bench-${randomBytes(6).toString('hex')}`);
  const users = loadUsersOf(layout);
  const range = { from: addDays(layout.lastDay, -(RANGE_DAYS - 1)), to: layout.lastDay };
  log(`  PGlite (temp DATA_DIR): ${layout.ads.toLocaleString('en-US')} ads × ${layout.days} days = ${(layout.ads * layout.days).toLocaleString('en-US')} ad-day rows…`);
  let company: CompanyFigures;
  let baselines: Baselines;
  {
    const pglite = await withTimeout(PGlite.create(path.join(dataDir, 'pgdata'), { parsers: pgliteParsers }), 60_000, 'PGlite start');
    const database = await openDatabase({ pglite });
    const closing = onCleanup('report PGlite database', async () => {
      await database.close();
      await pglite.close();
    });
    try {
      await migrateToLatest(database.db);
      await seedInitialUsers(database.db, { managerPassword: layout.password, adminPassword: `bench-${randomBytes(6).toString('hex')}` });
      company = await buildCompany(database.db, layout, log);
      // PGlite answers one statement at a time: the callers queue as the server's requests do.
      baselines = await measureBaselines(database.db, users, await scopesOf(database.db, users), range);
    } finally {
      await closing.now();
    }
  }
  const server = await startServer('PGlite report', undefined, { dataDir, managerPassword: layout.password, env: serverEnv() });
  try {
    log(`  server healthy after ${(server.startMs / 1000).toFixed(1)} s; ${users.length} users sign in, ${REPORT_SECONDS} s per view…`);
    const views = await measureViews(server, layout, users, baselines, range);
    return { driver: 'PGlite', ...company, serverStartMs: server.startMs, users: countKinds(users), range, views };
  } finally {
    await server.stop();
    removeTempDir(dataDir);
  }
}

/** Problems: failing requests make a figure worthless. */
export function reportProblems(d: DriverReportFigures): string[] {
  return d.views.filter((v) => !v.endpoint.valid).map((v) => `report ${d.driver} ${v.view}: failing requests (non2xx ${v.endpoint.non2xx}, not code 0 ${v.endpoint.mismatches}, errors ${v.endpoint.errors}, timeouts ${v.endpoint.timeouts})`);
}
