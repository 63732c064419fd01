import { REPORT_DIMENSIONS, type DimReportResult, type MetricKey } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { addStats, createWebhookSite, mirrorAd, sendOrders, type Mirror, type WebhookSite } from '../../test/delivery.ts';
import { createAdAccount, createDrama, createScopeOrg } from '../../test/factories.ts';
import { createMaterial } from '../../test/materials.ts';
import { refreshRollupsJob } from './dim-rollups.job.ts';

// The report by dimension over the rollups (migration 0015): every dimension adds up to the ad
// report of the same range and scope; rows by hand; organic orders apart; fresh as soon as an
// order arrives; a mirror arriving after its orders; the refresh job. The app clock is
// 2026-11-01 16:00 in Asia/Shanghai (REPORT_TIMEZONE): today 11-01, yesterday 10-31.

const TODAY = '2026-11-01';
const YDAY = '2026-10-31';
const EARLY = '2026-10-20';
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';

let t: TestApp;
let org: Awaited<ReturnType<typeof createScopeOrg>>;
const tokens: Record<string, string> = {};
let site: WebhookSite;
const ads: Record<'a1' | 'a2' | 'a3', Mirror> = {} as never;
const ids = { d1: 0, d2: 0, m1: 0, m2: 0, acc1: 0, acc4: 0 };
let n = 0;

const land = (m: Mirror, drama = 'D1') => `https://drama.example.com/play/${drama}?c=${m.campaign}&s=${m.adset}&a=${m.ad}`;
const paid = (over: Record<string, unknown>) => ({ event: 'order.paid', order_no: `DIM-${++n}`, currency: 'USD', country: 'US', ...over });
const at = (day: string, hh: string) => `${day}T${hh}:00:00+08:00`;

beforeAll(async () => {
  t = await buildTestApp();
  org = await createScopeOrg(t.db, ['/index', '/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group', '/analyse/effect']);
  for (const k of ['manager', 'leader', 's1', 's4'] as const) tokens[k] = await t.login(org[k].account, org[k].password);
  site = await createWebhookSite(t, tokens.manager!, { name: 'Drama site', link_template: TEMPLATE });
  ids.d1 = (await createDrama(t.db, { site_id: site.id, external_id: 'D1', name: 'Drama One' })).id;
  ids.d2 = (await createDrama(t.db, { site_id: site.id, external_id: 'D2', name: 'Drama Two' })).id;
  ids.m1 = (await createMaterial(t.db, { uploader_id: org.s1.id, editor_id: org.s1.id, file_name: 'm1.mp4' })).id;
  ids.m2 = (await createMaterial(t.db, { uploader_id: org.s4.id, editor_id: org.s4.id, file_name: 'm2.mp4' })).id;
  ids.acc1 = (await createAdAccount(t.db, { name: 'Acc s1', users: [org.s1.id] })).id;
  ids.acc4 = (await createAdAccount(t.db, { name: 'Acc s4', users: [org.s4.id] })).id;
  ads.a1 = await mirrorAd(t.db, { adAccountId: ids.acc1, owner: org.s1.id, name: 'A1', dramaId: ids.d1, materialId: ids.m1, siteId: site.id, countries: ['US'] });
  ads.a2 = await mirrorAd(t.db, { adAccountId: ids.acc1, owner: org.s1.id, name: 'A2', dramaId: ids.d2, materialId: ids.m2, siteId: site.id, countries: ['US', 'CA'] });
  ads.a3 = await mirrorAd(t.db, { adAccountId: ids.acc4, owner: org.s4.id, name: 'A3', dramaId: ids.d1, materialId: ids.m1, siteId: site.id, countries: ['GB'] });
  await addStats(t.db, ads.a1.adId, EARLY, { spend: 10_000 });
  await addStats(t.db, ads.a1.adId, YDAY, { spend: 20_000 });
  await addStats(t.db, ads.a1.adId, TODAY, { spend: 5_000 });
  await addStats(t.db, ads.a2.adId, YDAY, { spend: 8_000 });
  await addStats(t.db, ads.a2.adId, TODAY, { spend: 3_000 });
  await addStats(t.db, ads.a3.adId, EARLY, { spend: 4_000 });
  await addStats(t.db, ads.a3.adId, YDAY, { spend: 6_000 });
  await addStats(t.db, ads.a3.adId, TODAY, { spend: 2_000 });
  await sendOrders(t, site, [
    paid({ app_user_id: 'u1', amount: '30.00', paid_at: at(YDAY, '10'), landing_url: land(ads.a1) }),
    paid({ app_user_id: 'u1', amount: '10.00', paid_at: at(TODAY, '09') }),
    paid({ order_no: 'DIM-R', app_user_id: 'u2', amount: '20.00', paid_at: at(TODAY, '10'), landing_url: land(ads.a1) }),
    paid({ app_user_id: 'u3', amount: '15.00', paid_at: at(EARLY, '12'), landing_url: land(ads.a2, 'D2') }),
    paid({ app_user_id: 'u4', amount: '40.00', paid_at: at(YDAY, '11'), landing_url: land(ads.a3), country: 'GB' }),
    // Organic: no ad in the link.
    paid({ app_user_id: 'o1', amount: '25.00', paid_at: at(TODAY, '09'), landing_url: 'https://drama.example.com/play/D2', country: 'JP' }),
    paid({ order_no: 'DIM-OR', app_user_id: 'o2', amount: '8.00', paid_at: at(YDAY, '09'), landing_url: 'https://drama.example.com/play/D1' }),
  ]);
  await sendOrders(t, site, [
    { event: 'order.refunded', order_no: 'DIM-R', app_user_id: 'u2', amount: '5.00', currency: 'USD', paid_at: at(TODAY, '10'), refunded_at: at(TODAY, '12') },
    { event: 'order.refunded', order_no: 'DIM-OR', app_user_id: 'o2', amount: '3.00', currency: 'USD', paid_at: at(YDAY, '09'), refunded_at: at(TODAY, '11') },
  ]);
});
afterAll(() => t.close());

const dim = async (who: string, body: Record<string, unknown>) => {
  const res = await t.call('/api/ad-reports/dimension', { page_size: 100, date_from: YDAY, date_to: TODAY, ...body }, { token: tokens[who], lang: 'en' });
  expect(res.code, res.message).toBe(0);
  return res.data as DimReportResult;
};
const report = async (who: string, body: Record<string, unknown>) => {
  const res = await t.call('/api/ad-reports/list', { page_size: 100, status: 'all', level: 'campaign', date_from: YDAY, date_to: TODAY, ...body }, { token: tokens[who], lang: 'en' });
  expect(res.code, res.message).toBe(0);
  return res.data as { list: { id: number; metrics: Record<string, number | null> }[]; totals: Record<string, number | null> };
};
const close = (a: number | null | undefined, b: number | null | undefined) => {
  if (a === null || b === null || a === undefined || b === undefined) expect(a ?? null).toBe(b ?? null);
  else expect(a).toBeCloseTo(b, 6);
};
const COMPARED: MetricKey[] = ['spend', 'impressions', 'clicks', 'revenue', 'payers', 'new_payers', 'roi', 'cpa', 'arppu', 'd0_roi', 'd1_roi', 'd7_roi', 'd30_roi', 'd1_d0'];
const row = (r: DimReportResult, key: string | number) => r.list.find((x) => x.key === String(key));

describe('report by dimension', () => {
  it('adds up, for every dimension, to the ad report of the same range and scope, and its rows to its totals', async () => {
    for (const who of ['manager', 'leader', 's1', 's4']) {
      const base = await report(who, { date_from: EARLY });
      for (const dimension of REPORT_DIMENSIONS) {
        const r = await dim(who, { dimension, date_from: EARLY });
        for (const k of COMPARED) close(r.totals[k], base.totals[k]);
        for (const k of ['spend', 'revenue', 'impressions', 'new_payers'] as const) {
          close(
            r.list.reduce((s, x) => s + (x.metrics[k] ?? 0), 0),
            r.totals[k],
          );
        }
        expect(r.total).toBe(r.list.length);
        expect(r.pending).toBe(false);
      }
    }
  });

  it('groups by drama as computed by hand, with organic orders apart', async () => {
    const r = await dim('manager', { dimension: 'drama' });
    const d1 = row(r, ids.d1)!;
    expect(d1).toMatchObject({ id: ids.d1, name: 'Drama One', detail: 'Drama site' });
    // A1 (250) + A3 (80); A1: 30 + 10 + 20 − 5, A3: 40.
    expect(d1.metrics.spend).toBe(330);
    expect(d1.metrics.revenue).toBe(95);
    expect(d1.orders).toBe(4);
    // D0 ROI counts yesterday only (today has not ended): (30 + 40) ÷ (200 + 60).
    close(d1.metrics.d0_roi, (70 / 260) * 100);
    expect(r.not_matured).toContain('d1_roi');
    // o2 paid 8 yesterday and got 3 back today.
    expect(d1.organic).toEqual({ revenue: 5, orders: 1, payers: 1, new_payers: 1 });
    const d2 = row(r, ids.d2)!;
    expect(d2.metrics).toMatchObject({ spend: 110, revenue: 0 });
    expect(d2.organic).toEqual({ revenue: 25, orders: 1, payers: 1, new_payers: 1 });
    expect(r.organic_totals).toEqual({ revenue: 30, orders: 2, payers: 2, new_payers: 2 });
    expect(r.totals_orders).toBe(4);
    // Sorted by spend, most first.
    expect(r.list.map((x) => x.key)).toEqual([String(ids.d1), String(ids.d2)]);
  });

  it('keeps each person to their scope: no organic orders outside the company-wide view', async () => {
    const s1 = await dim('s1', { dimension: 'drama' });
    expect(row(s1, ids.d1)!.metrics).toMatchObject({ spend: 250, revenue: 55 });
    expect(s1.organic_totals).toBeNull();
    expect(row(s1, ids.d1)!.organic).toBeNull();
    const s4 = await dim('s4', { dimension: 'drama' });
    expect(s4.list.map((x) => x.key)).toEqual([String(ids.d1)]);
    expect(row(s4, ids.d1)!.metrics).toMatchObject({ spend: 80, revenue: 40 });
    const leader = await dim('leader', { dimension: 'drama' });
    expect(leader.totals.spend).toBe(s1.totals.spend);
    // A manager's filter by ad account leaves organic orders out too.
    expect((await dim('manager', { dimension: 'drama', ad_account_ids: [ids.acc1] })).organic_totals).toBeNull();
  });

  it('groups by material, editor, country, site and day', async () => {
    const s1Name = (await t.db.selectFrom('users').select('name').where('id', '=', org.s1.id).executeTakeFirstOrThrow()).name;
    const material = await dim('manager', { dimension: 'material' });
    expect(row(material, ids.m1)).toMatchObject({ name: 'm1.mp4', detail: s1Name, metrics: expect.objectContaining({ spend: 330, revenue: 95 }) });
    const editor = await dim('manager', { dimension: 'editor' });
    expect(row(editor, org.s1.id)).toMatchObject({ name: s1Name, detail: org.s1.account, metrics: expect.objectContaining({ spend: 330 }) });
    expect(row(editor, org.s4.id)!.metrics.spend).toBe(110);
    const country = await dim('manager', { dimension: 'country' });
    expect(row(country, 'US')!.metrics.spend).toBe(250);
    expect(row(country, 'GB')!.metrics.revenue).toBe(40);
    // A2 targets two countries: no single country.
    expect(row(country, '')!.metrics.spend).toBe(110);
    expect(row(country, 'JP')).toMatchObject({ metrics: expect.objectContaining({ spend: 0 }), organic: { revenue: 25, orders: 1, payers: 1, new_payers: 1 } });
    const sites = await dim('manager', { dimension: 'site' });
    expect(row(sites, site.id)).toMatchObject({ name: 'Drama site', orders: 4, organic: { revenue: 30, orders: 2, payers: 2, new_payers: 2 } });
    const days = await dim('manager', { dimension: 'day' });
    expect(days.list.map((x) => x.key)).toEqual([YDAY, TODAY]);
    expect(days.list.map((x) => x.metrics.spend)).toEqual([340, 100]);
    expect(days.list.map((x) => x.organic?.revenue)).toEqual([8, 22]);
    // Sort and page.
    const top = await dim('manager', { dimension: 'day', sort_field: 'revenue', sort_order: 'descend', page_size: 1 });
    expect(top.total).toBe(2);
    expect(top.list.map((x) => x.key)).toEqual([YDAY]);
    expect((await dim('manager', { dimension: 'drama', keyword: 'two' })).list.map((x) => x.id)).toEqual([ids.d2]);
  });

  it('counts an order as soon as it arrives, and an ad mirrored after its orders once the mirror exists', async () => {
    const before = row(await dim('manager', { dimension: 'drama' }), ids.d1)!;
    await sendOrders(t, site, [paid({ app_user_id: 'u9', amount: '12.50', paid_at: at(TODAY, '13'), landing_url: land(ads.a3) })]);
    const after = await dim('manager', { dimension: 'drama' });
    expect(row(after, ids.d1)!.metrics.revenue).toBeCloseTo(before.metrics.revenue! + 12.5, 6);
    expect(row(after, ids.d1)!.orders).toBe(before.orders + 1);
    expect(after.pending).toBe(false);
    // An ad the sync has not mirrored yet: its orders wait for it.
    const late = { campaign: '880001', adset: '880002', ad: '880003' };
    await sendOrders(t, site, [paid({ app_user_id: 'u10', amount: '7.00', paid_at: at(TODAY, '13'), landing_url: `https://drama.example.com/play/D2?c=${late.campaign}&s=${late.adset}&a=${late.ad}` })]);
    expect(row(await dim('manager', { dimension: 'drama' }), ids.d2)!.metrics.revenue).toBe(0);
    const now = new Date();
    const c = await t.db.insertInto('ad_campaigns').values({ platform_id: late.campaign, ad_account_id: ids.acc4, name: 'Late', status: 'ACTIVE', effective_status: 'ACTIVE', budget_level: 'adset', currency: 'USD', synced_at: now, platform: 'dj', owner_user_id: org.s4.id }).returning('id').executeTakeFirstOrThrow();
    const s = await t.db.insertInto('ad_sets').values({ platform_id: late.adset, ad_account_id: ids.acc4, campaign_id: c.id, name: 'Late set', status: 'ACTIVE', effective_status: 'ACTIVE', currency: 'USD', synced_at: now, owner_user_id: org.s4.id }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('ads').values({ platform_id: late.ad, ad_account_id: ids.acc4, campaign_id: c.id, adset_id: s.id, name: 'Late ad', status: 'ACTIVE', effective_status: 'ACTIVE', synced_at: now, owner_user_id: org.s4.id, drama_id: ids.d2 }).execute();
    const withLate = await dim('manager', { dimension: 'drama' });
    expect(row(withLate, ids.d2)!.metrics.revenue).toBe(7);
    close(withLate.totals.revenue, (await report('manager', {})).totals.revenue);
    // Moving an ad to another drama moves its figures.
    await t.db.updateTable('ads').set({ drama_id: ids.d1 }).where('platform_id', '=', late.ad).execute();
    expect(row(await dim('manager', { dimension: 'drama' }), ids.d2)!.metrics.revenue).toBe(0);
  });

  it('leaves nothing behind for the refresh job once read, and the job drains what readers did not read', async () => {
    await addStats(t.db, ads.a1.adId, '2026-09-01', { spend: 100 });
    const pending = await t.db.selectFrom('ad_dim_dirty').select('day').execute();
    expect(pending.map((p) => String(p.day).slice(0, 10))).toContain('2026-09-01');
    const run = await refreshRollupsJob.run({ db: t.db, signal: new AbortController().signal } as never);
    expect(run.status).toBe('success');
    expect(run.summary).toMatchObject({ pairs: 1 });
    expect(await t.db.selectFrom('ad_dim_dirty').select('id').execute()).toEqual([]);
    expect((await refreshRollupsJob.run({ db: t.db, signal: new AbortController().signal } as never)).status).toBe('skipped');
    const sept = await dim('manager', { dimension: 'day', date_from: '2026-09-01', date_to: '2026-09-01' });
    expect(sept.list.map((x) => x.metrics.spend)).toEqual([1]);
  });

  it('refuses a range over 400 days and a caller without a report or analysis screen', async () => {
    expect((await t.call('/api/ad-reports/dimension', { dimension: 'day', date_from: '2025-01-01', date_to: TODAY }, { token: tokens.manager })).code).not.toBe(0);
    const other = await createScopeOrg(t.db, ['/index']);
    const tok = await t.login(other.s1.account, other.s1.password);
    expect((await t.call('/api/ad-reports/dimension', { dimension: 'day', date_from: YDAY, date_to: TODAY }, { token: tok })).code).toBe(403);
  });
});
