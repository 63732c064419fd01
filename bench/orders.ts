// The orders section (issue 9 "Benchmark"), on the PostgreSQL company of the report section:
// 10 million orders generated in SQL (orders-data.ts) with their cohort facts, then, through the
// real server, cohort ROI by campaign over 30 days requested by 20 signed-in users beside a raw
// GROUP BY of the same rows, and the order webhook taking signed batches of 100 new orders from
// the company's sites beside a bare route of the same server. See README.md "Orders".
import { randomBytes } from 'node:crypto';
import autocannon, { type Result } from 'autocannon';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../apps/server/src/db/database.ts';
import type { ReportScope } from '../apps/server/src/features/ad-data/ad-reports.repository.ts';
import { reportScope } from '../apps/server/src/features/ad-data/ad-reports.service.ts';
import { signatureHeader } from '../apps/server/src/features/orders/signature.ts';
import { addDays } from '../apps/server/src/lib/tz.ts';
import { onCleanup } from './cleanup.ts';
import { SITES, generateOrders, generateSites, rebuildCohorts, sitesOf, type OrdersFigures, type SiteSecret } from './orders-data.ts';
import type { BenchDatabase } from './postgres.ts';
import { ADS_PER_ACCOUNT, ADS_PER_ADSET, ADSETS_PER_CAMPAIGN, analyze, withoutIndexes, type CompanyLayout } from './report-data.ts';
import { drainChangeLogs, loadUsersOf, RANGE_DAYS, REPORT_SECONDS, SCREEN_COLUMNS, serverEnv, type CompanyFigures } from './report.ts';
import { apiLogin, assertLoopback, startServer, type RunningServer } from './server.ts';
import { loadAsUsers, loadDirect, type Latencies, type LoadUser, type UserLoadFigures } from './user-load.ts';

const envInt = (name: string, def: number, min: number, max: number) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? def : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
};

/** Orders generated (issue 9: 10 million). */
export const ORDERS = envInt('BENCH_ORDERS', 10_000_000, 1000, 100_000_000);
/** BENCH_ORDER_EVENTS=1: order_events filled too (one row per event, as the webhook stores them). */
export const WITH_EVENTS = process.env.BENCH_ORDER_EVENTS === '1';
/** Webhook load: events per signed batch, connections (the sites' senders), measured seconds. */
export const BATCH = envInt('BENCH_INGEST_BATCH', 100, 1, 500);
export const INGEST_CONNECTIONS = envInt('BENCH_INGEST_CONNECTIONS', 16, 1, 256);
export const INGEST_SECONDS = envInt('BENCH_INGEST_SECONDS', 10, 1, 120);
/** Aims of issue 9. */
export const AIM_ORDERS_PER_S = 5000;
export const AIM_COHORT_P95_MS = 500;
/** Cohort ROI sorts the campaigns by this cohort metric. */
export const COHORT_SORT = 'd0_roi';

export interface IngestFigures {
  batch: number;
  connections: number;
  seconds: number;
  batches: number;
  acceptedEvents: number;
  duplicates: number;
  ordersPerS: number;
  batchP50Ms: number;
  batchP95Ms: number;
  /** GET /api/health/live with the same connections: the server's request pipeline alone. */
  bare: { rps: number; p50Ms: number; p95Ms: number };
  /** Webhook requests/s ÷ bare requests/s. */
  requestRatio: number;
  failures: { non2xx: number; mismatches: number; errors: number; timeouts: number; otherStatus: Record<string, number> };
  /** Orders the database gained, checked against the accepted paid events. */
  storedOrders: number;
  valid: boolean;
}

export interface OrdersSectionFigures {
  data: OrdersFigures;
  serverStartMs: number;
  cohort: { endpoint: UserLoadFigures; baseline: Latencies & { byKind: Record<string, Latencies> }; p50Ratio: number; p95Ratio: number; aimMet: boolean; users: Record<string, number>; range: { from: string; to: string } };
  ingest: IngestFigures;
  problems: string[];
}

/** Generates the orders on the company's database (one connection: session settings hold). */
export async function prepareOrders(db: Db, layout: CompanyLayout, log: (line: string) => void): Promise<{ data: OrdersFigures; sites: SiteSecret[] }> {
  const started = performance.now();
  let sites: SiteSecret[] = [];
  let data: Omit<OrdersFigures, 'generateMs' | 'sites'> | undefined;
  await db.connection().execute(async (conn) => {
    sites = await generateSites(conn);
    await withoutIndexes(conn, ['order_buyers', 'orders', 'order_refunds', 'order_events'], async () => {
      data = await generateOrders(conn, layout, ORDERS, log, WITH_EVENTS);
    }, log);
    const cohortStarted = performance.now();
    data!.adOrderDaily = await rebuildCohorts(conn);
    log(`    ad_order_daily: ${data!.adOrderDaily.toLocaleString('en-US')} rows by 0012_cohorts' backfill (${((performance.now() - cohortStarted) / 1000).toFixed(0)} s)`);
    await analyze(conn, ['order_buyers', 'orders', 'order_refunds', 'order_events', 'ad_order_daily', 'campaign_order_daily', 'sites']);
  });
  return { data: { ...data!, sites: SITES, generateMs: performance.now() - started }, sites };
}

/** The baseline of cohort ROI: spend and D0 revenue per campaign, straight from ad_stats_daily and ad_order_daily ⋈ ads, with the user's scope. */
function rawCohortGroupBy(scope: ReportScope, from: string, to: string) {
  const where = (a: string) =>
    scope.adAccountIds === null && scope.userIds === null
      ? sql`true`
      : sql`(${scope.adAccountIds?.length ? sql`${sql.ref(`${a}.ad_account_id`)} in (${sql.join(scope.adAccountIds)})` : sql`false`} or ${scope.userIds?.length ? sql`${sql.ref(`${a}.owner_user_id`)} in (${sql.join(scope.userIds)})` : sql`false`})`;
  return sql`select k, sum(spend)::bigint as spend, sum(d0)::bigint as d0, sum(d7)::bigint as d7, sum(revenue)::bigint as revenue from (
      select f.campaign_id as k, f.spend_usd_cents as spend, 0 as d0, 0 as d7, 0 as revenue from ad_stats_daily f where f.day >= ${from} and f.day <= ${to} and ${where('f')}
      union all
      select o.campaign_id, 0, d.cohort_d0_usd_cents, d.cohort_d7_usd_cents, d.revenue_usd_cents from ad_order_daily d join ads o on o.platform_id = d.ad_platform_id
      where d.day >= ${from} and d.day <= ${to} and ${where('o')}
    ) x group by k`;
}

/** One batch of new orders for a site: buyers new to it, landing through one of its ads' links (the template filled in). */
function batchBody(site: SiteSecret, siteAds: number[], run: string, conn: number, seq: number): string {
  const now = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 19) + '+08:00';
  const events = [];
  for (let i = 0; i < BATCH; i++) {
    const ad = siteAds[(seq * BATCH + i) % siteAds.length]!;
    const campaign = 120200000000000 + Math.floor((ad - 1) / (ADS_PER_ADSET * ADSETS_PER_CAMPAIGN)) + 1;
    const adset = 120210000000000 + Math.floor((ad - 1) / ADS_PER_ADSET) + 1;
    const landing = site.linkTemplate
      .replace('{drama_id}', `D${ad % 40}`)
      .replace('{episode}', '1')
      .replace('{product_id}', `P${ad % 20}`)
      .replace('{campaign_id}', String(campaign))
      .replace('{adset_id}', String(adset))
      .replace('{ad_id}', String(120220000000000 + ad));
    events.push({
      event: 'order.paid',
      order_no: `W${run}-${conn}-${seq}-${i}`,
      amount: ['1.99', '4.99', '9.99', '19.99'][i % 4],
      currency: 'USD',
      paid_at: now,
      app_user_id: `w${run}-${conn}-${seq}-${i}`,
      user_registered_at: now,
      country: 'US',
      landing_url: landing,
    });
  }
  return JSON.stringify({ events });
}

/** Signed batches of BATCH new orders from every site at once, then GET /api/health/live with as many connections. */
export async function measureIngest(server: RunningServer, db: Db, sites: SiteSecret[], layout: CompanyLayout): Promise<IngestFigures> {
  const run = randomBytes(3).toString('hex');
  // Ads of each site (their account sends buyers there, as in the generated orders).
  const adsOf = new Map<number, number[]>();
  for (let ad = 1; ad <= layout.ads; ad += 7) {
    const account = Math.floor((ad - 1) / ADS_PER_ACCOUNT) + 1;
    const site = account % 5 === 0 ? SITES - 1 + ((account - 1) % 2) : 1 + ((account - 1) % (SITES - 2));
    (adsOf.get(site) ?? adsOf.set(site, []).get(site)!).push(ad);
  }
  const before = Number((await sql<{ n: number }>`select count(*)::bigint as n from orders`.execute(db)).rows[0]!.n);

  const load = async (seconds: number, record: boolean) => {
    let next = 0;
    const times: number[] = [];
    let accepted = 0;
    let duplicates = 0;
    let batches = 0;
    const otherStatus: Record<string, number> = {};
    const url = `${server.baseUrl}/api/orders/webhook/1`;
    assertLoopback(url);
    const instance = autocannon({
      url,
      connections: INGEST_CONNECTIONS,
      duration: seconds,
      timeout: 30,
      title: 'order webhook',
      verifyBody: (b) => b.startsWith('{"code":0,'),
      setupClient: (client) => {
        const conn = next++;
        const site = sites[conn % sites.length]!;
        let seq = 0;
        // Each connection is one site's sender; every request a fresh batch, signed now.
        (client as unknown as { setRequests(r: unknown[]): void }).setRequests([
          {
            method: 'POST',
            path: `/api/orders/webhook/${site.id}`,
            setupRequest: (req: Record<string, unknown>) => {
              const body = batchBody(site, adsOf.get(site.id) ?? [1], `${run}${record ? 'm' : 'w'}`, conn, seq++);
              const raw = Buffer.from(body);
              return { ...req, body, headers: { 'content-type': 'application/json; charset=utf-8', 'x-signature': signatureHeader(site.secret, Math.floor(Date.now() / 1000), raw) } };
            },
            onResponse: (status: number, body: string) => {
              if (status !== 200) {
                otherStatus[status] = (otherStatus[status] ?? 0) + 1;
                return;
              }
              const data = (JSON.parse(body) as { data?: { accepted?: number; duplicates?: number } }).data;
              accepted += data?.accepted ?? 0;
              duplicates += data?.duplicates ?? 0;
              batches += 1;
            },
          },
        ]);
      },
    });
    instance.on('response', (_c, _s, _b, ms) => times.push(ms));
    const handle = onCleanup('autocannon order webhook', async () => instance.stop());
    try {
      const r: Result = await instance;
      return { r, times, accepted, duplicates, batches, otherStatus };
    } finally {
      handle.forget();
    }
  };
  await load(2, false);
  const warmAccepted = Number((await sql<{ n: number }>`select count(*)::bigint as n from orders`.execute(db)).rows[0]!.n) - before;
  const m = await load(INGEST_SECONDS, true);
  const after = Number((await sql<{ n: number }>`select count(*)::bigint as n from orders`.execute(db)).rows[0]!.n);
  const took = m.r.duration || INGEST_SECONDS;
  const sorted = [...m.times].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;

  // The bare route with the same connections, same duration.
  const bareUrl = `${server.baseUrl}/api/health/live`;
  const bareTimes: number[] = [];
  const bareInstance = autocannon({ url: bareUrl, connections: INGEST_CONNECTIONS, duration: INGEST_SECONDS, timeout: 10, title: 'bare' });
  bareInstance.on('response', (_c, _s, _b, ms) => bareTimes.push(ms));
  const bare: Result = await bareInstance;
  bareTimes.sort((a, b) => a - b);
  const bq = (p: number) => bareTimes[Math.min(bareTimes.length - 1, Math.max(0, Math.ceil(p * bareTimes.length) - 1))] ?? NaN;

  const failures = { non2xx: m.r.non2xx, mismatches: m.r.mismatches, errors: m.r.errors, timeouts: m.r.timeouts, otherStatus: m.otherStatus };
  const storedOrders = after - before - warmAccepted;
  return {
    batch: BATCH,
    connections: INGEST_CONNECTIONS,
    seconds: took,
    batches: m.batches,
    acceptedEvents: m.accepted,
    duplicates: m.duplicates,
    ordersPerS: m.accepted / took,
    batchP50Ms: q(0.5),
    batchP95Ms: q(0.95),
    bare: { rps: bare.requests.total / (bare.duration || INGEST_SECONDS), p50Ms: bq(0.5), p95Ms: bq(0.95) },
    requestRatio: m.batches / took / (bare.requests.total / (bare.duration || INGEST_SECONDS)),
    failures,
    storedOrders,
    valid: m.r.non2xx + m.r.mismatches + m.r.errors + m.r.timeouts === 0 && m.duplicates === 0 && m.accepted > 0 && storedOrders >= m.accepted,
  };
}

/** The orders section on a company prepared by preparePostgresCompany. */
export async function measureOrders(bench: BenchDatabase, company: CompanyFigures, log: (line: string) => void): Promise<OrdersSectionFigures> {
  const database = await openDatabase({ databaseUrl: bench.url });
  let prepared: Awaited<ReturnType<typeof prepareOrders>>;
  try {
    log(`  ${ORDERS.toLocaleString('en-US')} orders generated in SQL on ${bench.name}…`);
    prepared = await prepareOrders(database.db, company.layout, log);
  } finally {
    await database.close();
  }
  const { data } = prepared;
  log(`  ${data.orders.toLocaleString('en-US')} orders of ${data.buyers.toLocaleString('en-US')} buyers on ${data.sites} sites, ${data.refunds.toLocaleString('en-US')} refunds, ${data.events.toLocaleString('en-US')} events, ${data.adOrderDaily.toLocaleString('en-US')} ad-day cohort rows in ${(data.generateMs / 1000).toFixed(0)} s`);
  return measureOrderLoads(bench, company, data, log);
}

/** Cohort ROI and the webhook on a database whose orders are generated (the sites' secrets read back from it). */
export async function measureOrderLoads(bench: BenchDatabase, company: CompanyFigures, data: OrdersFigures, log: (line: string) => void): Promise<OrdersSectionFigures> {
  const { layout } = company;
  const problems: string[] = [];
  const database = await openDatabase({ databaseUrl: bench.url });
  try {
    const sites = await sitesOf(database.db);
    await drainChangeLogs(database.db, log);

    const users = loadUsersOf(layout);
    const range = { from: addDays(layout.lastDay, -(RANGE_DAYS - 1)), to: layout.lastDay };
    const scopes: ReportScope[] = [];
    for (const u of users) {
      const row = await database.db.selectFrom('users').select(['id', 'is_admin', 'is_leader', 'department_id']).where('account', '=', u.account).executeTakeFirstOrThrow();
      scopes.push(await reportScope(database.db, row));
    }
    const baseline = await loadDirect(users.length, REPORT_SECONDS, (i) => rawCohortGroupBy(scopes[i]!, range.from, range.to).execute(database.db), (i) => users[i]!.role);

    const server = await startServer('PostgreSQL orders', bench.url, { managerPassword: layout.password, env: serverEnv() });
    try {
      log(`  server healthy after ${(server.startMs / 1000).toFixed(1)} s; cohort ROI by campaign (sorted by ${COHORT_SORT}), ${users.length} users, ${REPORT_SECONDS} s…`);
      const tokens: LoadUser[] = [];
      for (const u of users) tokens.push({ token: await apiLogin(server, u.account, layout.password), kind: u.role });
      // As 广告数据 asks for it: its default columns (the server sums only their facts).
      const body = { level: 'campaign', date_from: range.from, date_to: range.to, page: 1, page_size: 20, sort_field: COHORT_SORT, sort_order: 'descend', columns: SCREEN_COLUMNS };
      const endpoint = await loadAsUsers(server.baseUrl, '/api/ad-reports/list', body, tokens, REPORT_SECONDS, 'cohort ROI by campaign');
      if (!endpoint.valid) problems.push(`orders cohort ROI: failing requests (non2xx ${endpoint.non2xx}, not code 0 ${endpoint.mismatches}, errors ${endpoint.errors}, timeouts ${endpoint.timeouts})`);
      const counts = users.reduce<Record<string, number>>((m, u) => ({ ...m, [u.role]: (m[u.role] ?? 0) + 1 }), {});
      const cohort = { endpoint, baseline, p50Ratio: endpoint.p50Ms / baseline.p50Ms, p95Ratio: endpoint.p95Ms / baseline.p95Ms, aimMet: endpoint.p95Ms <= AIM_COHORT_P95_MS, users: counts, range };

      log(`  order webhook: signed batches of ${BATCH} new orders, ${INGEST_CONNECTIONS} connections over ${sites.length} sites, ${INGEST_SECONDS} s; then the bare route…`);
      const ingest = await measureIngest(server, database.db, sites, layout);
      if (!ingest.valid) {
        problems.push(
          `orders webhook: failing or lost batches (non2xx ${ingest.failures.non2xx}, not code 0 ${ingest.failures.mismatches}, errors ${ingest.failures.errors}, timeouts ${ingest.failures.timeouts}, ` +
            `duplicates ${ingest.duplicates}, statuses ${JSON.stringify(ingest.failures.otherStatus)}; stored ${ingest.storedOrders} orders for ${ingest.acceptedEvents} accepted)`,
        );
      }
      return { data, serverStartMs: server.startMs, cohort, ingest, problems };
    } finally {
      await server.stop();
    }
  } finally {
    await database.close();
  }
}

/** On a database kept by an earlier run (BENCH_REUSE_DB): its orders as they are, generated first if it has none. */
export async function measureOrdersAgain(bench: BenchDatabase, company: CompanyFigures, log: (line: string) => void): Promise<OrdersSectionFigures> {
  const database = await openDatabase({ databaseUrl: bench.url });
  let data: OrdersFigures;
  try {
    const count = async (t: string) => Number((await sql<{ n: number }>`select count(*)::bigint as n from ${sql.table(t)}`.execute(database.db)).rows[0]!.n);
    const orders = await count('orders');
    if (!orders) return measureOrders(bench, company, log);
    data = { sites: (await sitesOf(database.db)).length, buyers: await count('order_buyers'), orders, refunds: await count('order_refunds'), events: await count('order_events'), adOrderDaily: await count('ad_order_daily'), generateMs: 0 };
    log(`  orders reused: ${orders.toLocaleString('en-US')} orders, ${data.adOrderDaily.toLocaleString('en-US')} ad-day cohort rows (the webhook load of earlier runs included)`);
  } finally {
    await database.close();
  }
  return measureOrderLoads(bench, company, data, log);
}
