import { METRIC_KEYS, type AdReportResult, type MetricKey } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { addStats, createWebhookSite, mirrorAd, sendOrders, type Mirror } from '../../test/delivery.ts';
import { createAdAccount, createUser } from '../../test/factories.ts';

// A report computes only the metrics it shows (`columns`) and its sort: those equal what the full
// report says, rows and totals, in the same order; the rest come back null. A column set of one
// side only (insights or orders) skips the other table and still gives the same figures.
// Today is 2026-11-01 in REPORT_TIMEZONE (Asia/Shanghai).

const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';
const FROM = '2026-10-20';
const TO = '2026-11-01';
const LEVELS = ['optimizer', 'account', 'campaign', 'adset', 'ad'] as const;

let t: TestApp;
let token: string;
const ads: Mirror[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  const manager = await createUser(t.db, { is_admin: 1 });
  const staff = await createUser(t.db, {});
  token = await t.login(manager.account, manager.password);
  const site = await createWebhookSite(t, token, { link_template: TEMPLATE });
  const accounts = [await createAdAccount(t.db, {}), await createAdAccount(t.db, {})];
  // Four campaigns over two accounts and two people, with different spend and revenue, so every sort has an order.
  for (let i = 0; i < 4; i++) ads.push(await mirrorAd(t.db, { adAccountId: accounts[i % 2]!.id, owner: i < 2 ? manager.id : staff.id, siteId: site.id, name: `Col ${i}` }));
  let n = 0;
  for (const [i, ad] of ads.entries()) {
    for (const day of ['2026-10-21', '2026-10-25', '2026-10-31']) await addStats(t.db, ad.adId, day, { spend: 1_000 * (i + 1) + day.charCodeAt(9) * 7, clicks: 30 + 11 * i });
    const land = `https://drama.example.com/play/D1?c=${ad.campaign}&s=${ad.adset}&a=${ad.ad}`;
    await sendOrders(
      t,
      site,
      [0, 1, 2].slice(0, 3 - (i % 3)).map((k) => ({ event: 'order.paid', order_no: `COL-${++n}`, app_user_id: `u${i}-${k}`, amount: `${(4 - i) * 3 + k}.50`, currency: 'USD', paid_at: `2026-10-2${1 + k * 4}T10:00:00+08:00`, landing_url: land })),
    );
  }
});
afterAll(() => t.close());

async function report(level: (typeof LEVELS)[number], extra: Record<string, unknown>): Promise<AdReportResult> {
  const res = await t.call('/api/ad-reports/list', { level, date_from: FROM, date_to: TO, page: 1, page_size: 50, ...extra }, { token });
  expect(res.code, res.message).toBe(0);
  return res.data as AdReportResult;
}

/** The figures of `keys` in a row's metrics; every other metric must be null. */
function only(values: Record<string, number | null>, keys: readonly MetricKey[]) {
  for (const k of METRIC_KEYS) if (!keys.includes(k)) expect(values[k], k).toBeNull();
  return Object.fromEntries(keys.map((k) => [k, values[k]]));
}

describe('a report computes the columns it shows', () => {
  for (const level of LEVELS) {
    it(`${level}: mixed, insights-only and orders-only column sets equal the full report`, async () => {
      for (const [columns, sort] of [
        [['spend', 'revenue', 'd0_roi'], 'roi'],
        [['spend', 'ctr', 'cpc'], 'clicks'],
        [['revenue', 'new_payers', 'd7_roi'], 'revenue'],
        [['impressions'], 'name'],
      ] as [MetricKey[], MetricKey | 'name'][]) {
        const body = { sort_field: sort, sort_order: sort === 'name' ? 'ascend' : 'descend' };
        const full = await report(level, body);
        const part = await report(level, { ...body, columns });
        const keys = sort === 'name' ? columns : [...columns, sort];
        // Both sides have figures in the range, so a side left out would show.
        expect(full.totals.revenue).toBeGreaterThan(0);
        expect(full.totals.d7_roi).toBeGreaterThan(0);
        expect(full.totals.clicks).toBeGreaterThan(0);
        expect(part.total).toBe(full.total);
        expect(part.list.length).toBeGreaterThan(0);
        expect(part.list.map((r) => r.id), `${level} sorted by ${sort}`).toEqual(full.list.map((r) => r.id));
        for (const [i, row] of part.list.entries()) expect(only(row.metrics, keys)).toEqual(Object.fromEntries(keys.map((k) => [k, full.list[i]!.metrics[k]])));
        expect(only(part.totals, keys)).toEqual(Object.fromEntries(keys.map((k) => [k, full.totals[k]])));
      }
    });
  }

  it('compares the shown columns with the previous period as the full report does', async () => {
    const columns: MetricKey[] = ['spend', 'revenue', 'roi'];
    const full = await report('campaign', { compare: true, date_from: '2026-10-27', date_to: TO });
    const part = await report('campaign', { compare: true, date_from: '2026-10-27', date_to: TO, columns });
    expect(part.list.map((r) => r.id)).toEqual(full.list.map((r) => r.id));
    for (const [i, row] of part.list.entries()) {
      expect(only(row.previous!, columns)).toEqual(Object.fromEntries(columns.map((k) => [k, full.list[i]!.previous![k]])));
      expect(only(row.change!, columns)).toEqual(Object.fromEntries(columns.map((k) => [k, full.list[i]!.change![k]])));
    }
    expect(only(part.previous_totals!, columns)).toEqual(Object.fromEntries(columns.map((k) => [k, full.previous_totals![k]])));
    // The previous period has spend, so the comparison compares something.
    expect(part.previous_totals!.spend).toBeGreaterThan(0);
  });

  it('refuses a column that is not a metric, and changes nothing', async () => {
    const res = await t.call('/api/ad-reports/list', { level: 'campaign', date_from: FROM, date_to: TO, page: 1, page_size: 20, columns: ['spend', 'no_such_metric'] }, { token });
    expect(res.code).not.toBe(0);
    expect(res.message).toMatch(/columns/);
  });
});
