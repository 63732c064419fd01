import ExcelJS from 'exceljs';
import { metricValue, SUM_METRIC_KEYS, metrics } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/types.ts';
import { dayIn } from '../../lib/tz.ts';
import { adAccountId, connectUser, graph, simTree, syncClocks } from '../../test/ad-data.ts';
import { buildTestApp, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createDepartment, createUser } from '../../test/factories.ts';
import { testLog } from '../../test/jobs.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { adSyncOf, syncAdAccountJob } from './ad-data.jobs.ts';
import { createAdOperations } from './ad-ops.service.ts';

// Reports and operations through the API on synced simulator data: totals equal the sum of the
// rows at every level, data scope for staff, leaders and managers, comparison with the previous
// period; every act logged pending → ok | failed with the platform's reason, the mirror re-read,
// budget rules, copies with another pixel, the super admin's limits, and a crashed act reconciled.

const PATHS = ['/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group', '/advertising/copy-log', '/advertising/close-log', '/advertising/remove-log'];

let sim: TestSimulator;
let t: TestApp;
let user: SimUser;
let tokens: Record<'manager' | 'leader' | 'staff1' | 'staff2' | 'root', string>;
let ids: Record<'leader' | 'staff1' | 'staff2', number>;
let acc1: number;
let acc2: number;
let tree1: Awaited<ReturnType<typeof simTree>>;
let tree2: Awaited<ReturnType<typeof simTree>>;
let from: string;
let to: string;

function ctx<T>(data: T): JobContext<T> {
  return { data, db: t.db, platform: sim.platform, clock: t.clock, config: testConfig(), log: testLog(), runId: 0, signal: new AbortController().signal, progress: async () => {} };
}

const report = (token: string, body: Record<string, unknown>) => t.call('/api/ad-reports/list', { date_from: from, date_to: to, page_size: 100, ...body }, { token, lang: 'en' });
const idOf = async (table: 'ads' | 'ad_sets' | 'ad_campaigns', platformId: string) => (await t.db.selectFrom(table).select('id').where('platform_id', '=', platformId).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  sim = await startTestSimulator();
  await sim.advance('5d');
  t = await buildTestApp({ platform: sim.platform });
  await syncClocks(t, sim);
  const manager = await createUser(t.db, { is_admin: 1 });
  const root = await createUser(t.db, { is_admin: 9 });
  const deptA = await createDepartment(t.db);
  const deptB = await createDepartment(t.db);
  const leader = await createUser(t.db, { is_leader: 1, department_id: deptA.id, paths: PATHS, name: 'Leader A' });
  const staff1 = await createUser(t.db, { department_id: deptA.id, paths: PATHS, name: 'Staff One' });
  const staff2 = await createUser(t.db, { department_id: deptB.id, paths: PATHS, name: 'Staff Two' });
  ids = { leader: leader.id, staff1: staff1.id, staff2: staff2.id };
  tokens = {
    manager: await t.login(manager.account, manager.password),
    root: await t.login(root.account, root.password),
    leader: await t.login(leader.account, leader.password),
    staff1: await t.login(staff1.account, staff1.password),
    staff2: await t.login(staff2.account, staff2.password),
  };
  user = await sim.createUser({ ad_accounts: [{ currency: 'USD', timezone_name: 'America/Los_Angeles' }, { currency: 'EUR', timezone_name: 'Europe/Berlin' }], pages: 1, pixels: 2 });
  await connectUser(t, tokens.manager, user, sim.platform);
  acc1 = await adAccountId(t.db, user.ad_accounts[0]!.id);
  acc2 = await adAccountId(t.db, user.ad_accounts[1]!.id);
  await t.db.insertInto('user_ad_accounts').values([{ user_id: staff1.id, ad_account_id: acc1, created_at: new Date() }, { user_id: staff2.id, ad_account_id: acc2, created_at: new Date() }]).execute();

  tree1 = await simTree(sim, user, user.ad_accounts[0]!.id, { name: 'One campaign', ads: 2, adsetBudget: 30000 });
  tree2 = await simTree(sim, user, user.ad_accounts[1]!.id, { name: 'Two campaign', ads: 1, adsetBudget: 20000 });
  await sim.control('POST', '/__sim/backdate', { account_id: user.ad_accounts[0]!.id, days: 6 });
  await sim.control('POST', '/__sim/backdate', { account_id: user.ad_accounts[1]!.id, days: 6 });
  await syncClocks(t, sim);
  for (const id of [acc1, acc2]) expect((await syncAdAccountJob.run(ctx({ ad_account_id: id, mode: 'backfill' }))).status).toBe('success');
  to = dayIn(t.clock.now().getTime(), 'Asia/Shanghai');
  from = new Date(Date.parse(to) - 2 * 86_400_000).toISOString().slice(0, 10);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('ad reports', () => {
  it('totals equal the sum of the rows at every level, and ratios come from the sums', async () => {
    for (const level of ['optimizer', 'account', 'campaign', 'adset', 'ad']) {
      const res = await report(tokens.manager, { level });
      expect(res.code, level).toBe(0);
      expect(res.data.list.length, level).toBeGreaterThan(0);
      for (const key of SUM_METRIC_KEYS) {
        const sum = res.data.list.reduce((n: number, r: any) => n + (r.metrics[key] ?? 0), 0);
        expect(res.data.totals[key], `${level} ${key}`).toBeCloseTo(sum, 6);
      }
      expect(res.data.totals.spend).toBeGreaterThan(0);
      const sums = { spend_usd_cents: Math.round(res.data.totals.spend * 100), impressions: res.data.totals.impressions, clicks: res.data.totals.clicks };
      expect(res.data.totals.ctr).toBeCloseTo(metricValue('ctr', sums)!, 9);
      expect(res.data.totals.cpm).toBeCloseTo(metricValue('cpm', sums)!, 6);
    }
    // The optimizer rows are the accounts' assignees; every level adds up to the same spend.
    const byOwner = await report(tokens.manager, { level: 'optimizer' });
    expect(byOwner.data.list.map((r: any) => r.id).sort()).toEqual([ids.staff1, ids.staff2].sort());
    const byAd = await report(tokens.manager, { level: 'ad' });
    expect(byAd.data.totals.spend).toBeCloseTo(byOwner.data.totals.spend, 6);
  });

  it('staff see their own objects only, leaders their department, managers everyone', async () => {
    const names = async (token: string, level: string) => (await report(token, { level })).data.list.map((r: any) => r.name).sort();
    expect(await names(tokens.staff1, 'campaign')).toEqual(['One campaign']);
    expect(await names(tokens.staff2, 'campaign')).toEqual(['Two campaign']);
    expect(await names(tokens.leader, 'campaign')).toEqual(['One campaign']);
    expect(await names(tokens.manager, 'campaign')).toEqual(['One campaign', 'Two campaign']);
    expect((await report(tokens.staff1, { level: 'optimizer' })).data.list.map((r: any) => r.id)).toEqual([ids.staff1]);
    // Another team's objects: not in the export, not in the chart, not to be acted on.
    const other = await idOf('ads', tree2.adIds[0]!);
    const exported = await t.raw('/api/ad-reports/export', { token: tokens.staff1, payload: { level: 'ad', date_from: from, date_to: to }, headers: { 'content-type': 'application/json' } });
    expect(exported.statusCode).toBe(200);
    expect(exported.rawPayload.includes(Buffer.from(tree2.adIds[0]!))).toBe(false);
    const hourly = await t.call('/api/ad-reports/hourly', { level: 'ad', id: other, day: to }, { token: tokens.staff1 });
    expect(hourly.data.series.every((p: any) => p.spend === 0 && p.previous_spend === 0)).toBe(true);
    const act = await t.call('/api/ad-ops/apply', { level: 'ad', ids: [other], action: 'pause' }, { token: tokens.staff1, lang: 'en' });
    expect(act.code).not.toBe(0);
    expect(act.message).toMatch(/outside your scope/);
    const ops = await t.db.selectFrom('ad_operations').select('id').where('object_id', '=', other).execute();
    expect(ops).toEqual([]);
  });

  it('compares with the previous period of the same length', async () => {
    const res = await report(tokens.manager, { level: 'campaign', compare: true });
    expect(res.data.previous_range).toEqual({ date_from: new Date(Date.parse(from) - 3 * 86_400_000).toISOString().slice(0, 10), date_to: new Date(Date.parse(from) - 86_400_000).toISOString().slice(0, 10) });
    const previous = await report(tokens.manager, { level: 'campaign', date_from: res.data.previous_range.date_from, date_to: res.data.previous_range.date_to });
    expect(res.data.previous_totals.spend).toBeCloseTo(previous.data.totals.spend, 6);
    const row = res.data.list[0];
    const prevRow = previous.data.list.find((r: any) => r.id === row.id);
    expect(row.previous.spend).toBeCloseTo(prevRow.metrics.spend, 6);
    expect(prevRow.metrics.spend).toBeGreaterThan(0);
    expect(row.change.spend).toBeCloseTo((row.metrics.spend - prevRow.metrics.spend) / prevRow.metrics.spend, 9);
  });

  it('the hourly chart of a row adds up to the report day of that row', async () => {
    const campaign = await idOf('ad_campaigns', tree1.campaignId);
    const day = await report(tokens.manager, { level: 'campaign', campaign_id: campaign, date_from: from, date_to: from });
    const chart = await t.call('/api/ad-reports/hourly', { level: 'campaign', id: campaign, day: from }, { token: tokens.manager });
    expect(chart.data.series).toHaveLength(24);
    const spend = chart.data.series.reduce((n: number, p: any) => n + p.spend, 0);
    expect(day.data.list[0].metrics.spend).toBeGreaterThan(0);
    expect(spend).toBeCloseTo(day.data.list[0].metrics.spend, 2);
    expect(chart.data.series.reduce((n: number, p: any) => n + p.impressions, 0)).toBe(day.data.list[0].metrics.impressions);
  });

  it('a manager’s new exchange rate re-prices the report facts it governs; staff may not set rates', async () => {
    const before = await report(tokens.manager, { level: 'account', ad_account_ids: [acc2] });
    const euros = await t.db.selectFrom('ad_stats_daily').select((eb) => eb.fn.sum<number>('spend_minor').as('m')).where('ad_account_id', '=', acc2).where('day', '>=', from).where('day', '<=', to).executeTakeFirstOrThrow();
    const saved = await t.call('/api/fx-rates/save', { currency: 'EUR', day: '2020-01-01', units_per_usd: 0.5 }, { token: tokens.manager });
    expect(saved.code).toBe(0);
    expect(saved.data.updated_rows).toBeGreaterThan(0);
    const after = await report(tokens.manager, { level: 'account', ad_account_ids: [acc2] });
    // €1 = $2 now: cents are rounded per ad-day, so the total is within a cent per row of 2 × euros.
    expect(after.data.totals.spend).toBeCloseTo((Number(euros.m) / 100) * 2, 0);
    expect(after.data.totals.spend).not.toBeCloseTo(before.data.totals.spend, 0);
    const refused = await t.call('/api/fx-rates/save', { currency: 'EUR', day: '2020-01-01', units_per_usd: 1 }, { token: tokens.staff1 });
    expect(refused.code).not.toBe(0);
    const list = await t.call('/api/fx-rates/list', { currency: 'EUR' }, { token: tokens.staff1 });
    expect(list.data.list[0]).toMatchObject({ currency: 'EUR', units_per_usd: 0.5 });
  });

  it('says as of when the data was synced, and sorts by any metric', async () => {
    const res = await report(tokens.manager, { level: 'ad', sort_field: 'ctr', sort_order: 'ascend' });
    expect(res.data.as_of).toBe(t.clock.now().toISOString());
    // The optimizer view is scoped by people, not ad accounts: it still says when its figures came in.
    const own = await report(tokens.staff1, { level: 'optimizer' });
    expect(own.data.list.length).toBe(1);
    expect(own.data.as_of).toBe(t.clock.now().toISOString());
    const ctrs = res.data.list.map((r: any) => r.metrics.ctr).filter((v: number | null) => v !== null);
    expect(ctrs).toEqual([...ctrs].sort((a, b) => a - b));
    expect(metrics.ctr.kind).toBe('ratio');
  });
});

describe('ad operations', () => {
  it('pausing an ad logs pending → ok with before and after, and the mirror is re-read', async () => {
    const ad = await idOf('ads', tree1.adIds[0]!);
    const res = await t.call('/api/ad-ops/apply', { level: 'ad', ids: [ad], action: 'pause' }, { token: tokens.staff1, lang: 'en' });
    expect(res.code).toBe(0);
    expect(res.data.results[0]).toMatchObject({ id: ad, result: 'ok', before: { status: 'ACTIVE' }, after: { status: 'PAUSED' } });
    const op = await t.db.selectFrom('ad_operations').selectAll().where('id', '=', res.data.results[0].operation_id).executeTakeFirstOrThrow();
    expect(op).toMatchObject({ result: 'ok', action: 'pause', actor_type: 'user', actor_user_id: ids.staff1, level: 'ad', object_platform_id: tree1.adIds[0] });
    const mirror = await t.db.selectFrom('ads').select(['status', 'effective_status']).where('id', '=', ad).executeTakeFirstOrThrow();
    expect(mirror).toEqual({ status: 'PAUSED', effective_status: 'PAUSED' });
    // Append-only: a final row cannot change.
    await expect(t.db.updateTable('ad_operations').set({ result: 'failed' }).where('id', '=', op.id).execute()).rejects.toThrow(/append-only/);
    // 关闭日志 lists it; the other team does not see it.
    const closeLog = await t.call('/api/ad-operations/list', { log: 'close' }, { token: tokens.leader });
    expect(closeLog.data.list.map((o: any) => o.id)).toContain(op.id);
    const otherLog = await t.call('/api/ad-operations/list', { log: 'all' }, { token: tokens.staff2 });
    expect(otherLog.data.list.map((o: any) => o.id)).not.toContain(op.id);
  });

  it('a platform refusal is logged failed with the platform’s reason, and the other objects of the batch still go through', async () => {
    const [a, b] = await Promise.all([idOf('ads', tree1.adIds[0]!), idOf('ads', tree1.adIds[1]!)]);
    await sim.control('POST', '/__sim/faults', { path: `/${tree1.adIds[1]}`, method: 'POST', count: 1, error: { code: 100, message: '(#100) Invalid parameter', error_user_msg: 'This ad is under review and cannot be changed now.' } });
    const res = await t.call('/api/ad-ops/apply', { level: 'ad', ids: [a, b], action: 'activate' }, { token: tokens.manager, lang: 'en' });
    await sim.control('DELETE', '/__sim/faults');
    const byId = new Map(res.data.results.map((r: any) => [r.id, r]));
    expect((byId.get(a) as any).result).toBe('ok');
    expect((byId.get(b) as any)).toMatchObject({ result: 'failed' });
    expect((byId.get(b) as any).error).toMatch(/under review/);
    const row = await t.db.selectFrom('ad_operations').select(['result', 'error', 'error_en', 'batch_id']).where('id', '=', (byId.get(b) as any).operation_id).executeTakeFirstOrThrow();
    expect(row.result).toBe('failed');
    expect(row.error).toMatch(/广告平台返回错误.*under review/);
    expect(row.error_en).toMatch(/answered with an error.*under review/);
    expect(row.batch_id).toBe(res.data.batch_id);
  });

  it('budgets: major units in, minor stored; only the holder; four changes an hour, said before sending with the time of the next', async () => {
    const adset = await idOf('ad_sets', tree1.adsetId);
    const campaign = await idOf('ad_campaigns', tree1.campaignId);
    const changes = async (token = tokens.staff1) => t.call('/api/ad-ops/budget_changes', { ids: [adset] }, { token, lang: 'en' });
    expect((await changes()).data.list).toEqual([{ id: adset, used: 0, limit: 4, next_change_at: null, frees_at: null }]);
    const t0 = t.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const hhmm = (ms: number) => `${iso(ms).slice(11, 16)} UTC`;
    const ok1 = await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: 123.45 }, { token: tokens.staff1, lang: 'en' });
    expect(ok1.data.results[0]).toMatchObject({ result: 'ok', before: { daily_budget_minor: 30000 }, after: { daily_budget_minor: 12345, currency: 'USD' }, budget_changes: { used: 0 } });
    expect((await t.db.selectFrom('ad_sets').select('daily_budget_minor').where('id', '=', adset).executeTakeFirstOrThrow()).daily_budget_minor).toBe(12345);
    const notHolder = await t.call('/api/ad-ops/apply', { level: 'campaign', ids: [campaign], action: 'budget', daily_budget: 50 }, { token: tokens.staff1, lang: 'en' });
    expect(notHolder.data.results[0].result).toBe('failed');
    expect(notHolder.data.results[0].error).toMatch(/held by its ad set/);
    // Two more, ten minutes apart (the clock moves; the platform's own count stays within its hour).
    for (const v of [124, 125]) {
      t.clock.advance(10 * 60_000);
      expect((await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: v }, { token: tokens.staff1 })).data.results[0].result).toBe('ok');
    }
    t.clock.advance(10 * 60_000);
    // The fourth is the last of the hour: the confirmation warns and says from when the next may follow.
    const last = await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: 126, dry_run: true }, { token: tokens.staff1, lang: 'en' });
    expect(last.data.results[0]).toMatchObject({ result: 'preview', budget_changes: { used: 3, limit: 4, next_change_at: null, frees_at: iso(t0 + 3_600_000) } });
    expect(last.data.results[0].warnings.join('\n')).toContain(`this is the last change the platform allows (4 an hour); the next may follow after ${hhmm(t0 + 3_600_000)}`);
    expect((await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: 126 }, { token: tokens.staff1 })).data.results[0].result).toBe('ok');

    // All four used: the dialog is told before sending, and the act is refused without a platform call.
    expect((await changes()).data.list).toEqual([{ id: adset, used: 4, limit: 4, next_change_at: iso(t0 + 3_600_000), frees_at: iso(t0 + 3_600_000) }]);
    const preview = await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: 127, dry_run: true }, { token: tokens.staff1, lang: 'en' });
    expect(preview.data.results[0].error).toMatch(new RegExp(`changed 4 times this hour .* after ${hhmm(t0 + 3_600_000)}`));
    expect(preview.data.results[0].budget_changes).toMatchObject({ used: 4, next_change_at: iso(t0 + 3_600_000) });
    const fifth = await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: 127 }, { token: tokens.staff1, lang: 'en' });
    expect(fifth.data.results[0].result).toBe('failed');
    expect((await t.db.selectFrom('ad_sets').select('daily_budget_minor').where('id', '=', adset).executeTakeFirstOrThrow()).daily_budget_minor).toBe(12600);
    // The refused act is logged, but only changes that took effect count.
    expect((await changes()).data.list[0].used).toBe(4);

    // Another team's ad set is not described; bad input is refused.
    expect((await changes(tokens.staff2)).code).not.toBe(0);
    expect((await t.call('/api/ad-ops/budget_changes', { ids: [] }, { token: tokens.staff1 })).code).not.toBe(0);

    // An hour after the first, it leaves the count: one change is allowed again, the next frees ten minutes later.
    t.clock.advance(31 * 60_000);
    expect((await changes()).data.list).toEqual([{ id: adset, used: 3, limit: 4, next_change_at: null, frees_at: iso(t0 + 70 * 60_000) }]);
  });

  it('the super admin may only switch on and off', async () => {
    const ad = await idOf('ads', tree2.adIds[0]!);
    const rename = await t.call('/api/ad-ops/apply', { level: 'ad', ids: [ad], action: 'rename', name: 'x' }, { token: tokens.root, lang: 'en' });
    expect(rename.message).toMatch(/only switch objects on or off/);
    const pause = await t.call('/api/ad-ops/apply', { level: 'ad', ids: [ad], action: 'pause' }, { token: tokens.root });
    expect(pause.data.results[0].result).toBe('ok');
  });

  it('copies an ad set with another pixel by re-creating it, and logs the copy', async () => {
    const adset = await idOf('ad_sets', tree1.adsetId);
    const pixel = user.pixels[1]!.id;
    const res = await t.call('/api/ad-ops/copy', { level: 'adset', ids: [adset], pixel_id: pixel, rename_suffix: ' (pixel 2)' }, { token: tokens.staff1, lang: 'en' });
    expect(res.code).toBe(0);
    expect(res.data.results[0].result).toBe('ok');
    const copiedId = res.data.results[0].after.copied_id as string;
    const onPlatform = await graph(sim, user.access_token, 'GET', copiedId, { fields: 'name,promoted_object,status' });
    expect(onPlatform.promoted_object.pixel_id).toBe(pixel);
    expect(onPlatform.status).toBe('PAUSED');
    const mirror = await t.db.selectFrom('ad_sets').select(['pixel_id', 'name']).where('platform_id', '=', copiedId).executeTakeFirstOrThrow();
    expect(mirror.pixel_id).toBe(pixel);
    const ads = await t.db.selectFrom('ads as a').innerJoin('ad_sets as s', 's.id', 'a.adset_id').select('a.id').where('s.platform_id', '=', copiedId).execute();
    expect(ads.length).toBe(2);
    const log = await t.call('/api/ad-operations/list', { log: 'all' }, { token: tokens.staff1 });
    expect(log.data.list[0].action).toBe('copy');
  });

  it('copies a campaign with overrides; a tree beyond the synchronous limit is copied in chunks', async () => {
    const campaign = await idOf('ad_campaigns', tree1.campaignId);
    // The campaign, its ad set and two ads are 4 objects: more than a synchronous copy may create (3).
    const res = await t.call('/api/ad-ops/copy', { level: 'campaign', ids: [campaign], name: 'One campaign (copy)', status: 'PAUSED' }, { token: tokens.staff1, lang: 'en' });
    expect(res.data.results[0]).toMatchObject({ result: 'ok' });
    expect(res.data.results[0].after.objects).toBeGreaterThanOrEqual(4);
    const copiedId = res.data.results[0].after.copied_id as string;
    const copied = await t.db.selectFrom('ad_campaigns').select(['id', 'name', 'status']).where('platform_id', '=', copiedId).executeTakeFirstOrThrow();
    expect(copied).toMatchObject({ name: 'One campaign (copy)', status: 'PAUSED' });
    const children = await t.db.selectFrom('ads').select('id').where('campaign_id', '=', copied.id).execute();
    const source = await t.db.selectFrom('ads').select('id').where('campaign_id', '=', campaign).where('deleted_at', 'is', null).execute();
    expect(children.length).toBe(source.length);
  });

  it('a zero-decimal currency takes whole units: 1500 JPY is stored as 1500', async () => {
    const jp = await sim.createUser({ ad_accounts: [{ currency: 'JPY', timezone_name: 'Asia/Tokyo' }], pages: 1, pixels: 1 });
    await connectUser(t, tokens.manager, jp, sim.platform);
    const tree = await simTree(sim, jp, jp.ad_accounts[0]!.id, { ads: 1, adsetBudget: 2000 });
    expect((await syncAdAccountJob.run(ctx({ ad_account_id: await adAccountId(t.db, jp.ad_accounts[0]!.id), mode: 'recent' }))).status).toBe('success');
    const adset = await idOf('ad_sets', tree.adsetId);
    const res = await t.call('/api/ad-ops/apply', { level: 'adset', ids: [adset], action: 'budget', daily_budget: 1500 }, { token: tokens.manager });
    expect(res.data.results[0]).toMatchObject({ result: 'ok', after: { daily_budget_minor: 1500, currency: 'JPY' } });
    const onPlatform = await graph(sim, jp.access_token, 'GET', tree.adsetId, { fields: 'daily_budget' });
    expect(onPlatform.daily_budget).toBe('1500');
  });

  it('the operation log exports exactly the shown columns, in their order', async () => {
    const exportLog = async (payload: Record<string, unknown>) => {
      const res = await t.raw('/api/ad-operations/export', { token: tokens.staff1, payload: { log: 'all', ...payload }, headers: { 'content-type': 'application/json', 'accept-language': 'en' } });
      expect(res.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      return { header: (ws.getRow(1).values as unknown[]).slice(1), rows: ws.actualRowCount - 1, first: (ws.getRow(2).values as unknown[]).slice(1) };
    };
    const all = await exportLog({});
    expect(all.header).toEqual(['Time', 'By', 'Action', 'Level', 'Object', 'ID', 'Ad account', 'Before', 'After', 'Result', 'Reason']);
    // The screen's "object" column is level, name and ID in the file; "result" is the result and its reason.
    const shown = await exportLog({ columns: ['result', 'object', 'action'] });
    expect(shown.header).toEqual(['Result', 'Reason', 'Level', 'Object', 'ID', 'Action']);
    expect(shown.rows).toBe(all.rows);
    expect(shown.rows).toBeGreaterThan(0);
    expect(['OK', 'Failed']).toContain(shown.first[0]);
    const bad = await t.call('/api/ad-operations/export', { log: 'all', columns: ['time', 'token'] }, { token: tokens.staff1 });
    expect(bad.code).toBe(-2);
  });

  it('reconciles a pending act a crash left behind against the platform', async () => {
    const paused = tree1.adIds[0]!; // paused on the platform above, then switched on again
    const ad = await idOf('ads', paused);
    const account = acc1;
    const at = new Date(t.clock.now().getTime() - 10 * 60_000);
    const rows = await t.db
      .insertInto('ad_operations')
      .values([
        { batch_id: '00000000-0000-4000-8000-000000000001', actor_type: 'system', action: 'activate', level: 'ad', object_id: ad, object_platform_id: paused, object_name: 'Ad 1', ad_account_id: account, before: JSON.stringify({ status: 'PAUSED' }), after: JSON.stringify({ status: 'ACTIVE' }), created_at: at },
        { batch_id: '00000000-0000-4000-8000-000000000001', actor_type: 'system', action: 'rename', level: 'ad', object_id: ad, object_platform_id: paused, object_name: 'Ad 1', ad_account_id: account, before: JSON.stringify({ name: 'Ad 1' }), after: JSON.stringify({ name: 'Never sent' }), created_at: at },
      ])
      .returning('id')
      .execute();
    const ops = createAdOperations({ db: t.db, clock: t.clock, platform: sim.platform, sync: adSyncOf(ctx({})) });
    const r = await ops.reconcile();
    expect(r).toEqual({ checked: 2, ok: 1, failed: 1 });
    const after = await t.db.selectFrom('ad_operations').select(['id', 'result', 'error_en']).where('id', 'in', rows.map((x) => x.id)).orderBy('id').execute();
    expect(after[0]!.result).toBe('ok');
    expect(after[1]).toMatchObject({ result: 'failed' });
    expect(after[1]!.error_en).toMatch(/did not take effect/);
  });
});
