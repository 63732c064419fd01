import { bilingual, both, textIn, type Bilingual, type TokenStatus } from '@ads/contracts';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { errorTexts, JobError } from '../../jobs/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { SecretUnreadableError, type SecretBox } from '../../lib/crypto.ts';
import { isAuthFailure, platformDetail } from '../../lib/platform-errors.ts';
import { PlatformError, type AdPlatformClient, type PlatformAdAccount, type PlatformPixel, type TokenInfo } from '../../platform/types.ts';
import { writeAudit, type AuditContext } from '../audit/audit.service.ts';
import {
  holdIfConnected,
  linkPages,
  lockTokenStatus,
  markAdAccountsUnreachable,
  markPagesUnreachable,
  pageTokensOf,
  personalAccountName,
  reachableAdAccountsAfter,
  setPlatformPixelLinks,
  upsertAdAccountRows,
  upsertPageRows,
  upsertPixelRows,
} from './asset-sync.repository.ts';
import { findPersonalAccountRow, updatePersonalAccount } from './personal-accounts.repository.ts';
import { tokenHealth, type TokenHealth } from '../../lib/token-health.ts';

/**
 * Business assets from a personal account's token: its ad accounts, pages (with page tokens and
 * tasks) and the pixels of those ad accounts, written set-based by upserts keyed on platform ids:
 * one transaction per chunk of ad accounts (a handful of multi-row statements, not a few per
 * row). A rerun finds every row in place and changes nothing but sync times; a run killed midway
 * leaves the chunks it committed, and the next run completes it without duplicates. Nothing
 * synced is ever deleted: links the token no longer reaches are marked unreachable.
 *
 * When the platform's rate limit refuses a call, the sync stops where it is and throws
 * SyncPausedError with its resume point (what is written stays): the job queues a continuation
 * that goes on from that point once the limit's window has passed.
 */

export interface AssetSyncDeps {
  db: Db;
  platform: AdPlatformClient;
  clock: Clock;
  secrets: SecretBox;
}

export interface SyncOptions {
  progress?: (done: number, total: number, message?: string | Bilingual) => Promise<void> | void;
  signal?: AbortSignal;
  /** Who asked (audit); background runs pass a context without an actor. */
  audit?: AuditContext;
  /** Where a paused sync of this account stopped: it goes on from there instead of starting over. */
  resume?: SyncResumePoint | null;
  /** When the job run began (the app limit's rolling hour counts from its first call); default: when this sync began. */
  runStartedAt?: Date;
}

export interface SyncSummary {
  personal_account_id: number;
  ad_accounts: number;
  new_ad_accounts: number;
  unreachable_ad_accounts: number;
  pages: number;
  new_pages: number;
  pixels: number;
  new_pixels: number;
}

/**
 * Where a paused sync goes on. 'pages': the ad accounts are written, the pages are next;
 * 'pixels': pages too, and the pixels of the ad accounts up to `after` (ad_accounts.id; chunks go
 * in id order). The counts so far make the final summary cover the whole sync.
 */
export const syncResumePointSchema = z.object({
  phase: z.enum(['pages', 'pixels']),
  after: z.number().int().nonnegative(),
  /** When it paused (the sync's clock): a sync of the account that finished later makes this point stale. */
  paused_at: z.iso.datetime(),
  counts: z.object({
    ad_accounts: z.number().int().nonnegative(),
    new_ad_accounts: z.number().int().nonnegative(),
    unreachable_ad_accounts: z.number().int().nonnegative(),
    pages: z.number().int().nonnegative(),
    new_pages: z.number().int().nonnegative(),
    new_pixels: z.number().int().nonnegative(),
    /** Platform ids of the pixels found so far. */
    pixel_ids: z.array(z.string()),
  }),
});
export type SyncResumePoint = z.infer<typeof syncResumePointSchema>;

/**
 * The token stopped working mid-sync; the personal account is already marked invalid. `text` says
 * so in both languages (the run's message); `message` is its Chinese text, `detail` the reason in Chinese.
 */
export class SyncAuthError extends JobError {
  readonly detail: string;
  constructor(
    readonly personalAccountId: number,
    readonly accountName: string,
    /** Why: the platform's own words (the same in both languages), or a message of ours in both. */
    detail: string | Bilingual,
  ) {
    super(both('PERSONAL_ACCOUNT_SYNC_AUTH', { name: accountName, reason: detail }));
    this.detail = textIn(detail, 'zh');
    this.name = 'SyncAuthError';
  }
}

/**
 * The platform's rate limit stopped the sync. `text` says so in both languages (it is also the
 * account's last sync error while the continuation waits); `message` is its Chinese text. What it
 * wrote stays; `resume` says where to go on (null: from the start, the ad account list was not
 * complete), `resumeAt` when the window allows.
 */
export class SyncPausedError extends JobError {
  constructor(
    readonly personalAccountId: number,
    readonly accountName: string,
    readonly resume: SyncResumePoint | null,
    readonly resumeAt: Date,
    readonly platformError: PlatformError,
    now: Date,
  ) {
    super(both('JOB_SYNC_ACCOUNT_PAUSED', { detail: platformDetail(platformError), at: resumeTimeText(resumeAt, now) }));
    this.name = 'SyncPausedError';
  }
}

/**
 * The personal account was disconnected while its sync ran: the sync stopped before writing
 * anything more (disconnect wins; its tokens stay wiped). Nothing to retry.
 */
export class SyncDisconnectedError extends JobError {
  constructor(
    readonly personalAccountId: number,
    readonly accountName: string,
  ) {
    super(both('PERSONAL_ACCOUNT_DISCONNECTED', { name: accountName }));
    this.name = 'SyncDisconnectedError';
  }
}

/** "HH:MM UTC" (a date too when it is not the same UTC day as `from`): when a paused sync continues. */
export function resumeTimeText(at: Date, from: Date): string {
  const isoText = at.toISOString();
  const sameDay = isoText.slice(0, 10) === from.toISOString().slice(0, 10);
  return `${sameDay ? '' : `${isoText.slice(0, 10)} `}${isoText.slice(11, 16)} UTC`;
}


const SYSTEM: AuditContext = { actor: null, ip: null, requestId: null };

/** Ad accounts per chunk: one transaction of writes, and one batch of pixel reads (the adapter's batch holds 50). */
const CHUNK = 50;
/** Rows per multi-row statement where no chunk of ad accounts bounds them (pages): far below PostgreSQL's 65,535 bind parameters. */
const ROWS_PER_STATEMENT = 500;

const HOUR_MS = 3_600_000;
/** A paused sync never continues sooner than this: a refusal seconds after the window moved would waste a run. */
const MIN_PAUSE_MS = 5 * 60_000;

/**
 * When a sync stopped by `err` may continue. The wait the platform named (usage headers: account
 * score, business-use-case quotas) is honoured. The app limit (code 4 / 341, or the client's own
 * refusal to wait past its deadline, which names no code) is a rolling hour whose header gives no
 * reset time: the calls of this run leave it an hour after the run began.
 */
export function resumeTime(err: PlatformError, runStartedAt: Date, now: Date): Date {
  const code = err.details.code;
  const appWide = code === undefined || code === 4 || code === 341;
  const at = Math.max(now.getTime() + (err.details.retryAfterMs ?? 0), now.getTime() + MIN_PAUSE_MS, appWide ? runStartedAt.getTime() + HOUR_MS : 0);
  // Whole minutes: the message says HH:MM.
  return new Date(Math.ceil(at / 60_000) * 60_000);
}

const isRateLimited = (err: unknown): err is PlatformError => err instanceof PlatformError && err.kind === 'rate_limited';

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The last of each platform id (a list that repeats one would make a multi-row upsert touch a row twice). */
function uniqueById<T extends { id: string }>(items: readonly T[]): T[] {
  return [...new Map(items.map((x) => [x.id, x])).values()];
}

interface SyncedAccount {
  id: number;
  platformId: string;
}

export function createAssetSync({ db, platform, clock, secrets }: AssetSyncDeps) {
  /**
   * First statement of every transaction that writes a personal account's links or page tokens:
   * holds the account (FOR SHARE) and stops the sync once it is disconnected. A disconnect
   * committed earlier is seen here; one that comes later waits for this write, then wipes it.
   */
  async function holdConnected(trx: Db, personalAccountId: number) {
    if (!(await holdIfConnected(trx, personalAccountId))) {
      const gone = await personalAccountName(trx, personalAccountId);
      throw new SyncDisconnectedError(personalAccountId, gone?.name ?? String(personalAccountId));
    }
  }

  /** Stores a token's health; writes an audit entry when the status changes. */
  async function saveHealth(id: number, health: TokenHealth, facts: Partial<Pick<TokenInfo, 'expiresAt' | 'dataAccessExpiresAt' | 'scopes' | 'type'>>, audit: AuditContext) {
    await db.transaction().execute(async (trx) => {
      const before = await lockTokenStatus(trx, id);
      if (!before) return;
      const now = clock.now();
      await updatePersonalAccount(trx, id, {
        status: health.status,
        status_reason_key: health.reasonKey,
        status_reason_params: health.reasonParams ? JSON.stringify(health.reasonParams) : null,
        ...(facts.expiresAt !== undefined && { token_expires_at: facts.expiresAt }),
        ...(facts.dataAccessExpiresAt !== undefined && { data_access_expires_at: facts.dataAccessExpiresAt }),
        ...(facts.scopes !== undefined && { scopes: facts.scopes }),
        ...(facts.type !== undefined && { token_type: facts.type }),
        last_checked_at: now,
        updated_at: now,
      });
      if (before.status !== health.status || before.status_reason_key !== health.reasonKey) {
        await writeAudit(trx, audit, {
          action: 'personal_account.token_status',
          entity_type: 'personal_account',
          entity_id: id,
          before: { status: before.status, reason: before.status_reason_key },
          after: { status: health.status, reason: health.reasonKey, ...health.reasonParams },
        });
      }
    });
  }

  /** Marks an account invalid at once after the platform refused its token, so the list says so. */
  async function markInvalid(id: number, health: TokenHealth, audit: AuditContext) {
    await saveHealth(id, health, {}, audit);
  }

  /** The stored token in clear; an unreadable one marks the account invalid (it cannot be used any more). */
  async function tokenOf(row: { id: number; name: string; token_enc: string | null }, audit: AuditContext): Promise<string> {
    if (!row.token_enc) throw new AppError('PERSONAL_ACCOUNT_DISCONNECTED', { name: row.name });
    try {
      return await secrets.decrypt(row.token_enc);
    } catch (err) {
      if (!(err instanceof SecretUnreadableError)) throw err;
      await markInvalid(row.id, { status: 'invalid', reasonKey: 'TOKEN_UNREADABLE', reasonParams: null }, audit);
      throw new SyncAuthError(row.id, row.name, both('TOKEN_UNREADABLE'));
    }
  }

  /** The account's sync state; an error is stored in both languages (English only where it differs). */
  async function setSyncState(id: number, state: { last_sync_status: 'queued' | 'running' | 'success' | 'failed' | 'cancelled'; last_sync_error?: string | Bilingual | null; last_synced_at?: Date }) {
    const { last_sync_error: error, ...rest } = state;
    const text = error == null ? null : bilingual(error);
    const zh = text && text.zh.slice(0, 500);
    const en = text && text.en.slice(0, 500);
    await updatePersonalAccount(db, id, { ...rest, ...(error !== undefined && { last_sync_error: zh, last_sync_error_en: en === zh ? null : en }), updated_at: clock.now() });
  }

  /**
   * Upserts a chunk of ad accounts and their links to the personal account in one transaction of
   * two multi-row statements; answers their ids and how many are new. Every row gets the sync
   * time (the screens show and sort by it); updated_at moves only when the platform's data changed.
   */
  async function upsertAdAccounts(personalAccountId: number, chunk: PlatformAdAccount[], now: Date) {
    return db.transaction().execute(async (trx) => {
      await holdConnected(trx, personalAccountId);
      const rows = await upsertAdAccountRows(trx, personalAccountId, chunk, now);
      const ids = new Map(rows.map((r) => [r.platform_id, r.id]));
      return {
        synced: chunk.map((a): SyncedAccount => ({ id: ids.get(a.id)!, platformId: a.id })),
        created: rows.filter((r) => r.inserted).length,
      };
    });
  }

  async function syncPages(personalAccountId: number, token: string, now: Date, signal?: AbortSignal) {
    const pages = uniqueById(await platform.listPages(token, { signal }));
    const known = await pageTokensOf(db, personalAccountId);
    const storedTokens = new Map(known.map((k) => [k.platform_id, k.page_token_enc]));
    const tokens = new Map<string, string | null>();
    for (const page of pages) {
      signal?.throwIfAborted();
      // Re-encrypting an unchanged token would still change the stored value (fresh IV): keep it.
      let tokenEnc: string | null = null;
      if (page.accessToken) {
        const stored = storedTokens.get(page.id);
        const same = stored ? await secrets.decrypt(stored).then((t) => t === page.accessToken, () => false) : false;
        tokenEnc = same ? stored! : await secrets.encrypt(page.accessToken);
      }
      tokens.set(page.id, tokenEnc);
    }
    let created = 0;
    const ids: number[] = [];
    for (const chunk of chunked(pages, ROWS_PER_STATEMENT)) {
      signal?.throwIfAborted();
      await db.transaction().execute(async (trx) => {
        await holdConnected(trx, personalAccountId);
        const rows = await upsertPageRows(trx, chunk, now);
        created += rows.filter((r) => r.inserted).length;
        const idOf = new Map(rows.map((r) => [r.platform_id, r.id]));
        ids.push(...rows.map((r) => r.id));
        await linkPages(trx, personalAccountId, chunk, idOf, tokens, now);
      });
    }
    await markPagesUnreachable(db, personalAccountId, ids);
    return { pages: pages.length, new_pages: created };
  }

  /**
   * Pixels of a chunk of ad accounts, in one transaction: upserts the pixels this sync has not
   * written yet (`known`: platform id → row id, filled here), then makes the chunk's 'platform'
   * links exactly what was found — deletes the links no longer found, inserts the new ones;
   * links that stay are not touched. Answers how many pixels are new.
   */
  async function savePixels(chunk: SyncedAccount[], found: PlatformPixel[], known: Map<string, number>, now: Date) {
    return db.transaction().execute(async (trx) => {
      let created = 0;
      const fresh = uniqueById(found.filter((px) => !known.has(px.id)));
      for (const rows of chunked(fresh, ROWS_PER_STATEMENT)) {
        const saved = await upsertPixelRows(trx, rows, now);
        for (const r of saved) known.set(r.platform_id, r.id);
        created += saved.filter((r) => r.inserted).length;
      }

      const accountOf = new Map(chunk.map((a) => [a.platformId, a.id]));
      const pairs = new Set<string>();
      const pixelIds: number[] = [];
      const accountIds: number[] = [];
      for (const px of found) {
        const pixelId = known.get(px.id)!;
        for (const act of px.adAccountIds) {
          const accountId = accountOf.get(act);
          if (accountId === undefined || pairs.has(`${pixelId}:${accountId}`)) continue;
          pairs.add(`${pixelId}:${accountId}`);
          pixelIds.push(pixelId);
          accountIds.push(accountId);
        }
      }
      await setPlatformPixelLinks(trx, chunk.map((a) => a.id), pixelIds, accountIds, now);
      return created;
    });
  }

  /** The personal account's reachable ad accounts after `after` (ad_accounts.id), in id order: where a paused sync's pixel reads go on. */
  async function reachableAccounts(personalAccountId: number, after: number): Promise<SyncedAccount[]> {
    const rows = await reachableAdAccountsAfter(db, personalAccountId, after);
    return rows.map((r) => ({ id: r.id, platformId: r.platform_id }));
  }

  return {
    markInvalid,
    tokenOf,

    /**
     * Asks the platform about a stored token (debug_token) and records its health, expiry and
     * scopes. Answers the status before and after.
     */
    async checkToken(id: number, opts: { signal?: AbortSignal; audit?: AuditContext } = {}): Promise<{ before: TokenStatus; after: TokenHealth }> {
      const row = await findPersonalAccountRow(db, id);
      if (!row) throw new AppError('PERSONAL_ACCOUNT_NOT_FOUND');
      const audit = opts.audit ?? SYSTEM;
      let token: string;
      try {
        token = await tokenOf(row, audit);
      } catch (err) {
        if (err instanceof SyncAuthError) return { before: row.status, after: { status: 'invalid', reasonKey: 'TOKEN_UNREADABLE', reasonParams: null } };
        throw err;
      }
      const info = await platform.debugToken(token, { signal: opts.signal });
      const health = tokenHealth(info, clock.now());
      await saveHealth(id, health, { expiresAt: info.expiresAt, dataAccessExpiresAt: info.dataAccessExpiresAt, scopes: info.scopes, type: info.type }, audit);
      return { before: row.status, after: health };
    },

    /**
     * Syncs one personal account's ad accounts, pages and pixels, or goes on from `opts.resume`.
     * On an auth failure the account is marked invalid and SyncAuthError is thrown; when the
     * platform's rate limit refuses a call, SyncPausedError says where and when to go on; other
     * failures are recorded and rethrown.
     */
    async syncPersonalAccount(id: number, opts: SyncOptions = {}): Promise<SyncSummary> {
      const { signal } = opts;
      const audit = opts.audit ?? SYSTEM;
      const row = await findPersonalAccountRow(db, id);
      if (!row) throw new AppError('PERSONAL_ACCOUNT_NOT_FOUND');
      const token = await tokenOf(row, audit);
      const progress = async (done: number, total: number, message?: string | Bilingual) => {
        await opts.progress?.(done, total, message);
      };
      await setSyncState(id, { last_sync_status: 'running' });
      const now = clock.now();
      const runStartedAt = opts.runStartedAt ?? now;
      // How far this sync got: null until the ad account list is complete (a pause then starts over).
      let point: SyncResumePoint | null = opts.resume ?? null;
      try {
        signal?.throwIfAborted();
        let ordered: SyncedAccount[];
        let total: number;
        let done: number;
        if (!point) {
          const accounts = uniqueById(await platform.listAdAccounts(token, { signal }));
          // One step per ad account, one for the pages, one per chunk of pixel reads.
          total = accounts.length + 1 + Math.ceil(accounts.length / CHUNK);
          done = 0;
          await progress(done, total);

          let newAccounts = 0;
          const synced: SyncedAccount[] = [];
          for (const chunk of chunked(accounts, CHUNK)) {
            signal?.throwIfAborted();
            // One transaction per chunk: a kill loses at most the chunk in flight.
            const saved = await upsertAdAccounts(id, chunk, now);
            newAccounts += saved.created;
            synced.push(...saved.synced);
            for (const account of chunk) await progress(++done, total, `${account.name} (${account.id})`);
          }
          // Only after the complete list: ad accounts the token no longer reaches stay, marked unreachable.
          const unreachable = await markAdAccountsUnreachable(db, id, synced.map((s) => s.id));
          point = {
            phase: 'pages',
            after: 0,
            paused_at: now.toISOString(),
            counts: { ad_accounts: accounts.length, new_ad_accounts: newAccounts, unreachable_ad_accounts: unreachable, pages: 0, new_pages: 0, new_pixels: 0, pixel_ids: [] },
          };
          // Pixel reads go in id order, so a pause can say "after this id".
          ordered = synced.sort((a, b) => a.id - b.id);
        } else {
          // A continuation: the ad accounts were written by the run that paused; their pixels go on after its cursor.
          if (point.phase === 'pixels') {
            // The client spaces a batch's calls by the app usage it last read, and a reading taken
            // as the pause began never expires: one plain call first brings it up to date (and
            // checks the token), or the first batch would be refused by the client itself.
            await platform.me(token, { signal });
          }
          ordered = await reachableAccounts(id, point.after);
          const chunksLeft = Math.ceil(ordered.length / CHUNK);
          const accounts = point.counts.ad_accounts;
          total = accounts + 1 + Math.max(chunksLeft, Math.ceil(accounts / CHUNK));
          done = total - chunksLeft - (point.phase === 'pages' ? 1 : 0);
          await progress(done, total, both('JOB_SYNC_RESUMING'));
        }

        if (point.phase === 'pages') {
          signal?.throwIfAborted();
          const pageResult = await syncPages(id, token, now, signal);
          point = { ...point, phase: 'pixels', counts: { ...point.counts, ...pageResult } };
          await progress(++done, total);
        }

        const pixelIds = new Set(point.counts.pixel_ids);
        // Each pixel is upserted once per run, however many chunks find it.
        const knownPixels = new Map<string, number>();
        for (const chunk of chunked(ordered, CHUNK)) {
          signal?.throwIfAborted();
          const found = await platform.listPixels(token, chunk.map((a) => a.platformId), { signal });
          for (const px of found) pixelIds.add(px.id);
          const created = await savePixels(chunk, found, knownPixels, now);
          point = { ...point, after: chunk.at(-1)!.id, counts: { ...point.counts, new_pixels: point.counts.new_pixels + created, pixel_ids: [...pixelIds] } };
          await progress(++done, total);
        }

        const { counts } = point;
        const summary: SyncSummary = {
          personal_account_id: id,
          ad_accounts: counts.ad_accounts,
          new_ad_accounts: counts.new_ad_accounts,
          unreachable_ad_accounts: counts.unreachable_ad_accounts,
          pages: counts.pages,
          new_pages: counts.new_pages,
          pixels: pixelIds.size,
          new_pixels: counts.new_pixels,
        };
        await db.transaction().execute(async (trx) => {
          await updatePersonalAccount(trx, id, { last_sync_status: 'success', last_sync_error: null, last_sync_error_en: null, last_synced_at: clock.now(), updated_at: clock.now() });
          await writeAudit(trx, audit, { action: 'personal_account.sync', entity_type: 'personal_account', entity_id: id, after: summary });
        });
        return summary;
      } catch (err) {
        if (err instanceof SyncDisconnectedError) throw err;
        if (signal?.aborted) {
          await setSyncState(id, { last_sync_status: 'cancelled' });
          throw err;
        }
        if (isAuthFailure(err)) {
          const detail = platformDetail(err);
          await markInvalid(id, tokenHealth({ valid: false, expiresAt: null, dataAccessExpiresAt: null, detail }, clock.now()), audit);
          await setSyncState(id, { last_sync_status: 'failed', last_sync_error: detail });
          throw new SyncAuthError(id, row.name, detail);
        }
        if (isRateLimited(err)) {
          const pausedAt = clock.now();
          const paused = new SyncPausedError(id, row.name, point && { ...point, paused_at: pausedAt.toISOString() }, resumeTime(err, runStartedAt, pausedAt), err, pausedAt);
          // The account's sync is queued: its continuation goes on after the window.
          await setSyncState(id, { last_sync_status: 'queued', last_sync_error: paused.text });
          throw paused;
        }
        await setSyncState(id, { last_sync_status: 'failed', last_sync_error: errorTexts(err) });
        throw err;
      }
    },
  };
}

export type AssetSync = ReturnType<typeof createAssetSync>;
