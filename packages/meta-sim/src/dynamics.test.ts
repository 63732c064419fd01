import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, START, startTestSim, type TestSim } from './testing/harness.ts';

// Delivery dynamics: the learning phase (learning_stage_info and weaker, noisier rates while
// learning), creative fatigue (rates decaying with the ad's delivered days) and Meta's pacing of
// daily budgets (a day up to 125 %, a calendar week at most 7 budgets). The same scenario runs
// in a second simulator with `delivery_dynamics: false` (same seed) as the flat baseline.

const num = (v: unknown) => Number(v ?? 0);
const DAY_S = 86_400;
const startS = Date.parse(START) / 1000;
/** The first delivery: creation at START plus the 600 s of ad review. */
const FIRST_DELIVERY = startS + 600;

async function learning(t: TestSim, adsetId: string) {
  const res = await t.graph('GET', `/${adsetId}`, { fields: 'learning_stage_info' });
  expect(res.status).toBe(200);
  return res.body.learning_stage_info as { status: string; conversions: number; last_sig_edit_ts?: number; attribution_windows: string[] };
}

describe('learning phase', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim();
  });
  afterAll(() => t.close());

  it('is LEARNING until 50 optimization events, then SUCCESS; FAIL after 7 days without; a budget change over 20 % restarts it', async () => {
    const account = t.user.ad_accounts[0].id;
    // 1,000 USD a day buys ~100 purchases a day; 50 USD a day a handful a week.
    const big = await createTree(t, account, { name: 'Big', adsetBudget: 100000, ads: 1 });
    const small = await createTree(t, account, { name: 'Small', adsetBudget: 5000, ads: 2 });

    await t.advance('1h');
    for (const id of [big.adsetId, small.adsetId]) {
      const info = await learning(t, id);
      expect(info.status).toBe('LEARNING');
      expect(info.conversions).toBeLessThan(50);
      expect(info.last_sig_edit_ts).toBe(FIRST_DELIVERY);
      expect(info.attribution_windows).toEqual(['7d_click', '1d_view']);
    }

    await t.advance('23h');
    const learned = await learning(t, big.adsetId);
    expect(learned).toMatchObject({ status: 'SUCCESS', last_sig_edit_ts: FIRST_DELIVERY });
    expect(learned.conversions).toBeGreaterThanOrEqual(50);
    expect((await learning(t, small.adsetId)).status).toBe('LEARNING');

    // Seven days after its first delivery the small ad set has not made it: learning limited.
    await t.advance('6d');
    const stillLearning = await learning(t, small.adsetId);
    expect(stillLearning.status).toBe('LEARNING');
    await t.advance('2h');
    const limited = await learning(t, small.adsetId);
    expect(limited.status).toBe('FAIL');
    expect(limited.conversions).toBeLessThan(50);
    expect(limited.conversions).toBe(stillLearning.conversions);

    // +20 % is not significant; +50 % is, and learning starts over from that instant.
    expect((await t.graph('POST', `/${big.adsetId}`, { daily_budget: 120000 })).status).toBe(200);
    expect(await learning(t, big.adsetId)).toMatchObject({ status: 'SUCCESS', last_sig_edit_ts: FIRST_DELIVERY });
    const clock = await t.control('GET', '/__sim/clock');
    expect((await t.graph('POST', `/${big.adsetId}`, { daily_budget: 180000 })).status).toBe(200);
    await t.advance('1h');
    const again = await learning(t, big.adsetId);
    expect(again.status).toBe('LEARNING');
    expect(again.last_sig_edit_ts).toBe(Math.floor(clock.now_ms / 1000));
    expect(again.conversions).toBeLessThan(50);
    await t.advance('1d');
    expect((await learning(t, big.adsetId)).status).toBe('SUCCESS');
    // The small ad set stays limited until an edit of its own.
    expect((await learning(t, small.adsetId)).status).toBe('FAIL');
  });
});

describe('drift and pacing', () => {
  const RANGE = { since: '2026-04-30', until: '2026-06-07' };
  let on: TestSim;
  let off: TestSim;
  type Trees = { big: Awaited<ReturnType<typeof createTree>>; small: Awaited<ReturnType<typeof createTree>>; mid: Awaited<ReturnType<typeof createTree>> };
  const trees = new Map<TestSim, Trees>();

  beforeAll(async () => {
    on = await startTestSim();
    off = await startTestSim({ settings: { delivery_dynamics: false } });
    for (const t of [on, off]) {
      const account = t.user.ad_accounts[0].id;
      trees.set(t, {
        big: await createTree(t, account, { name: 'Big', adsetBudget: 100000, ads: 1 }),
        small: await createTree(t, account, { name: 'Small', adsetBudget: 5000, ads: 2 }),
        mid: await createTree(t, account, { name: 'Mid', adsetBudget: 10000, ads: 2 }),
      });
      await t.advance('39d');
    }
  });
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  async function days(t: TestSim, adsetId: string) {
    const res = await t.graph('GET', `/${t.user.ad_accounts[0].id}/insights`, {
      level: 'adset', fields: 'adset_id,spend,impressions,clicks,cpm', time_range: RANGE, time_increment: 1, limit: 500,
      filtering: [{ field: 'adset.id', operator: 'EQUAL', value: adsetId }],
    });
    expect(res.status).toBe(200);
    return new Map<string, { spend: number; ctr: number; cpm: number }>(
      res.body.data.map((r: any) => [r.date_start, { spend: num(r.spend), ctr: num(r.clicks) / num(r.impressions), cpm: num(r.cpm) }]),
    );
  }

  it('is weaker while learning, steady once learned, and decays with the creative\'s age', async () => {
    const a = await days(on, trees.get(on)!.big.adsetId);
    const b = await days(off, trees.get(off)!.big.adsetId);
    const ratio = (date: string, k: 'ctr' | 'cpm') => a.get(date)![k] / b.get(date)![k];
    // Day one is mostly learning: fewer clicks per impression, dearer impressions.
    expect(ratio('2026-04-30', 'ctr')).toBeLessThan(0.9);
    expect(ratio('2026-04-30', 'cpm')).toBeGreaterThan(1.05);
    // Learned and still fresh: the flat model's rates.
    for (const date of ['2026-05-02', '2026-05-03', '2026-05-04']) {
      expect(ratio(date, 'ctr')).toBeGreaterThan(0.97);
      expect(ratio(date, 'ctr')).toBeLessThan(1.03);
    }
    // Weeks on: the creative has tired. Click-through falls, impressions cost more, and it keeps
    // to a floor instead of falling to nothing.
    const late = ['2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02', '2026-06-03'];
    for (const date of late) {
      expect(ratio(date, 'ctr')).toBeLessThan(0.8);
      expect(ratio(date, 'ctr')).toBeGreaterThan(0.35);
      expect(ratio(date, 'cpm')).toBeGreaterThan(1.05);
    }
    // The flat model has no such trend.
    expect(b.get('2026-06-01')!.ctr / b.get('2026-05-03')!.ctr).toBeGreaterThan(0.9);
  });

  it('is noisier hour to hour while learning', async () => {
    // The small ad set learns all through its first week: compare the spread of its hourly CPM.
    const spread = async (t: TestSim) => {
      const res = await t.graph('GET', `/${trees.get(t)!.small.adsetId}/insights`, {
        fields: 'spend,impressions', time_range: { since: '2026-05-02', until: '2026-05-03' },
        breakdowns: ['hourly_stats_aggregated_by_advertiser_time_zone'], time_increment: 1, limit: 100,
      });
      const cpms = res.body.data.filter((r: any) => num(r.impressions) > 100).map((r: any) => (num(r.spend) / num(r.impressions)) * 1000);
      expect(cpms.length).toBeGreaterThan(30);
      const mean = cpms.reduce((s: number, x: number) => s + x, 0) / cpms.length;
      return Math.sqrt(cpms.reduce((s: number, x: number) => s + (x - mean) ** 2, 0) / cpms.length) / mean;
    };
    expect(await spread(on)).toBeGreaterThan(1.4 * (await spread(off)));
  });

  it('spends up to 125 % of a daily budget on a day and at most 7 budgets in a calendar week', async () => {
    for (const [t, cap] of [[on, 1.25], [off, 1]] as const) {
      const rows = await days(t, trees.get(t)!.mid.adsetId);
      expect(rows.size).toBe(39);
      const weeks = new Map<number, number>();
      for (const [date, row] of rows) {
        expect(row.spend).toBeLessThanOrEqual(100 * cap);
        // Weeks run Sunday to Saturday in the account's zone (2026-05-03 is a Sunday).
        const week = Math.floor((Date.parse(date) - Date.parse('2026-05-03')) / (7 * DAY_S * 1000));
        weeks.set(week, (weeks.get(week) ?? 0) + row.spend);
      }
      // The first week began on Thursday 2026-04-30: prorated to its three days.
      expect(weeks.get(-1)!).toBeLessThanOrEqual(300 + 1e-6);
      for (const [week, spend] of weeks) if (week >= 0 && week < 5) expect(spend).toBeLessThanOrEqual(700 + 1e-6);
      const over = [...rows.values()].filter((r) => r.spend > 100).length;
      if (t === on) expect(over).toBeGreaterThan(3);
      else expect(over).toBe(0);
    }
  });
});
