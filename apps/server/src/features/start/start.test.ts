import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobs, type JobRunner } from '../../jobs/runner.ts';
import { jobRegistry } from '../../jobs/registry.ts';
import { adAccountId, connectUser, graph, simTree, syncClocks } from '../../test/ad-data.ts';
import { buildTestApp, driver, testConfig, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { FAST, readRun, testLog, waitForRun } from '../../test/jobs.ts';
import { startTestSimulator, type SimUser, type TestSimulator } from '../../test/simulator.ts';
import { createAdSync } from '../ad-data/ad-sync.service.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { wallToInstant } from './start.service.ts';

vi.setConfig({ testTimeout: 60_000 });

// Start management (启动管理) through the API and the job runner against the simulator over HTTP:
// campaigns switched on now, on and off at wall times in each market's zone (one task per zone,
// run as the job clock reaches each), a pending task cancelled, a campaign outside the caller's
// scope refused, and every switch written to the operation log as the start task.

let sim: TestSimulator;
let runner: JobRunner;
let t: TestApp;
let fb: SimUser;
let staff: string;
let staffId: number;
/** Platform campaign ids: two in the Los Angeles account, one in the Tokyo account, one outside the staff's scope. */
const camp: Record<'la1' | 'la2' | 'la3' | 'tk1' | 'x1', string> = {} as never;
const id: Record<keyof typeof camp, number> = {} as never;

const call = (path: string, body: unknown) => t.call(`/api/start-tasks/${path}`, body, { token: staff, lang: 'en' });
const simStatus = async (platformId: string) => (await graph(sim, fb.access_token, 'GET', platformId, { fields: 'status' })).status as string;
const logRows = (taskId: number) => t.db.selectFrom('ad_operations').select(['object_id', 'action', 'actor_type', 'actor_user_id', 'start_task_id', 'result']).where('start_task_id', '=', taskId).orderBy('id').execute();
const runCount = async () => Number((await t.db.selectFrom('job_runs').select((eb) => eb.fn.countAll().as('n')).where('job_name', '=', 'publish-start').executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  sim = await startTestSimulator();
  const config = testConfig();
  t = await buildTestApp({
    platform: sim.platform,
    jobs: async ({ db, clock }) => {
      runner = createJobs({
        db,
        platform: sim.platform,
        clock,
        config,
        log: testLog(),
        registry: jobRegistry.filter((j) => j.name === 'publish-start'),
        options: { workers: true, concurrency: 2, reclaim: driver === 'pglite' ? 'all-at-start' : 'heartbeat', ...FAST },
      });
      await runner.start();
      return runner;
    },
  });
  await syncClocks(t, sim);
  const manager = await createUser(t.db, { is_admin: 1 });
  const managerToken = await t.login(manager.account, manager.password);
  const user = await createUser(t.db, { paths: ['/advertising/start'], name: 'Starter' });
  staffId = user.id;
  staff = await t.login(user.account, user.password);

  fb = await sim.createUser({ ad_accounts: [{ currency: 'USD', timezone_name: 'America/Los_Angeles' }, { currency: 'JPY', timezone_name: 'Asia/Tokyo' }, { currency: 'USD' }], pages: 1, pixels: 1 });
  await connectUser(t, managerToken, fb, sim.platform);
  const [la, tk, x] = fb.ad_accounts.map((a) => a.id) as [string, string, string];
  camp.la1 = (await simTree(sim, fb, la, { name: 'LA one', status: 'PAUSED', ads: 1 })).campaignId;
  camp.la2 = (await simTree(sim, fb, la, { name: 'LA two', status: 'PAUSED', ads: 1 })).campaignId;
  camp.la3 = (await simTree(sim, fb, la, { name: 'LA three', status: 'PAUSED', ads: 1 })).campaignId;
  camp.tk1 = (await simTree(sim, fb, tk, { name: 'Tokyo one', status: 'PAUSED', ads: 1 })).campaignId;
  camp.x1 = (await simTree(sim, fb, x, { name: 'Outside', status: 'PAUSED', ads: 1 })).campaignId;
  const accounts = [await adAccountId(t.db, la), await adAccountId(t.db, tk), await adAccountId(t.db, x)];
  // The staff's scope: the Los Angeles and Tokyo accounts, not the third.
  await t.db.insertInto('user_ad_accounts').values([accounts[0]!, accounts[1]!].map((a) => ({ user_id: staffId, ad_account_id: a, created_at: new Date() }))).execute();
  const sync = createAdSync({ db: t.db, platform: sim.platform, clock: t.clock, secrets: secretBoxFor(t.db, config.tokenEncryptionKey), reportTimezone: config.reportTimezone });
  for (const a of accounts) await sync.syncAccount(a, { mode: 'recent' });
  for (const k of Object.keys(camp) as (keyof typeof camp)[]) id[k] = (await t.db.selectFrom('ad_campaigns').select('id').where('platform_id', '=', camp[k]).executeTakeFirstOrThrow()).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('start management', () => {
  it('lists only campaigns in the caller’s scope, with their account’s zone', async () => {
    const res = await call('campaigns', { page_size: 50 });
    expect(res.code, res.message).toBe(0);
    const names = res.data.list.map((c: any) => c.name).sort();
    expect(names).toEqual(['LA one', 'LA three', 'LA two', 'Tokyo one']);
    expect(res.data.list.find((c: any) => c.name === 'Tokyo one').ad_account.timezone_name).toBe('Asia/Tokyo');
  });

  it('refuses a campaign outside the caller’s scope, and bad times, queueing nothing', async () => {
    const before = await runCount();
    const refused = await call('create', { campaign_ids: [id.la1, id.x1], on: { mode: 'now' } });
    expect(refused.code).not.toBe(0);
    expect(refused.message).toMatch(/outside your scope/);
    const past = await call('create', { campaign_ids: [id.la1], on: { mode: 'at', local: '2020-01-01T08:00', zone: 'UTC' } });
    expect(past.message).toMatch(/start time has passed/);
    const offFirst = await call('create', { campaign_ids: [id.la1], on: { mode: 'now' }, off: { local: '2020-01-01T08:00', zone: 'market' } });
    expect(offFirst.message).toMatch(/switch-off time must come after/);
    const noTargets = await call('create', { on: { mode: 'now' } });
    expect(noTargets.code).not.toBe(0);
    const badZone = await call('create', { campaign_ids: [id.la1], on: { mode: 'at', local: '2030-01-01T08:00', zone: 'Mars/Olympus' } });
    expect(badZone.code).not.toBe(0);
    expect(await runCount()).toBe(before);
    expect(await simStatus(camp.x1)).toBe('PAUSED');
  });

  it('switches a campaign on now, logged as the start task with the person who asked', async () => {
    const res = await call('create', { campaign_ids: [id.la1], on: { mode: 'now' } });
    expect(res.code, res.message).toBe(0);
    const [taskId] = res.data.task_ids as number[];
    const run = await waitForRun(t.db, taskId!, (r) => r.status === 'success');
    expect(run.summary).toMatchObject({ ok: 1 });
    expect(await simStatus(camp.la1)).toBe('ACTIVE');
    expect(await logRows(taskId!)).toEqual([{ object_id: id.la1, action: 'activate', actor_type: 'start_task', actor_user_id: staffId, start_task_id: taskId, result: 'ok' }]);
    const list = await call('list', { page_size: 50 });
    const row = list.data.list.find((r: any) => r.id === taskId);
    expect(row).toMatchObject({ action: 'activate', status: 'success', ok: 1, failed: 0, campaigns: 1, created_by: { id: staffId } });
    const results = await call('results', { id: taskId });
    expect(results.data.list).toEqual([expect.objectContaining({ object_id: id.la1, object_name: 'LA one', result: 'ok', error: null })]);
  });

  it('switches on and off at wall times in each market’s zone: one task per zone, each at its own instant', async () => {
    const day = new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await call('create', { campaign_ids: [id.la2, id.tk1], on: { mode: 'at', local: `${day}T08:00`, zone: 'market' }, off: { local: `${day}T20:00`, zone: 'market' } });
    expect(res.code, res.message).toBe(0);
    const tasks = await Promise.all((res.data.task_ids as number[]).map(async (i) => (await readRun(t.db, i))!));
    expect(tasks).toHaveLength(4);
    const at = (action: string, zone: string) => tasks.find((r) => (r.data as any).action === action && (r.data as any).zone === zone)!;
    const tkOn = at('activate', 'Asia/Tokyo');
    const laOn = at('activate', 'America/Los_Angeles');
    const tkOff = at('pause', 'Asia/Tokyo');
    const laOff = at('pause', 'America/Los_Angeles');
    expect(tkOn.start_at!.toISOString()).toBe(wallToInstant(`${day}T08:00`, 'Asia/Tokyo').toISOString());
    // Tokyo is UTC+9: 08:00 there is 23:00 UTC the day before.
    expect(tkOn.start_at!.getUTCHours()).toBe(23);
    expect(laOn.start_at!.toISOString()).toBe(wallToInstant(`${day}T08:00`, 'America/Los_Angeles').toISOString());
    expect(laOff.start_at!.getTime()).toBe(wallToInstant(`${day}T20:00`, 'America/Los_Angeles').getTime());
    expect((tkOn.data as any).campaign_ids).toEqual([id.tk1]);
    expect((laOn.data as any).campaign_ids).toEqual([id.la2]);
    expect(tasks.every((r) => r.status === 'queued')).toBe(true);

    // Tokyo's morning comes first: only its task runs.
    t.clock.set(new Date(tkOn.start_at!.getTime() + 1000));
    await waitForRun(t.db, tkOn.id, (r) => r.status === 'success');
    expect(await simStatus(camp.tk1)).toBe('ACTIVE');
    expect(await simStatus(camp.la2)).toBe('PAUSED');
    expect((await readRun(t.db, laOn.id))!.status).toBe('queued');

    // Tokyo's evening (before Los Angeles' morning): off again.
    t.clock.set(new Date(tkOff.start_at!.getTime() + 1000));
    await waitForRun(t.db, tkOff.id, (r) => r.status === 'success');
    expect(await simStatus(camp.tk1)).toBe('PAUSED');
    expect((await readRun(t.db, laOn.id))!.status).toBe('queued');

    t.clock.set(new Date(laOn.start_at!.getTime() + 1000));
    await waitForRun(t.db, laOn.id, (r) => r.status === 'success');
    expect(await simStatus(camp.la2)).toBe('ACTIVE');
    t.clock.set(new Date(laOff.start_at!.getTime() + 1000));
    await waitForRun(t.db, laOff.id, (r) => r.status === 'success');
    expect(await simStatus(camp.la2)).toBe('PAUSED');

    expect(await logRows(tkOn.id)).toEqual([expect.objectContaining({ object_id: id.tk1, action: 'activate', actor_type: 'start_task', result: 'ok' })]);
    expect(await logRows(tkOff.id)).toEqual([expect.objectContaining({ object_id: id.tk1, action: 'pause', actor_type: 'start_task', result: 'ok' })]);
    expect(await logRows(laOff.id)).toEqual([expect.objectContaining({ object_id: id.la2, action: 'pause', actor_type: 'start_task', result: 'ok' })]);
    const list = await call('list', { page_size: 50, action: 'pause' });
    expect(list.data.list.map((r: any) => r.id).sort()).toEqual([tkOff.id, laOff.id].sort());
    expect(list.data.list.every((r: any) => r.on_task_id === res.data.task_ids[0])).toBe(true);
  });

  it('cancels a pending task: it never runs and nothing is switched; a task that ran cannot be cancelled', async () => {
    const at = new Date(t.clock.now().getTime() + 86_400_000);
    const local = at.toISOString().slice(0, 16);
    const res = await call('create', { campaign_ids: [id.la3], on: { mode: 'at', local, zone: 'UTC' } });
    expect(res.code, res.message).toBe(0);
    const [taskId] = res.data.task_ids as number[];
    expect((await readRun(t.db, taskId!))!.start_at!.toISOString()).toBe(`${local}:00.000Z`);
    const cancelled = await call('cancel', { id: taskId });
    expect(cancelled.code, cancelled.message).toBe(0);
    expect(cancelled.data.cancelled).toBe(true);
    expect((await readRun(t.db, taskId!))!.status).toBe('cancelled');
    t.clock.set(new Date(at.getTime() + 60_000));
    // A later task of the same job runs: the cancelled one must still not have.
    const later = await call('create', { campaign_ids: [id.la1], on: { mode: 'now' } });
    await waitForRun(t.db, later.data.task_ids[0], (r) => r.status === 'success');
    expect((await readRun(t.db, taskId!))!.status).toBe('cancelled');
    expect(await logRows(taskId!)).toEqual([]);
    expect(await simStatus(camp.la3)).toBe('PAUSED');
    const again = await call('cancel', { id: later.data.task_ids[0] });
    expect(again.message).toMatch(/has not run yet/);
  });

  it('hides other people’s tasks from a staff user and refuses their cancel', async () => {
    const other = await createUser(t.db, { paths: ['/advertising/start'], name: 'Other' });
    const otherToken = await t.login(other.account, other.password);
    const list = await t.call('/api/start-tasks/list', { page_size: 50 }, { token: otherToken, lang: 'en' });
    expect(list.data.total).toBe(0);
    const mine = await call('list', { page_size: 1 });
    const res = await t.call('/api/start-tasks/cancel', { id: mine.data.list[0].id }, { token: otherToken, lang: 'en' });
    expect(res.message).toMatch(/outside your scope/);
    const noPath = await createUser(t.db, { paths: ['/index'] });
    const denied = await t.call('/api/start-tasks/list', {}, { token: await t.login(noPath.account, noPath.password) });
    expect(denied.code).not.toBe(0);
  });

  it('checks the creator again when a task runs: a lost ad account refuses that object only, logged per object', async () => {
    const [, tkAccount] = await Promise.all(fb.ad_accounts.slice(0, 2).map((a) => adAccountId(t.db, a.id)));
    await graph(sim, fb.access_token, 'POST', camp.la3, { status: 'PAUSED' });
    await graph(sim, fb.access_token, 'POST', camp.tk1, { status: 'PAUSED' });
    const at = new Date(t.clock.now().getTime() + 86_400_000);
    const res = await call('create', { campaign_ids: [id.la3, id.tk1], on: { mode: 'at', local: at.toISOString().slice(0, 16), zone: 'UTC' } });
    expect(res.code, res.message).toBe(0);
    const [taskId] = res.data.task_ids as number[];
    // Before it runs, the staff loses the Tokyo account. They stay its campaigns' owner (the sync
    // made them so as the account's only user): owning does not outlast losing the account.
    expect((await t.db.selectFrom('ad_campaigns').select('owner_user_id').where('id', '=', id.tk1).executeTakeFirstOrThrow()).owner_user_id).toBe(staffId);
    await t.db.deleteFrom('user_ad_accounts').where('user_id', '=', staffId).where('ad_account_id', '=', tkAccount!).execute();
    t.clock.set(new Date(at.getTime() + 60_000));
    const run = await waitForRun(t.db, taskId!, (r) => r.status === 'success' || r.status === 'failed');
    expect(run.status).toBe('failed');
    expect(run.summary).toMatchObject({ ok: 1, failed: 1 });
    expect(await simStatus(camp.la3)).toBe('ACTIVE');
    expect(await simStatus(camp.tk1)).toBe('PAUSED');
    expect(await logRows(taskId!)).toEqual([
      { object_id: id.tk1, action: 'activate', actor_type: 'start_task', actor_user_id: staffId, start_task_id: taskId, result: 'failed' },
      { object_id: id.la3, action: 'activate', actor_type: 'start_task', actor_user_id: staffId, start_task_id: taskId, result: 'ok' },
    ]);
    const results = await call('results', { id: taskId });
    expect(results.data.list.find((r: any) => r.object_id === id.tk1).error).toBe('The campaign is no longer in the scope of the task’s creator "Starter"; not switched on.');
    await t.db.insertInto('user_ad_accounts').values({ user_id: staffId, ad_account_id: tkAccount!, created_at: new Date() }).execute();
  });

  it('refuses every object of a task whose creator lost the role or was disabled before it ran, switching nothing on', async () => {
    await graph(sim, fb.access_token, 'POST', camp.la2, { status: 'PAUSED' });
    const [laAccount] = await Promise.all([adAccountId(t.db, fb.ad_accounts[0]!.id)]);
    const at = new Date(t.clock.now().getTime() + 86_400_000);
    const local = at.toISOString().slice(0, 16);
    const tasks: Record<'roleLost' | 'disabled', { user: number; task: number }> = {} as never;
    for (const k of ['roleLost', 'disabled'] as const) {
      const u = await createUser(t.db, { paths: ['/advertising/start'], name: k === 'roleLost' ? 'Role gone' : 'Switched off' });
      await t.db.insertInto('user_ad_accounts').values({ user_id: u.id, ad_account_id: laAccount!, created_at: new Date() }).execute();
      const res = await t.call('/api/start-tasks/create', { campaign_ids: [id.la2], on: { mode: 'at', local, zone: 'UTC' } }, { token: await t.login(u.account, u.password), lang: 'en' });
      expect(res.code, res.message).toBe(0);
      tasks[k] = { user: u.id, task: res.data.task_ids[0] };
    }
    await t.db.deleteFrom('user_roles').where('user_id', '=', tasks.roleLost.user).execute();
    await t.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', tasks.disabled.user).execute();
    t.clock.set(new Date(at.getTime() + 60_000));
    for (const k of ['roleLost', 'disabled'] as const) {
      const run = await waitForRun(t.db, tasks[k].task, (r) => r.status === 'success' || r.status === 'failed');
      expect(run.status).toBe('failed');
      expect(run.summary).toMatchObject({ ok: 0, failed: 1 });
      const rows = await t.db.selectFrom('ad_operations').select(['object_id', 'result', 'error_en', 'actor_user_id']).where('start_task_id', '=', tasks[k].task).execute();
      expect(rows).toEqual([
        {
          object_id: id.la2,
          result: 'failed',
          actor_user_id: tasks[k].user,
          error_en: k === 'roleLost' ? 'The task’s creator "Role gone" may no longer start objects; not switched on.' : 'The task’s creator "Switched off" is disabled or deleted; not switched on.',
        },
      ]);
    }
    expect(await simStatus(camp.la2)).toBe('PAUSED');
  });
});
