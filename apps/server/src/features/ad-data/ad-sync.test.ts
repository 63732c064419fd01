import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/types.ts';
import { dayIn } from '../../lib/tz.ts';
import { buildTestApp, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { adAccountId, connectUser, graph, simTree, syncClocks } from '../../test/ad-data.ts';
import { createUser } from '../../test/factories.ts';
import { testLog } from '../../test/jobs.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { syncPersonalAccountsJob } from '../personal-accounts/personal-accounts.jobs.ts';
import { syncAdAccountJob, type AdAccountSyncData } from './ad-data.jobs.ts';

// The ad-account sync against the simulator over HTTP: structure with deleted objects, insights
// of an account in Los Angeles reported in Shanghai days (checked against hourly figures summed
// by hand), one purchase action type, late conversions picked up by the backfill, a rate-limit
// pause and its continuation, and a token that dies.

let sim: TestSimulator;
let t: TestApp;
let user: SimUser;
let managerToken: string;
let personalAccountId: number;
let la: { act: string; id: number };
let tokyo: { act: string; id: number };

function ctx<T>(data: T): JobContext<T> {
  return { data, db: t.db, platform: sim.platform, clock: t.clock, config: testConfig(), log: testLog(), runId: 0, signal: new AbortController().signal, progress: async () => {} };
}
const runSync = (data: AdAccountSyncData) => syncAdAccountJob.run(ctx(data));

beforeAll(async () => {
  sim = await startTestSimulator();
  // Past the end of US daylight saving time (2026-11-01), so Los Angeles is UTC−8 throughout.
  await sim.advance('5d');
  t = await buildTestApp({ platform: sim.platform });
  await syncClocks(t, sim);
  const manager = await createUser(t.db, { is_admin: 1 });
  managerToken = await t.login(manager.account, manager.password);
  user = await sim.createUser({
    name: 'Ads FB',
    ad_accounts: [
      { currency: 'USD', timezone_name: 'America/Los_Angeles' },
      { currency: 'JPY', timezone_name: 'Asia/Shanghai' },
    ],
    pages: 1,
    pixels: 1,
  });
  personalAccountId = await connectUser(t, managerToken, user, (ids) => syncPersonalAccountsJob.run(ctx({ ids })));
  la = { act: user.ad_accounts[0]!.id, id: await adAccountId(t.db, user.ad_accounts[0]!.id) };
  tokyo = { act: user.ad_accounts[1]!.id, id: await adAccountId(t.db, user.ad_accounts[1]!.id) };
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('sync-ad-account', () => {
  let tree: Awaited<ReturnType<typeof simTree>>;
  let gone: Awaited<ReturnType<typeof simTree>>;

  it('mirrors every campaign, ad set and ad, with deleted ones, and stores insights of today and yesterday', async () => {
    tree = await simTree(sim, user, la.act, { name: 'LA campaign', ads: 2, adsetBudget: 20000 });
    gone = await simTree(sim, user, la.act, { name: 'Gone campaign', ads: 1, adsetBudget: 10000 });
    // Three days of delivery, then the second campaign's ad is deleted (its history stays on the platform).
    await sim.control('POST', '/__sim/backdate', { account_id: la.act, days: 3 });
    await graph(sim, user.access_token, 'DELETE', gone.adIds[0]!);
    await syncClocks(t, sim);

    const result = await runSync({ ad_account_id: la.id, mode: 'recent' });
    expect(result.status).toBe('success');

    const ads = await t.db.selectFrom('ads').select(['platform_id', 'deleted_at', 'effective_status', 'landing_url']).where('ad_account_id', '=', la.id).execute();
    expect(ads.map((a) => a.platform_id).sort()).toEqual([...tree.adIds, ...gone.adIds].sort());
    const deleted = ads.find((a) => a.platform_id === gone.adIds[0]);
    expect(deleted?.deleted_at).not.toBeNull();
    expect(ads.find((a) => a.platform_id === tree.adIds[0])?.landing_url).toBe('https://drama.example/ep1');
    const campaign = await t.db.selectFrom('ad_campaigns').selectAll().where('platform_id', '=', tree.campaignId).executeTakeFirstOrThrow();
    expect(campaign.budget_level).toBe('adset');
    const adset = await t.db.selectFrom('ad_sets').selectAll().where('platform_id', '=', tree.adsetId).executeTakeFirstOrThrow();
    expect(adset.daily_budget_minor).toBe(20000);
    expect(adset.countries).toEqual(['US']);

    // The deleted ad's spend is there too: insights are asked for every effective status.
    const deletedFacts = await t.db
      .selectFrom('ad_insights_daily as d')
      .innerJoin('ads as a', 'a.id', 'd.ad_id')
      .select((eb) => eb.fn.sum<number>('d.spend_minor').as('spend'))
      .where('a.platform_id', '=', gone.adIds[0]!)
      .executeTakeFirstOrThrow();
    expect(Number(deletedFacts.spend)).toBeGreaterThan(0);
  });

  it('reports Los Angeles days in Shanghai days exactly: spend per report day = hourly spend summed by hand', async () => {
    const now = t.clock.now().getTime();
    const today = dayIn(now, 'America/Los_Angeles');
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
    // The platform's own hourly rows, read directly.
    const hourly = await graph(sim, user.access_token, 'GET', `${la.act}/insights`, {
      level: 'ad',
      time_increment: 1,
      time_range: { since: yesterday, until: today },
      breakdowns: ['hourly_stats_aggregated_by_advertiser_time_zone'],
      fields: 'ad_id,spend',
      filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'ADSET_PAUSED', 'CAMPAIGN_PAUSED'] }],
      limit: 1000,
    });
    const byHand = new Map<string, number>();
    for (const r of hourly.data as { date_start: string; spend: string; hourly_stats_aggregated_by_advertiser_time_zone: string }[]) {
      // LA is UTC−8 in November: local hour h of date d starts at d (h+8):00 UTC.
      const h = Number(r.hourly_stats_aggregated_by_advertiser_time_zone.slice(0, 2));
      const utc = Date.parse(`${r.date_start}T00:00:00Z`) + (h + 8) * 3_600_000;
      const shanghaiDay = new Date(utc + 8 * 3_600_000).toISOString().slice(0, 10);
      byHand.set(shanghaiDay, (byHand.get(shanghaiDay) ?? 0) + Math.round(Number(r.spend) * 100));
    }
    const stats = await t.db.selectFrom('ad_stats_daily').select(['day', (eb) => eb.fn.sum<number>('spend_minor').as('spend')]).where('ad_account_id', '=', la.id).groupBy('day').execute();
    const ours = new Map(stats.map((s) => [s.day, Number(s.spend)]));
    expect(byHand.size).toBeGreaterThan(1);
    for (const [day, spend] of byHand) expect(ours.get(day), day).toBe(spend);
    // The whole synced range equals the platform's daily figures.
    const daily = await t.db.selectFrom('ad_insights_daily as d').innerJoin('ads as a', 'a.id', 'd.ad_id').select((eb) => eb.fn.sum<number>('d.spend_minor').as('s')).where('a.ad_account_id', '=', la.id).executeTakeFirstOrThrow();
    expect([...ours.values()].reduce((a, b) => a + b, 0)).toBe(Number(daily.s));
    // USD: this account is in USD (rate 1): cents equal minor units.
    const usd = await t.db.selectFrom('ad_stats_daily').select((eb) => [eb.fn.sum<number>('spend_usd_cents').as('usd'), eb.fn.sum<number>('spend_minor').as('minor')]).where('ad_account_id', '=', la.id).executeTakeFirstOrThrow();
    expect(Number(usd.usd)).toBe(Number(usd.minor));
    // The campaign rollup sums the same.
    const rollup = await t.db.selectFrom('campaign_stats_daily').select((eb) => eb.fn.sum<number>('spend_minor').as('s')).where('ad_account_id', '=', la.id).executeTakeFirstOrThrow();
    expect(Number(rollup.s)).toBe(Number(usd.minor));
  });

  it('counts purchases from one action type only', async () => {
    const stored = await t.db.selectFrom('ad_insights_daily as d').innerJoin('ads as a', 'a.id', 'd.ad_id').select(['a.platform_id', 'd.date', 'd.purchases']).where('a.ad_account_id', '=', la.id).execute();
    const platformRows = await graph(sim, user.access_token, 'GET', `${la.act}/insights`, {
      level: 'ad',
      time_increment: 1,
      time_range: { since: stored.map((s) => s.date).sort()[0], until: stored.map((s) => s.date).sort().at(-1) },
      fields: 'ad_id,actions',
      filtering: [{ field: 'ad.effective_status', operator: 'IN', value: ['ACTIVE', 'PAUSED', 'DELETED'] }],
      limit: 1000,
    });
    let compared = 0;
    for (const r of platformRows.data as { ad_id: string; date_start: string; actions?: { action_type: string; value: string }[] }[]) {
      const purchase = Number(r.actions?.find((a) => a.action_type === 'purchase')?.value ?? 0);
      const all = (r.actions ?? []).filter((a) => ['purchase', 'omni_purchase', 'offsite_conversion.fb_pixel_purchase'].includes(a.action_type)).reduce((n, a) => n + Number(a.value), 0);
      const ours = stored.find((s) => s.platform_id === r.ad_id && s.date === r.date_start);
      expect(ours?.purchases).toBe(purchase);
      if (purchase > 0) {
        expect(all).toBe(purchase * 3);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('an account in the report zone keeps its days, with JPY budgets as whole yen', async () => {
    await simTree(sim, user, tokyo.act, { name: 'Tokyo', ads: 1, adsetBudget: 3000 });
    await sim.control('POST', '/__sim/backdate', { account_id: tokyo.act, days: 2 });
    await syncClocks(t, sim);
    expect((await runSync({ ad_account_id: tokyo.id, mode: 'recent' })).status).toBe('success');
    const adset = await t.db.selectFrom('ad_sets').select(['daily_budget_minor', 'currency']).where('ad_account_id', '=', tokyo.id).executeTakeFirstOrThrow();
    expect(adset).toEqual({ daily_budget_minor: 3000, currency: 'JPY' });
    const daily = await t.db.selectFrom('ad_insights_daily as d').innerJoin('ads as a', 'a.id', 'd.ad_id').select(['d.date', 'd.spend_minor', 'd.purchases']).where('a.ad_account_id', '=', tokyo.id).orderBy('d.date').execute();
    const stats = await t.db.selectFrom('ad_stats_daily').select(['day', 'spend_minor', 'purchases', 'spend_usd_cents']).where('ad_account_id', '=', tokyo.id).orderBy('day').execute();
    expect(stats.map((s) => [s.day, s.spend_minor, s.purchases])).toEqual(daily.map((d) => [d.date, d.spend_minor, d.purchases]));
    // ¥ at 150 per dollar: cents = yen / 150 × 100, rounded per ad-day.
    for (const s of stats) expect(s.spend_usd_cents).toBe(Math.round((s.spend_minor / 150) * 100));
  });

  it('the backfill picks up late conversions that changed a past day', async () => {
    const before = await t.db.selectFrom('ad_insights_daily as d').innerJoin('ads as a', 'a.id', 'd.ad_id').select(['d.ad_id', 'd.date', 'd.purchases']).where('a.ad_account_id', '=', la.id).execute();
    // Two days pass: conversions of earlier days keep arriving on the platform.
    await sim.advance('2d');
    await syncClocks(t, sim);
    expect((await runSync({ ad_account_id: la.id, mode: 'backfill' })).status).toBe('success');
    const after = await t.db.selectFrom('ad_insights_daily as d').innerJoin('ads as a', 'a.id', 'd.ad_id').select(['d.ad_id', 'd.date', 'd.purchases']).where('a.ad_account_id', '=', la.id).execute();
    const grew = before.filter((b) => (after.find((a) => a.ad_id === b.ad_id && a.date === b.date)?.purchases ?? 0) > b.purchases);
    expect(grew.length).toBeGreaterThan(0);
    // The backfill reaches back 28 days: the first delivery days are there too.
    expect(after.length).toBeGreaterThan(before.length);
  });

  it('a rate limit pauses the sync with a continuation that goes on from the insights', async () => {
    await sim.control('POST', '/__sim/faults', { path: `/${la.act}/insights`, count: 20, error: { code: 17, error_subcode: 2446079, message: '(#17) User request limit reached' } });
    const paused = await runSync({ ad_account_id: la.id, mode: 'recent' });
    await sim.control('DELETE', '/__sim/faults');
    expect(paused.continuation?.data).toEqual({ ad_account_id: la.id, mode: 'recent', phase: 'insights' });
    expect(paused.continuation!.at.getTime()).toBeGreaterThanOrEqual(t.clock.now().getTime() + 5 * 60_000);
    const state = await t.db.selectFrom('ad_account_sync_state').selectAll().where('ad_account_id', '=', la.id).executeTakeFirstOrThrow();
    expect(state.status).toBe('paused');
    const resumed = await runSync(paused.continuation!.data as AdAccountSyncData);
    expect(resumed.status).toBe('success');
    expect(resumed.summary?.campaigns).toBe(0); // the structure was not read again
    expect((await t.db.selectFrom('ad_account_sync_state').select('status').where('ad_account_id', '=', la.id).executeTakeFirstOrThrow()).status).toBe('idle');
  });

  it('a dead token marks its personal account invalid with the reason, and the sync says so', async () => {
    await sim.control('POST', '/__sim/tokens/expire', { token: user.access_token });
    const result = await runSync({ ad_account_id: la.id, mode: 'recent' });
    expect(result.status).toBe('failed');
    const pa = await t.db.selectFrom('personal_accounts').select(['status', 'status_reason_key', 'status_reason_params']).where('id', '=', personalAccountId).executeTakeFirstOrThrow();
    expect(pa.status).toBe('invalid');
    expect(pa.status_reason_key).toBe('TOKEN_INVALID_DETAIL');
    expect(JSON.stringify(pa.status_reason_params)).toMatch(/expired|Session/i);
    expect(typeof result.message === 'object' && result.message.en).toMatch(/no personal account with a working token/);
  });
});
