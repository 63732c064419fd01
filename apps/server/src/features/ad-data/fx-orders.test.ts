import type { DimReportResult } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { addStats, createWebhookSite, mirrorAd, sendOrders, type Mirror, type WebhookSite } from '../../test/delivery.ts';
import { createAdAccount, createUser } from '../../test/factories.ts';
import { drainAllCohorts } from '../orders/orders.service.ts';

// A manager's exchange rate re-prices the orders of the days it governs (each order at its payment
// day's rate, each refund at its refund day's), their cohort facts, and the rollups, so revenue and
// ROI follow the rate everywhere; an order arriving afterwards is priced the same way.
// Today is 2026-11-01 in REPORT_TIMEZONE (Asia/Shanghai).

const TODAY = '2026-11-01';
const YDAY = '2026-10-31';
const EARLY = '2026-10-20';
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';

let t: TestApp;
let token: string;
let site: WebhookSite;
let ad: Mirror;
let n = 0;
const at = (day: string, hh: string) => `${day}T${hh}:00:00+08:00`;
const eur = (over: Record<string, unknown>) => ({ event: 'order.paid', order_no: `FX-${++n}`, currency: 'EUR', ...over });

beforeAll(async () => {
  t = await buildTestApp();
  const manager = await createUser(t.db, { is_admin: 1 });
  token = await t.login(manager.account, manager.password);
  site = await createWebhookSite(t, token, { link_template: TEMPLATE });
  const acc = await createAdAccount(t.db, {});
  ad = await mirrorAd(t.db, { adAccountId: acc.id, owner: manager.id, siteId: site.id });
  await addStats(t.db, ad.adId, YDAY, { spend: 2_000 });
  const land = `https://drama.example.com/play/D1?c=${ad.campaign}&s=${ad.adset}&a=${ad.ad}`;
  // EUR is 0.92 per USD (the seeded rate) until a manager says otherwise.
  await sendOrders(t, site, [
    eur({ order_no: 'FX-EARLY', app_user_id: 'e1', amount: '9.20', paid_at: at(EARLY, '10'), landing_url: land }),
    eur({ order_no: 'FX-Y', app_user_id: 'e2', amount: '8.00', paid_at: at(YDAY, '10'), landing_url: land }),
    eur({ order_no: 'FX-O', app_user_id: 'o1', amount: '4.60', paid_at: at(YDAY, '11'), landing_url: 'https://drama.example.com/play/D1' }),
  ]);
  await sendOrders(t, site, [{ event: 'order.refunded', order_no: 'FX-Y', app_user_id: 'e2', amount: '2.00', currency: 'EUR', paid_at: at(YDAY, '10'), refunded_at: at(TODAY, '09') }]);
});
afterAll(() => t.close());

const usdOf = async (orderNo: string) => t.db.selectFrom('orders').select(['amount_usd_cents', 'refunded_usd_cents']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
// The cohort log drained first (the intake only logs the pairs it changes; orders/cohorts.ts).
const cohort = async (day: string) => {
  await drainAllCohorts(t.db);
  return t.db.selectFrom('ad_order_daily').selectAll().where('ad_platform_id', '=', ad.ad).where('day', '=', day).executeTakeFirstOrThrow();
};
const days = async () => {
  const res = await t.call('/api/ad-reports/dimension', { dimension: 'day', date_from: YDAY, date_to: TODAY }, { token });
  expect(res.code, res.message).toBe(0);
  return res.data as DimReportResult;
};
const saveRate = async (day: string, rate: number) => {
  const res = await t.call('/api/fx-rates/save', { currency: 'EUR', day, units_per_usd: rate }, { token });
  expect(res.code, res.message).toBe(0);
  return res.data.updated_rows as number;
};

describe('an exchange rate re-prices orders', () => {
  it('prices orders at the rate of their payment day when they arrive', async () => {
    expect(await usdOf('FX-Y')).toMatchObject({ amount_usd_cents: 870, refunded_usd_cents: 217 });
    expect(Number((await cohort(YDAY)).cohort_d1_usd_cents)).toBe(870 - 217);
  });

  it('re-prices the days a new rate governs, their cohorts and the rollups, and leaves earlier days alone', async () => {
    // Two orders and a refund (the ad's spend is in USD).
    expect(await saveRate(YDAY, 0.8)).toBe(3);
    expect(await usdOf('FX-Y')).toMatchObject({ amount_usd_cents: 1000, refunded_usd_cents: 250 });
    expect(await usdOf('FX-O')).toMatchObject({ amount_usd_cents: 575 });
    expect(await usdOf('FX-EARLY')).toMatchObject({ amount_usd_cents: 1000 });
    const y = await cohort(YDAY);
    expect(Number(y.revenue_usd_cents)).toBe(1000);
    expect(Number(y.cohort_d0_usd_cents)).toBe(1000);
    expect(Number(y.cohort_d1_usd_cents)).toBe(750);
    expect(Number((await cohort(TODAY)).revenue_usd_cents)).toBe(-250);
    const r = await days();
    expect(r.list.map((d) => [d.key, d.metrics.revenue, d.organic?.revenue])).toEqual([
      [YDAY, 10, 5.75],
      [TODAY, -2.5, 0],
    ]);
    // The ad report reads the same facts.
    const report = await t.call('/api/ad-reports/list', { level: 'campaign', date_from: YDAY, date_to: TODAY, status: 'all' }, { token });
    expect(report.data.totals.revenue).toBe(r.totals.revenue);
    expect(report.data.totals.d0_roi).toBe(r.totals.d0_roi);
  });

  it('a rate of a later day takes over from it, and new orders are priced as the re-priced ones', async () => {
    await saveRate(TODAY, 0.5);
    expect(await usdOf('FX-Y')).toMatchObject({ amount_usd_cents: 1000, refunded_usd_cents: 400 });
    await sendOrders(t, site, [eur({ order_no: 'FX-NEW', app_user_id: 'e3', amount: '8.00', paid_at: at(YDAY, '12') })]);
    expect((await usdOf('FX-NEW')).amount_usd_cents).toBe(1000);
    expect((await days()).list.map((d) => d.organic?.revenue)).toEqual([15.75, 0]);
  });
});
