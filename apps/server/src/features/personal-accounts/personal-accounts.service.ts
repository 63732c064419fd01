import { randomBytes, timingSafeEqual } from 'node:crypto';
import { formatMessage, REQUIRED_SCOPES, type ConnectTokenBody, type Lang, type ListPersonalAccountsBody, type PersonalAccount } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { isAuthFailure, platformDetail, requirePlatform, toAppError } from '../../lib/platform-errors.ts';
import { assertUsersManageable, forAssets, seesEverything, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { AdPlatformClient, PlatformUser, TokenInfo } from '../../platform/types.ts';
import { writeAudit, type AuditContext } from '../audit/audit.service.ts';
import { createAssetSync } from './asset-sync.service.ts';
import {
  claimOAuthState,
  deleteOAuthStatesBefore,
  findByFacebookUser,
  findEnabledUser,
  findOpenOAuthState,
  findPersonalAccount,
  insertOAuthState,
  listPersonalAccounts,
  markSyncQueued,
  personalAccountRows,
  softDeletePersonalAccount,
  updatePersonalAccount,
  upsertPersonalAccount,
} from './personal-accounts.repository.ts';
import { reasonText, tokenHealth } from '../../lib/token-health.ts';

/** The job that syncs personal accounts' assets (personal-accounts.jobs.ts). */
export const SYNC_JOB = 'sync-personal-accounts';
/** Where the OAuth dialog sends the browser back (register `<PUBLIC_URL>` + this in the Meta app). */
export const OAUTH_CALLBACK_PATH = '/api/personal-accounts/oauth_callback';
/** The screen the callback returns to. */
export const OAUTH_RETURN_PATH = '/operation/auth';
const STATE_TTL_MS = 10 * 60_000;
/**
 * The cookie binding OAuth states to the browser that started them (RFC 6749 §10.12). Its path
 * covers oauth_start (which reuses it, so several dialogs may be open at once) and the callback.
 */
export const OAUTH_BROWSER_COOKIE = 'ads_oauth_browser';
const OAUTH_COOKIE_PATH = '/api/personal-accounts/';
const BROWSER_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** Set-Cookie for the browser value: HttpOnly, SameSite=Lax (the dialog returns by a top-level GET), Secure on https. */
function browserCookie(value: string, secure: boolean): string {
  return `${OAUTH_BROWSER_COOKIE}=${value}; Path=${OAUTH_COOKIE_PATH}; Max-Age=${STATE_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
/** Token types a personal account may hold; page and app tokens cannot list ad accounts. */
const PERSON_TOKEN_TYPES = ['USER', 'SYSTEM_USER'];

export interface PersonalAccountServiceDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  jobs: Jobs;
  platform: AdPlatformClient | undefined;
  publicUrl: string;
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
}

/** Who connects a token: a request's caller, or the user an OAuth state was issued to. */
interface Connector {
  user: ScopeActor & { account: string };
  audit: AuditContext;
  lang: Lang;
}

/** Managers, the super admin, and (through forAssets) a company asset scope. */
const isManagerLike = (a: ScopeActor) => seesEverything(a);

/** What the audit log keeps of a personal account: never the token. */
const auditView = (p: { fb_user_id: string; name: string; owner_user_id: number | null; scopes: string[]; token_expires_at: Date | null; status: string; hosted?: boolean }) => ({
  fb_user_id: p.fb_user_id,
  name: p.name,
  owner_user_id: p.owner_user_id,
  scopes: p.scopes,
  token_expires_at: p.token_expires_at?.toISOString() ?? null,
  status: p.status,
  ...(p.hosted !== undefined && { hosted: p.hosted }),
});

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Personal accounts (个号): connecting tokens (paste or OAuth), their health, sync, owner, hosting. */
export function createPersonalAccountService(deps: PersonalAccountServiceDeps) {
  const { db, clock, secrets, jobs, publicUrl, log } = deps;
  const redirectUri = `${publicUrl}${OAUTH_CALLBACK_PATH}`;
  const assetSync = () => createAssetSync({ db, platform: requirePlatform(deps.platform), clock, secrets });

  /** Loads personal accounts the actor sees, refusing unknown ids (not found) and others' (403). */
  async function loadVisible(actor: ScopeActor, ids: readonly number[]) {
    const unique = [...new Set(ids)];
    const rows = await personalAccountRows(db, unique);
    if (rows.length !== unique.length) throw new AppError('PERSONAL_ACCOUNT_NOT_FOUND');
    // A company asset scope sees every personal account (lib/scope.ts forAssets).
    const owners = await visibleUserIds(db, await forAssets(db, actor));
    if (owners && rows.some((r) => r.owner_user_id === null || !owners.includes(r.owner_user_id))) throw new AppError('FORBIDDEN_SCOPE');
    return rows;
  }

  async function answer(id: number, lang: Lang): Promise<PersonalAccount> {
    const found = await findPersonalAccount(db, id, lang, clock.now());
    if (!found) throw new AppError('PERSONAL_ACCOUNT_NOT_FOUND');
    return found;
  }

  /** Queues one sync task for the accounts; a failure to queue is logged, not fatal (the hourly run catches up). */
  async function queueSync(ids: number[], createdBy: number | null): Promise<number> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    const taskId = await jobs.enqueue(SYNC_JOB, { ids: sorted }, { createdBy, singletonKey: `${SYNC_JOB}:${sorted.join(',')}` });
    await markSyncQueued(db, sorted);
    return taskId;
  }

  /**
   * Checks a token with the platform and stores it as a personal account: the Facebook user's
   * row is updated when it is already connected (never duplicated), then a sync is queued.
   */
  async function connect(who: Connector, token: string, ownerUserId: number | null | undefined): Promise<number> {
    const platform = requirePlatform(deps.platform);
    const refuse = (reason: string | null) => new AppError('TOKEN_REJECTED', { reason: reason ?? '' }, 'access_token');
    let info: TokenInfo;
    let me: PlatformUser;
    try {
      info = await platform.debugToken(token);
      const health = tokenHealth(info, clock.now());
      if (health.status === 'invalid') throw refuse(reasonText(health, who.lang));
      if (info.type && !PERSON_TOKEN_TYPES.includes(info.type)) throw new AppError('TOKEN_NOT_USER', { type: info.type }, 'access_token');
      me = await platform.me(token);
    } catch (err) {
      if (isAuthFailure(err)) throw refuse(formatMessage('TOKEN_INVALID_DETAIL', who.lang, { detail: platformDetail(err) }));
      throw toAppError(err);
    }
    const health = tokenHealth(info, clock.now());

    const existing = await findByFacebookUser(db, me.id);
    const user = await forAssets(db, who.user);
    if (existing) {
      const owners = await visibleUserIds(db, user);
      if (owners && (existing.owner_user_id === null || !owners.includes(existing.owner_user_id))) throw new AppError('PERSONAL_ACCOUNT_CONNECTED_ELSEWHERE');
    }
    const owner = ownerUserId !== undefined ? ownerUserId : existing ? existing.owner_user_id : who.user.id;
    if (owner === null && !isManagerLike(user)) throw new AppError('OWNER_REQUIRED', {}, 'owner_user_id');
    if (owner !== null && owner !== who.user.id && owner !== existing?.owner_user_id) await assertUsersManageable(db, user, [owner], 'owner_user_id');

    const tokenEnc = await secrets.encrypt(token);
    const now = clock.now();
    const values = {
      fb_user_id: me.id,
      name: me.name,
      token_enc: tokenEnc,
      token_expires_at: info.expiresAt,
      data_access_expires_at: info.dataAccessExpiresAt,
      scopes: info.scopes,
      token_type: info.type,
      status: health.status,
      status_reason_key: health.reasonKey,
      status_reason_params: health.reasonParams ? JSON.stringify(health.reasonParams) : null,
      owner_user_id: owner,
      last_checked_at: now,
      updated_at: now,
    };
    const id = await db.transaction().execute(async (trx) => {
      // The conflict target covers two connects of one Facebook user racing each other.
      const row = await upsertPersonalAccount(trx, values, now);
      await writeAudit(trx, who.audit, {
        action: existing ? 'personal_account.reconnect' : 'personal_account.connect',
        entity_type: 'personal_account',
        entity_id: row.id,
        ...(existing && { before: auditView(existing) }),
        after: auditView({ ...values, owner_user_id: owner }),
      });
      return row.id;
    });
    try {
      await queueSync([id], who.user.id);
    } catch (err) {
      log.warn({ err, personalAccountId: id }, 'could not queue the first sync of a connected personal account');
    }
    return id;
  }

  const contextOf = (ctx: RequestContext): Connector => ({ user: ctx.actor, audit: ctx, lang: ctx.lang });

  return {
    async list(ctx: RequestContext, body: ListPersonalAccountsBody) {
      return listPersonalAccounts(db, body, { owners: await visibleUserIds(db, await forAssets(db, ctx.actor)) }, ctx.lang, clock.now());
    },

    /** Connects a pasted token (checked with debug_token first; an invalid or expired one is refused). */
    async connectToken(ctx: RequestContext, body: ConnectTokenBody): Promise<PersonalAccount> {
      const id = await connect(contextOf(ctx), body.access_token, body.owner_user_id);
      return answer(id, ctx.lang);
    },

    /**
     * The OAuth dialog URL, with a one-time state bound for 10 minutes to the caller and to their
     * browser: `setCookie` gives the browser a random value (the one it already has, if any), of
     * which the state keeps the hash; the callback requires it.
     */
    async oauthStart(ctx: RequestContext, browserValue: string | undefined): Promise<{ result: { url: string }; setCookie: string }> {
      const platform = requirePlatform(deps.platform);
      const state = randomBytes(32).toString('base64url');
      const browser = browserValue && BROWSER_VALUE.test(browserValue) ? browserValue : randomBytes(32).toString('base64url');
      let url: string;
      try {
        url = platform.oauthDialogUrl({ redirectUri, state, scopes: REQUIRED_SCOPES });
      } catch (err) {
        log.error({ err }, 'the OAuth dialog URL cannot be built (META_APP_ID / META_APP_SECRET?)');
        throw new AppError('PLATFORM_NOT_CONFIGURED');
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // States are short-lived: clearing old ones here keeps the table small without a job.
        await deleteOAuthStatesBefore(trx, new Date(now.getTime() - 24 * 3600_000));
        await insertOAuthState(trx, { state_hash: hashToken(state), browser_hash: hashToken(browser), user_id: ctx.actor.id, expires_at: new Date(now.getTime() + STATE_TTL_MS), created_at: now });
      });
      return { result: { url }, setCookie: browserCookie(browser, publicUrl.startsWith('https:')) };
    },

    /**
     * The browser's return from the OAuth dialog. The state (one use, 10 minutes) names the user,
     * and only the browser that started it (its cookie, `browserValue`) may use it: a dialog link
     * passed to someone else connects nothing and leaves the state unused. The code becomes a
     * long-lived token that is connected as by connect_token. Answers where to send the browser:
     * the personal accounts screen with `connected=<id>` or `error=<message>`. Throws only when
     * the request carries no state at all (not a return from the dialog).
     */
    async oauthCallback(
      query: { code?: string; state?: string; error?: string; error_reason?: string; error_description?: string },
      req: { lang: Lang; ip: string; requestId: string; browserValue: string | undefined },
    ): Promise<string> {
      if (!query.state) throw new AppError('OAUTH_STATE_INVALID');
      // encodeURIComponent (spaces as %20), so both URLSearchParams and decodeURIComponent read it back.
      const back = (params: Record<string, string>) => `${OAUTH_RETURN_PATH}?${Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
      const fail = (key: Parameters<typeof formatMessage>[0], params: Record<string, unknown> = {}) => back({ error: formatMessage(key, req.lang, params) });
      const now = clock.now();
      const open = await findOpenOAuthState(db, hashToken(query.state), now);
      if (!open) return fail('OAUTH_STATE_INVALID');
      const browserHash = req.browserValue && BROWSER_VALUE.test(req.browserValue) ? hashToken(req.browserValue) : null;
      if (!browserHash || !open.browser_hash || !safeEqual(browserHash, open.browser_hash)) {
        log.warn({ ip: req.ip, hasCookie: Boolean(req.browserValue) }, 'OAuth callback from a browser that did not start the dialog: refused');
        return fail('OAUTH_BROWSER_MISMATCH');
      }
      const claimed = await claimOAuthState(db, hashToken(query.state), browserHash, now);
      if (!claimed) return fail('OAUTH_STATE_INVALID');
      if (query.error) return query.error === 'access_denied' ? fail('OAUTH_DENIED') : fail('OAUTH_FAILED', { reason: (query.error_description ?? query.error).slice(0, 200) });
      if (!query.code) return fail('OAUTH_FAILED', { reason: 'no code' });
      const user = await findEnabledUser(db, claimed.user_id);
      if (!user) return fail('USER_NOT_FOUND');
      try {
        const platform = requirePlatform(deps.platform);
        let longLived: string;
        try {
          const short = await platform.exchangeCode({ code: query.code, redirectUri });
          longLived = (await platform.exchangeLongLived(short.accessToken)).accessToken;
        } catch (err) {
          throw toAppError(err);
        }
        const id = await connect({ user, audit: { actor: user, ip: req.ip, requestId: req.requestId }, lang: req.lang }, longLived, undefined);
        return back({ connected: String(id) });
      } catch (err) {
        if (err instanceof AppError) return fail(err.key, err.params);
        log.error({ err }, 'OAuth callback failed');
        return fail('INTERNAL');
      }
    },

    /** Asks the platform about the token now (debug_token) and answers the refreshed account. */
    async checkToken(ctx: RequestContext, id: number): Promise<PersonalAccount> {
      await loadVisible(ctx.actor, [id]);
      try {
        await assetSync().checkToken(id, { audit: ctx });
      } catch (err) {
        throw toAppError(err);
      }
      return answer(id, ctx.lang);
    },

    /** One background task syncing the accounts' ad accounts, pages and pixels. */
    async sync(ctx: RequestContext, ids: number[]): Promise<{ task_id: number }> {
      await loadVisible(ctx.actor, ids);
      return { task_id: await queueSync(ids, ctx.actor.id) };
    },

    /** Managers give accounts to anyone (or nobody); leaders to people of their department subtree. */
    async setOwner(ctx: RequestContext, body: { ids: number[]; owner_user_id: number | null }) {
      const rows = await loadVisible(ctx.actor, body.ids);
      const owner = body.owner_user_id;
      const actor = await forAssets(db, ctx.actor);
      if (owner === null && !isManagerLike(actor)) throw new AppError('OWNER_REQUIRED', {}, 'owner_user_id');
      if (owner !== null) await assertUsersManageable(db, actor, [owner], 'owner_user_id');
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          if (row.owner_user_id === owner) continue;
          await updatePersonalAccount(trx, row.id, { owner_user_id: owner, updated_at: clock.now() });
          await writeAudit(trx, ctx, { action: 'personal_account.set_owner', entity_type: 'personal_account', entity_id: row.id, before: { owner_user_id: row.owner_user_id }, after: { owner_user_id: owner } });
        }
      });
      return { updated: rows.length };
    },

    async setHosted(ctx: RequestContext, body: { ids: number[]; hosted: boolean }) {
      const rows = await loadVisible(ctx.actor, body.ids);
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          if (row.hosted === body.hosted) continue;
          await updatePersonalAccount(trx, row.id, { hosted: body.hosted, updated_at: clock.now() });
          await writeAudit(trx, ctx, { action: 'personal_account.set_hosted', entity_type: 'personal_account', entity_id: row.id, before: { hosted: row.hosted }, after: { hosted: body.hosted } });
        }
      });
      return { updated: rows.length };
    },

    /**
     * Soft delete: the token and page tokens are wiped; the ad accounts and pages it reached stay,
     * their links marked unreachable (other tokens may still reach them).
     */
    async disconnect(ctx: RequestContext, id: number) {
      const [row] = await loadVisible(ctx.actor, [id]);
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        await softDeletePersonalAccount(trx, id, now);
        await writeAudit(trx, ctx, { action: 'personal_account.disconnect', entity_type: 'personal_account', entity_id: id, before: auditView(row!) });
      });
    },
  };
}

export type PersonalAccountService = ReturnType<typeof createPersonalAccountService>;
