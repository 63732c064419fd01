import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// POST /__sim/backdate: objects and their delivery history move into the past, so a demo
// starts with a month of delivery behind it.

let t: TestSim;

beforeAll(async () => {
  // Mid-morning in Los Angeles, so "today" already has hours.
  t = await startTestSim({ startTime: '2026-06-10T17:00:00Z' });
});
afterAll(() => t.close());

const cents = (r: any) => Math.round(Number(r.spend) * 100);

describe('backdate', () => {
  it('moves a whole account back: 30 days of delivery, today included, and the objects look that old', async () => {
    const account = t.user.ad_accounts[0].id;
    const tree = await createTree(t, account, { adsetBudget: 10000, ads: 2 });
    const before = (await t.graph('GET', `/${account}/insights`, { fields: 'spend', date_preset: 'last_30d', time_increment: 1 })).body.data;
    expect(before).toHaveLength(0);

    const res = await t.control('POST', '/__sim/backdate', { account_id: account, days: 30 });
    expect(res).toMatchObject({ days: 30, shifted: { ad_accounts: 1, campaigns: 1, adsets: 1, ads: 2, creatives: 1 }, earliest: '2026-05-11T17:00:00+0000' });

    const days = (await t.graph('GET', `/${account}/insights`, { fields: 'spend', date_preset: 'last_30d', time_increment: 1, limit: 100 })).body.data;
    // 2026-05-11 (from 10:00 local) to 2026-06-09: 30 days, all with spend, none over 125 % of the budget.
    expect(days.map((d: any) => d.date_start)).toEqual(Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 4, 11 + i)).toISOString().slice(0, 10)));
    for (const d of days) {
      expect(cents(d)).toBeGreaterThan(0);
      expect(cents(d)).toBeLessThanOrEqual(12500);
    }
    const hours = (await t.graph('GET', `/${account}/insights`, { fields: 'spend', date_preset: 'today', breakdowns: ['hourly_stats_aggregated_by_advertiser_time_zone'] })).body.data;
    expect(hours).toHaveLength(10);

    const campaign = await t.graph('GET', `/${tree.campaignId}`, { fields: 'created_time,effective_status' });
    expect(campaign.body).toMatchObject({ created_time: '2026-05-11T10:00:00-0700', effective_status: 'ACTIVE' });
    const ad = await t.graph('GET', `/${tree.adIds[0]}`, { fields: 'created_time,effective_status' });
    expect(ad.body).toMatchObject({ created_time: '2026-05-11T10:00:00-0700', effective_status: 'ACTIVE' });
    const acct = await t.graph('GET', `/${account}`, { fields: 'amount_spent' });
    expect(Number(acct.body.amount_spent)).toBe(days.reduce((s: number, d: any) => s + cents(d), 0) + hours.reduce((s: number, h: any) => s + cents(h), 0));
  });

  it('moves chosen objects with their subtree, stretching the parents they need', async () => {
    const account = t.user.ad_accounts[1].id;
    const tree = await createTree(t, account, { adsetBudget: 8000, ads: 2 });
    const res = await t.control('POST', '/__sim/backdate', { ids: [tree.adIds[0]], days: 10 });
    expect(res.shifted).toMatchObject({ ad_accounts: 0, campaigns: 0, adsets: 0, ads: 1 });
    const rows = (await t.graph('GET', `/${account}/insights`, { level: 'ad', fields: 'ad_id,spend', date_preset: 'last_14d', time_increment: 1, limit: 100 })).body.data;
    const first = (adId: string) => rows.filter((r: any) => r.ad_id === adId).map((r: any) => r.date_start).sort()[0];
    expect(first(tree.adIds[0]!)).toBe('2026-05-31');
    expect(first(tree.adIds[1]!)).toBeUndefined();
    const adset = await t.graph('GET', `/${tree.adsetId}`, { fields: 'created_time' });
    expect(adset.body.created_time).toBe('2026-05-31T10:00:00-0700');
  });

  it('can make the order webhook resend the moved purchases', async () => {
    const site = await t.control('POST', '/__sim/sites', { webhook_url: 'http://127.0.0.1:9/orders', secret: 'secret-123' });
    expect(site.dispatched_until).toBeGreaterThan(Date.parse('2026-06-10T00:00:00Z'));
    await t.control('POST', '/__sim/backdate', { account_id: t.user.ad_accounts[1].id, days: 5, resend_orders: true });
    const sites = await t.control('GET', '/__sim/sites');
    expect(sites.data[0].dispatched_until).toBe(Date.parse('2026-05-26T17:00:00Z'));
  });

  it('refuses bad input and changes nothing', async () => {
    const account = t.user.ad_accounts[0].id;
    const times = async () => (await t.graph('GET', `/${account}/ads`, { fields: 'created_time,campaign{created_time}' })).body.data;
    const before = await times();
    await expect(t.control('POST', '/__sim/backdate', { days: 3 })).rejects.toThrow(/account_id or ids/);
    await expect(t.control('POST', '/__sim/backdate', { account_id: t.user.ad_accounts[0].id, days: 0 })).rejects.toThrow(/days/);
    await expect(t.control('POST', '/__sim/backdate', { account_id: t.user.ad_accounts[0].id, days: 1.5 })).rejects.toThrow(/days/);
    await expect(t.control('POST', '/__sim/backdate', { ids: ['999'], days: 3 })).rejects.toThrow(/404/);
    await expect(t.control('POST', '/__sim/backdate', { account_id: 'act_1', days: 3 })).rejects.toThrow(/404/);
    await expect(t.control('POST', '/__sim/backdate', { ids: [], days: 3 })).rejects.toThrow(/ids/);
    expect(await times()).toEqual(before);
  });
});
