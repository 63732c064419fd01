import { metricValue, type MetricKey } from '@ads/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0012 from '../../db/migrations/0012_cohorts.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createSite, createUser } from '../../test/factories.ts';
import { refreshCohortsJob } from './cohorts.job.ts';
import { drainAllCohorts } from './cohorts.ts';
import { ingestEvents, type IngestSite } from './ingest.ts';
import { parseOrderEvent } from './order-event.ts';

// Cohort ROI (issue 9) against cohorts computed by hand: facts kept by the order intake
// (ad_order_daily) and the ad reports' order columns at every level, with totals equal to the
// rows, the previous period, not-matured Dn, a refund, a buyer paying on days 0, 2 and 9, a
// currency other than USD, and an ad account in another time zone. The intake logs the (ad, day)
// pairs it changes and drainCohorts recomputes them (the reports drain their range themselves;
// reads of ad_order_daily here drain first). REPORT_TIMEZONE is
// Asia/Shanghai (UTC+8); "today" is 2026-11-20 there.

let t: TestApp;
let token: string;
let staffToken: string;
let site: IngestSite;
const ids = { acc1: 0, acc2: 0, c1: 0, c2: 0, s1: 0, s2: 0, a1: 0, a2: 0 };
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';
// Platform ids (digits, as the link template reads them): campaign 9x01, ad set 9x02, ad 9x03.
const A1 = '9103';
const A2 = '9203';
const land = (ad: 'A1' | 'A2') => (ad === 'A1' ? 'https://drama.example.com/play/D1?c=9101&s=9102&a=9103' : 'https://drama.example.com/play/D1?c=9201&s=9202&a=9203');

let n = 0;
async function ingest(...events: Record<string, unknown>[]) {
  return ingestAt(site, ...events);
}

async function ingestAt(site: IngestSite, ...events: Record<string, unknown>[]) {
  const items = events.map((raw, i) => {
    const full = { event: 'order.paid', order_no: `O-${++n}`, currency: 'USD', ...raw };
    const r = parseOrderEvent(full, { lang: 'en' });
    if (!r.event) throw new Error(JSON.stringify(r.errors));
    return { event: r.event, raw: r.raw, field: `events.${i}` };
  });
  const res = await t.db.transaction().execute((trx) => ingestEvents(trx, { site, reportTimezone: 'Asia/Shanghai', now: new Date('2026-11-20T04:00:00Z'), source: 'webhook', lang: 'en' }, items));
  expect(res.conflicts).toEqual([]);
}

/** 8:00 in Shanghai on a day (00:00 UTC). */
const at = (day: string, hourUtc = 0) => `${day}T${String(hourUtc).padStart(2, '0')}:00:00Z`;

async function stats(adId: number, day: string, spendCents: number) {
  const ad = await t.db.selectFrom('ads').select(['ad_account_id', 'campaign_id', 'adset_id', 'owner_user_id']).where('id', '=', adId).executeTakeFirstOrThrow();
  await sql`insert into ad_stats_daily (ad_id, day, ad_account_id, campaign_id, adset_id, owner_user_id, platform, currency, spend_usd_cents, impressions)
    values (${adId}, ${day}, ${ad.ad_account_id}, ${ad.campaign_id}, ${ad.adset_id}, ${ad.owner_user_id}, 'dj', 'USD', ${spendCents}, 1000)`.execute(t.db);
  await sql`insert into campaign_stats_daily (campaign_id, day, ad_account_id, owner_user_id, platform, currency, spend_usd_cents, impressions)
    values (${ad.campaign_id}, ${day}, ${ad.ad_account_id}, ${ad.owner_user_id}, 'dj', 'USD', ${spendCents}, 1000)
    on conflict (campaign_id, day) do update set spend_usd_cents = campaign_stats_daily.spend_usd_cents + excluded.spend_usd_cents, impressions = campaign_stats_daily.impressions + excluded.impressions`.execute(t.db);
}

async function mirror(acc: number, tag: '1' | '2', owner: number) {
  const now = new Date();
  const c = await sql<{ id: number }>`insert into ad_campaigns (platform_id, ad_account_id, name, status, effective_status, currency, synced_at, platform, owner_user_id)
    values (${`9${tag}01`}, ${acc}, ${`Campaign ${tag}`}, 'ACTIVE', 'ACTIVE', 'USD', ${now}, 'dj', ${owner}) returning id`.execute(t.db);
  const s = await sql<{ id: number }>`insert into ad_sets (platform_id, ad_account_id, campaign_id, name, status, effective_status, currency, synced_at, owner_user_id)
    values (${`9${tag}02`}, ${acc}, ${c.rows[0]!.id}, ${`Set ${tag}`}, 'ACTIVE', 'ACTIVE', 'USD', ${now}, ${owner}) returning id`.execute(t.db);
  const a = await sql<{ id: number }>`insert into ads (platform_id, ad_account_id, campaign_id, adset_id, name, status, effective_status, synced_at, owner_user_id)
    values (${`9${tag}03`}, ${acc}, ${c.rows[0]!.id}, ${s.rows[0]!.id}, ${`Ad ${tag}`}, 'ACTIVE', 'ACTIVE', ${now}, ${owner}) returning id`.execute(t.db);
  return { c: c.rows[0]!.id, s: s.rows[0]!.id, a: a.rows[0]!.id };
}

const report = (body: Record<string, unknown>, tok = token) => t.call('/api/ad-reports/list', { page_size: 100, status: 'all', ...body }, { token: tok, lang: 'en' });

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set('2026-11-20T04:00:00Z'); // 12:00 on 2026-11-20 in Shanghai
  const manager = await createUser(t.db, { is_admin: 1 });
  const staff = await createUser(t.db, { paths: ['/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group'] });
  token = await t.login(manager.account, manager.password);
  staffToken = await t.login(staff.account, staff.password);
  // Account 1: USD, Los Angeles. Account 2: EUR, Berlin (another zone and currency); the staff member sees account 1 only.
  ids.acc1 = (await createAdAccount(t.db, { currency: 'USD', users: [staff.id] })).id;
  ids.acc2 = (await createAdAccount(t.db, { currency: 'EUR' })).id;
  await t.db.updateTable('ad_accounts').set({ timezone_name: 'Europe/Berlin', timezone_offset_hours: 1 }).where('id', '=', ids.acc2).execute();
  const m1 = await mirror(ids.acc1, '1', manager.id);
  const m2 = await mirror(ids.acc2, '2', manager.id);
  Object.assign(ids, { c1: m1.c, s1: m1.s, a1: m1.a, c2: m2.c, s2: m2.s, a2: m2.a });
  // 0.8 EUR per USD from October: 8.00 EUR = 10.00 USD.
  await t.db.insertInto('fx_rates').values({ currency: 'EUR', day: '2026-10-01', units_per_usd: 0.8 }).execute();
  const row = await createSite(t.db);
  site = { id: row.id, link_template: TEMPLATE };
  await t.db.updateTable('sites').set({ link_template: TEMPLATE }).where('id', '=', site.id).execute();

  await stats(ids.a1, '2026-11-01', 10_000);
  await stats(ids.a1, '2026-11-02', 5_000);
  await stats(ids.a2, '2026-11-01', 20_000);
  await stats(ids.a1, '2026-11-18', 1_000);
  await stats(ids.a1, '2026-11-19', 2_000);

  // u1 (A1) pays on days 0, 2 and 9 of the 11-01 cohort.
  await ingest({ app_user_id: 'u1', amount: '10.00', paid_at: at('2026-11-01'), landing_url: land('A1') });
  await ingest({ app_user_id: 'u1', amount: '5.00', paid_at: at('2026-11-03'), landing_url: land('A1') }, { app_user_id: 'u1', amount: '20.00', paid_at: at('2026-11-10') });
  // u2 (A1) pays 30 on 11-01; 12 is refunded on 11-02 (day 1).
  await ingest({ order_no: 'R-1', app_user_id: 'u2', amount: '30.00', paid_at: at('2026-11-01', 3), landing_url: land('A1') });
  await ingest({ event: 'order.refunded', order_no: 'R-1', app_user_id: 'u2', amount: '12.00', paid_at: at('2026-11-01', 3), refunded_at: at('2026-11-02', 5) });
  // u3 (A2, EUR): 8.00 EUR at 2026-10-31T17:00Z: 11-01 in Shanghai, still 10-31 in Berlin and Los Angeles.
  await ingest({ app_user_id: 'u3', amount: '8.00', currency: 'EUR', paid_at: '2026-10-31T17:00:00Z', landing_url: land('A2') });
  // u4 (A1) acquired 11-02; u6 (A1) acquired 11-19 (its D1 is not matured on 11-20); u5 organic.
  await ingest({ app_user_id: 'u4', amount: '7.00', paid_at: at('2026-11-02'), landing_url: land('A1') });
  await ingest({ app_user_id: 'u6', amount: '4.00', paid_at: at('2026-11-19'), landing_url: land('A1') });
  await ingest({ app_user_id: 'u5', amount: '50.00', paid_at: at('2026-11-01'), landing_url: 'https://drama.example.com/play/D1' });
});
afterAll(() => t.close());

/** The cohort log drained (what the refresh-order-cohorts job and the service's trigger do). */
const drain = () => drainAllCohorts(t.db);

describe('cohort facts kept by the order intake', () => {
  it('holds each (ad, day) cohort as computed by hand', async () => {
    // Logged by the intakes, not computed yet: cohort days, payment days and the refund day.
    const logged = await sql<{ p: string }>`select distinct ad_platform_id || '|' || day::text as p from ad_order_dirty order by 1`.execute(t.db);
    expect(logged.rows.map((r) => r.p)).toEqual(
      [`${A1}|2026-11-01`, `${A1}|2026-11-02`, `${A1}|2026-11-03`, `${A1}|2026-11-10`, `${A1}|2026-11-19`, `${A2}|2026-11-01`].sort(),
    );
    expect(await t.db.selectFrom('ad_order_daily').select('day').execute()).toEqual([]);
    expect((await drain()).pairs).toBe(6);
    expect(await t.db.selectFrom('ad_order_dirty').select('id').execute()).toEqual([]);
    const rows = await t.db.selectFrom('ad_order_daily').selectAll().orderBy('ad_platform_id').orderBy('day').execute();
    const pick = (ad: string, day: string) => rows.find((r) => r.ad_platform_id === ad && String(r.day).slice(0, 10) === day);
    // A1, 11-01: u1 (10 + 5 on day 2 + 20 on day 9) and u2 (30, 12 refunded on day 1).
    expect(pick(A1, '2026-11-01')).toMatchObject({ new_payers: 2, payers: 2, cohort_d0_usd_cents: 4000, cohort_d1_usd_cents: 2800, cohort_d3_usd_cents: 3300, cohort_d7_usd_cents: 3300, cohort_d14_usd_cents: 5300, cohort_d30_usd_cents: 5300 });
    expect(Number(pick(A1, '2026-11-01')!.revenue_usd_cents)).toBe(4000);
    // 11-02: u4's 7.00 and u2's refund of 12.00 by payment day; the cohort of 11-02 is u4 alone.
    expect(pick(A1, '2026-11-02')).toMatchObject({ new_payers: 1, payers: 1 });
    expect(Number(pick(A1, '2026-11-02')!.revenue_usd_cents)).toBe(700 - 1200);
    expect(Number(pick(A1, '2026-11-02')!.cohort_d0_usd_cents)).toBe(700);
    // Payment days of the 11-01 cohort carry revenue but no new payers.
    expect(pick(A1, '2026-11-03')).toMatchObject({ new_payers: 0, payers: 1 });
    expect(Number(pick(A1, '2026-11-10')!.revenue_usd_cents)).toBe(2000);
    // EUR at 0.8 per USD, on the report day (Shanghai), not the account's.
    expect(pick(A2, '2026-10-31')).toBeUndefined();
    expect(pick(A2, '2026-11-01')).toMatchObject({ new_payers: 1 });
    expect(Number(pick(A2, '2026-11-01')!.cohort_d30_usd_cents)).toBe(1000);
    // Organic orders have no row.
    expect(rows.every((r) => r.ad_platform_id === A1 || r.ad_platform_id === A2)).toBe(true);
  });

  it('is drained by the refresh-order-cohorts job, which then has nothing left to do', async () => {
    await ingest({ app_user_id: 'u9', amount: '6.00', paid_at: at('2026-10-10'), landing_url: land('A2') });
    const signal = new AbortController().signal;
    const run = await refreshCohortsJob.run({ db: t.db, signal } as never);
    expect(run).toMatchObject({ status: 'success', summary: { pairs: 1 } });
    expect(await t.db.selectFrom('ad_order_dirty').select('id').execute()).toEqual([]);
    const row = await t.db.selectFrom('ad_order_daily').selectAll().where('ad_platform_id', '=', A2).where('day', '=', '2026-10-10').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ new_payers: 1, payers: 1 });
    expect(Number(row.cohort_d0_usd_cents)).toBe(600);
    expect((await refreshCohortsJob.run({ db: t.db, signal } as never)).status).toBe('skipped');
  });

  it('moves a cohort when an earlier order of the buyer arrives late', async () => {
    // u7 first seen on 11-05 through A2; an earlier order on 11-04 through A1 arrives afterwards.
    await ingest({ app_user_id: 'u7', amount: '3.00', paid_at: at('2026-11-05'), landing_url: land('A2') });
    await drain();
    expect(await t.db.selectFrom('ad_order_daily').select('new_payers').where('ad_platform_id', '=', A2).where('day', '=', '2026-11-05').executeTakeFirst()).toMatchObject({ new_payers: 1 });
    await ingest({ app_user_id: 'u7', amount: '2.00', paid_at: at('2026-11-04'), landing_url: land('A1') });
    await drain();
    const a2 = await t.db.selectFrom('ad_order_daily').selectAll().where('ad_platform_id', '=', A2).where('day', '=', '2026-11-05').executeTakeFirst();
    const a1 = await t.db.selectFrom('ad_order_daily').selectAll().where('ad_platform_id', '=', A1).where('day', '=', '2026-11-04').executeTakeFirstOrThrow();
    expect(a2?.new_payers ?? 0).toBe(0);
    expect(a1).toMatchObject({ new_payers: 1 });
    expect(Number(a1.cohort_d1_usd_cents)).toBe(500);
  });

  it('counts the orders of one ad that two sites store at the same time (neither waits, neither fails)', async () => {
    // Intakes lock their own orders and buyers only; both sites' orders land on (A1, 11-15), which each logs.
    const other = await createSite(t.db);
    const second: IngestSite = { id: other.id, link_template: TEMPLATE };
    await t.db.updateTable('sites').set({ link_template: TEMPLATE }).where('id', '=', other.id).execute();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ingestAt(i % 2 ? second : site, { app_user_id: `c${i}`, amount: '1.00', paid_at: at('2026-11-15'), landing_url: land('A1') }, { app_user_id: `d${i}`, amount: '2.00', paid_at: at('2026-11-15', 1), landing_url: land('A1') }),
      ),
    );
    await drain();
    const row = await t.db.selectFrom('ad_order_daily').selectAll().where('ad_platform_id', '=', A1).where('day', '=', '2026-11-15').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ new_payers: 16, payers: 16 });
    expect(Number(row.revenue_usd_cents)).toBe(8 * 300);
  });
});

describe('the migration', () => {
  it('builds from orders stored before it exactly what the intake keeps', async () => {
    const snapshot = () => sql`select * from ad_order_daily order by ad_platform_id, day`.execute(t.db).then((r) => r.rows.map((row: any) => ({ ...row, updated_at: null })));
    await drain();
    const kept = await snapshot();
    expect(kept.length).toBeGreaterThan(5);
    await m0012.down(t.db as never);
    await m0012.up(t.db as never);
    expect(await snapshot()).toEqual(kept);
  });
});

describe('order metrics in the ad reports', () => {
  const levels = ['optimizer', 'account', 'campaign', 'adset', 'ad'] as const;
  const range = { date_from: '2026-11-01', date_to: '2026-11-02' };

  it('answers Dn ROI, revenue, ROI, new payers, CPA and ARPPU by hand at the ad level', async () => {
    const res = await report({ level: 'ad', ...range });
    expect(res.code).toBe(0);
    const a1 = res.data.list.find((r: any) => r.id === ids.a1).metrics;
    const a2 = res.data.list.find((r: any) => r.id === ids.a2).metrics;
    // A1: spend 100 + 50; cohorts 11-01 (D0 40.00, D1 28.00, D3 33.00, D14 53.00) and 11-02 (7.00 at every age).
    expect(a1.spend).toBe(150);
    expect(a1.d0_roi).toBeCloseTo((4700 / 15000) * 100, 9);
    expect(a1.d1_roi).toBeCloseTo((3500 / 15000) * 100, 9);
    expect(a1.d3_roi).toBeCloseTo((4000 / 15000) * 100, 9);
    expect(a1.d7_roi).toBeCloseTo((4000 / 15000) * 100, 9);
    expect(a1.d14_roi).toBeCloseTo((6000 / 15000) * 100, 9);
    // D30 of 11-01 ends on 12-01: not matured, never a number.
    expect(a1.d30_roi).toBeNull();
    expect(res.data.not_matured).toEqual(['d30_roi']);
    // Growth multiples over the same matured cohorts: D1 and D7 revenue ÷ D0 revenue.
    expect(a1.d1_d0).toBeCloseTo(3500 / 4700, 9);
    expect(a1.d3_d0).toBeCloseTo(4000 / 4700, 9);
    expect(a1.d7_d0).toBeCloseTo(4000 / 4700, 9);
    // Revenue by payment day in range: 40 on 11-01, 7 − 12 on 11-02.
    expect(a1.revenue).toBeCloseTo(35, 9);
    expect(a1.roi).toBeCloseTo((3500 / 15000) * 100, 9);
    expect(a1.new_payers).toBe(2 + 1);
    expect(a1.cpa).toBeCloseTo(50, 9);
    expect(a1.arppu).toBeCloseTo(35 / 3, 9);
    // A2: 200 spend, 8 EUR = 10 USD.
    expect(a2.d0_roi).toBeCloseTo(5, 9);
    expect(a2.new_payers).toBe(1);
  });

  it('gives the same totals at every level, equal to the sums of the rows, with the previous period', async () => {
    const keys: MetricKey[] = ['spend', 'revenue', 'new_payers', 'payers'];
    let first: Record<string, number | null> | null = null;
    for (const level of levels) {
      const res = await report({ level, ...range, compare: true });
      expect(res.code, level).toBe(0);
      const rows = res.data.list as { metrics: Record<string, number | null> }[];
      for (const k of keys) expect(res.data.totals[k], `${level} ${k}`).toBeCloseTo(rows.reduce((s, r) => s + (r.metrics[k] ?? 0), 0), 6);
      expect(res.data.totals.d0_roi, level).toBeCloseTo(((4700 + 1000) / 35000) * 100, 9);
      expect(res.data.totals.d30_roi, level).toBeNull();
      if (first) expect(res.data.totals, level).toEqual(first);
      first = res.data.totals;
      // Previous period 10-31: nothing at all (the EUR order is on 11-01 in the report zone).
      expect(res.data.previous_range).toEqual({ date_from: '2026-10-30', date_to: '2026-10-31' });
      expect(res.data.previous_totals.revenue).toBe(0);
      expect(res.data.previous_totals.d0_roi).toBeNull();
    }
    // A comparison that has data: 11-02 against 11-01.
    const res = await report({ level: 'campaign', date_from: '2026-11-02', date_to: '2026-11-02', compare: true });
    expect(res.data.totals.d0_roi).toBeCloseTo((700 / 5000) * 100, 9);
    expect(res.data.previous_totals.d0_roi).toBeCloseTo(((4000 + 1000) / 30000) * 100, 9);
    const c1 = res.data.list.find((r: any) => r.id === ids.c1);
    expect(c1.previous.d0_roi).toBeCloseTo((4000 / 10000) * 100, 9);
  });

  it('counts only matured days in a Dn and flags the ages with nothing matured', async () => {
    const res = await report({ level: 'campaign', date_from: '2026-11-18', date_to: '2026-11-19' });
    const c1 = res.data.list.find((r: any) => r.id === ids.c1).metrics;
    // D0: both days ended; u6's 4.00 over 30.00 of spend.
    expect(c1.d0_roi).toBeCloseTo((400 / 3000) * 100, 9);
    // D1: only 11-18 has ended its day 1 (nothing paid in that cohort): 0 over its 10.00.
    expect(c1.d1_roi).toBe(0);
    for (const k of ['d3_roi', 'd7_roi', 'd14_roi', 'd30_roi'] as const) expect(c1[k]).toBeNull();
    expect(res.data.not_matured).toEqual(['d3_roi', 'd7_roi', 'd14_roi', 'd30_roi', 'd3_d0', 'd7_d0']);
    // D1/D0 over 11-18 alone, whose cohort paid nothing: no base, no number.
    expect(c1.d1_d0).toBeNull();
    // Sorting by a cohort metric works (the SQL formula agrees with the registry's).
    const sorted = await report({ level: 'ad', ...range, sort_field: 'd0_roi', sort_order: 'descend' });
    expect(sorted.data.list.map((r: any) => r.id)).toEqual([ids.a1, ids.a2]);
  });

  it('keeps order metrics within the data scope', async () => {
    const res = await report({ level: 'ad', ...range }, staffToken);
    expect(res.code).toBe(0);
    expect(res.data.list.map((r: any) => r.id)).toEqual([ids.a1]);
    expect(res.data.totals.d0_roi).toBeCloseTo((4700 / 15000) * 100, 9);
    expect(res.data.totals.new_payers).toBe(3);
  });

  it('computes the registry figures from the same sums', () => {
    expect(metricValue('d0_roi', { cohort_d0_usd_cents: 500, matured_spend_d0_usd_cents: 1000 })).toBe(50);
    expect(metricValue('d7_roi', { cohort_d7_usd_cents: 500, matured_spend_d7_usd_cents: 0 })).toBeNull();
  });
});
