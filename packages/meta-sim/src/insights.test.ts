import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// Insights from the delivery model: deterministic for a seed, consistent across levels, within
// budgets, with the overlapping purchase buckets.

const RANGE = { since: '2026-05-01', until: '2026-05-30' };
const FIELDS = 'spend,impressions,clicks,actions,action_values,purchase_roas,ctr,cpm,cpc,reach,frequency';

let t: TestSim;
let account: string;
let trees: Array<Awaited<ReturnType<typeof createTree>>>;

async function scenario(sim: TestSim) {
  const acct = sim.user.ad_accounts[0].id;
  const made = [
    await createTree(sim, acct, { name: 'ABO', adsetBudget: 5000, ads: 3 }),
    await createTree(sim, acct, { name: 'CBO', campaignBudget: 8000, ads: 2 }),
  ];
  await sim.advance('31d');
  return made;
}

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
  trees = await scenario(t);
});
afterAll(() => t.close());

const num = (v: unknown) => Number(v ?? 0);
const action = (row: any, type: string, key = 'actions') => num(row[key]?.find((a: any) => a.action_type === type)?.value);
const sum = (rows: any[], f: (r: any) => number) => rows.reduce((acc, r) => acc + f(r), 0);

async function level(level: string, extra: Record<string, unknown> = {}) {
  const res = await t.graph('GET', `/${account}/insights`, { level, fields: `campaign_id,adset_id,ad_id,${FIELDS}`, time_range: RANGE, limit: 500, ...extra });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

describe('insights', () => {
  it('account total = Σ campaigns = Σ ads (spend in cents, counts exact)', async () => {
    const [acct] = await level('account');
    const campaigns = await level('campaign');
    const ads = await level('ad');
    expect(campaigns).toHaveLength(2);
    expect(ads).toHaveLength(5);
    const cents = (r: any) => Math.round(num(r.spend) * 100);
    expect(cents(acct)).toBeGreaterThan(0);
    expect(sum(campaigns, cents)).toBe(cents(acct));
    expect(sum(ads, cents)).toBe(cents(acct));
    for (const key of ['impressions', 'clicks']) {
      expect(sum(campaigns, (r) => num(r[key]))).toBe(num(acct[key]));
      expect(sum(ads, (r) => num(r[key]))).toBe(num(acct[key]));
    }
    expect(sum(ads, (r) => action(r, 'offsite_conversion.fb_pixel_purchase'))).toBe(action(acct, 'offsite_conversion.fb_pixel_purchase'));
    // Ratios are recomputed from sums, not averaged.
    expect(Number(acct.ctr)).toBeCloseTo((num(acct.clicks) / num(acct.impressions)) * 100, 4);
    expect(Number(acct.cpm)).toBeCloseTo((num(acct.spend) / num(acct.impressions)) * 1000, 4);
  });

  it('reports each purchase once per bucket, with the same value in each', async () => {
    const [acct] = await level('account');
    const types = ['purchase', 'omni_purchase', 'offsite_conversion.fb_pixel_purchase'];
    const counts = types.map((a) => action(acct, a));
    const values = types.map((a) => action(acct, a, 'action_values'));
    expect(counts[0]).toBeGreaterThan(0);
    expect(new Set(counts).size).toBe(1);
    expect(new Set(values).size).toBe(1);
    expect(acct.purchase_roas[0].action_type).toBe('omni_purchase');
    expect(Number(acct.purchase_roas[0].value)).toBeCloseTo(values[0]! / num(acct.spend), 4);
  });

  it('spends at most 125 % of its owner\'s daily budget on a day and 7 budgets in a calendar week', async () => {
    const days = await t.graph('GET', `/${account}/insights`, { level: 'adset', fields: 'adset_id,spend', time_range: RANGE, time_increment: 1, limit: 500 });
    const budgets: Record<string, number> = { [trees[0]!.adsetId]: 50, [trees[1]!.adsetId]: 80 };
    expect(days.body.data.length).toBeGreaterThan(50);
    const weeks = new Map<string, number>();
    for (const row of days.body.data) {
      expect(num(row.spend)).toBeLessThanOrEqual(budgets[row.adset_id]! * 1.25);
      // Calendar weeks run Sunday to Saturday (2026-05-03 is a Sunday).
      const week = Math.floor((Date.parse(row.date_start) - Date.parse('2026-05-03')) / 86_400_000 / 7);
      const key = `${row.adset_id}|${week}`;
      weeks.set(key, (weeks.get(key) ?? 0) + num(row.spend));
    }
    for (const [key, spend] of weeks) expect(spend).toBeLessThanOrEqual(budgets[key.split('|')[0]!]! * 7 + 0.001);
    // and comes close to the budget on full days (pacing spends most of it).
    const full = days.body.data.filter((r: any) => r.adset_id === trees[0]!.adsetId && r.date_start === '2026-05-10');
    expect(num(full[0].spend)).toBeGreaterThan(35);
  });

  it('is deterministic for a seed and changes with another seed', async () => {
    const again = await startTestSim();
    await scenario(again);
    const a = await level('ad');
    const b = (await again.graph('GET', `/${again.user.ad_accounts[0].id}/insights`, { level: 'ad', fields: `campaign_id,adset_id,ad_id,${FIELDS}`, time_range: RANGE, limit: 500 })).body.data;
    expect(b.map((r: any) => [r.spend, r.impressions, r.actions])).toEqual(a.map((r: any) => [r.spend, r.impressions, r.actions]));
    await again.close();

    const other = await startTestSim({ seed: 7 });
    await scenario(other);
    const c = (await other.graph('GET', `/${other.user.ad_accounts[0].id}/insights`, { fields: 'spend', time_range: RANGE })).body.data;
    const [acct] = await level('account');
    expect(c[0].spend).not.toBe(acct.spend);
    await other.close();
  });

  it('splits by time_increment and breakdowns without changing totals', async () => {
    const [acct] = await level('account');
    const daily = await t.graph('GET', `/${account}/insights`, { fields: 'impressions', time_range: RANGE, time_increment: 1 });
    expect(daily.body.data).toHaveLength(25);
    expect(daily.body.paging.next).toBeTruthy();
    const monthly = await t.graph('GET', `/${account}/insights`, { fields: 'impressions', time_range: { since: '2026-04-20', until: '2026-05-30' }, time_increment: 'monthly' });
    expect(monthly.body.data.map((r: any) => [r.date_start, r.date_stop])).toEqual([
      ['2026-04-20', '2026-04-30'],
      ['2026-05-01', '2026-05-30'],
    ]);
    for (const breakdowns of [['country'], ['age', 'gender'], ['publisher_platform']]) {
      const rows = (await t.graph('GET', `/${account}/insights`, { fields: 'impressions,spend', time_range: RANGE, breakdowns, limit: 500 })).body.data;
      expect(sum(rows, (r) => num(r.impressions))).toBe(num(acct.impressions));
      expect(Math.round(sum(rows, (r) => num(r.spend) * 100))).toBe(Math.round(num(acct.spend) * 100));
      for (const b of breakdowns) expect(rows[0][b]).toBeTruthy();
    }
    expect(new Set((await t.graph('GET', `/${account}/insights`, { time_range: RANGE, breakdowns: ['country'] })).body.data.map((r: any) => r.country))).toEqual(new Set(['US', 'CA']));
    const bad = await t.graph('GET', `/${account}/insights`, { breakdowns: ['country', 'age'] });
    expect(bad.body.error).toMatchObject({ code: 2, error_subcode: 1504041 });
  });

  it('checks the level against the node (1/99) and supports date presets', async () => {
    const wrong = await t.graph('GET', `/${trees[0]!.campaignId}/insights`, { level: 'account' });
    expect(wrong.body.error).toMatchObject({ code: 1, error_subcode: 99 });
    const yesterday = await t.graph('GET', `/${trees[0]!.campaignId}/insights`, { date_preset: 'yesterday', fields: 'spend' });
    expect(yesterday.body.data[0]).toMatchObject({ date_start: '2026-05-30', date_stop: '2026-05-30' });
  });

  it('runs an async report: id, progress by the clock, then paged rows', async () => {
    await t.control('PUT', '/__sim/settings', { report_run_seconds: 60 });
    const run = await t.graph('POST', `/${account}/insights`, { level: 'ad', fields: 'ad_id,spend', time_range: RANGE });
    const id = run.body.report_run_id;
    expect(id).toMatch(/^\d+$/);
    expect((await t.graph('GET', `/${id}`)).body).toMatchObject({ async_status: 'Job Not Started', async_percent_completion: 0 });
    expect((await t.graph('GET', `/${id}/insights`)).status).toBe(400);
    await t.advance('30s');
    expect((await t.graph('GET', `/${id}`)).body).toMatchObject({ async_status: 'Job Running', async_percent_completion: 50 });
    await t.advance('31s');
    expect((await t.graph('GET', `/${id}`)).body).toMatchObject({ async_status: 'Job Completed', async_percent_completion: 100, is_running: false });
    const page1 = await t.graph('GET', `/${id}/insights`, { limit: 3 });
    expect(page1.body.data).toHaveLength(3);
    const page2 = await t.graph('GET', `/${id}/insights`, { limit: 3, after: page1.body.paging.cursors.after });
    expect(page2.body.data).toHaveLength(2);
    expect(page2.body.paging.next).toBeUndefined();
    expect(Math.round(sum([...page1.body.data, ...page2.body.data], (r) => num(r.spend) * 100))).toBe(Math.round(sum(await level('ad'), (r) => num(r.spend) * 100)));

    await t.control('POST', '/__sim/faults', { fail_report: true });
    const failing = await t.graph('POST', `/${account}/insights`, { fields: 'spend' });
    await t.advance('61s');
    expect((await t.graph('GET', `/${failing.body.report_run_id}`)).body.async_status).toBe('Job Failed');
    expect((await t.graph('GET', `/${failing.body.report_run_id}/insights`)).body.error).toMatchObject({ code: -2, error_subcode: 2490547 });
  });

  it('reports amount_spent and budget_remaining from the same model', async () => {
    const [acct] = await t.graph('GET', `/${account}/insights`, { fields: 'spend', date_preset: 'maximum' }).then((r) => r.body.data);
    const read = await t.graph('GET', `/${account}`, { fields: 'amount_spent' });
    expect(num(read.body.amount_spent)).toBe(Math.round(num(acct.spend) * 100));
    const remaining = await t.graph('GET', `/${trees[1]!.campaignId}`, { fields: 'budget_remaining' });
    expect(num(remaining.body.budget_remaining)).toBeGreaterThanOrEqual(0);
    expect(num(remaining.body.budget_remaining)).toBeLessThanOrEqual(8000);
  });
});
