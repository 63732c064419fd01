import { both, joinBoth, perLang } from '@ads/contracts';
import { sql } from 'kysely';
import { defineJob, type JobContext, type JobResult } from '../../jobs/types.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { platformDetail } from '../../lib/platform-errors.ts';
import { addDays, dayIn } from '../../lib/tz.ts';
import { COPY_JOB, createAdCopier } from './ad-copy.service.ts';
import { createAdOperations, type CopyJobData } from './ad-ops.service.ts';
import { AdSyncNoTokenError, AdSyncPausedError, createAdSync } from './ad-sync.service.ts';

// Background jobs of ad data (docs/ad-data-design.md §8). One run per ad account
// (`sync-ad-account`, key `ad_account:<id>`: runs of one account never overlap, accounts run side
// by side); dispatchers queue them on a timer; maintenance prunes old hourly rows and settles
// operations a crash left pending.

export const AD_ACCOUNT_SYNC_JOB = 'sync-ad-account';

export interface AdAccountSyncData {
  ad_account_id: number;
  mode: 'recent' | 'backfill';
  /** A continuation after a rate limit goes on from here. */
  phase?: 'structure' | 'insights';
  /** Backfill only: days to re-read instead of the default 28 (DEMO=1 reads its 30 back-dated days). */
  days?: number;
}

/** A paused sync never continues sooner than this: a refusal seconds after the window moved would waste a run. */
const MIN_PAUSE_MS = 5 * 60_000;
/** Days without spend after which an unhosted account is synced hourly instead of every 15 minutes. */
const RECENT_ACTIVITY_DAYS = 3;

export const adSyncOf = (ctx: JobContext<unknown>) =>
  createAdSync({ db: ctx.db, platform: ctx.platform, clock: ctx.clock, secrets: secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log), reportTimezone: ctx.config.reportTimezone, log: ctx.log });

const hhmm = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;

/** Syncs one ad account: structure, then insights (today and yesterday, or the 28-day backfill), then report facts. */
export const syncAdAccountJob = defineJob<AdAccountSyncData>({
  name: AD_ACCOUNT_SYNC_JOB,
  title: { zh: '同步广告账户数据', en: 'Sync ad account data' },
  description: {
    zh: '同步一个广告账户的广告系列、广告组、广告、创意及其按日、按小时的数据，并换算为报表时区的日数据；遇平台限流则暂停，限流窗口过后从断点继续。',
    en: 'Campaigns, ad sets, ads, creatives and their daily and hourly insights of one ad account, re-bucketed into report days; paused by the platform’s rate limit, it continues where it stopped.',
  },
  defaultSchedule: null,
  concurrency: { perKey: true, max: 4 },
  retryLimit: 2,
  expireInSeconds: 3600,
  async run(ctx): Promise<JobResult> {
    const { ad_account_id: id, mode } = ctx.data;
    const sync = adSyncOf(ctx);
    const account = await sync.accountRef(id);
    if (!account) return { status: 'skipped', message: both('AD_OBJECT_NOT_FOUND') };
    const name = `${account.name} (${account.platform_id})`;
    try {
      const summary = await sync.syncAccount(id, { mode, phase: ctx.data.phase, days: ctx.data.days, signal: ctx.signal, progress: (d, t, m) => ctx.progress(d, t, m ? `${name} · ${m}` : name) });
      const dead = joinBoth(summary.dead_tokens.map((d) => both('JOB_AD_SYNC_DEAD_TOKEN', { name: d.name, reason: d.reason })));
      return {
        status: 'success',
        summary: { ...summary },
        message: joinBoth([both('JOB_AD_SYNC_DONE', { name, campaigns: summary.campaigns, adsets: summary.adsets, ads: summary.ads, rows: summary.daily_rows }), dead]),
      };
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (err instanceof AdSyncPausedError) {
        const now = ctx.clock.now().getTime();
        const at = new Date(Math.ceil(Math.max(now + (err.platformError.details.retryAfterMs ?? 0), now + MIN_PAUSE_MS) / 60_000) * 60_000);
        return {
          status: 'success',
          summary: { paused: true, phase: err.phase, resume_at: at.toISOString() },
          message: both('JOB_AD_SYNC_PAUSED', { name, detail: platformDetail(err.platformError), at: hhmm(at) }),
          continuation: { data: { ...ctx.data, phase: err.phase } satisfies AdAccountSyncData, at, message: both('JOB_AD_SYNC_CONTINUATION', { name, at: hhmm(at) }) },
        };
      }
      if (err instanceof AdSyncNoTokenError) {
        const detail = joinBoth(err.deadTokens.map((d) => both('JOB_AD_SYNC_DEAD_TOKEN', { name: d.name, reason: d.reason })));
        return { status: 'failed', summary: { dead_tokens: err.deadTokens }, message: both('JOB_AD_SYNC_NO_TOKEN', { name, detail: detail ?? '' }) };
      }
      throw err;
    }
  },
});

/**
 * Ad accounts with a usable token that are due: hosted and recently active ones on every tick
 * (15 minutes), the rest when their last insights sync is an hour old.
 */
async function dueAccounts(ctx: JobContext<unknown>, mode: 'recent' | 'backfill'): Promise<number[]> {
  const now = ctx.clock.now();
  const hourAgo = new Date(now.getTime() - 3_600_000 + 60_000);
  const recent = addDays(dayIn(now.getTime(), 'UTC'), -RECENT_ACTIVITY_DAYS);
  let q = ctx.db
    .selectFrom('ad_accounts as a')
    .leftJoin('ad_account_sync_state as s', 's.ad_account_id', 'a.id')
    .select('a.id')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('personal_account_ad_accounts as l')
          .innerJoin('personal_accounts as pa', 'pa.id', 'l.personal_account_id')
          .select('l.ad_account_id')
          .whereRef('l.ad_account_id', '=', 'a.id')
          .where('l.reachable', '=', true)
          .where('pa.deleted_at', 'is', null)
          .where('pa.token_enc', 'is not', null)
          .where('pa.status', '!=', 'invalid'),
      ),
    );
  if (mode === 'recent') {
    q = q.where((eb) => eb.or([eb('a.hosted', '=', true), eb('s.last_active_date', '>=', recent), eb('s.insights_synced_at', 'is', null), eb('s.insights_synced_at', '<=', hourAgo)]));
  }
  return (await q.orderBy('a.id').execute()).map((r) => r.id);
}

async function fanOut(ctx: JobContext<unknown>, mode: 'recent' | 'backfill'): Promise<JobResult> {
  const ids = await dueAccounts(ctx, mode);
  if (!ids.length) return { status: 'skipped', message: both('JOB_AD_SYNC_NONE'), summary: { accounts: 0 } };
  if (!ctx.enqueue) {
    // Driven by hand (no engine): run them here, one after the other.
    for (const id of ids) await syncAdAccountJob.run({ ...ctx, data: { ad_account_id: id, mode } });
  } else {
    for (const id of ids) {
      // A run of the account already waiting for the same work is reused, not doubled.
      await ctx.enqueue(AD_ACCOUNT_SYNC_JOB, { ad_account_id: id, mode } satisfies AdAccountSyncData, { key: `ad_account:${id}`, singletonKey: `ad-sync:${mode}:${id}` });
    }
  }
  await ctx.progress(ids.length, ids.length);
  return { status: 'success', message: both('JOB_AD_SYNC_QUEUED', { count: ids.length }), summary: { accounts: ids.length } };
}

export const syncAdDataJob = defineJob({
  name: 'sync-ad-data',
  title: { zh: '同步广告数据（今天和昨天）', en: 'Sync ad data (today and yesterday)' },
  description: {
    zh: '每 15 分钟为托管和近期有花费的广告账户排队同步结构和今天、昨天的数据；其他账户每小时一次。',
    en: 'Every 15 minutes queues the sync of structure and today’s and yesterday’s figures for hosted and recently active ad accounts; the rest hourly.',
  },
  defaultSchedule: '*/15 * * * *',
  run: (ctx) => fanOut(ctx, 'recent'),
});

export const backfillAdDataJob = defineJob({
  name: 'backfill-ad-data',
  title: { zh: '回补广告数据（近 28 天）', en: 'Backfill ad data (last 28 days)' },
  description: {
    zh: '每天重新拉取每个广告账户近 28 天的数据：转化会在之后几天陆续回传。',
    en: 'Daily, re-reads the last 28 days of every ad account: conversions keep arriving for days.',
  },
  defaultSchedule: '40 3 * * *',
  run: (ctx) => fanOut(ctx, 'backfill'),
});

export const pruneAdHourlyJob = defineJob({
  name: 'prune-ad-hourly',
  title: { zh: '清理小时数据', en: 'Prune hourly ad data' },
  description: { zh: '删除超过保留期（默认 40 天）的小时数据。', en: 'Removes hourly insights older than the retention period (40 days by default).' },
  defaultSchedule: '50 4 * * *',
  system: true,
  async run(ctx) {
    const days = ctx.config.hourlyRetentionDays;
    const before = new Date(ctx.clock.now().getTime() - days * 86_400_000);
    const res = await ctx.db.deleteFrom('ad_insights_hourly').where('hour', '<', before).executeTakeFirst();
    const count = Number(res.numDeletedRows);
    return { status: 'success', summary: { deleted: count }, message: both('JOB_AD_PRUNED', { count, days }) };
  },
});

export const reconcileAdOperationsJob = defineJob({
  name: 'reconcile-ad-operations',
  title: { zh: '核对未完成的广告操作', en: 'Reconcile unfinished ad operations' },
  description: {
    zh: '服务中断时留下的“进行中”操作，与平台上的实际状态核对后记为成功或失败。',
    en: 'Operations a crash left pending are checked against the platform and recorded as ok or failed.',
  },
  defaultSchedule: '*/10 * * * *',
  system: true,
  async run(ctx) {
    const ops = createAdOperations({ db: ctx.db, clock: ctx.clock, sync: adSyncOf(ctx), platform: ctx.platform });
    const r = await ops.reconcile({ signal: ctx.signal });
    if (!r.checked) return { status: 'skipped', summary: r };
    return { status: 'success', summary: r, message: both('JOB_AD_RECONCILED', { count: r.checked, ok: r.ok, failed: r.failed }) };
  },
});

/** Continuations a copy waits for its materials at most (a minute each), before it goes on without them. */
const COPY_MAX_WAITS = 60;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Copies campaigns, ad sets or ads into another ad account (/ad-ops/copy queues it): reads them,
 * pushes the creatives' materials to that account through the library's push job and waits for the
 * platform to process the videos (a continuation a minute later while they are not ready), then
 * creates each object there, logged under the request's batch. A rerun reuses what an earlier
 * run created (looked up by name under its parent), so a retry never makes a second copy.
 */
export const copyAdObjectsJob = defineJob<CopyJobData>({
  name: COPY_JOB,
  title: { zh: '复制到其他广告账户', en: 'Copy to another ad account' },
  description: {
    zh: '读取广告系列、广告组或广告，把素材推送到目标广告账户并等待平台处理完成，再在那里重新创建（预算按汇率换算），每个对象写入操作日志。',
    en: 'Reads campaigns, ad sets or ads, pushes their materials to the target ad account and waits for the platform to process them, then re-creates them there (budgets converted at the day’s rates), each object logged.',
  },
  defaultSchedule: null,
  concurrency: { perKey: true, max: 4 },
  retryLimit: 2,
  expireInSeconds: 3600,
  async run(ctx): Promise<JobResult> {
    const { input, actor } = ctx.data;
    const copier = createAdCopier({ db: ctx.db, clock: ctx.clock, sync: adSyncOf(ctx), platform: ctx.platform, reportTimezone: ctx.config.reportTimezone });
    const targetId = input.target_ad_account_id!;
    const plan = await copier.plan(input, await copier.liveTarget(targetId));
    const target = plan.roots[0]?.target;
    if (!target) return { status: 'skipped', message: both('AD_OBJECT_NOT_FOUND') };
    const account = `${target.name} (${target.platform_id})`;
    const userId = actor.type === 'user' ? actor.actor.id : actor.type === 'start_task' ? (actor.userId ?? null) : null;
    const waits = ctx.data.waits ?? 0;
    const materials = await copier.awaitMaterials(plan, {
      enqueue: ctx.enqueue,
      userId: userId ?? 0,
      queue: !ctx.data.pushed && userId !== null,
      waitMs: ctx.config.materials.pushWaitMs,
      pollMs: ctx.config.materials.pushPollMs,
      signal: ctx.signal,
      sleep,
      onWait: (w) => ctx.progress(0, 1, both('JOB_AD_COPY_WAITING', { account, files: w.map((m) => m.file_name).join(', ') })),
    });
    if (materials.waiting.length && waits < COPY_MAX_WAITS) {
      const at = new Date(Math.ceil((ctx.clock.now().getTime() + 60_000) / 60_000) * 60_000);
      const files = materials.waiting.map((m) => m.file_name).join(', ');
      return {
        status: 'success',
        summary: { waiting: materials.waiting.length },
        message: both('JOB_AD_COPY_WAITING', { account, files }),
        continuation: { data: { ...ctx.data, pushed: true, waits: waits + 1 } satisfies CopyJobData, at, message: both('JOB_AD_COPY_CONTINUATION', { at: hhmm(at) }) },
      };
    }
    const results = await copier.execute(plan, actor, ctx.data.batch_id, { materials, signal: ctx.signal, progress: (done, total, name) => ctx.progress(done, total, both('JOB_AD_COPY_CREATING', { name })) });
    await ctx.progress(results.length, results.length);
    const ok = results.filter((r) => r.result === 'ok').length;
    const failed = results.length - ok;
    const failures = results.filter((r) => r.error).slice(0, 3).map((r) => perLang((l) => `${r.name}: ${r.error![l]}`));
    return {
      status: failed ? 'failed' : 'success',
      summary: { created: ok, failed, batch_id: ctx.data.batch_id },
      message: joinBoth([both('JOB_AD_COPY_DONE', { account, ok, failed }), ...failures]),
    };
  },
});

/** The sync state rows the report screens show as "data as of". */
export async function dataAsOf(db: JobContext<unknown>['db'], adAccountIds: number[] | null): Promise<Date | null> {
  let q = db.selectFrom('ad_account_sync_state').select(sql<Date | null>`min(insights_synced_at)`.as('at'));
  if (adAccountIds) q = q.where('ad_account_id', 'in', adAccountIds.length ? adAccountIds : [0]);
  const row = await q.executeTakeFirst();
  return row?.at ?? null;
}
