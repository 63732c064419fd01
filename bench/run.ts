// `npm run bench`: API throughput, login-page JavaScript, Lighthouse, material upload, asset and ad
// data sync, report views, order ingest and cohort ROI figures, each printed as a ratio against a
// baseline measured in the same run (STYLE.md §11). See README.md for every figure.
// `npm run bench -- report orders` (or BENCH_ONLY=report,orders) runs those sections alone.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONNECTIONS, MEASURE_S, measureApi, type ApiFigures } from './api-load.ts';
import { ANTD_LOGIN_FORM_KB, kb, LOGIN_TARGET_KB, measureBundle, type BundleFigures } from './bundle.ts';
import { cleanupAll, installCleanupHandlers, trackChild, withTimeout } from './cleanup.ts';
import { measureLighthouse, type LighthouseComparison } from './lighthouse.ts';
import { createBenchDatabase, KEEP_DB, REUSE_DB } from './postgres.ts';
import { apiLogin, ROOT, startServer } from './server.ts';
import { measureUpload, type UploadFigures } from './upload.ts';
import { measureSync, type PhaseFigures, type RowWrites, type SyncFigures, type ThrottledFigures } from './sync.ts';
import type { AdSyncFigures } from './ad-sync.ts';
import { AIM_P95_MS, measurePgliteReport, measurePostgresReport, PG_ADS, PGLITE_ADS, preparePostgresCompany, RANGE_DAYS, reportProblems, type DriverReportFigures, type ReportFigures } from './report.ts';
import type { Latencies } from './user-load.ts';
import { AIM_COHORT_P95_MS, AIM_ORDERS_PER_S, COHORT_SORT, measureOrders, measureOrdersAgain, ORDERS, type OrdersSectionFigures } from './orders.ts';
import { AIM_TICK_MS, measureRules, RULE_COUNT, type RulesDriverFigures, type RulesFigures } from './rules.ts';
import { f0, f1, f2, printTable, type Row } from './table.ts';
import { measurePublish, PUBLISH_ACCOUNTS, PUBLISH_ADS, PUBLISH_CAMPAIGNS, type PublishFigures } from './publish.ts';

installCleanupHandlers();

const WEB = path.join(ROOT, 'apps/web');
const DIST = path.join(WEB, 'dist');
const started = Date.now();
const errors: string[] = [];

const log = (line: string) => console.log(line);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Builds apps/web when its dist is missing (or when BENCH_BUILD=1). */
async function ensureWebBuild(): Promise<string> {
  const index = path.join(DIST, 'index.html');
  if (fs.existsSync(index) && process.env.BENCH_BUILD !== '1') return 'existing';
  log('▸ building apps/web (npx vite build)…');
  const child = spawn('npx', ['vite', 'build'], { cwd: WEB, stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-6000)));
  child.stderr!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-6000)));
  const code = await withTimeout(new Promise<number | null>((resolve) => child.once('exit', resolve)), 300_000, 'vite build');
  if (code !== 0 || !fs.existsSync(index)) throw new Error(`vite build failed (exit ${code}):\n${out.trim()}`);
  return 'built now';
}

/** The newest source file the web build depends on, to warn when apps/web/dist is older. */
function newestWebSource(): { file: string; mtime: Date } | null {
  let newest: { file: string; mtime: Date } | null = null;
  const visit = (p: string) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== 'node_modules' && name !== 'dist') visit(path.join(p, name));
    } else if (!newest || st.mtime > newest.mtime) {
      newest = { file: path.relative(ROOT, p), mtime: st.mtime };
    }
  };
  for (const p of ['apps/web/src', 'apps/web/index.html', 'apps/web/public', 'apps/web/vite.config.ts', 'apps/web/package.json', 'packages/contracts/src']) visit(path.join(ROOT, p));
  return newest;
}

const loadAverage = () => os.loadavg()[0]!;

/**
 * Sections to run: the arguments (`npm run bench -- report orders`) or BENCH_ONLY (`report,orders`);
 * none runs every section. `api` is the API load, the JavaScript figures and Lighthouse.
 */
const SECTIONS = ['api', 'upload', 'sync', 'ad-sync', 'report', 'orders', 'rules', 'publish'] as const;
type Section = (typeof SECTIONS)[number];
const asked = [...process.argv.slice(2), ...(process.env.BENCH_ONLY ?? '').split(/[\s,]+/)].map((x) => x.trim()).filter(Boolean);
const unknown = asked.filter((x) => !(SECTIONS as readonly string[]).includes(x));
if (unknown.length) {
  console.error(`unknown section ${unknown.join(', ')} (known: ${SECTIONS.join(', ')}; none runs everything)`);
  process.exit(2);
}
const ONLY = asked.length ? [...new Set(asked)].join(',') : undefined;
const want = (s: Section) => !asked.length || asked.includes(s);
const runWeb = want('api');

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function printApi(a: ApiFigures) {
  for (const r of [a.bare, a.userInfo]) {
    const failures = r.non2xx + r.mismatches + r.errors + r.timeouts;
    log(
      `  ${r.route.padEnd(30)} ${f0(r.rps).padStart(7)} req/s  p50 ${f1(r.p50Ms)} ms  p99 ${f1(r.p99Ms)} ms  ` +
        `${r.requests} requests, ${r.responseBytes} B each, ` +
        (failures ? `FAILED: non2xx ${r.non2xx}, body not code 0 ${r.mismatches}, errors ${r.errors}, timeouts ${r.timeouts}` : 'all 2xx + code 0'),
    );
  }
  log(`  get_user_info / bare: ${f2(a.rpsRatio)}× the requests/s, ${f2(a.p99Ratio)}× the p99 latency`);
}

function printBundle(b: BundleFigures) {
  log(`  /login  JS ${f1(b.login.jsGzipKB)} KB gzipped (${f1(b.login.jsRawKB)} KB raw, ${b.login.chunks.length} files), CSS ${f1(b.login.cssGzipKB)} KB gzipped`);
  log(`          ${f2(b.loginVsTarget)}× the ${LOGIN_TARGET_KB} KB target, ${f2(b.loginVsAntdLoginForm)}× the ${ANTD_LOGIN_FORM_KB} KB "antd login form alone"`);
  log('          largest chunks:');
  for (const c of b.login.chunks.slice(0, 5)) log(`            ${f1(kb(c.gzipBytes)).padStart(6)} KB gz  ${f1(kb(c.rawBytes)).padStart(7)} KB raw  ${c.file}`);
  const encodings = new Set(b.login.chunks.map((c) => c.servedEncoding || 'none'));
  log(`          served with content-encoding: ${[...encodings].join(', ')}`);
  log(`  /index  JS ${f1(b.index.cumulativeJsGzipKB)} KB gzipped cumulative, +${f1(b.index.incrementJsGzipKB)} KB after login (${b.index.newChunks.length} files: ${b.index.newChunks.map((c) => c.file).join(', ')})`);
  if (b.blockedNonLoopback.length) log(`  blocked non-loopback requests: ${b.blockedNonLoopback.join(', ')}`);
}

function printLighthouse(l: LighthouseComparison) {
  for (const [name, x] of [['/login', l.login], ['trivial page', l.baseline]] as const) {
    log(
      `  ${name.padEnd(13)} performance ${x.score}  FCP ${f0(x.fcpMs)} ms  LCP ${f0(x.lcpMs)} ms  TBT ${f0(x.tbtMs)} ms  ` +
        `SI ${f0(x.speedIndexMs)} ms  ${f1(x.totalByteWeightKB)} KB transferred  (${f1(x.runMs / 1000)} s)`,
    );
  }
  const r = l.ratios;
  log(`  /login ÷ trivial: score ${f2(r.score)}, FCP ${f2(r.fcp)}×, LCP ${f2(r.lcp)}×, TBT ${r.tbt === null ? 'n/a (baseline TBT 0)' : `${f2(r.tbt)}×`}`);
  if (l.login.opportunities.length) {
    log('  /login opportunities (simulated phone):');
    for (const o of l.login.opportunities) log(`    ${o.title}: ~${f0(o.savingsMs)} ms, ${f1(o.savingsKB)} KB`);
  }
  if (l.login.mainThread.length) log(`  /login main thread: ${l.login.mainThread.map((m) => `${m.group} ${f0(m.ms)} ms`).join(', ')}`);
  const outside = [...l.login.nonLoopbackRequests, ...l.baseline.nonLoopbackRequests];
  if (outside.length) log(`  WARNING: pages requested non-loopback URLs: ${outside.join(', ')}`);
}

const pct = (share: number) => `${f0(share * 100)} %`;
const TABLE_LABELS: Record<keyof RowWrites, string> = {
  ad_accounts: 'ad accounts',
  personal_account_ad_accounts: 'account links',
  pages: 'pages',
  personal_account_pages: 'page links',
  pixels: 'pixels',
  pixel_ad_accounts: 'pixel links',
  personal_accounts: 'personal account',
  audit_logs: 'audit',
};

function rowsLine(rows: RowWrites | null): string {
  if (!rows) return 'n/a';
  const parts = Object.entries(rows).flatMap(([table, w]) => {
    const changes = [w.inserted && `+${w.inserted}`, w.updated && `~${w.updated}`, w.deleted && `-${w.deleted}`].filter(Boolean);
    return changes.length ? [`${TABLE_LABELS[table as keyof RowWrites]} ${changes.join(' ')}`] : [];
  });
  return parts.join(', ') || 'none';
}

/** One sync run; `simRates`: the throttled run, whose rates are per sim second (its clock moves only when the client waits). */
function printSyncPhase(driver: string, p: PhaseFigures, simRates = false) {
  const c = p.calls;
  const pad = ' '.repeat(4 + driver.length);
  log(
    `  ${driver} ${p.phase}: ${f2(p.wallMs / 1000)} s${simRates ? ' real' : `, ${f0(p.adAccountsPerS)} ad accounts/s`}` +
      (p.status === 'success' ? '' : `  — ${p.status.toUpperCase()} at step ${p.progress.done}/${p.progress.total}: ${p.message}`),
  );
  log(
    `${pad}Graph: ${c.graphCalls} calls = ${c.httpRequests} HTTP requests (${c.batchRequests} batches) + ${c.batchItems} batch items; ` +
      `${f2(p.callsPerAdAccount.graphCalls)} per ad account (HTTP ${f2(p.callsPerAdAccount.httpRequests)}, items ${f2(p.callsPerAdAccount.batchItems)})`,
  );
  // A run that gave up on the frozen clock made its calls in almost no sim time: its rate says nothing.
  const rate = simRates && p.status !== 'success' ? '' : `${f2(p.graphCallsPerS)} calls per ${simRates ? 'sim ' : ''}s = ${f2(p.budgetRatio)}× the ${f2(p.budgetCallsPerS)} the budget allows; `;
  log(
    `${pad}${rate}one run spends ${f2(p.budgetShare * 100)} % of an hour's budget; ` +
      `refused ${c.refused} requests (their ${c.unsentItems} items never ran) + ${c.refusedItems} items, failed ${c.failed}, peak app usage ${c.maxAppUsagePct} %`,
  );
  log(`${pad}waits: ${p.waits.count} (${f0(p.waits.askedMs)} ms asked on the client's clock, ${f0(p.waits.realMs)} ms real); warnings ${p.warnings}`);
  log(`${pad}DB: ${p.db.statements} statements (${f2(p.db.statementsPerAdAccount)} per ad account), ${f0(p.db.ms)} ms`);
  log(`${pad}time: DB ${pct(p.shares.db)}, Graph HTTP ${pct(p.shares.graph)}, waits ${pct(p.shares.waits)}, other JS ${pct(p.shares.other)}`);
  log(`${pad}rows: ${rowsLine(p.rows)}`);
  log(`${pad}check: ${p.problems.length ? `FAILED: ${p.problems.join('; ')}` : 'database matches the simulator (no duplicates, every link)'}`);
}

function printSync(s: SyncFigures) {
  const b = s.baseline;
  log(`  baselines: sequential GET /me ${f0(b.bareGetPerS)} calls/s; first sync's ${b.replayRequests} requests (${b.replayGraphCalls} Graph calls) replayed bare in ${f0(b.replayMs)} ms (${f0(b.replayGraphCallsPerS)} calls/s)`);
  log(`  standard budget: ${s.standardCallsPerHour} calls/hour = ${f1(s.standardCallsPerHour / 3600)} calls/s`);
  for (const d of [s.pglite, s.postgres]) {
    if (!d) continue;
    log(`  ${d.driver} connect: ${d.connect.calls.httpRequests} Graph requests, ${d.connect.db.statements} statements, ${f0(d.connect.wallMs)} ms`);
    printSyncPhase(d.driver, d.first);
    printSyncPhase(d.driver, d.resync);
    log(`  ${d.driver} re-sync / first sync: ${f2(d.resyncRatio)}× the time`);
    if (d.adData) printAdSync(d.driver, d.adData);
  }
  if (s.postgresSkipped) log(`  PostgreSQL skipped: ${s.postgresSkipped}`);
  if (s.wallVsReplay !== undefined) log(`  PGlite first sync / bare replay of its requests: ${f1(s.wallVsReplay)}× the time`);
  if (s.pgliteVsPostgresWall !== undefined) log(`  first sync, PGlite / PostgreSQL: ${f2(s.pgliteVsPostgresWall)}× the time`);
  const t = s.throttled;
  if (t) {
    log(`  throttled: app budget ${t.callsPerHour} calls per hour, sim clock frozen except for the client's waits`);
    printSyncPhase('PGlite', t, true);
    log(
      `          sim time ${f1(t.simMs / 60_000)} min; ${t.admittedCalls} calls admitted = ${f0((t.admittedCalls / t.callsPerHour) * 100)} % of the budget; ` +
        (t.status !== 'success'
          ? `${t.status === 'paused' ? `STILL PAUSED after ${t.runs ?? 1} runs` : 'GAVE UP'} at step ${t.progress.done} of ${t.progress.total}, where a complete run needs ≥ ${f1(t.floorMs / 60_000)} sim min (README "Throttled re-sync")`
          : t.floorMs === 0
            ? 'completed; the calls fit one hour of budget, so no wait was necessary'
            : `completed; a perfect client needs ≥ ${f1(t.floorMs / 60_000)} sim min (floor / taken ${f2(t.floorRatio)})`),
    );
    if (t.pauses?.length) {
      log(`          ${t.runs ?? 1} runs: paused by the rate limit ${t.pauses.length}×, each continuation due at ${t.pauses.map((p) => p.at.slice(11, 16)).join(', ')} (sim UTC)`);
    }
  }
}

function printAdSync(driver: string, a: AdSyncFigures) {
  log(`  ${driver} ad data: ${a.accounts} ad accounts × ${a.adsPerAccount} ads; set-up ${a.setupRequests} simulator requests in ${f1(a.setupMs / 1000)} s (not measured)`);
  for (const r of [a.first, a.repeat]) {
    const c = r.calls;
    log(
      `    ${r.phase.padEnd(6)} ${f1(r.wallMs / 1000)} s, ${f1(r.accountsPerS)} accounts/s; Graph ${c.graphCalls} calls = ${c.httpRequests} HTTP (${c.batchRequests} batches) + ${c.batchItems} batch items; ` +
        `${f2(r.callsPerAccount.graphCalls)} per account; refused ${c.refused} + ${c.refusedItems} items, failed ${c.failed}; runs failed ${r.failedRuns}, paused ${r.pausedRuns}`,
    );
    log(
      `           rate-limit floor ${f1(r.floorMs / 1000)} s (${c.graphCalls} calls at the ${f1(r.budgetCallsPerS)}/s the app budget sustains): wall / floor ${f2(r.floorRatio)}; ` +
        `one run spends ${f2(r.budgetShare * 100)} % of an hour's budget (${f1(r.budgetShare * 400)} % at one run per 15 min)`,
    );
    log(
      `           DB ${r.db.statements} statements (${f1(r.db.statementsPerAccount)} per account, ${f0(r.db.ms)} ms summed over the concurrent runs); rows: ${r.rows.campaigns} campaigns, ${r.rows.adsets} ad sets, ${r.rows.ads} ads, ` +
        `${r.rows.dailyRows} daily, ${r.rows.hourlyRows} hourly, ${r.rows.statRows} report rows; check: ${r.problems.length ? `FAILED: ${r.problems.join('; ')}` : 'every ad mirrored, stored spend = the simulator’s'}`,
    );
  }
}

function syncRows(s: SyncFigures): Row[] {
  const rows: Row[] = [];
  for (const d of [s.pglite, s.postgres]) {
    if (!d) continue;
    const first = d.first;
    rows.push([`Sync ${d.driver}: first sync s`, f2(first.wallMs / 1000), `Graph replay ${f2(s.baseline.replayMs / 1000)}`, f1(first.wallMs / s.baseline.replayMs)]);
    rows.push([`Sync ${d.driver}: re-sync s`, f2(d.resync.wallMs / 1000), `first ${f2(first.wallMs / 1000)}`, f2(d.resyncRatio)]);
    rows.push([`Sync ${d.driver}: ad accounts/s`, f0(first.adAccountsPerS), '', '']);
    rows.push([`Sync ${d.driver}: Graph calls/s`, f0(first.graphCallsPerS), `budget ${f1(first.budgetCallsPerS)}/s`, f2(first.budgetRatio)]);
    rows.push([`Sync ${d.driver}: DB share of time`, pct(first.shares.db), `${f2(first.db.statementsPerAdAccount)} stmts/acct`, '']);
  }
  const p = s.pglite?.first;
  if (p) {
    rows.push(['Sync Graph calls per ad account', f2(p.callsPerAdAccount.graphCalls), `HTTP ${f2(p.callsPerAdAccount.httpRequests)} + items ${f2(p.callsPerAdAccount.batchItems)}`, '']);
    rows.push(['Sync Graph calls/s PGlite', f0(p.graphCallsPerS), `bare GET /me ${f0(s.baseline.bareGetPerS)}`, f2(s.callsVsBareGet!)]);
  }
  for (const d of [s.pglite, s.postgres]) {
    for (const r of d?.adData ? [d.adData.first, d.adData.repeat] : []) {
      rows.push([`Ad sync ${d!.driver} ${r.phase}: s`, f1(r.wallMs / 1000), `rate-limit floor ${f1(r.floorMs / 1000)}`, f2(r.floorRatio)]);
      rows.push([`Ad sync ${d!.driver} ${r.phase}: calls/account`, f2(r.callsPerAccount.graphCalls), `HTTP ${f2(r.callsPerAccount.httpRequests)} + items ${f2(r.callsPerAccount.batchItems)}`, '']);
    }
  }
  if (s.pglite && s.postgres) rows.push(['Sync first sync s PGlite', f2(s.pglite.first.wallMs / 1000), `PostgreSQL ${f2(s.postgres.first.wallMs / 1000)}`, f2(s.pgliteVsPostgresWall!)]);
  const t: ThrottledFigures | undefined = s.throttled;
  if (t) {
    const done = t.status === 'success';
    rows.push([`Sync throttled ${t.callsPerHour}/h: sim min`, f1(t.simMs / 60_000), `floor ${f1(t.floorMs / 60_000)}`, done && t.floorRatio !== null ? f2(t.floorRatio) : '']);
    if (done && t.floorMs > 0) rows.push([`Sync throttled: calls/sim s`, f2(t.graphCallsPerS), `budget ${f2(t.budgetCallsPerS)}/s`, f2(t.budgetRatio)]);
    rows.push([
      `Sync throttled: outcome`,
      done ? `completed in ${t.runs ?? 1} run${(t.runs ?? 1) > 1 ? 's' : ''}` : `${t.status === 'paused' ? 'paused' : 'gave up'} ${t.progress.done}/${t.progress.total}`,
      `${t.admittedCalls} of ${t.callsPerHour} calls`,
      f2(t.admittedCalls / t.callsPerHour),
    ]);
  }
  return rows;
}

const ms = (x: number) => `${f0(x)} ms`;
const lat = (l: Latencies) => `p50 ${ms(l.p50Ms)}  p95 ${ms(l.p95Ms)}  (${l.requests} requests, ${f1(l.rps)}/s)`;

function printReport(d: DriverReportFigures) {
  const L = d.layout;
  log(
    `  ${d.driver}: ${d.rows.adStatsDaily.toLocaleString('en-US')} ad-day rows (ad_stats_daily), ${d.rows.campaignStatsDaily.toLocaleString('en-US')} campaign-day rows; ` +
      `${L.adAccounts} ad accounts, ${L.campaigns} campaigns, ${L.ads} ads, ${L.people} optimizers; generated in ${f0(d.generateMs / 1000)} s, database ${f0(d.databaseMB)} MB`,
  );
  log(`  users: ${Object.entries(d.users).map(([k, n]) => `${n} ${k}`).join(', ')}; range ${d.range.from} … ${d.range.to} (${RANGE_DAYS} days)`);
  for (const v of d.views) {
    const e = v.endpoint;
    const failures = e.non2xx + e.mismatches + e.errors + e.timeouts;
    if (v.columns !== 'screen') log(`  ${v.view} view again, with ${v.columns} (no \`columns\`):`);
    log(`  ${v.view.padEnd(9)} endpoint  ${lat(e)}  ${e.responseBytes} B${failures ? `  FAILED: non2xx ${e.non2xx}, not code 0 ${e.mismatches}, errors ${e.errors}, timeouts ${e.timeouts}` : ''}`);
    log(`  ${''.padEnd(9)} by kind   ${Object.entries(e.byKind).map(([k, l]) => `${k} p50 ${ms(l.p50Ms)} p95 ${ms(l.p95Ms)}`).join('; ')}`);
    log(`  ${''.padEnd(9)} raw GROUP BY  ${lat(v.baseline)}  (${Object.entries(v.baseline.byKind).map(([k, l]) => `${k} p95 ${ms(l.p95Ms)}`).join('; ')})`);
    log(`  ${''.padEnd(9)} endpoint / raw: p50 ${f2(v.p50Ratio)}×, p95 ${f2(v.p95Ratio)}×; aim p95 ≤ ${AIM_P95_MS} ms ${v.aimMet ? 'met' : 'MISSED'}`);
  }
}

function reportRows(d: DriverReportFigures): Row[] {
  return d.views.flatMap((v): Row[] => [
    [`Report ${d.driver} ${v.view}${v.columns === 'screen' ? '' : ` (${v.columns})`}: p95 ms`, f0(v.endpoint.p95Ms), `raw GROUP BY ${f0(v.baseline.p95Ms)}`, f2(v.p95Ratio)],
    [`Report ${d.driver} ${v.view}${v.columns === 'screen' ? '' : ` (${v.columns})`}: p50 ms`, f0(v.endpoint.p50Ms), `raw GROUP BY ${f0(v.baseline.p50Ms)}`, f2(v.p50Ratio)],
  ]);
}

function printOrders(o: OrdersSectionFigures) {
  const c = o.cohort;
  log(`  cohort ROI by campaign (${c.range.from} … ${c.range.to}, sorted by ${COHORT_SORT}; ${Object.entries(c.users).map(([k, n]) => `${n} ${k}`).join(', ')})`);
  log(`    endpoint      ${lat(c.endpoint)}; by kind ${Object.entries(c.endpoint.byKind).map(([k, l]) => `${k} p50 ${ms(l.p50Ms)} p95 ${ms(l.p95Ms)}`).join('; ')}`);
  log(`    raw GROUP BY  ${lat(c.baseline)}`);
  log(`    endpoint / raw: p50 ${f2(c.p50Ratio)}×, p95 ${f2(c.p95Ratio)}×; aim p95 ≤ ${AIM_COHORT_P95_MS} ms ${c.aimMet ? 'met' : 'MISSED'}`);
  const i = o.ingest;
  log(
    `  webhook: ${f0(i.ordersPerS)} orders/s (${i.batches} batches of ${i.batch} in ${f1(i.seconds)} s, ${i.connections} connections; batch p50 ${ms(i.batchP50Ms)}, p95 ${ms(i.batchP95Ms)}); ` +
      `aim ≥ ${AIM_ORDERS_PER_S} orders/s ${i.ordersPerS >= AIM_ORDERS_PER_S ? 'met' : 'MISSED'}`,
  );
  log(`    bare GET /api/health/live: ${f0(i.bare.rps)} req/s (p50 ${ms(i.bare.p50Ms)}); webhook requests / bare requests: ${f2(i.requestRatio)}; orders stored ${i.storedOrders} for ${i.acceptedEvents} accepted`);
}

function printRules(r: RulesDriverFigures) {
  log(`  ${r.driver}: ${r.ads.toLocaleString('en-US')} ads, ${r.adsets.toLocaleString('en-US')} ad sets, ${r.campaigns.toLocaleString('en-US')} campaigns in ${r.accounts.toLocaleString('en-US')} hosted accounts (${r.liveAccounts} also in the simulator); generated in ${f1(r.generateMs / 1000)} s`);
  for (const x of r.tick.byRule) log(`    ${x.name.padEnd(42)} ${x.level.padEnd(8)} checked ${String(x.checked).padStart(6)}  matched ${String(x.matched).padStart(4)}  acted ${String(x.acted).padStart(4)}  failed ${x.failed}  skipped ${x.skipped}  dry run ${f0(x.dryRunMs)} ms  in the tick ${f0(x.tickMs)} ms`);
  log(`  tick: ${f0(r.tick.ms)} ms for ${r.tick.rules} rules (${r.tick.status}), ${r.tick.acted} acted, ${r.tick.failed} failed` + (r.aimMet === null ? '' : `; aim < ${AIM_TICK_MS / 1000} s ${r.aimMet ? 'met' : 'MISSED'}`));
  const phases = Object.entries(r.phases).sort((a, b) => b[1].ms - a[1].ms);
  log(`    phases (summed ms × times): ${phases.map(([k, v]) => `${k} ${f0(v.ms)}×${v.n}`).join(', ')}`);
  log(`    baselines: the ${RULE_COUNT} rules as dry runs ${f0(r.dryRunMs)} ms (tick / dry runs ${f2(r.tickVsDryRun)}×); raw GROUP BY of today ${f0(r.rawGroupByMs)} ms (tick / raw ${f1(r.tickVsRawGroupBy)}×)`);
  log(
    `  acts: ${f1(r.actsPerS)}/s over the whole tick; bare status updates ${f1(r.bareUpdatesPerS)}/s (${f2(r.actsVsBare)}×); ${f1(r.platform.graphCallsPerAct)} Graph calls per act; ` +
      `platform limits: app ${f1(r.platform.appCallsPerS)} calls/s (acts use ${f2(r.platform.actsVsAppLimit)} of it), one account's writes ${f1(r.platform.accountWritesPerS)}/s`,
  );
}

function printPublish(p: PublishFigures) {
  const c = p.calls;
  log(`  schemes: ${p.schemes.map((s) => `#${s.id} ${s.status} (${s.items} items)`).join(', ')}; simulator holds ${p.campaigns} campaigns, ${p.adsets} ad sets, ${p.creatives} creatives, ${p.ads} ads`);
  log(`  wall ${f1(p.wallMs / 1000)} s from the first submit to both schemes finished (the submits themselves ${f1(p.submitMs / 1000)} s)`);
  log(
    `  Graph: ${c.graphCalls} calls = ${c.httpRequests} HTTP requests (${c.batchRequests} batches, ${c.gets} GETs) + ${c.batchItems} batch items; ${f2(p.callsPerAd)} per ad; refused ${c.refused}, failed ${c.failed}`,
  );
  log(
    `  rate-limit floor ${f1(p.floorMs / 1000)} s (${c.graphCalls} calls at the ${f1(p.budgetCallsPerS)}/s the app budget sustains): wall / floor ${f2(p.floorRatio)}; ` +
      `per account at most ${p.perAccount.maxAds} ads of the ${p.perAccount.adCreationsPerHour}/hour creation throttle and ~${p.perAccount.maxScore} score points of ${p.perAccount.scoreMax} per ${p.perAccount.scoreWindowS} s`,
  );
  log(`  simulator baseline: sequential GET /me through the proxy ${f0(p.bareGetPerS)} calls/s; publishing made ${f1(c.graphCalls / (p.wallMs / 1000))} calls/s`);
  log(`  server RSS ${f0(p.rss.beforeMB)} MB before → peak ${f0(p.rss.peakMB)} MB → ${f0(p.rss.afterMB)} MB after`);
  const k = p.kill;
  log(
    `  kill -9: ${k.adsBeforeKill} of ${k.ads} ads created when the server was killed; restarted in ${f1(k.restartMs / 1000)} s, scheme ${k.status} ${f1(k.resumeMs / 1000)} s later; ` +
      `${k.adsOnPlatform} of its ads in the simulator, ${k.duplicates} duplicates over every account`,
  );
  log(`  check: ${p.problems.length ? `FAILED: ${p.problems.join('; ')}` : 'every planned object once in the simulator, every item created'}`);
}

type Results = {
  meta: Record<string, unknown>;
  api: { pglite?: ApiFigures; postgres?: ApiFigures; postgresSkipped?: string; pgliteVsPostgresRps?: number };
  bundle?: BundleFigures;
  lighthouse?: LighthouseComparison;
  sync?: SyncFigures;
  upload?: UploadFigures;
  report?: ReportFigures;
  orders?: OrdersSectionFigures;
  rules?: RulesFigures;
  publish?: PublishFigures;
  errors: string[];
};

/** API throughput on both drivers, then the browser figures against the PGlite server. */
async function apiAndBrowser(results: Results) {
  // PGlite: API load, then the browser figures against the same server.
  log(`\n▸ [${elapsed()}] API on PGlite`);
  try {
    const server = await startServer('PGlite');
    log(`  server healthy after ${f1(server.startMs / 1000)} s at ${server.baseUrl}`);
    try {
      const token = await apiLogin(server);
      results.api.pglite = await measureApi(server, token);
      printApi(results.api.pglite);

      log(`\n▸ [${elapsed()}] JavaScript loaded by /login and /index (gzip -9 of each response)`);
      try {
        results.bundle = await measureBundle(server);
        printBundle(results.bundle);
      } catch (err) {
        errors.push(`bundle: ${message(err)}`);
        log(`  FAILED: ${message(err)}`);
      }

      log(`\n▸ [${elapsed()}] Lighthouse (mobile preset) on /login and on a trivial page`);
      try {
        results.lighthouse = await measureLighthouse(server.baseUrl);
        printLighthouse(results.lighthouse);
      } catch (err) {
        errors.push(`lighthouse: ${message(err)}`);
        log(`  FAILED: ${message(err)}`);
      }
    } finally {
      await server.stop();
    }
  } catch (err) {
    errors.push(`PGlite: ${message(err)}`);
    log(`  FAILED: ${message(err)}`);
  }

  log(`\n▸ [${elapsed()}] API on PostgreSQL`);
  try {
    const db = await createBenchDatabase();
    if ('unavailable' in db) {
      results.api.postgresSkipped = db.unavailable;
      log(`  skipped: PostgreSQL unreachable (${db.unavailable})`);
    } else {
      log(`  database ${db.name} created`);
      try {
        const server = await startServer('PostgreSQL', db.url);
        log(`  server healthy after ${f1(server.startMs / 1000)} s at ${server.baseUrl}`);
        try {
          const token = await apiLogin(server);
          results.api.postgres = await measureApi(server, token);
          printApi(results.api.postgres);
        } finally {
          await server.stop();
        }
      } finally {
        await db.drop();
        log(`  database ${db.name} dropped`);
      }
    }
  } catch (err) {
    errors.push(`PostgreSQL: ${message(err)}`);
    log(`  FAILED: ${message(err)}`);
  }

  const { pglite, postgres } = results.api;
  if (pglite && postgres) {
    results.api.pgliteVsPostgresRps = pglite.userInfo.rps / postgres.userInfo.rps;
    log(`\n  get_user_info requests/s, PGlite ÷ PostgreSQL: ${f2(results.api.pgliteVsPostgresRps)}`);
  }
  for (const a of [pglite, postgres]) {
    for (const r of a ? [a.bare, a.userInfo] : []) {
      if (!r.valid) errors.push(`${a!.driver} ${r.route}: failing requests (non2xx ${r.non2xx}, not code 0 ${r.mismatches}, errors ${r.errors}, timeouts ${r.timeouts}); figures are worthless`);
    }
  }
}

async function main() {
  log(`广告投放系统 benchmarks — Node ${process.versions.node}, ${os.cpus().length} CPUs` + (runWeb ? `, ${MEASURE_S} s per API load at ${CONNECTIONS} connections` : '') + (ONLY ? ` — sections: ${ONLY}` : '') + '\n');
  let web = 'not needed';
  let distTime: Date | undefined;
  let distStale = false;
  if (runWeb) {
    web = await ensureWebBuild();
    distTime = fs.statSync(path.join(DIST, 'index.html')).mtime;
    log(`▸ web build: ${web} (apps/web/dist from ${distTime.toISOString()})`);
    const newest = newestWebSource();
    distStale = Boolean(newest && newest.mtime > distTime);
    if (distStale) log(`  note: ${newest!.file} is newer than apps/web/dist; the JS figures describe the older build (BENCH_BUILD=1 rebuilds)`);
  }
  const loadBefore = loadAverage();
  if (loadBefore > os.cpus().length) log(`  note: load average ${f1(loadBefore)} on ${os.cpus().length} CPUs: other work is running, figures will be noisy`);

  const results: Results = {
    meta: {
      startedAt: new Date(started).toISOString(),
      node: process.versions.node,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      commit: git(['rev-parse', '--short', 'HEAD']),
      dirty: git(['status', '--porcelain']) !== '',
      only: ONLY ?? null,
      webDist: web,
      webDistBuiltAt: distTime?.toISOString() ?? null,
      webDistOlderThanSources: distStale,
      loadAverageBefore: loadBefore,
      loadSeconds: MEASURE_S,
      connections: CONNECTIONS,
    },
    api: {},
    errors,
  };

  if (runWeb) await apiAndBrowser(results);
  const { pglite, postgres } = results.api;

  if (want('upload')) {
    log(`\n▸ [${elapsed()}] Material upload: tus on loopback against writing the same bytes to disk, and the server's memory`);
    try {
      results.upload = await measureUpload();
      for (const r of results.upload.runs) {
        log(
          `  ${f0(r.bytes / 1024 / 1024)} MiB: tus ${f0(r.uploadMBps)} MB/s vs disk ${f0(r.diskMBps)} MB/s = ${f2(r.ratio)}×; last PATCH ${f0(r.finishMs)} ms; ` +
            `server RSS ${f0(r.rssBeforeMB)} → ${f0(r.rssPeakMB)} MB (+${f0(r.rssGrowthMB)})`,
        );
      }
      log(`  RSS growth, largest minus smallest file: ${f1(results.upload.rssGrowthDeltaMB)} MB (≈0: memory does not follow file size)`);
    } catch (err) {
      errors.push(`upload: ${message(err)}`);
      log(`  FAILED: ${message(err)}`);
    }
  }

  // Last: it keeps both cores busy with the server code, the simulator and the databases.
  const syncOpts = { pglite: want('sync'), adData: want('sync') || want('ad-sync') };
  if (want('sync') || want('ad-sync')) {
    log(
      `\n▸ [${elapsed()}] ${syncOpts.pglite ? 'Asset sync: the sync-personal-accounts job against the simulator, PGlite then PostgreSQL; then ' : 'Asset sync on PostgreSQL (to bring the ad accounts in), then '}` +
        'the ad data sync (sync-ad-account, today and yesterday) of 40 ads per ad account on PostgreSQL',
    );
  }
  if (want('sync') || want('ad-sync')) try {
    results.sync = await measureSync(log, syncOpts);
    printSync(results.sync);
    errors.push(...results.sync.problems);
  } catch (err) {
    errors.push(`sync: ${message(err)}`);
    log(`  FAILED: ${message(err)}`);
  }

  if (want('report') || want('orders')) {
    results.report = { problems: [] };
    log(`\n▸ [${elapsed()}] ${want('report') ? 'Reports' : 'Orders'}: ${PG_ADS.toLocaleString('en-US')} ads on PostgreSQL, generated in SQL${want('report') ? ', then the views through the real server' : ''}`);
    try {
      const prepared = await preparePostgresCompany(PG_ADS, log);
      if ('unavailable' in prepared) {
        results.report.postgresSkipped = prepared.unavailable;
        log(`  skipped: PostgreSQL unreachable (${prepared.unavailable})`);
      } else {
        try {
          if (want('report')) {
            results.report.postgres = await measurePostgresReport(prepared.db, prepared.company, log);
            printReport(results.report.postgres);
            errors.push(...reportProblems(results.report.postgres));
          }
          if (want('orders')) {
            log(`\n▸ [${elapsed()}] Orders: ${ORDERS.toLocaleString('en-US')} orders on the same database, cohort ROI by campaign, then the webhook`);
            try {
              results.orders = prepared.reused ? await measureOrdersAgain(prepared.db, prepared.company, log) : await measureOrders(prepared.db, prepared.company, log);
              printOrders(results.orders);
              errors.push(...results.orders.problems);
            } catch (err) {
              errors.push(`orders: ${message(err)}`);
              log(`  FAILED: ${message(err)}`);
            }
          }
        } finally {
          await prepared.db.drop();
          log(`  database ${prepared.db.name} ${KEEP_DB || REUSE_DB ? 'kept (BENCH_KEEP_DB / BENCH_REUSE_DB)' : 'dropped'}`);
        }
      }
    } catch (err) {
      errors.push(`report PostgreSQL: ${message(err)}`);
      log(`  FAILED: ${message(err)}`);
    }
    if (want('report') && PGLITE_ADS > 0) {
      log(`\n▸ [${elapsed()}] Reports on PGlite: ${PGLITE_ADS.toLocaleString('en-US')} ads`);
      try {
        results.report.pglite = await measurePgliteReport(log);
        printReport(results.report.pglite);
        errors.push(...reportProblems(results.report.pglite));
      } catch (err) {
        errors.push(`report PGlite: ${message(err)}`);
        log(`  FAILED: ${message(err)}`);
      }
    }
  }

  if (want('rules')) {
    log(`\n▸ [${elapsed()}] Rules: ${RULE_COUNT} hosting rules, one evaluation tick of the engine's job, acts against the simulator`);
    try {
      results.rules = await measureRules(log);
      for (const d of [results.rules.postgres, results.rules.pglite]) if (d) printRules(d);
      errors.push(...results.rules.problems);
    } catch (err) {
      errors.push(`rules: ${message(err)}`);
      log(`  FAILED: ${message(err)}`);
    }
  }

  if (want('publish')) {
    log(`\n▸ [${elapsed()}] Publishing: ${PUBLISH_ADS.toLocaleString('en-US')} ads in ${PUBLISH_CAMPAIGNS} campaigns over ${PUBLISH_ACCOUNTS} ad accounts, through the real server on PostgreSQL and the simulator`);
    try {
      results.publish = await measurePublish(log);
      printPublish(results.publish);
      errors.push(...results.publish.problems.map((p) => `publish: ${p}`));
    } catch (err) {
      errors.push(`publish: ${message(err)}`);
      log(`  FAILED: ${message(err)}`);
    }
  }

  // Results file and summary table.
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date(started).toISOString().replace(/[:.]/g, '-')}.json`);
  results.meta.durationS = Math.round((Date.now() - started) / 1000);
  results.meta.loadAverageAfter = loadAverage();
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);

  const rows: Row[] = [];
  for (const a of [pglite, postgres]) {
    if (!a) continue;
    rows.push([`API ${a.driver}: get_user_info req/s`, f0(a.userInfo.rps), `bare ${f0(a.bare.rps)}`, f2(a.rpsRatio)]);
    rows.push([`API ${a.driver}: get_user_info p99 ms`, f1(a.userInfo.p99Ms), `bare ${f1(a.bare.p99Ms)}`, f2(a.p99Ratio)]);
  }
  if (pglite && postgres) rows.push(['API get_user_info req/s PGlite', f0(pglite.userInfo.rps), `PostgreSQL ${f0(postgres.userInfo.rps)}`, f2(results.api.pgliteVsPostgresRps!)]);
  const b = results.bundle;
  if (b) {
    rows.push(['JS /login KB gz', f1(b.login.jsGzipKB), `target ${LOGIN_TARGET_KB}`, f2(b.loginVsTarget)]);
    rows.push(['JS /login KB gz', f1(b.login.jsGzipKB), `antd login form ${ANTD_LOGIN_FORM_KB}`, f2(b.loginVsAntdLoginForm)]);
    rows.push(['JS /index KB gz (cumulative)', f1(b.index.cumulativeJsGzipKB), `/login ${f1(b.login.jsGzipKB)}`, f2(b.index.cumulativeJsGzipKB / b.login.jsGzipKB)]);
    rows.push(['JS /index KB gz (increment)', f1(b.index.incrementJsGzipKB), '', '']);
  }
  const l = results.lighthouse;
  if (l) {
    rows.push(['Lighthouse /login performance', String(l.login.score), `trivial ${l.baseline.score}`, f2(l.ratios.score)]);
    rows.push(['Lighthouse /login FCP ms', f0(l.login.fcpMs), `trivial ${f0(l.baseline.fcpMs)}`, f2(l.ratios.fcp)]);
    rows.push(['Lighthouse /login LCP ms', f0(l.login.lcpMs), `trivial ${f0(l.baseline.lcpMs)}`, f2(l.ratios.lcp)]);
    rows.push(['Lighthouse /login TBT ms', f0(l.login.tbtMs), `trivial ${f0(l.baseline.tbtMs)}`, f2(l.ratios.tbt)]);
  }
  if (results.sync) rows.push(...syncRows(results.sync));
  for (const d of [results.report?.postgres, results.report?.pglite]) if (d) rows.push(...reportRows(d));
  if (results.orders) {
    const { cohort: c, ingest: i } = results.orders;
    rows.push(['Cohort ROI by campaign: p95 ms', f0(c.endpoint.p95Ms), `raw GROUP BY ${f0(c.baseline.p95Ms)}`, f2(c.p95Ratio)]);
    rows.push(['Cohort ROI by campaign: p50 ms', f0(c.endpoint.p50Ms), `raw GROUP BY ${f0(c.baseline.p50Ms)}`, f2(c.p50Ratio)]);
    rows.push(['Webhook orders/s', f0(i.ordersPerS), `aim ${AIM_ORDERS_PER_S}`, f2(i.ordersPerS / AIM_ORDERS_PER_S)]);
    rows.push(['Webhook requests/s', f1(i.batches / i.seconds), `bare ${f0(i.bare.rps)}`, f2(i.requestRatio)]);
  }
  for (const d of [results.rules?.postgres, results.rules?.pglite]) {
    if (!d) continue;
    rows.push([`Rules ${d.driver}: tick ms (${d.ads / 1000}k ads)`, f0(d.tick.ms), `dry runs ${f0(d.dryRunMs)}`, f2(d.tickVsDryRun)]);
    rows.push([`Rules ${d.driver}: tick ms`, f0(d.tick.ms), `raw GROUP BY ${f0(d.rawGroupByMs)}`, f1(d.tickVsRawGroupBy)]);
    rows.push([`Rules ${d.driver}: acts/s`, f1(d.actsPerS), `bare updates ${f1(d.bareUpdatesPerS)}`, f2(d.actsVsBare)]);
  }
  const pub = results.publish;
  if (pub) {
    rows.push([`Publish ${pub.ads} ads: wall s`, f1(pub.wallMs / 1000), `rate-limit floor ${f1(pub.floorMs / 1000)}`, f2(pub.floorRatio)]);
    rows.push(['Publish: Graph calls per ad', f2(pub.callsPerAd), `${pub.calls.graphCalls} calls`, '']);
    rows.push(['Publish: server RSS after MB', f0(pub.rss.afterMB), `before ${f0(pub.rss.beforeMB)}`, f2(pub.rss.afterMB / pub.rss.beforeMB)]);
    rows.push(['Publish: duplicates after kill -9', String(pub.kill.duplicates), `${pub.kill.adsBeforeKill}/${pub.kill.ads} ads before the kill`, '']);
  }
  for (const r of results.upload?.runs ?? []) {
    const mib = f0(r.bytes / 1024 / 1024);
    rows.push([`Upload ${mib} MiB: tus MB/s`, f0(r.uploadMBps), `disk write ${f0(r.diskMBps)}`, f2(r.ratio)]);
    rows.push([`Upload ${mib} MiB: server RSS peak MB`, f0(r.rssPeakMB), `before ${f0(r.rssBeforeMB)}`, f2(r.rssPeakMB / r.rssBeforeMB)]);
  }
  const loadAfter = results.meta.loadAverageAfter as number;
  log(`\n▸ Summary (${elapsed()}; load average ${f1(loadBefore)} → ${f1(loadAfter)} on ${os.cpus().length} CPUs; results in ${path.relative(ROOT, file)})`);
  printTable(['figure', 'value', 'baseline', 'ratio'], rows);
  if (errors.length) {
    log('\nProblems:');
    for (const e of errors) log(`  - ${e}`);
    if (Math.max(loadBefore, loadAfter) > os.cpus().length) log(`  (the load average was ${f1(Math.max(loadBefore, loadAfter))} on ${os.cpus().length} CPUs: other work competed for the CPUs; rerun when the machine is quieter)`);
    process.exitCode = 1;
  }
}

try {
  await main();
} catch (err) {
  console.error(`\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
