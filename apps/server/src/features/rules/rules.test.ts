import { ruleTemplate, type RuleDraftIn } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../jobs/types.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { addDays, dayIn, startOfDay } from '../../lib/tz.ts';
import { adAccountId, connectUser, graph, simTree, syncClocks } from '../../test/ad-data.ts';
import { buildTestApp, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createDepartment, createUser } from '../../test/factories.ts';
import { testLog } from '../../test/jobs.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/receivers.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import type { AdOperations } from '../ad-data/ad-ops.service.ts';
import { createAdSync } from '../ad-data/ad-sync.service.ts';
import { createRuleEvaluator } from './rules.evaluator.ts';
import { ruleEngineOf, runHostingRulesJob, type RulesJobData } from './rules.jobs.ts';
import { findRule } from './rules.repository.ts';

// The rule engine against the simulator over HTTP, with the job clock moved by hand: a dry run acts
// on nothing; stop-loss pauses a losing ad for the day (关闭日志, rule as actor) and revives it at
// the start of the next day of its market; a tick is evaluated once; a winner's budget is raised
// within its cap, cools down, and stops at the platform's 4 changes an hour; the cap per run; an
// account no longer hosted or outside the owner's scope is never acted on; a rule that keeps
// failing is switched off and its owner told through a loopback webhook.

const PATHS = ['/operation/account', '/advertising/user', '/advertising/copy-log', '/advertising/close-log'];
const CONFIG = { notify: { webhookHosts: '*' as const } };

let sim: TestSimulator;
let t: TestApp;
let user: SimUser;
let receiver: WebhookReceiver;
let staff: { id: number; token: string };
let managerToken: string;
let accA: number;
let accB: number;
let treeA: Awaited<ReturnType<typeof simTree>>;
let treeScale: Awaited<ReturnType<typeof simTree>>;
let treeLimit: Awaited<ReturnType<typeof simTree>>;

function ctx<T>(data: T): JobContext<T> {
  return { data, db: t.db, platform: sim.platform, clock: t.clock, config: testConfig(CONFIG), log: testLog(), runId: 0, signal: new AbortController().signal, progress: async () => {} };
}
const tick = (data: RulesJobData = {}) => runHostingRulesJob.run(ctx(data));
const api = (path: string, body: unknown, token = staff.token) => t.call(`/api${path}`, body, { token, lang: 'en' });
const idOf = async (table: 'ads' | 'ad_sets' | 'ad_campaigns', platformId: string) => (await t.db.selectFrom(table).select('id').where('platform_id', '=', platformId).executeTakeFirstOrThrow()).id;
const simStatus = async (id: string, fields = 'status,effective_status') => (await graph(sim, user.access_token, 'GET', id, { fields })) as { status: string; effective_status: string; daily_budget?: string };
const simBudget = async (id: string) => (await simStatus(id, 'status,daily_budget')).daily_budget;
const ruleOps = (ruleId: number) => t.db.selectFrom('ad_operations').selectAll().where('rule_id', '=', ruleId).orderBy('id').execute();
const firings = (ruleId: number) => t.db.selectFrom('rule_firings').selectAll().where('rule_id', '=', ruleId).orderBy('id').execute();

async function save(rule: RuleDraftIn, token = staff.token) {
  const res = await api('/hosting-rules/save', { rule }, token);
  expect(res.code, res.message).toBe(0);
  return res.data as { id: number; enabled: boolean; status: string };
}

/** Moves the simulator and the app clock together. */
async function advance(duration: string) {
  await sim.advance(duration);
  await syncClocks(t, sim);
}

async function syncAccount(id: number, mode: 'recent' | 'backfill' = 'recent') {
  await createAdSync({ db: t.db, platform: sim.platform, clock: t.clock, secrets: secretBoxFor(t.db, testConfig().tokenEncryptionKey), reportTimezone: testConfig().reportTimezone }).syncAccount(id, { mode });
}

beforeAll(async () => {
  sim = await startTestSimulator();
  await sim.advance('5d');
  receiver = await startWebhookReceiver();
  t = await buildTestApp({ platform: sim.platform, config: CONFIG });
  await syncClocks(t, sim);
  const manager = await createUser(t.db, { is_admin: 1 });
  managerToken = await t.login(manager.account, manager.password);
  const dept = await createDepartment(t.db);
  const s = await createUser(t.db, { department_id: dept.id, paths: PATHS, name: 'Optimizer One' });
  staff = { id: s.id, token: await t.login(s.account, s.password) };
  user = await sim.createUser({ ad_accounts: [{ currency: 'USD', timezone_name: 'America/Los_Angeles' }, { currency: 'USD', timezone_name: 'America/Los_Angeles' }], pages: 1, pixels: 1 });
  await connectUser(t, managerToken, user, sim.platform);
  accA = await adAccountId(t.db, user.ad_accounts[0]!.id);
  accB = await adAccountId(t.db, user.ad_accounts[1]!.id);
  await t.db.insertInto('user_ad_accounts').values([{ user_id: staff.id, ad_account_id: accA, created_at: new Date() }, { user_id: staff.id, ad_account_id: accB, created_at: new Date() }]).execute();
  expect((await api('/ad-accounts/set_hosted', { ad_account_ids: [accA, accB], hosted: true }, managerToken)).code).toBe(0);

  treeA = await simTree(sim, user, user.ad_accounts[0]!.id, { name: 'Drama A', adsetName: 'Drama A set', adsetBudget: 5000, ads: 2 });
  treeScale = await simTree(sim, user, user.ad_accounts[1]!.id, { name: 'Scale campaign', adsetName: 'Scale set', adsetBudget: 5000, ads: 2 });
  treeLimit = await simTree(sim, user, user.ad_accounts[1]!.id, { name: 'Limit campaign', adsetName: 'Limit set', adsetBudget: 5000, ads: 1 });
  // Two hours of delivery of a fresh day: some spend, few conversions yet.
  await advance('2h');
  await syncAccount(accA);
  await syncAccount(accB);
});

afterAll(async () => {
  await t?.close();
  await sim?.close();
  await receiver?.close();
});

describe('hosting rules engine', () => {
  let stopLoss: number;
  let ad1: number;
  let ad2: number;

  it('a dry run lists what would fire, with the figures, and acts on nothing', async () => {
    const rule = await save({ ...ruleTemplate('stop_loss', 'en', { spend: 0.5 }), name: 'Stop-loss A', scope: { type: 'accounts', ad_account_ids: [accA] } });
    stopLoss = rule.id;
    expect(rule.enabled).toBe(false);
    const opsBefore = await t.db.selectFrom('ad_operations').select('id').execute();
    const res = await api('/hosting-rules/dry_run', { id: rule.id });
    expect(res.code, res.message).toBe(0);
    expect(res.data).toMatchObject({ accounts: 1, objects_checked: 2, matched: 2 });
    ad1 = await idOf('ads', treeA.adIds[0]!);
    ad2 = await idOf('ads', treeA.adIds[1]!);
    expect(res.data.rows.map((r: any) => r.object.id).sort()).toEqual([ad1, ad2].sort());
    for (const row of res.data.rows) {
      expect(row.outcome).toBe('would_act');
      expect(row.before).toEqual({ status: 'ACTIVE' });
      expect(row.after).toEqual({ status: 'PAUSED' });
      const spend = row.values.find((v: any) => v.metric === 'spend');
      expect(spend.actual).toBeGreaterThanOrEqual(0.5);
      expect(row.values.find((v: any) => v.metric === 'purchases')).toMatchObject({ actual: 0, met: true });
    }
    // The same figures as the report of the day.
    const report = await api('/ad-reports/list', { level: 'ad', date_from: res.data.report_day, date_to: res.data.report_day, ad_account_ids: [accA], page_size: 10 });
    const reported = report.data.list.find((r: any) => r.id === ad1);
    expect(res.data.rows.find((r: any) => r.object.id === ad1).values[0].actual).toBeCloseTo(reported.metrics.spend, 6);
    // Nothing acted, nothing written.
    expect(await t.db.selectFrom('ad_operations').select('id').execute()).toHaveLength(opsBefore.length);
    expect(await t.db.selectFrom('rule_evaluations').select('id').execute()).toHaveLength(0);
    expect((await simStatus(treeA.adIds[0]!)).status).toBe('ACTIVE');
    // An unsaved draft is dry-run the same way.
    const draft = await api('/hosting-rules/dry_run', { rule: { ...ruleTemplate('stop_loss', 'en', { spend: 1000 }), scope: { type: 'accounts', ad_account_ids: [accA] } } });
    expect(draft.data).toMatchObject({ objects_checked: 2, matched: 0, rows: [] });
  });

  it('stop-loss pauses losers for the day (关闭日志, the rule as actor), once a day, and revives them at the next day of their market', async () => {
    expect((await api('/hosting-rules/toggle', { id: stopLoss, enabled: true })).data.status).toBe('on');
    const res = await tick();
    expect(res.status, JSON.stringify(res)).toBe('success');
    expect((await simStatus(treeA.adIds[0]!)).status).toBe('PAUSED');
    expect((await simStatus(treeA.adIds[1]!)).status).toBe('PAUSED');
    const ops = await ruleOps(stopLoss);
    expect(ops.map((o) => [o.action, o.actor_type, o.result])).toEqual([
      ['pause', 'rule', 'ok'],
      ['pause', 'rule', 'ok'],
    ]);
    const closeLog = await api('/ad-operations/list', { log: 'close', page_size: 50 });
    expect(closeLog.data.list.filter((o: any) => o.rule_id === stopLoss).map((o: any) => o.object_id).sort()).toEqual([ad1, ad2].sort());
    const fired = await firings(stopLoss);
    expect(fired.map((f) => f.outcome)).toEqual(['acted', 'acted']);
    expect((fired[0]!.values as any[]).find((v) => v.metric === 'spend').actual).toBeGreaterThanOrEqual(0.5);
    const history = await api('/rule-history/firings', { rule_id: stopLoss });
    expect(history.data.total).toBe(2);
    expect(history.data.list[0]).toMatchObject({ outcome: 'acted', action: 'pause', rule: { id: stopLoss, name: 'Stop-loss A' } });
    // Revive at the start of the account's next day (America/Los_Angeles).
    const stops = await t.db.selectFrom('rule_stops').selectAll().where('rule_id', '=', stopLoss).execute();
    const laNext = startOfDay(addDays(dayIn(t.clock.now().getTime(), 'America/Los_Angeles'), 1), 'America/Los_Angeles');
    expect(stops.map((s) => s.revive_at!.getTime())).toEqual([laNext, laNext]);

    // Someone switches ad 2 on again the same day: the rule leaves it alone today.
    expect((await api('/ad-ops/apply', { level: 'ad', ids: [ad2], action: 'activate' })).code).toBe(0);
    await advance('30m');
    await tick();
    const again = await firings(stopLoss);
    expect(again.slice(2).map((f) => [f.object_id, f.outcome])).toEqual([[ad2, 'skipped_stopped']]);
    expect((await simStatus(treeA.adIds[1]!)).status).toBe('ACTIVE');

    // The next day of the market: ad 1 comes back; ad 2, touched by a person, is not the rule's to revive.
    const wait = laNext - t.clock.now().getTime() + 5 * 60_000;
    await advance(`${Math.round(wait / 1000)}s`);
    await tick();
    expect((await simStatus(treeA.adIds[0]!)).status).toBe('ACTIVE');
    const revive = await t.db.selectFrom('rule_evaluations').selectAll().where('rule_id', '=', stopLoss).where('trigger', '=', 'revive').execute();
    expect(revive).toHaveLength(1);
    expect(revive[0]).toMatchObject({ revived: 1, status: 'ok' });
    const revived = await t.db.selectFrom('rule_firings').select(['object_id', 'outcome', 'action']).where('evaluation_id', '=', revive[0]!.id).execute();
    expect(new Map(revived.map((f) => [f.object_id, [f.outcome, f.action]]))).toEqual(
      new Map([
        [ad1, ['revived', 'revive']],
        [ad2, ['kept_off', 'revive']],
      ]),
    );
    expect((await ruleOps(stopLoss)).at(-1)).toMatchObject({ action: 'activate', actor_type: 'rule', result: 'ok', object_id: ad1 });
    const settled = await t.db.selectFrom('rule_stops').select(['object_id', 'status']).where('rule_id', '=', stopLoss).execute();
    expect(new Map(settled.map((s) => [s.object_id, s.status]))).toEqual(new Map([[ad1, 'revived'], [ad2, 'cancelled']]));
    await api('/hosting-rules/toggle', { id: stopLoss, enabled: false });
  });

  it('a tick is evaluated once: a second run of the same tick acts on nothing', async () => {
    const rule = await save({
      name: 'Twice',
      enabled: true,
      scope: { type: 'accounts', ad_account_ids: [accA] },
      level: 'ad',
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gt', value: 0, window: { type: 'lifetime' } }] }] },
      action: { type: 'notify' },
      schedule: { type: 'interval', minutes: 30 },
    });
    await tick();
    const evaluations = await t.db.selectFrom('rule_evaluations').select(['id', 'status']).where('rule_id', '=', rule.id).execute();
    expect(evaluations).toHaveLength(1);
    const fired = (await firings(rule.id)).length;
    expect(fired).toBeGreaterThan(0);
    await tick();
    // Even with the rule's bookkeeping lost, the (rule, slot) record stops a second evaluation.
    await t.db.updateTable('hosting_rules').set({ last_slot_at: null }).where('id', '=', rule.id).execute();
    await tick();
    expect(await t.db.selectFrom('rule_evaluations').select('id').where('rule_id', '=', rule.id).execute()).toHaveLength(1);
    expect(await firings(rule.id)).toHaveLength(fired);
    await api('/hosting-rules/toggle', { id: rule.id, enabled: false });
  });

  it('scales a winner within its cap, honours the cooldown, and stops at the platform limit of 4 budget changes an hour', async () => {
    const scale: RuleDraftIn = {
      ...ruleTemplate('scale_winners', 'en'),
      name: 'Scale',
      enabled: true,
      scope: { type: 'accounts', ad_account_ids: [accB] },
      filters: { name_contains: ['Scale'] },
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gte', value: 0.01, window: { type: 'today' } }] }] },
      action: { type: 'raise_budget', percent: 20, max_usd: 70 },
      schedule: { type: 'interval', minutes: 15 },
      cooldown_minutes: 60,
    };
    const rule = await save(scale);
    const adset = await idOf('ad_sets', treeScale.adsetId);
    await advance('15m');
    await tick();
    expect((await simBudget(treeScale.adsetId))).toBe('6000');
    await advance('15m');
    await tick();
    await advance('50m');
    await tick();
    expect((await simBudget(treeScale.adsetId))).toBe('7000');
    await advance('65m');
    await tick();
    expect((await simBudget(treeScale.adsetId))).toBe('7000');
    const fired = await firings(rule.id);
    expect(fired.map((f) => [f.object_id, f.outcome])).toEqual([
      [adset, 'acted'],
      [adset, 'skipped_cooldown'],
      [adset, 'acted'],
      [adset, 'skipped_budget'],
    ]);
    expect(fired.map((f) => (f.after as any).daily_budget)).toEqual([60, undefined, 70, 70]);
    expect((await ruleOps(rule.id)).map((o) => [o.action, (o.before as any).daily_budget_minor, (o.after as any).daily_budget_minor])).toEqual([
      ['budget', 5000, 6000],
      ['budget', 6000, 7000],
    ]);
    await api('/hosting-rules/toggle', { id: rule.id, enabled: false });

    // Run by hand five times within the hour, without a cooldown: the fifth change waits for the platform's window.
    const limit = await save({ ...scale, name: 'Limit', enabled: false, filters: { name_contains: ['Limit'] }, action: { type: 'raise_budget', percent: 5 }, cooldown_minutes: 0 });
    for (let i = 0; i < 5; i++) {
      await advance('1m');
      const r = await tick({ rule_id: limit.id });
      expect(r.status, JSON.stringify(r)).toBe('success');
    }
    const limited = await firings(limit.id);
    expect(limited.map((f) => f.outcome)).toEqual(['acted', 'acted', 'acted', 'acted', 'skipped_limit']);
    expect(limited[4]!.error_en).toMatch(/4/);
    expect((await simBudget(treeLimit.adsetId))).toBe(String(Math.round(Math.round(Math.round(Math.round(5000 * 1.05) * 1.05) * 1.05) * 1.05)));
  });

  it('acts on at most the cap of a run', async () => {
    const rule = await save({
      name: 'Cap',
      scope: { type: 'accounts', ad_account_ids: [accB] },
      level: 'ad',
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gt', value: 0, window: { type: 'lifetime' } }] }] },
      action: { type: 'notify' },
      schedule: { type: 'interval', minutes: 60 },
      max_actions_per_run: 2,
    });
    await tick({ rule_id: rule.id });
    expect((await firings(rule.id)).map((f) => f.outcome)).toEqual(['notified', 'notified', 'skipped_cap']);
    const evaluation = await api('/rule-history/evaluations', { rule_id: rule.id });
    expect(evaluation.data.list[0]).toMatchObject({ trigger: 'manual', status: 'ok', objects_checked: 3, matched: 3, acted: 2, skipped: 1 });
  });

  it('never acts on an account no longer hosted, or outside its owner’s scope', async () => {
    const rule = await save({
      name: 'Guard',
      scope: { type: 'all' },
      level: 'ad',
      filters: { name_contains: ['Ad 1'] },
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gt', value: 0, window: { type: 'lifetime' } }] }] },
      action: { type: 'notify' },
      schedule: { type: 'interval', minutes: 60 },
      cooldown_minutes: 0,
    });
    const objectsOf = async () => (await firings(rule.id)).slice(-10).map((f) => f.ad_account_id);
    expect((await api('/ad-accounts/set_hosted', { ad_account_ids: [accB], hosted: false }, managerToken)).code).toBe(0);
    await tick({ rule_id: rule.id });
    expect(new Set(await objectsOf())).toEqual(new Set([accA]));
    await api('/ad-accounts/set_hosted', { ad_account_ids: [accB], hosted: true }, managerToken);
    // The owner loses ad account B.
    await t.db.deleteFrom('user_ad_accounts').where('user_id', '=', staff.id).where('ad_account_id', '=', accB).execute();
    await advance('1m');
    await tick({ rule_id: rule.id });
    const last = await t.db.selectFrom('rule_evaluations').selectAll().where('rule_id', '=', rule.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last.accounts).toBe(1);
    expect((await t.db.selectFrom('rule_firings').select('ad_account_id').where('evaluation_id', '=', last.id).execute()).every((f) => f.ad_account_id === accA)).toBe(true);
    const dry = await api('/hosting-rules/dry_run', { id: rule.id });
    expect(dry.data.accounts).toBe(1);
    const outside = await api('/hosting-rules/save', { rule: { ...ruleTemplate('stop_loss', 'en'), scope: { type: 'accounts', ad_account_ids: [accB] } } });
    expect(outside.code).not.toBe(0);
    expect(outside.message).toMatch(/outside the owner/);
    await t.db.insertInto('user_ad_accounts').values({ user_id: staff.id, ad_account_id: accB, created_at: new Date() }).execute();
  });

  it('a rule that keeps failing is switched off and its owner told', async () => {
    const channel = await api('/notification-channels/save', { name: 'Ops room', type: 'feishu', lang: 'en', webhook_url: `${receiver.url}/open-apis/bot/v2/hook/abc` });
    expect(channel.code, channel.message).toBe(0);
    const rule = await save({
      name: 'Failing',
      enabled: true,
      scope: { type: 'accounts', ad_account_ids: [accB] },
      level: 'ad',
      filters: { name_contains: ['Ad 1'] },
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gt', value: 0, window: { type: 'lifetime' } }] }] },
      action: { type: 'pause' },
      schedule: { type: 'interval', minutes: 60 },
      cooldown_minutes: 0,
      notify: { channel_ids: [channel.data.id], on_fire: true, on_failure: true },
    });
    await sim.control('POST', '/__sim/faults', { path: '/1*', method: 'POST', count: null, error: { code: 100, message: 'Invalid parameter (test)', http_status: 400 } });
    try {
      for (let i = 0; i < 3; i++) {
        await advance('1m');
        const r = await tick({ rule_id: rule.id });
        expect(r.status, JSON.stringify(r)).toBe('failed');
      }
    } finally {
      await sim.control('DELETE', '/__sim/faults');
    }
    const after = await api('/hosting-rules/get', { id: rule.id });
    expect(after.data).toMatchObject({ enabled: false, status: 'failing', consecutive_failures: 3 });
    expect(after.data.paused_reason).toMatch(/failed 3 times in a row/);
    const titles = receiver.requests.map((r) => r.body.content.post.en_us.title as string);
    expect(titles.some((x) => /Rule "Failing" was switched off/.test(x))).toBe(true);
    const deliveries = await api('/notifications/list', { rule_id: rule.id, kind: 'rule_paused' });
    expect(deliveries.data.list).toHaveLength(1);
    expect(deliveries.data.list[0]).toMatchObject({ status: 'sent', attempts: 1, channel: { id: channel.data.id } });
  });
  it('a grouped budget act whose batch request fails as a whole finds out per object: read back, resent only where not applied, each logged', async () => {
    const g1 = await simTree(sim, user, user.ad_accounts[0]!.id, { name: 'Group 1', adsetName: 'Group set 1', adsetBudget: 5000, ads: 1 });
    const g2 = await simTree(sim, user, user.ad_accounts[0]!.id, { name: 'Group 2', adsetName: 'Group set 2', adsetBudget: 5000, ads: 1 });
    // A second ad set of the first campaign: the platform refuses two ad sets of one campaign in one
    // batch, so it goes in a second round.
    const second = await graph(sim, user.access_token, 'POST', `${user.ad_accounts[0]!.id}/adsets`, {
      name: 'Group set 1b',
      campaign_id: g1.campaignId,
      status: 'ACTIVE',
      daily_budget: 5000,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'OFFSITE_CONVERSIONS',
      promoted_object: { pixel_id: user.pixels[0]!.id, custom_event_type: 'PURCHASE' },
      targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
    });
    const adsets = [g1.adsetId, g2.adsetId, second.id as string];
    await syncAccount(accA);
    const rule = await save({
      ...ruleTemplate('scale_winners', 'en'),
      name: 'Grouped raise',
      scope: { type: 'accounts', ad_account_ids: [accA] },
      level: 'adset',
      filters: { name_contains: ['Group set'] },
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gte', value: 0, window: { type: 'today' } }] }] },
      action: { type: 'raise_budget', percent: 10 },
      schedule: { type: 'interval', minutes: 60 },
      cooldown_minutes: 0,
    });
    // Counts the updates sent one by one (the batch goes through updateMany).
    let single = 0;
    const platform = new Proxy(sim.platform, {
      get(target, prop) {
        const v = Reflect.get(target, prop) as unknown;
        if (prop === 'updateAdObject') return (...args: Parameters<typeof target.updateAdObject>) => (single++, target.updateAdObject(...args));
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const run = () => runHostingRulesJob.run({ ...ctx<RulesJobData>({ rule_id: rule.id }), platform });
    const budgets = () => Promise.all(adsets.map((id) => simBudget(id)));

    // 1. The batch request's connection is lost before the platform applies it: nothing changed,
    //    so each object is sent again on its own.
    await sim.control('POST', '/__sim/faults', { path: '/', method: 'POST', count: 1, drop: true });
    try {
      expect((await run()).status).toBe('success');
      // The fault met the batch request (it was used up).
      expect((await sim.control('GET', '/__sim/faults')).data).toEqual([]);
    } finally {
      await sim.control('DELETE', '/__sim/faults');
    }
    expect(await budgets()).toEqual(['5500', '5500', '5500']);
    expect(single).toBe(3);
    let fired = await firings(rule.id);
    expect(fired.map((f) => f.outcome)).toEqual(['acted', 'acted', 'acted']);
    let ops = await ruleOps(rule.id);
    expect(ops.map((o) => [o.result, (o.after as any).daily_budget_minor])).toEqual([['ok', 5500], ['ok', 5500], ['ok', 5500]]);
    expect(fired.map((f) => f.operation_id).sort()).toEqual(ops.map((o) => o.id).sort());

    // 2. The platform applies the first round's batch, then its answer is lost: read back, its two
    //    ad sets show the new budget and are not sent again (a resent change would count against
    //    the hour's four); the third, never sent, is sent on its own.
    await advance('1m');
    single = 0;
    await sim.control('POST', '/__sim/faults', { path: '/', method: 'POST', count: 1, apply_then_drop: true });
    try {
      expect((await run()).status).toBe('success');
      // The fault met the batch request (it was used up).
      expect((await sim.control('GET', '/__sim/faults')).data).toEqual([]);
    } finally {
      await sim.control('DELETE', '/__sim/faults');
    }
    expect(await budgets()).toEqual(['6050', '6050', '6050']);
    expect(single).toBe(1);
    fired = await firings(rule.id);
    expect(fired.slice(3).map((f) => f.outcome)).toEqual(['acted', 'acted', 'acted']);
    ops = await ruleOps(rule.id);
    expect(ops.slice(3).map((o) => [o.result, (o.before as any).daily_budget_minor, (o.after as any).daily_budget_minor])).toEqual([['ok', 5500, 6050], ['ok', 5500, 6050], ['ok', 5500, 6050]]);

    // 3. Without a fault: two rounds of batches, nothing sent alone, and the mirror shows the new budgets.
    await advance('1m');
    single = 0;
    expect((await run()).status).toBe('success');
    expect(await budgets()).toEqual(['6655', '6655', '6655']);
    expect(single).toBe(0);
    const mirror = await t.db.selectFrom('ad_sets').select('daily_budget_minor').where('platform_id', 'in', adsets).orderBy('id').execute();
    expect(mirror.map((m) => Number(m.daily_budget_minor))).toEqual([6655, 6655, 6655]);
  });
  it('a grouped act that fails as a whole is found out per object from the log: an object it already did is not acted on again', async () => {
    const rule = await save({
      ...ruleTemplate('scale_winners', 'en'),
      name: 'Grouped fallback',
      scope: { type: 'accounts', ad_account_ids: [accA] },
      level: 'adset',
      filters: { name_contains: ['Group set'] },
      conditions: { groups: [{ conditions: [{ metric: 'spend', operator: 'gte', value: 0, window: { type: 'today' } }] }] },
      action: { type: 'raise_budget', percent: 10 },
      schedule: { type: 'interval', minutes: 60 },
      cooldown_minutes: 0,
    });
    const sets = await t.db.selectFrom('ad_sets').select(['platform_id', 'daily_budget_minor']).where('name', 'like', 'Group set%').orderBy('id').execute();
    expect(sets).toHaveLength(3);
    const engine = ruleEngineOf(ctx({}));
    // The account's grouped call does the first object, then fails as a whole (a lost database connection, say).
    const calls: number[] = [];
    const ops: AdOperations = {
      ...engine.ops,
      applyMany: async (actor, input) => {
        calls.push(input.items.length);
        if (input.items.length > 1) {
          await engine.ops.applyMany(actor, { ...input, items: input.items.slice(0, 1) });
          throw new Error('Connection terminated unexpectedly');
        }
        return engine.ops.applyMany(actor, input);
      },
    };
    const evaluator = createRuleEvaluator({ db: t.db, clock: t.clock, reportTimezone: testConfig().reportTimezone, ops, notify: async () => {} });
    await advance('1m');
    const res = await evaluator.run((await findRule(t.db, rule.id))!, 'manual', t.clock.now());
    expect(res!.counts).toMatchObject({ status: 'ok', acted: 3, failed: 0 });
    // The first object was found done in the log; the other two were acted on alone.
    expect(calls).toEqual([3, 1, 1]);
    const want = sets.map((x) => String(Math.round(Number(x.daily_budget_minor) * 1.1)));
    expect(await Promise.all(sets.map((x) => simBudget(x.platform_id)))).toEqual(want);
    const ops2 = await ruleOps(rule.id);
    expect(ops2.map((o) => [o.object_platform_id, o.result])).toEqual(sets.map((x) => [x.platform_id, 'ok']));
    const fired = await firings(rule.id);
    expect(fired.map((f) => f.outcome)).toEqual(['acted', 'acted', 'acted']);
    expect(fired.map((f) => f.operation_id).sort()).toEqual(ops2.map((o) => o.id).sort());
  });
});
