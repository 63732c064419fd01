import { both, joinBoth, perLang, textIn, type Bilingual } from '@ads/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { defineJob, errorTexts, JobError, type JobContext } from '../../jobs/types.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { isAuthFailure, platformDetail } from '../../lib/platform-errors.ts';
import type { AuditContext } from '../audit/audit.service.ts';
import { createAssetSync, resumeTimeText, SyncAuthError, SyncDisconnectedError, SyncPausedError, syncResumePointSchema, type SyncResumePoint, type SyncSummary } from './asset-sync.service.ts';
import { connectedAccounts, connectedAccountsToSync, queuedContinuationRuns } from './personal-accounts.repository.ts';
import { SYNC_JOB } from './personal-accounts.service.ts';

const auditOf = (ctx: JobContext<unknown>): AuditContext => ({ actor: null, ip: null, requestId: `job-run:${ctx.runId}` });

const syncOf = (ctx: JobContext<unknown>) => createAssetSync({ db: ctx.db, platform: ctx.platform, clock: ctx.clock, secrets: secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log) });

/**
 * What a sync run is asked: `ids` (sync now, a connect) or nothing (the schedule: every valid
 * account); or, for the continuation of a run the platform's rate limit paused, `resume`: per
 * personal account id, where its sync goes on (null: from the start), and `due`, when it was meant to run.
 */
export interface SyncJobData {
  ids?: number[];
  resume?: Record<string, SyncResumePoint | null>;
  due?: string;
}

const continuationSchema = z.object({
  resume: z.record(z.string().regex(/^\d+$/), syncResumePointSchema.nullable()),
  due: z.iso.datetime().optional(),
});

/** A continuation still counts as pending this long after it was due (the engine was down, say); then it is presumed lost. */
const CONTINUATION_GRACE_MS = 2 * 3_600_000;

/**
 * Personal accounts a queued continuation of this job will sync, each with the newest such run.
 * A scheduled run leaves them to it (running them from the start would spend the budget on the
 * same calls again), and an older continuation defers to a newer one.
 */
async function pendingContinuations(db: Db, now: Date, exceptRunId: number): Promise<Map<number, number>> {
  const rows = await queuedContinuationRuns(db, SYNC_JOB, exceptRunId);
  const out = new Map<number, number>();
  for (const row of rows) {
    const parsed = continuationSchema.safeParse(row.data);
    if (!parsed.success) continue;
    if (parsed.data.due && new Date(parsed.data.due).getTime() + CONTINUATION_GRACE_MS < now.getTime()) continue;
    for (const key of Object.keys(parsed.data.resume)) out.set(Number(key), Math.max(out.get(Number(key)) ?? 0, row.id));
  }
  return out;
}

/**
 * Syncs ad accounts, pages and pixels of personal accounts: the listed ones (sync now, after a
 * connect), or on the hourly schedule every connected account whose token is not known to be
 * invalid. An account whose token fails is marked invalid and named in the run's message; a
 * transient failure (platform down) fails the run so the engine retries it, which is safe: every
 * write is an upsert.
 *
 * When the platform's rate limit refuses a call, the run keeps what it wrote and ends, naming when
 * it continues; the engine queues its continuation for then (JobResult.continuation), which goes
 * on from each account's resume point. A scheduled run leaves accounts with a pending continuation
 * to it; a sync asked for by a person starts afresh.
 */
export const syncPersonalAccountsJob = defineJob<SyncJobData>({
  name: SYNC_JOB,
  title: { zh: '同步个号资产', en: 'Sync personal accounts' },
  description: {
    zh: '用各个号的令牌同步其可访问的广告账户、主页和像素（按平台 ID 更新或新增）；遇平台限流则暂停，限流窗口过后从断点继续。',
    en: 'Ad accounts, pages and pixels reachable by personal accounts’ tokens, upserted by platform id; paused by the platform’s rate limit, it continues where it stopped once the window has passed.',
  },
  defaultSchedule: '20 * * * *',
  retryLimit: 2,
  // 500 ad accounts at the standard rate-limit tier take minutes, not seconds.
  expireInSeconds: 3600,
  async run(ctx) {
    const runStartedAt = ctx.clock.now();
    const continuation = ctx.data.resume ? continuationSchema.safeParse({ resume: ctx.data.resume, due: ctx.data.due }) : undefined;
    if (continuation && !continuation.success) ctx.log.warn({ issues: continuation.error.issues.slice(0, 3) }, 'unreadable resume points: those accounts start afresh');
    const resume = new Map<number, SyncResumePoint | null>(
      continuation?.success ? Object.entries(continuation.data.resume).map(([k, v]) => [Number(k), v]) : Object.keys(ctx.data.resume ?? {}).map((k) => [Number(k), null]),
    );
    const ids = ctx.data.resume ? [...resume.keys()] : ctx.data.ids?.length ? ctx.data.ids : undefined;
    let accounts = await connectedAccountsToSync(ctx.db, ids);

    const pending = await pendingContinuations(ctx.db, runStartedAt, ctx.runId);
    if (ctx.data.resume) {
      // A newer continuation owns the account, or a sync finished since this one paused: nothing to go on with.
      accounts = accounts.filter((a) => {
        const paused = resume.get(a.id)?.paused_at;
        const since = paused !== undefined && a.last_synced_at !== null && a.last_synced_at > new Date(paused);
        return !since && !((pending.get(a.id) ?? 0) > ctx.runId);
      });
    } else if (!ids) {
      accounts = accounts.filter((a) => !pending.has(a.id));
    }
    if (!accounts.length) {
      const message = both(ctx.data.resume ? 'JOB_SYNC_CONTINUATION_DONE' : ids ? 'JOB_SYNC_NO_SUCH_ACCOUNTS' : pending.size ? 'JOB_SYNC_ALL_WAITING' : 'JOB_SYNC_NOTHING');
      return { status: 'skipped', message, summary: { accounts: 0 } };
    }

    const sync = syncOf(ctx);
    const done: SyncSummary[] = [];
    // `reason` and `error` (zh-CN) go into the summary; `text` is what the run's message says, in both languages.
    const invalid: { id: number; name: string; reason: string; text: Bilingual }[] = [];
    const failed: { id: number; name: string; error: string; text: Bilingual }[] = [];
    // Once the rate limit paused one account, the rest wait for the continuation too.
    let paused: SyncPausedError | undefined;
    // Disconnected while their sync ran: left out, as if they had been gone at the start.
    let disconnected = 0;
    const later = new Map<number, SyncResumePoint | null>();
    // Progress over all accounts: steps finished in earlier accounts plus the current one's.
    let before = 0;
    let last = 0;
    for (const [i, account] of accounts.entries()) {
      ctx.signal.throwIfAborted();
      if (paused) {
        later.set(account.id, resume.get(account.id) ?? null);
        continue;
      }
      try {
        const summary = await sync.syncPersonalAccount(account.id, {
          signal: ctx.signal,
          audit: auditOf(ctx),
          resume: resume.get(account.id) ?? null,
          runStartedAt,
          progress: (d, t, message) => {
            last = t;
            const label = accounts.length > 1 ? perLang((lang) => `[${i + 1}/${accounts.length}] ${account.name}${message ? ` · ${textIn(message, lang)}` : ''}`) : message;
            return ctx.progress(before + d, before + t, label);
          },
        });
        done.push(summary);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        if (err instanceof SyncDisconnectedError) disconnected++;
        else if (err instanceof SyncPausedError) {
          paused = err;
          later.set(account.id, err.resume);
        } else if (err instanceof SyncAuthError) invalid.push({ id: account.id, name: account.name, reason: err.detail, text: err.text });
        else if (isAuthFailure(err)) invalid.push({ id: account.id, name: account.name, reason: platformDetail(err), text: new SyncAuthError(account.id, account.name, platformDetail(err)).text });
        else {
          const text = errorTexts(err);
          failed.push({ id: account.id, name: account.name, error: text.zh, text });
          ctx.log.warn({ err, personalAccountId: account.id }, 'personal account sync failed');
        }
      }
      before += last;
      last = 0;
    }

    if (disconnected === accounts.length) return { status: 'skipped', message: both('JOB_SYNC_NO_SUCH_ACCOUNTS'), summary: { accounts: 0 } };
    const summary = {
      accounts: accounts.length - disconnected,
      synced: done.length,
      ad_accounts: done.reduce((n, s) => n + s.ad_accounts, 0),
      new_ad_accounts: done.reduce((n, s) => n + s.new_ad_accounts, 0),
      pages: done.reduce((n, s) => n + s.pages, 0),
      pixels: done.reduce((n, s) => n + s.pixels, 0),
      invalid: invalid.map(({ id, name, reason }) => ({ id, name, reason })),
      failed: failed.map(({ id, name, error }) => ({ id, name, error })),
      ...(paused && { paused: [...later.keys()], resume_at: paused.resumeAt.toISOString() }),
    };
    const syncedText = both('JOB_SYNC_SYNCED', { count: done.length, ad_accounts: summary.ad_accounts, pages: summary.pages, pixels: summary.pixels });
    const invalidText = joinBoth(invalid.map((a) => a.text));
    const failedList = joinBoth(failed.map((f) => both('JOB_SYNC_ACCOUNT_ERROR', { name: f.name, error: f.text })));
    if (paused) {
      // Accounts that failed before the pause go on in the continuation too: a retry now would meet the same limit.
      for (const f of failed) later.set(f.id, resume.get(f.id) ?? null);
      const at = paused.resumeAt;
      const resumeAt = resumeTimeText(at, runStartedAt);
      const message = joinBoth([
        both('JOB_SYNC_PAUSED', { at: resumeAt, count: later.size, detail: platformDetail(paused.platformError) }),
        done.length ? syncedText : null,
        failed.length ? both('JOB_SYNC_FAILED_LATER', { list: failedList }) : null,
        invalidText,
      ]);
      return {
        status: invalid.length ? 'failed' : 'success',
        summary,
        message,
        continuation: {
          data: { resume: Object.fromEntries(later), due: at.toISOString() } satisfies SyncJobData,
          at,
          message: both('JOB_SYNC_CONTINUATION', { at: resumeAt, count: later.size }),
        },
      };
    }
    // Retried by the engine; the accounts that synced are simply upserted again.
    if (failed.length) throw new JobError(both('JOB_SYNC_FAILED', { list: failedList }));
    if (invalid.length) return { status: 'failed', summary, message: invalidText };
    return { status: 'success', summary, message: syncedText };
  },
});

/**
 * Asks the platform about every connected token (debug_token) and records status, expiry and
 * scopes, so an expiring token is flagged a week ahead and a dead one the same day.
 */
export const checkTokensJob = defineJob({
  name: 'check-tokens',
  title: { zh: '检查个号令牌', en: 'Check personal account tokens' },
  description: {
    zh: '对每个已连接的个号调用 debug_token 检查令牌：有效、7 天内过期或已失效。',
    en: 'debug_token for every connected personal account: valid, expiring within 7 days, or invalid.',
  },
  defaultSchedule: '5 */6 * * *',
  retryLimit: 2,
  async run(ctx) {
    const accounts = await connectedAccounts(ctx.db);
    if (!accounts.length) return { status: 'skipped', summary: { checked: 0 } };
    const sync = syncOf(ctx);
    const counts = { valid: 0, expiring: 0, invalid: 0 };
    const changed: { id: number; name: string; from: string; to: string }[] = [];
    const errors: { id: number; name: string; error: string }[] = [];
    let firstError: Bilingual | undefined;
    for (const [i, account] of accounts.entries()) {
      ctx.signal.throwIfAborted();
      try {
        const { before, after } = await sync.checkToken(account.id, { signal: ctx.signal, audit: auditOf(ctx) });
        counts[after.status]++;
        if (before !== after.status) changed.push({ id: account.id, name: account.name, from: before, to: after.status });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        const text = errorTexts(err);
        firstError ??= text;
        errors.push({ id: account.id, name: account.name, error: text.zh });
      }
      await ctx.progress(i + 1, accounts.length, account.name);
    }
    const summary = { checked: accounts.length, ...counts, changed, errors };
    // Nothing could be checked (the platform is down): let the engine retry.
    if (errors.length === accounts.length) throw new JobError(both('JOB_TOKENS_FAILED', { error: firstError! }));
    return { status: 'success', summary, message: both('JOB_TOKENS_CHECKED', counts) };
  },
});
