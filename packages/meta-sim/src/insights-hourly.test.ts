import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// The hourly breakdowns: an account's day split into its local hours, exactly, at every level,
// without the pixel's actions (as on Meta since 2021).

const ADVERTISER = 'hourly_stats_aggregated_by_advertiser_time_zone';
const AUDIENCE = 'hourly_stats_aggregated_by_audience_time_zone';
const DAY = { since: '2026-05-02', until: '2026-05-02' };
const FIELDS = 'campaign_id,adset_id,ad_id,spend,impressions,clicks,inline_link_clicks,actions,action_values,purchase_roas,reach';

let t: TestSim;
let account: string;

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
  await createTree(t, account, { name: 'ABO', adsetBudget: 6000, ads: 3 });
  await createTree(t, account, { name: 'CBO', campaignBudget: 9000, ads: 2 });
  // Sim start is 2026-04-30 17:00 in Los Angeles; stop at 2026-05-03 10:30 local.
  await t.advance('65h');
  await t.advance('30m');
});
afterAll(() => t.close());

const num = (v: unknown) => Number(v ?? 0);
const cents = (r: any) => Math.round(num(r.spend) * 100);
const action = (row: any, type: string) => num(row.actions?.find((a: any) => a.action_type === type)?.value);
const idOf = (level: string, r: any) => (level === 'account' ? 'account' : r[`${level}_id`]);

async function insights(params: Record<string, unknown>) {
  const res = await t.graph('GET', `/${account}/insights`, { fields: FIELDS, limit: 5000, ...params });
  expect(res.status).toBe(200);
  expect(res.body.paging?.next).toBeUndefined();
  return res.body.data as any[];
}

/** Sums hourly rows per object (and date) for the fields a daily row also has. */
function sumHours(level: string, rows: any[]) {
  const out = new Map<string, { spend: number; impressions: number; clicks: number; links: number; hours: Set<string> }>();
  for (const r of rows) {
    const key = `${r.date_start}|${idOf(level, r)}`;
    let e = out.get(key);
    if (!e) out.set(key, (e = { spend: 0, impressions: 0, clicks: 0, links: 0, hours: new Set() }));
    expect(e.hours.has(r[ADVERTISER])).toBe(false);
    e.hours.add(r[ADVERTISER]);
    e.spend += cents(r);
    e.impressions += num(r.impressions);
    e.clicks += num(r.clicks);
    e.links += num(r.inline_link_clicks);
  }
  return out;
}

describe('hourly breakdown', () => {
  it.each(['account', 'campaign', 'adset', 'ad'])('splits a finished day into hours that add up to the daily row exactly (level %s)', async (level) => {
    const daily = await insights({ level, time_range: DAY });
    const hourly = await insights({ level, time_range: DAY, breakdowns: [ADVERTISER] });
    expect(daily.length).toBeGreaterThan(0);
    expect(hourly.length).toBeGreaterThan(daily.length * 20);
    for (const r of hourly) {
      expect(r[ADVERTISER]).toMatch(/^([01]\d|2[0-3]):00:00 - \1:59:59$/);
      expect(r).toMatchObject({ date_start: DAY.since, date_stop: DAY.until });
    }
    const sums = sumHours(level, hourly);
    expect(sums.size).toBe(daily.length);
    for (const d of daily) {
      const s = sums.get(`${d.date_start}|${idOf(level, d)}`)!;
      expect(s.hours.size).toBe(24);
      expect(s.spend).toBe(cents(d));
      expect(s.impressions).toBe(num(d.impressions));
      expect(s.clicks).toBe(num(d.clicks));
      expect(s.links).toBe(num(d.inline_link_clicks));
      expect(action({ actions: d.actions }, 'link_click')).toBe(s.links);
    }
  });

  it('spends by the local clock: nights are quieter than evenings', async () => {
    const rows = await insights({ level: 'account', time_range: DAY, breakdowns: [ADVERTISER] });
    const at = (h: string) => cents(rows.find((r) => r[ADVERTISER].startsWith(h))!);
    expect(at('20:')).toBeGreaterThan(at('03:') * 3);
  });

  it('leaves the pixel actions and unique counts out of hourly rows, not out of daily ones', async () => {
    const [daily] = await insights({ level: 'account', time_range: DAY });
    expect(action(daily, 'offsite_conversion.fb_pixel_purchase')).toBeGreaterThan(0);
    expect(action(daily, 'landing_page_view')).toBeGreaterThan(0);
    expect(daily.action_values).toBeDefined();
    expect(num(daily.reach)).toBeGreaterThan(0);
    const hourly = await insights({ level: 'account', time_range: DAY, breakdowns: [ADVERTISER] });
    for (const r of hourly) {
      const types = (r.actions ?? []).map((a: any) => a.action_type);
      expect(types).toContain('link_click');
      for (const pixel of ['purchase', 'omni_purchase', 'offsite_conversion.fb_pixel_purchase', 'offsite_conversion.fb_pixel_initiate_checkout', 'landing_page_view']) {
        expect(types).not.toContain(pixel);
      }
      expect(r.action_values).toBeUndefined();
      expect(r.purchase_roas).toBeUndefined();
      expect(r.reach).toBeUndefined();
    }
  });

  it('gives rows per day and hour with time_increment=1, and today up to the current hour', async () => {
    const range = { since: '2026-05-01', until: '2026-05-03' };
    const daily = await insights({ level: 'campaign', time_range: range, time_increment: 1 });
    const hourly = await insights({ level: 'campaign', time_range: range, time_increment: 1, breakdowns: [ADVERTISER] });
    const sums = sumHours('campaign', hourly);
    expect(new Set(daily.map((d) => d.date_start))).toEqual(new Set(['2026-05-01', '2026-05-02', '2026-05-03']));
    expect(sums.size).toBe(daily.length);
    for (const d of daily) {
      expect(d.date_start).toBe(d.date_stop);
      const s = sums.get(`${d.date_start}|${d.campaign_id}`)!;
      expect(s.spend).toBe(cents(d));
      expect(s.impressions).toBe(num(d.impressions));
      // Today (10:30 local) has hours 00–10 only.
      if (d.date_start === '2026-05-03') expect([...s.hours].sort().at(-1)).toBe('10:00:00 - 10:59:59');
      else expect(s.hours.size).toBe(24);
    }
    const today = await insights({ level: 'account', date_preset: 'today', breakdowns: [ADVERTISER] });
    expect(today.map((r) => r[ADVERTISER])).toHaveLength(11);
    const [todayDaily] = await insights({ level: 'account', date_preset: 'today' });
    expect(today.reduce((s, r) => s + cents(r), 0)).toBe(cents(todayDaily));
  });

  it('aggregates hours over a range without time_increment', async () => {
    const range = { since: '2026-05-01', until: '2026-05-02' };
    const hourly = await insights({ level: 'account', time_range: range, breakdowns: [ADVERTISER] });
    const days = await insights({ level: 'account', time_range: range, time_increment: 1, breakdowns: [ADVERTISER] });
    expect(hourly).toHaveLength(24);
    for (const r of hourly) {
      expect(r).toMatchObject({ date_start: '2026-05-01', date_stop: '2026-05-02' });
      const parts = days.filter((d) => d[ADVERTISER] === r[ADVERTISER]);
      expect(parts.reduce((s, d) => s + num(d.impressions), 0)).toBe(num(r.impressions));
    }
  });

  it('files hours on the audience clock with the audience-zone variant (US audience: Chicago, 2 h after Los Angeles)', async () => {
    const byAdvertiser = await insights({ level: 'ad', time_range: DAY, breakdowns: [ADVERTISER] });
    const byAudience = await insights({ level: 'ad', time_range: DAY, breakdowns: [AUDIENCE] });
    expect(byAudience).toHaveLength(byAdvertiser.length);
    for (const r of byAdvertiser) {
      const h = Number(r[ADVERTISER].slice(0, 2));
      const label = `${String((h + 2) % 24).padStart(2, '0')}:00:00`;
      const twin = byAudience.find((a) => a.ad_id === r.ad_id && a[AUDIENCE].startsWith(label));
      expect(twin, `${r.ad_id} ${label}`).toBeDefined();
      expect(twin.spend).toBe(r.spend);
      expect(twin.impressions).toBe(r.impressions);
    }
  });

  it('refuses hourly combined with another breakdown (2 / 1504041)', async () => {
    const res = await t.graph('GET', `/${account}/insights`, { breakdowns: [ADVERTISER, 'country'] });
    expect(res.body.error).toMatchObject({ code: 2, error_subcode: 1504041 });
  });
});

describe('hourly breakdown on a daylight-saving day', () => {
  it('has 24 labels on the 25-hour day, the repeated hour under one label, and still adds up', async () => {
    const sim = await startTestSim({ startTime: '2026-10-30T00:00:00Z' });
    try {
      const acct = sim.user.ad_accounts[0].id;
      await createTree(sim, acct, { adsetBudget: 12000, ads: 2 });
      await sim.advance('4d');
      const day = { since: '2026-11-01', until: '2026-11-01' };
      const get = async (extra: Record<string, unknown>) =>
        (await sim.graph('GET', `/${acct}/insights`, { fields: 'spend,impressions', time_range: day, limit: 100, ...extra })).body.data as any[];
      const [daily] = await get({});
      const hours = await get({ breakdowns: [ADVERTISER] });
      expect(hours.map((h) => h[ADVERTISER])).toHaveLength(24);
      expect(hours.reduce((s, h) => s + cents(h), 0)).toBe(cents(daily));
      expect(hours.reduce((s, h) => s + num(h.impressions), 0)).toBe(num(daily.impressions));
    } finally {
      await sim.close();
    }
  });
});
