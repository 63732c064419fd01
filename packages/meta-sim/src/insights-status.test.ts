import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// Deleted and archived objects in Insights, as Meta documents it: their stats stay in their
// parents' rows and on their own id, but an account's report at their level leaves them out
// unless the query filters on an effective status.

const RANGE = { since: '2026-05-01', until: '2026-05-03' };
const ALL_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'PENDING_REVIEW', 'DISAPPROVED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'IN_PROCESS', 'WITH_ISSUES'];

let t: TestSim;
let account: string;
let kept: Awaited<ReturnType<typeof createTree>>;
let archived: Awaited<ReturnType<typeof createTree>>;
let deletedAd: string;

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
  kept = await createTree(t, account, { name: 'Kept', adsetBudget: 8000, ads: 2 });
  archived = await createTree(t, account, { name: 'Archived', adsetBudget: 8000, ads: 1 });
  await t.advance('1d');
  deletedAd = kept.adIds[0]!;
  expect((await t.graph('DELETE', `/${deletedAd}`)).body).toEqual({ success: true });
  expect((await t.graph('POST', `/${archived.campaignId}`, { status: 'ARCHIVED' })).body).toEqual({ success: true });
  await t.advance('3d');
});
afterAll(() => t.close());

const cents = (r: any) => Math.round(Number(r.spend) * 100);
const sum = (rows: any[]) => rows.reduce((s, r) => s + cents(r), 0);

async function insights(path: string, params: Record<string, unknown>) {
  const res = await t.graph('GET', path, { fields: 'campaign_id,adset_id,ad_id,spend', time_range: RANGE, limit: 100, ...params });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

describe('deleted and archived objects in Insights', () => {
  it('leaves them out as rows of an account report by default, but keeps their spend in the total', async () => {
    const [total] = await insights(`/${account}/insights`, {});
    const ads = await insights(`/${account}/insights`, { level: 'ad' });
    expect(ads.map((r) => r.ad_id).sort()).toEqual([kept.adIds[1]]);
    const campaigns = await insights(`/${account}/insights`, { level: 'campaign' });
    expect(campaigns.map((r) => r.campaign_id)).toEqual([kept.campaignId]);
    const adsets = await insights(`/${account}/insights`, { level: 'adset' });
    expect(adsets.map((r) => r.adset_id)).toEqual([kept.adsetId]);
    // The account row counts everything that spent, deleted or not.
    expect(cents(total)).toBeGreaterThan(sum(ads));
  });

  it('returns them when the query filters on effective_status, and then the rows add up to the total', async () => {
    const [total] = await insights(`/${account}/insights`, {});
    const filtering = [{ field: 'ad.effective_status', operator: 'IN', value: ALL_STATUSES }];
    const ads = await insights(`/${account}/insights`, { level: 'ad', filtering });
    expect(ads.map((r) => r.ad_id).sort()).toEqual([...kept.adIds, ...archived.adIds].sort());
    expect(sum(ads)).toBe(cents(total));
    const campaigns = await insights(`/${account}/insights`, { level: 'campaign', filtering: [{ field: 'campaign.effective_status', operator: 'IN', value: ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED'] }] });
    expect(campaigns.map((r) => r.campaign_id).sort()).toEqual([kept.campaignId, archived.campaignId].sort());
    // Only the removed ones, when that is what the filter asks for.
    const removed = await insights(`/${account}/insights`, { level: 'ad', filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['DELETED', 'ARCHIVED'] }] });
    expect(removed.map((r) => r.ad_id).sort()).toEqual([deletedAd, archived.adIds[0]].sort());
  });

  it('answers on the deleted object itself, and counts it in its parent', async () => {
    const own = await insights(`/${deletedAd}/insights`, {});
    expect(own).toHaveLength(1);
    expect(cents(own[0])).toBeGreaterThan(0);
    const [adset] = await insights(`/${kept.adsetId}/insights`, {});
    const live = await insights(`/${kept.adsetId}/insights`, { level: 'ad' });
    expect(live.map((r) => r.ad_id)).toEqual([kept.adIds[1]]);
    expect(cents(adset)).toBe(cents(own[0]) + sum(live));
    // Its spend stopped at deletion: one day of delivery out of four.
    const days = await insights(`/${deletedAd}/insights`, { time_increment: 1 });
    expect(days.every((r) => r.date_start <= '2026-05-02')).toBe(true);
  });
});
