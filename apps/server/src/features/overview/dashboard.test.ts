import { dashboardSchema, type Dashboard, type DimReportResult } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { addStats, createWebhookSite, mirrorAd, sendOrders, type Mirror, type WebhookSite } from '../../test/delivery.ts';
import { createAdAccount, createDrama, createPersonalAccount, createScopeOrg, createUser } from '../../test/factories.ts';

// The delivery dashboard of /index (the caller's data scope) and /admin/index (the company):
// every figure equals the sum of the report rows it summarizes (the campaign report of 广告数据 and
// the report by dimension), for staff, a leader, a manager and the super admin; organic orders
// apart; alerts from real states (tokens, ad accounts, sync runs, sites' webhooks).
// The app clock is 2026-11-01 16:00 in Asia/Shanghai: today 11-01.

const TODAY = '2026-11-01';
const YDAY = '2026-10-31';
const FIRST = '2026-10-03'; // the trend's first day (30 days up to today)
const OUTSIDE = '2026-10-02';
const DAY = 24 * 3600_000;
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';
const REPORT_PATHS = ['/index', '/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group', '/auth/site'];

let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
let site: WebhookSite;
const ads: Record<string, Mirror> = {};
const ids = { d1: 0, d2: 0, acc1: 0, acc1b: 0, acc4: 0, silent: 0, failing: 0 };
let n = 0;
const at = (day: string, hh: string) => `${day}T${hh}:00:00+08:00`;
const paid = (over: Record<string, unknown>) => ({ event: 'order.paid', order_no: `DB-${++n}`, currency: 'USD', ...over });
const land = (m: Mirror, drama = 'D1') => `https://drama.example.com/play/${drama}?c=${m.campaign}&s=${m.adset}&a=${m.ad}`;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, REPORT_PATHS);
  for (const k of ['manager', 'leader', 's1', 's4'] as const) tokens[k] = await t.login(org[k].account, org[k].password);
  const admin = await createUser(t.db, { is_admin: 9 });
  tokens.admin = await t.login(admin.account, admin.password);
  const now = t.clock.now().getTime();

  site = await createWebhookSite(t, tokens.manager!, { name: 'Live site', link_template: TEMPLATE });
  ids.d1 = (await createDrama(t.db, { site_id: site.id, external_id: 'D1', name: 'Drama One' })).id;
  ids.d2 = (await createDrama(t.db, { site_id: site.id, external_id: 'D2', name: 'Drama Two' })).id;
  ids.acc1 = (await createAdAccount(t.db, { name: 'Acc s1', users: [org.s1.id] })).id;
  ids.acc1b = (await createAdAccount(t.db, { name: 'Acc s1 disabled', users: [org.s1.id], account_status: 2 })).id;
  ids.acc4 = (await createAdAccount(t.db, { name: 'Acc s4', users: [org.s4.id] })).id;
  ads.a1 = await mirrorAd(t.db, { adAccountId: ids.acc1, owner: org.s1.id, name: 'Camp A1', dramaId: ids.d1, siteId: site.id, countries: ['US'] });
  ads.a2 = await mirrorAd(t.db, { adAccountId: ids.acc1, owner: org.s1.id, name: 'Camp A2', dramaId: ids.d2, siteId: site.id });
  ads.a3 = await mirrorAd(t.db, { adAccountId: ids.acc4, owner: org.s4.id, name: 'Camp A3', dramaId: ids.d1, siteId: site.id });
  ads.idle = await mirrorAd(t.db, { adAccountId: ids.acc4, owner: org.s4.id, name: 'Camp idle' });
  for (const [ad, day, spend] of [
    ['a1', OUTSIDE, 9_900],
    ['a1', FIRST, 1_000],
    ['a1', '2026-10-20', 4_000],
    ['a1', YDAY, 20_000],
    ['a1', TODAY, 5_000],
    ['a2', YDAY, 3_000],
    ['a2', TODAY, 7_000],
    ['a3', '2026-10-20', 2_500],
    ['a3', YDAY, 6_000],
    ['a3', TODAY, 1_500],
  ] as const) {
    await addStats(t.db, ads[ad]!.adId, day, { spend });
  }
  await sendOrders(t, site, [
    paid({ app_user_id: 'u1', amount: '30.00', paid_at: at(YDAY, '10'), landing_url: land(ads.a1!) }),
    paid({ app_user_id: 'u1', amount: '12.00', paid_at: at(TODAY, '09') }),
    paid({ order_no: 'DB-R', app_user_id: 'u2', amount: '20.00', paid_at: at(TODAY, '10'), landing_url: land(ads.a2!, 'D2') }),
    paid({ app_user_id: 'u3', amount: '9.00', paid_at: at('2026-10-20', '12'), landing_url: land(ads.a3!) }),
    paid({ app_user_id: 'u4', amount: '45.00', paid_at: at(YDAY, '11'), landing_url: land(ads.a3!) }),
    paid({ app_user_id: 'u5', amount: '99.00', paid_at: at(OUTSIDE, '11'), landing_url: land(ads.a1!) }),
    paid({ app_user_id: 'o1', amount: '25.00', paid_at: at(TODAY, '09'), landing_url: 'https://drama.example.com/play/D2' }),
    paid({ app_user_id: 'o2', amount: '6.00', paid_at: at(YDAY, '09') }),
  ]);
  await sendOrders(t, site, [{ event: 'order.refunded', order_no: 'DB-R', app_user_id: 'u2', amount: '5.00', currency: 'USD', paid_at: at(TODAY, '10'), refunded_at: at(TODAY, '12') }]);

  // Alerts: tokens expiring in two days and dead; an account disabled; syncs failing (and one that recovered, one too old).
  await createPersonalAccount(t.db, { name: 'FB s1 expiring', owner_user_id: org.s1.id, token_expires_at: new Date(now + 2 * DAY) });
  await createPersonalAccount(t.db, { name: 'FB s1 fine', owner_user_id: org.s1.id, token_expires_at: new Date(now + 30 * DAY) });
  await createPersonalAccount(t.db, { name: 'FB s4 dead', owner_user_id: org.s4.id, status: 'invalid' });
  const run = (job: string, data: object, status: 'success' | 'failed', hoursAgo: number, error: string | null = null) =>
    t.db.insertInto('job_runs').values({ job_name: job, trigger: 'manual', data: JSON.stringify(data), status, error, queued_at: new Date(now - hoursAgo * 3600_000), finished_at: new Date(now - hoursAgo * 3600_000) }).execute();
  await run('sync-ad-account', { ad_account_id: ids.acc1, mode: 'recent' }, 'success', 5);
  await run('sync-ad-account', { ad_account_id: ids.acc1, mode: 'recent' }, 'failed', 1, '令牌已失效');
  await run('sync-ad-account', { ad_account_id: ids.acc4, mode: 'recent' }, 'failed', 3, 'rate limited');
  await run('sync-ad-account', { ad_account_id: ids.acc4, mode: 'recent' }, 'success', 2);
  await run('sync-ad-account', { ad_account_id: ids.acc1b, mode: 'recent' }, 'failed', 24 * 5, 'old news');
  await run('cleanup-sessions', {}, 'failed', 2, 'disk full');
  // Sites: one silent for ten hours, one whose last request was refused.
  const silent = await createWebhookSite(t, tokens.manager!, { name: 'Quiet site', link_template: TEMPLATE });
  const failing = await createWebhookSite(t, tokens.manager!, { name: 'Broken site', link_template: TEMPLATE });
  ids.silent = silent.id;
  ids.failing = failing.id;
  const tenHoursAgo = new Date(now - 10 * 3600_000);
  const buyer = await t.db.insertInto('order_buyers').values({ site_id: silent.id, app_user_id: 'q1', first_order_no: 'Q-1', first_paid_at: tenHoursAgo, acquisition_day: TODAY }).returning('id').executeTakeFirstOrThrow();
  await t.db.insertInto('orders').values({ site_id: silent.id, order_no: 'Q-1', buyer_id: buyer.id, app_user_id: 'q1', status: 'paid', currency: 'USD', amount_minor: 100, amount_usd_cents: 100, paid_at: tenHoursAgo, paid_day: TODAY, is_new_payer: true, source: 'webhook', created_at: tenHoursAgo }).execute();
  await t.db.insertInto('order_deliveries').values({ site_id: silent.id, received_at: tenHoursAgo, events: 1, accepted: 1, http_status: 200, result: 'ok' }).execute();
  await t.db.insertInto('order_deliveries').values({ site_id: failing.id, received_at: new Date(now - 3600_000), events: null, http_status: 401, result: 'bad_signature' }).execute();
});
afterAll(() => t.close());

const dashboard = async (who: string, body: Record<string, unknown> = {}) => {
  const res = await t.call('/api/overview/dashboard', body, { token: tokens[who], lang: 'en' });
  expect(res.code, res.message).toBe(0);
  return dashboardSchema.parse(res.data);
};
const report = async (who: string, body: Record<string, unknown>) => {
  const res = await t.call('/api/ad-reports/list', { page_size: 100, status: 'all', level: 'campaign', ...body }, { token: tokens[who] });
  expect(res.code, res.message).toBe(0);
  return res.data as { list: { id: number; name: string; metrics: Record<string, number | null> }[]; totals: Record<string, number | null> };
};
const byDimension = async (who: string, body: Record<string, unknown>) => {
  const res = await t.call('/api/ad-reports/dimension', { page_size: 100, ...body }, { token: tokens[who] });
  expect(res.code, res.message).toBe(0);
  return res.data as DimReportResult;
};
const close = (a: number | null, b: number | null | undefined) => (a === null || b === null || b === undefined ? expect(a).toBe(b ?? null) : expect(a).toBeCloseTo(b, 6));
const sum = (list: number[]) => list.reduce((s, x) => s + x, 0);

describe('delivery dashboard', () => {
  it('gives each day the totals of the campaign report of that day, in each caller\'s scope', async () => {
    for (const who of ['s1', 's4', 'leader', 'manager', 'admin']) {
      const d = await dashboard(who);
      expect([d.today, d.yesterday]).toEqual([TODAY, YDAY]);
      for (const day of [d.days.today, d.days.yesterday]) {
        const r = await report(who, { date_from: day.day, date_to: day.day });
        close(day.spend, r.totals.spend);
        close(day.revenue, r.totals.revenue);
        close(day.roi, r.totals.roi);
        close(day.d0_roi, r.totals.d0_roi);
        close(day.new_payers, r.totals.new_payers);
        expect(day.orders).toBe((await byDimension(who, { dimension: 'day', date_from: day.day, date_to: day.day })).totals_orders);
      }
      // Today has not ended: its D0 ROI is not matured, never a number.
      expect(d.days.today).toMatchObject({ d0_roi: null, d0_matured: false });
      expect(d.days.yesterday.d0_matured).toBe(true);
      // The 30 days add up to the report of the 30 days.
      expect(d.trend.map((x) => x.day)).toEqual(Array.from({ length: 30 }, (_, i) => new Date(Date.parse(`${FIRST}T00:00:00Z`) + i * DAY).toISOString().slice(0, 10)));
      const month = await report(who, { date_from: FIRST, date_to: TODAY });
      close(sum(d.trend.map((x) => x.spend)), month.totals.spend);
      close(sum(d.trend.map((x) => x.revenue)), month.totals.revenue);
      expect(sum(d.trend.map((x) => x.new_payers))).toBe(month.totals.new_payers);
    }
  });

  it('holds the figures computed by hand for staff, leader, manager and the company', async () => {
    const s1 = await dashboard('s1');
    // s1: A1 and A2. Today: spend 50 + 70; revenue 12 (u1 again) + 20 − 5 (u2, refunded).
    expect(s1.days.today).toMatchObject({ spend: 120, revenue: 27, orders: 2, new_payers: 1, organic_revenue: null, organic_orders: null });
    expect(s1.days.yesterday).toMatchObject({ spend: 230, revenue: 30, orders: 1 });
    close(s1.days.yesterday.d0_roi, (30 / 230) * 100);
    expect(s1.company).toBe(false);
    expect((await dashboard('leader')).days.today.spend).toBe(120);
    expect((await dashboard('s4')).days.yesterday).toMatchObject({ spend: 60, revenue: 45, orders: 1 });
    for (const who of ['manager', 'admin']) {
      const d = await dashboard(who);
      expect(d.company).toBe(true);
      expect(d.days.today).toMatchObject({ spend: 135, revenue: 27, orders: 2, organic_revenue: 26, organic_orders: 2 });
      expect(d.days.yesterday).toMatchObject({ spend: 290, revenue: 75, orders: 2, organic_revenue: 6, organic_orders: 1 });
      // The day before the trend is not in it.
      expect(sum(d.trend.map((x) => x.spend))).toBe(10 + 40 + 25 + 290 + 135);
    }
  });

  it('ranks dramas and campaigns as the reports rank them', async () => {
    for (const who of ['s1', 'manager', 'admin']) {
      for (const top_by of ['spend', 'revenue', 'roi'] as const) {
        const d = await dashboard(who, { top_range: 'last7', top_by });
        expect(d.top_range).toEqual({ date_from: '2026-10-26', date_to: TODAY });
        const dramas = await byDimension(who, { dimension: 'drama', ...d.top_range, sort_field: top_by, sort_order: 'descend' });
        expect(d.top_dramas.map((x) => [x.id, x.spend, x.revenue, x.roi])).toEqual(dramas.list.filter((x) => x.key !== '').map((x) => [x.id, x.metrics.spend, x.metrics.revenue, x.metrics.roi]));
        const campaigns = await report(who, { ...d.top_range, sort_field: top_by, sort_order: 'descend' });
        const ranked = campaigns.list.filter((c) => c.metrics.spend !== 0 || c.metrics.revenue !== 0);
        expect(d.top_campaigns.map((x) => [x.id, x.spend, x.revenue])).toEqual(ranked.map((c) => [c.id, c.metrics.spend, c.metrics.revenue]));
      }
    }
    const m = await dashboard('manager', { top_range: 'yesterday', top_by: 'revenue' });
    expect(m.top_dramas.map((x) => [x.name, x.revenue])).toEqual([
      ['Drama One', 75],
      ['Drama Two', 0],
    ]);
    expect(m.top_campaigns.map((x) => x.name)).toEqual(['Camp A3', 'Camp A1', 'Camp A2']);
    expect(m.top_campaigns[0]!.detail).toBe('Acc s4');
    // Campaigns without figures are not ranked.
    expect((await dashboard('manager', { top_range: 'last30' })).top_campaigns.map((x) => x.name)).not.toContain('Camp idle');
    expect((await dashboard('s4', { top_range: 'today' })).top_dramas.map((x) => x.name)).toEqual(['Drama One']);
  });

  it('raises alerts from the states the system holds, each in its scope', async () => {
    const kinds = (d: Dashboard) => d.alerts.map((a) => [a.kind, a.name]);
    const s1 = await dashboard('s1');
    expect(kinds(s1)).toEqual([
      ['ad_account_disabled', 'Acc s1 disabled'],
      ['sync_failed', 'Acc s1'],
      ['site_failing', 'Broken site'],
      ['site_silent', 'Quiet site'],
      ['token_expiring', 'FB s1 expiring'],
    ]);
    expect(s1.alerts.find((a) => a.kind === 'sync_failed')!.detail).toBe('令牌已失效');
    expect(s1.alerts.find((a) => a.kind === 'ad_account_disabled')!.status).toBe(2);
    expect(s1.alert_counts).toMatchObject({ token_expiring: 1, token_invalid: 0, ad_account_disabled: 1, sync_failed: 1, job_failed: 0, site_silent: 1, site_failing: 1 });
    const s4 = await dashboard('s4');
    expect(kinds(s4).filter(([k]) => k !== 'site_failing' && k !== 'site_silent')).toEqual([['token_invalid', 'FB s4 dead']]);
    const admin = await dashboard('admin');
    expect(admin.alert_counts).toEqual({ token_expiring: 1, token_invalid: 1, ad_account_disabled: 1, sync_failed: 1, job_failed: 1, site_silent: 1, site_failing: 1 });
    expect(admin.alerts.find((a) => a.kind === 'job_failed')).toMatchObject({ name: 'Clean up sessions and old records', detail: 'disk full' });
    expect(admin.alerts.find((a) => a.kind === 'site_silent')).toMatchObject({ id: ids.silent });
    // A manager sees the company's alerts but not the super admin's scheduled tasks.
    expect((await dashboard('manager')).alert_counts.job_failed).toBe(0);
    // Once the site receives an order again it is no longer silent.
    await t.db.updateTable('orders').set({ created_at: t.clock.now() }).where('order_no', '=', 'Q-1').execute();
    expect((await dashboard('admin')).alert_counts.site_silent).toBe(0);
  });

  it('answers only the landing pages\' holders', async () => {
    const other = await createScopeOrg(t.db, ['/material/upload']);
    const tok = await t.login(other.s1.account, other.s1.password);
    expect((await t.call('/api/overview/dashboard', {}, { token: tok })).code).toBe(403);
    expect((await t.call('/api/overview/dashboard', { top_range: 'ever' }, { token: tokens.s1 })).code).not.toBe(0);
  });
});
