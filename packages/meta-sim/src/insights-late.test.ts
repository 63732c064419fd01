import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// Late conversions: a finished day's purchases keep arriving for a week (the attribution
// window fills), while its spend, impressions and clicks never change.

const DAY = { since: '2026-05-01', until: '2026-05-01' };
const FIELDS = 'spend,impressions,clicks,actions,action_values';

let t: TestSim;
let account: string;

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
  // A budget large enough that a day has purchases to report late even once the creatives tire.
  await createTree(t, account, { adsetBudget: 100000, ads: 3 });
  // 2026-05-01 in Los Angeles ends at 2026-05-02T07:00Z; look at it one hour later.
  await t.advance('32h');
});
afterAll(() => t.close());

const num = (v: unknown) => Number(v ?? 0);
const pick = (row: any, key: string) => num(row?.[key]?.find((a: any) => a.action_type === 'offsite_conversion.fb_pixel_purchase')?.value);

async function day(level = 'account') {
  const res = await t.graph('GET', `/${account}/insights`, { level, fields: `ad_id,${FIELDS}`, time_range: DAY, limit: 100 });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

describe('late conversions', () => {
  it('reports more purchases of a finished day later, with the same spend, until the window closes', async () => {
    const [first] = await day();
    const seen = [pick(first, 'actions')];
    const values = [pick(first, 'action_values')];
    expect(seen[0]).toBeGreaterThan(0);
    for (const step of ['12h', '1d', '2d', '4d']) {
      await t.advance(step);
      const [row] = await day();
      expect(row.spend).toBe(first.spend);
      expect(row.impressions).toBe(first.impressions);
      expect(row.clicks).toBe(first.clicks);
      seen.push(pick(row, 'actions'));
      values.push(pick(row, 'action_values'));
    }
    // Never fewer, and more by the end of the week than right after the day.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
      expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]!);
    }
    expect(seen.at(-1)).toBeGreaterThan(seen[0]!);
    expect(values.at(-1)).toBeGreaterThan(values[0]!);

    // Final after seven days: nothing moves any more.
    await t.advance('3d');
    const [final] = await day();
    expect(pick(final, 'actions')).toBe(seen.at(-1));
    await t.advance('10d');
    const [later] = await day();
    expect(pick(later, 'actions')).toBe(pick(final, 'actions'));
    expect(pick(later, 'action_values')).toBe(pick(final, 'action_values'));
    // Every bucket of the same purchase moves together.
    for (const type of ['purchase', 'omni_purchase']) {
      expect(num(later.actions.find((a: any) => a.action_type === type).value)).toBe(pick(later, 'actions'));
    }
  });

  it('reports the same late purchases at every level, and async report runs answer as of their request', async () => {
    const [acct] = await day();
    const ads = await day('ad');
    expect(ads.reduce((s, r) => s + pick(r, 'actions'), 0)).toBe(pick(acct, 'actions'));

    // A fresh day, read through a report run requested right after the day ended.
    const fresh = { since: '2026-05-30', until: '2026-05-30' };
    const now = await t.control('GET', '/__sim/clock');
    const end = Date.parse('2026-05-31T07:00:00Z') + 3_600_000;
    await t.control('POST', '/__sim/clock', { advance_seconds: (end - now.now_ms) / 1000 });
    const sync = await t.graph('GET', `/${account}/insights`, { fields: FIELDS, time_range: fresh });
    const run = await t.graph('POST', `/${account}/insights`, { fields: FIELDS, time_range: fresh });
    await t.advance('5d');
    const later = await t.graph('GET', `/${account}/insights`, { fields: FIELDS, time_range: fresh });
    const report = await t.graph('GET', `/${run.body.report_run_id}/insights`);
    expect(pick(report.body.data[0], 'actions')).toBe(pick(sync.body.data[0], 'actions'));
    expect(pick(later.body.data[0], 'actions')).toBeGreaterThan(pick(report.body.data[0], 'actions'));
  });
});
