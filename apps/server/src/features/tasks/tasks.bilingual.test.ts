import { both, joinBoth, type CronJob, type JobRun, type Task } from '@ads/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/types.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createUser } from '../../test/factories.ts';
import { gate, readRun, testRunner, waitForRun } from '../../test/jobs.ts';

/**
 * Job texts in the reader's language: a run records its progress, result and error in Chinese and
 * English (job_runs.message/message_en, error/error_en), and the task list and the cron screen
 * answer the one the caller's Accept-Language asks for, falling back to the Chinese text.
 */
const title = { zh: '双语', en: 'Bilingual' };
const hold = gate();
const progressJob = defineJob({
  name: 'bi-progress',
  title,
  description: '',
  defaultSchedule: null,
  async run({ progress }) {
    await progress(1, 2, both('JOB_SYNC_RESUMING'));
    await hold.promise;
    return { status: 'success', message: both('JOB_SYNC_SYNCED', { count: 1, ad_accounts: 3, pages: 2, pixels: 1 }) };
  },
});
const appErrorJob = defineJob({
  name: 'bi-app-error',
  title,
  description: '',
  defaultSchedule: null,
  retryLimit: 0,
  async run() {
    throw new AppError('PERSONAL_ACCOUNT_DISCONNECTED', { name: 'Ann FB' });
  },
});
const failedJob = defineJob({
  name: 'bi-failed',
  title,
  description: '',
  defaultSchedule: null,
  async run() {
    // A composed text: one part in both languages, one the same in both (the platform's words).
    return { status: 'failed', message: joinBoth([both('PERSONAL_ACCOUNT_SYNC_AUTH', { name: 'Bo FB', reason: 'Session has expired' }), 'act_42: Session has expired']) };
  },
});
const plainJob = defineJob({
  name: 'bi-plain',
  title,
  description: '',
  defaultSchedule: null,
  run: async () => ({ status: 'success', message: 'report-2026-11.csv' }),
});

let t: TestApp;
let runner: JobRunner;
let root: { id: number; token: string };

beforeAll(async () => {
  t = await buildTestApp({
    jobs: async ({ db, clock }) => {
      runner = testRunner(db, [progressJob, appErrorJob, failedJob, plainJob], { clock });
      await runner.start();
      return runner;
    },
  });
  const u = await createUser(t.db, { is_admin: 9, name: 'Root' });
  root = { id: u.id, token: await t.login(u.account, u.password) };
});
afterAll(() => t.close());

const task = async (id: number, lang?: string) => {
  const res = await t.call<Task>('/api/tasks/get', { id }, { token: root.token, ...(lang ? { lang } : {}) });
  expect(res.code, res.message).toBe(0);
  return res.data;
};
const cronRuns = async (name: string, lang?: string) => {
  const res = await t.call<{ list: JobRun[] }>('/api/sys-cron/runs', { name }, { token: root.token, ...(lang ? { lang } : {}) });
  expect(res.code, res.message).toBe(0);
  return res.data.list;
};
const lastRun = async (name: string, lang?: string) => {
  const res = await t.call<{ list: CronJob[] }>('/api/sys-cron/list', {}, { token: root.token, ...(lang ? { lang } : {}) });
  expect(res.code, res.message).toBe(0);
  return res.data.list.find((j) => j.name === name)!.last_run;
};

describe('job texts in the caller language', () => {
  it('shows progress and result in Chinese by default and in English to an English caller', async () => {
    const id = await runner.enqueue('bi-progress', {}, { createdBy: root.id });
    await waitForRun(t.db, id, (r) => r.status === 'running' && r.progress_done === 1);
    expect(await task(id)).toMatchObject({ status: 'running', progress_done: 1, progress_total: 2, message: '从断点继续' });
    expect(await task(id, 'en')).toMatchObject({ status: 'running', message: 'Continuing where it stopped' });
    expect(await task(id, 'zh-CN,zh;q=0.9,en;q=0.8')).toMatchObject({ message: '从断点继续' });

    hold.open();
    await waitForRun(t.db, id, (r) => r.status === 'success');
    expect(await task(id)).toMatchObject({ status: 'success', message: '已同步 1 个个号：3 个广告账户、2 个主页、1 个像素', error: null });
    expect(await task(id, 'en')).toMatchObject({ status: 'success', message: 'Personal accounts synced: 1 (ad accounts: 3, pages: 2, pixels: 1)', error: null });
    expect((await cronRuns('bi-progress', 'en'))[0]).toMatchObject({ id, message: 'Personal accounts synced: 1 (ad accounts: 3, pages: 2, pixels: 1)' });
    expect(await lastRun('bi-progress', 'en')).toMatchObject({ status: 'success', message: 'Personal accounts synced: 1 (ad accounts: 3, pages: 2, pixels: 1)' });
    expect(await lastRun('bi-progress')).toMatchObject({ status: 'success', message: '已同步 1 个个号：3 个广告账户、2 个主页、1 个像素' });
  });

  it('records a thrown AppError as its formatted message in both languages, not its key', async () => {
    const id = await runner.enqueue('bi-app-error', {}, { createdBy: root.id });
    const row = await waitForRun(t.db, id, (r) => r.status === 'failed');
    expect(row).toMatchObject({
      error: '个号「Ann FB」已断开，无法同步',
      error_en: 'The personal account "Ann FB" is disconnected and cannot be synced.',
      message: null,
      message_en: null,
    });
    expect(await task(id)).toMatchObject({ status: 'failed', error: '个号「Ann FB」已断开，无法同步' });
    expect(await task(id, 'en')).toMatchObject({ status: 'failed', error: 'The personal account "Ann FB" is disconnected and cannot be synced.' });
    // The cron screen's last run of a failed job says why, in the caller's language.
    expect(await lastRun('bi-app-error', 'en')).toMatchObject({ status: 'failed', message: 'The personal account "Ann FB" is disconnected and cannot be synced.' });
    expect((await cronRuns('bi-app-error'))[0]).toMatchObject({ id, error: '个号「Ann FB」已断开，无法同步' });
  });

  it('joins composed texts with each language’s separator and keeps the platform’s words as they are', async () => {
    const id = await runner.enqueue('bi-failed', {}, { createdBy: root.id });
    await waitForRun(t.db, id, (r) => r.status === 'failed');
    expect(await task(id)).toMatchObject({
      message: '个号「Bo FB」的令牌已失效，已标记为失效并停止同步：Session has expired；act_42: Session has expired',
      error: '个号「Bo FB」的令牌已失效，已标记为失效并停止同步：Session has expired；act_42: Session has expired',
    });
    const en = 'The token of the personal account "Bo FB" no longer works; the account is marked invalid and its sync stopped: Session has expired; act_42: Session has expired';
    expect(await task(id, 'en')).toMatchObject({ message: en, error: en });
  });

  it('stores a plain text once, and falls back to the Chinese text where no English one was stored', async () => {
    const id = await runner.enqueue('bi-plain', {}, { createdBy: root.id });
    await waitForRun(t.db, id, (r) => r.status === 'success');
    expect(await readRun(t.db, id)).toMatchObject({ message: 'report-2026-11.csv', message_en: null });
    expect(await task(id, 'en')).toMatchObject({ message: 'report-2026-11.csv' });

    // A run recorded before there was an English column.
    const old = await t.db
      .insertInto('job_runs')
      .values({ job_name: 'bi-plain', trigger: 'manual', created_by: root.id, data: '{}', status: 'failed', message: '已完成 2 个', error: '旧的失败原因', queued_at: t.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await task(old.id, 'en')).toMatchObject({ message: '已完成 2 个', error: '旧的失败原因' });
    expect(await task(old.id)).toMatchObject({ message: '已完成 2 个', error: '旧的失败原因' });
  });

  it('shows the English text to every caller who asks for it, while the same run reads in Chinese for others', async () => {
    // Both languages come from the one row: the list answers each caller in theirs.
    const id = await runner.enqueue('bi-progress', {}, { createdBy: root.id });
    await vi.waitFor(async () => expect((await readRun(t.db, id))?.status).toBe('success'), { timeout: 10_000, interval: 25 });
    const list = async (lang?: string) => (await t.call<{ list: Task[] }>('/api/tasks/list', { job_name: 'bi-progress', page_size: 1 }, { token: root.token, ...(lang ? { lang } : {}) })).data.list[0]!;
    expect((await list('en')).message).toBe('Personal accounts synced: 1 (ad accounts: 3, pages: 2, pixels: 1)');
    expect((await list()).message).toBe('已同步 1 个个号：3 个广告账户、2 个主页、1 个像素');
  });
});
