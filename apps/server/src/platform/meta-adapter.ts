import type { z } from 'zod';
import { z as zod } from 'zod';
import { createGraphClient, type GraphClientDeps, type GraphClientTuning, type GraphParams } from './graph-client.ts';
import { unexpectedAnswer } from './graph-errors.ts';
import { createMetaAdsApi } from './meta-ads.ts';
import {
  AD_ACCOUNT_FIELDS,
  graphAdAccountSchema,
  graphDebugTokenSchema,
  graphImageUploadSchema,
  graphPageObjectSchema,
  graphPageSchema,
  graphPixelSchema,
  graphSuccessSchema,
  graphTokenSchema,
  graphUserSchema,
  graphVideoOffsetsSchema,
  graphVideoSchema,
  graphVideoStartSchema,
  PAGE_FIELDS,
  PIXEL_FIELDS,
  VIDEO_FIELDS,
} from './graph-schemas.ts';
import {
  PlatformError,
  type AdPlatformClient,
  type ExchangedToken,
  type PlatformAdAccount,
  type PlatformPage,
  type PlatformPagePost,
  type PlatformPixel,
  type PlatformVideo,
  type PlatformVideoStatus,
  type TokenInfo,
  type VideoUploadSession,
} from './types.ts';

// AdPlatformClient over the Graph API: vendor names and units are translated here and nowhere
// else. Works the same against graph.facebook.com and the simulator; only the URLs differ.

/** What the adapter needs; `Config['meta']` with the Graph URL resolved (the simulator's when unset). */
export interface MetaClientConfig {
  /** Base URL without the version: `https://graph.facebook.com` or the simulator's `http://127.0.0.1:4010`. */
  graphUrl: string;
  apiVersion: string;
  /** Needed by the OAuth dialog, the code exchanges and debug_token. */
  appId?: string;
  appSecret?: string;
  /** Full login dialog URL; default derived from `graphUrl` (see oauthDialogBase). */
  dialogUrl?: string;
  requestTimeoutMs: number;
  maxConcurrencyPerAccount: number;
  maxConcurrencyPerToken: number;
}

export interface MetaClientDeps extends GraphClientDeps {
  tuning?: Partial<GraphClientTuning>;
  /** Page videos larger than this go up through the resumable upload (default 16 MiB). */
  pageVideoResumableBytes?: number;
}

/** A page video above this size is sent in chunks (a one-request upload of a large file fails more often and cannot resume). */
const PAGE_VIDEO_RESUMABLE_BYTES = 16 * 1024 * 1024;

/**
 * The login dialog lives on www.facebook.com for the real Graph API (reference §11); the simulator
 * serves it under its own `/<version>/dialog/oauth`.
 */
function oauthDialogBase(config: Pick<MetaClientConfig, 'graphUrl' | 'apiVersion' | 'dialogUrl'>): string {
  if (config.dialogUrl) return config.dialogUrl;
  const graph = new URL(config.graphUrl);
  if (graph.hostname === 'graph.facebook.com') return `https://www.facebook.com/${config.apiVersion}/dialog/oauth`;
  return `${config.graphUrl.replace(/\/+$/, '')}/${config.apiVersion}/dialog/oauth`;
}

/** `123` or `act_123` → `act_123`. */
const actId = (id: string) => (id.startsWith('act_') ? id : `act_${id}`);

/** Graph times (`2026-05-01T10:00:00+0800`; epoch seconds in debug_token) → Date; absent or 0 → null. */
const dateOrNull = (value: string | number | undefined): Date | null => {
  if (value === undefined || value === 0 || value === '') return null;
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
};

function toAdAccount(a: z.infer<typeof graphAdAccountSchema>): PlatformAdAccount {
  return {
    id: a.id,
    accountId: a.account_id,
    name: a.name,
    currency: a.currency,
    timezoneName: a.timezone_name,
    timezoneOffsetHours: a.timezone_offset_hours_utc,
    accountStatus: a.account_status,
    disableReason: a.disable_reason,
    amountSpentMinor: a.amount_spent,
    balanceMinor: a.balance,
    // "0" means no spending limit (reference §2).
    spendCapMinor: a.spend_cap ? a.spend_cap : null,
    businessId: a.business?.id ?? null,
    businessName: a.business?.name ?? null,
  };
}

function toPage(p: z.infer<typeof graphPageObjectSchema>): PlatformPage {
  return {
    id: p.id,
    name: p.name,
    category: p.category ?? null,
    pictureUrl: p.picture?.data?.url ?? null,
    tasks: p.tasks,
    accessToken: p.access_token ?? null,
  };
}

/** The chunk offsets the platform expects, from a 1363037 error (reference §7, §15). */
const VIDEO_OFFSET_SUBCODE = 1363037;
function expectedOffsets(err: unknown): { start: number; end: number } | null {
  if (!(err instanceof PlatformError) || err.details.subcode !== VIDEO_OFFSET_SUBCODE) return null;
  const parsed = graphVideoOffsetsSchema.safeParse(err.details.data);
  return parsed.success ? { start: parsed.data.start_offset, end: parsed.data.end_offset } : null;
}

/** A session the platform no longer knows (finished, cancelled, expired): a plain invalid-parameter error. */
const isDeadSession = (err: unknown) => err instanceof PlatformError && err.kind === 'invalid_request' && err.details.subcode !== VIDEO_OFFSET_SUBCODE;

const VIDEO_STATUSES: readonly PlatformVideoStatus[] = ['uploading', 'processing', 'ready', 'error', 'expired'];

function toVideo(v: z.infer<typeof graphVideoSchema>): PlatformVideo {
  const raw = v.status?.video_status ?? 'processing';
  const status = (VIDEO_STATUSES as readonly string[]).includes(raw) ? (raw as PlatformVideoStatus) : 'processing';
  const errors = v.status?.processing_phase?.errors ?? [];
  return {
    id: v.id,
    title: v.title ?? null,
    description: v.description ?? null,
    status,
    progress: v.status?.processing_progress ?? (status === 'ready' ? 100 : 0),
    errorMessage: status === 'error' ? errors.map((e) => e.message).filter(Boolean).join('; ') || null : null,
    pictureUrl: v.picture ?? null,
  };
}

/** Safety cap on chunk exchanges of one upload (a platform answering nonsense offsets must not loop us forever). */
const MAX_VIDEO_EXCHANGES = 100_000;
/** Consecutive offset corrections tolerated before giving up. */
const MAX_OFFSET_RESYNCS = 5;
/** The first chunk sent to probe a resumed session (the platform corrects the offsets if it expects others). */
const PROBE_CHUNK_BYTES = 4 * 1024 * 1024;

/** Builds the live platform client (one per process: its limits and usage readings are shared by every call). */
export function createMetaPlatformClient(config: MetaClientConfig, deps: MetaClientDeps = {}): AdPlatformClient {
  const { tuning, pageVideoResumableBytes = PAGE_VIDEO_RESUMABLE_BYTES, ...graphDeps } = deps;
  const graph = createGraphClient(config, tuning, graphDeps);
  const now = deps.now ?? Date.now;

  function app(): { appId: string; appSecret: string } {
    if (!config.appId || !config.appSecret) throw new Error('META_APP_ID and META_APP_SECRET must be configured for Meta login');
    return { appId: config.appId, appSecret: config.appSecret };
  }

  const getAdVideo: AdPlatformClient['getAdVideo'] = async (token, videoId, opts) =>
    toVideo(await graph.request({ path: videoId, token, fields: VIDEO_FIELDS, signal: opts?.signal }, graphVideoSchema));

  // Video bytes go to graph-video.facebook.com for every phase (reference §7); a simulator takes them itself.
  const videoBaseUrl = new URL(config.graphUrl).hostname === 'graph.facebook.com' ? config.graphUrl.replace('//graph.facebook.com', '//graph-video.facebook.com') : undefined;

  /**
   * A page video through the resumable upload (`upload_phase` start / transfer / finish): each
   * chunk is exactly the range the platform names; a chunk whose answer was lost is resent, and
   * a platform that already has it answers with the offsets to go on from. `finish` carries the
   * post's fields and makes the post; it is not resent (a lost answer is looked up by the caller).
   */
  async function uploadPageVideo(pageToken: string, pageId: string, data: Uint8Array, meta: GraphParams, signal: AbortSignal | undefined): Promise<string> {
    const path = `${pageId}/videos`;
    const post = <T>(params: GraphParams, schema: z.ZodType<T>, extra: { files?: Record<string, { data: Uint8Array; filename: string }>; idempotent?: boolean } = {}) =>
      graph.request({ method: 'POST', path, token: pageToken, params, signal, ...(videoBaseUrl && { baseUrl: videoBaseUrl }), ...extra }, schema);
    const started = await post({ upload_phase: 'start', file_size: data.length }, graphVideoStartSchema);
    let offsets = { start: started.start_offset, end: started.end_offset };
    let resyncs = 0;
    for (let n = 0; offsets.start < offsets.end; n++) {
      if (n >= MAX_VIDEO_EXCHANGES) throw unexpectedAnswer(`${path}: upload did not end after ${MAX_VIDEO_EXCHANGES} chunks`, undefined);
      signal?.throwIfAborted();
      if (offsets.end > data.length || offsets.start > offsets.end) throw unexpectedAnswer(`${path}: offsets ${offsets.start}-${offsets.end} outside the file`, undefined);
      try {
        const next = await post(
          { upload_phase: 'transfer', upload_session_id: started.upload_session_id, start_offset: offsets.start },
          graphVideoOffsetsSchema,
          { files: { video_file_chunk: { data: data.subarray(offsets.start, offsets.end), filename: 'chunk' } }, idempotent: true },
        );
        offsets = { start: next.start_offset, end: next.end_offset };
        resyncs = 0;
      } catch (err) {
        const expected = expectedOffsets(err);
        if (!expected || ++resyncs > MAX_OFFSET_RESYNCS) throw err;
        offsets = expected;
      }
    }
    await post({ upload_phase: 'finish', upload_session_id: started.upload_session_id, ...meta }, graphSuccessSchema);
    return started.video_id;
  }

  const toExchanged = (t: z.infer<typeof graphTokenSchema>): ExchangedToken => ({
    accessToken: t.access_token,
    expiresAt: t.expires_in === undefined ? null : new Date(now() + t.expires_in * 1000),
  });

  return {
    ...createMetaAdsApi({ graph, now, ...(deps.sleep && { sleep: deps.sleep }) }),

    oauthDialogUrl({ redirectUri, state, scopes }) {
      const url = new URL(oauthDialogBase(config));
      url.searchParams.set('client_id', app().appId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', scopes.join(','));
      return url.toString();
    },

    async exchangeCode({ code, redirectUri }, opts) {
      const { appId, appSecret } = app();
      // POST keeps the secret and the code out of URLs. A code works once, so a time-out is not
      // retried (the default for POST): the person logs in again instead.
      const token = await graph.request(
        {
          method: 'POST',
          path: 'oauth/access_token',
          params: { client_id: appId, client_secret: appSecret, redirect_uri: redirectUri, code },
          signal: opts?.signal,
        },
        graphTokenSchema,
      );
      return toExchanged(token);
    },

    async exchangeLongLived(token, opts) {
      const { appId, appSecret } = app();
      const long = await graph.request(
        {
          method: 'POST',
          path: 'oauth/access_token',
          params: { grant_type: 'fb_exchange_token', client_id: appId, client_secret: appSecret, fb_exchange_token: token },
          // Exchanging twice only yields another long-lived token: safe to resend.
          idempotent: true,
          signal: opts?.signal,
        },
        graphTokenSchema,
      );
      return toExchanged(long);
    },

    async debugToken(token, opts): Promise<TokenInfo> {
      const { appId, appSecret } = app();
      // The app token authenticates the call, as a parameter: the simulator reads it only there.
      const { data } = await graph.request(
        { path: 'debug_token', params: { input_token: token, access_token: `${appId}|${appSecret}` }, signal: opts?.signal },
        graphDebugTokenSchema,
      );
      return {
        valid: data.is_valid,
        userId: data.user_id ?? null,
        type: data.type ?? null,
        scopes: data.scopes,
        expiresAt: dateOrNull(data.expires_at),
        dataAccessExpiresAt: dateOrNull(data.data_access_expires_at),
        issuedAt: dateOrNull(data.issued_at),
      };
    },

    async me(token, opts) {
      const user = await graph.request({ path: 'me', token, fields: ['id', 'name'], signal: opts?.signal }, graphUserSchema);
      return { id: user.id, name: user.name };
    },

    async listAdAccounts(token, opts) {
      const rows = await graph.all({ path: 'me/adaccounts', token, fields: AD_ACCOUNT_FIELDS, signal: opts?.signal }, graphAdAccountSchema);
      return rows.map(toAdAccount);
    },

    async getAdAccount(token, adAccountId, opts) {
      const row = await graph.request({ path: actId(adAccountId), token, fields: AD_ACCOUNT_FIELDS, signal: opts?.signal }, graphAdAccountSchema);
      return toAdAccount(row);
    },

    async listPages(token, opts) {
      const rows = await graph.all({ path: 'me/accounts', token, fields: PAGE_FIELDS, signal: opts?.signal }, graphPageObjectSchema);
      return rows.map(toPage);
    },

    async createPagePost(pageToken, pageId, input, opts) {
      const cta = input.callToAction && input.link ? { type: input.callToAction, value: { link: input.link } } : undefined;
      const signal = opts?.signal;
      // Scheduled: unpublished, with the time in unix seconds (Meta refuses a schedule on a published post).
      const when = input.scheduledPublishTime ? { published: false, scheduled_publish_time: Math.floor(input.scheduledPublishTime.getTime() / 1000) } : { published: input.published };
      if (input.kind === 'link') {
        const a = await graph.request({ method: 'POST', path: `${pageId}/feed`, token: pageToken, params: { message: input.message, link: input.link ?? undefined, ...when, call_to_action: cta }, signal }, graphIdSchema);
        return { postId: a.id, mediaId: null };
      }
      if (!input.file) throw unexpectedAnswer(`${pageId}/${input.kind}s: no file`, undefined);
      if (input.kind === 'photo') {
        const a = await graph.request(
          { method: 'POST', path: `${pageId}/photos`, token: pageToken, params: { message: input.message, ...when }, files: { source: input.file }, signal },
          graphPhotoPostSchema,
        );
        return { postId: a.post_id ?? `${pageId}_${a.id}`, mediaId: a.id };
      }
      const meta = { description: input.message, title: input.title ?? undefined, ...when, call_to_action: cta };
      const videoId =
        input.file.data.length > pageVideoResumableBytes
          ? await uploadPageVideo(pageToken, pageId, input.file.data, meta, signal)
          : (await graph.request({ method: 'POST', path: `${pageId}/videos`, token: pageToken, params: meta, files: { source: input.file }, signal, ...(videoBaseUrl && { baseUrl: videoBaseUrl }) }, graphIdSchema)).id;
      // The answer names the video; its post is a field of it.
      const video = await graph.request({ path: videoId, token: pageToken, fields: ['id', 'post_id'], signal }, graphVideoPostSchema);
      return { postId: video.post_id ?? `${pageId}_${videoId}`, mediaId: videoId };
    },

    async listPagePosts(pageToken, pageId, opts) {
      const limit = Math.min(Math.max(opts?.limit ?? 25, 1), 100);
      const body = await graph.request(
        { path: `${pageId}/promotable_posts`, token: pageToken, fields: PAGE_POST_FIELDS, params: { limit, after: opts?.after }, signal: opts?.signal },
        graphPageSchema.extend({ data: zod.array(graphPagePostSchema) }),
      );
      // `after` comes even on the last page; only `next` says there is another (reference §13).
      return { posts: body.data.map(toPagePost), after: body.paging?.next ? (body.paging.cursors?.after ?? null) : null };
    },

    async getPagePost(pageToken, postId, opts) {
      try {
        return toPagePost(await graph.request({ path: postId, token: pageToken, fields: PAGE_POST_FIELDS, signal: opts?.signal }, graphPagePostSchema));
      } catch (err) {
        if (err instanceof PlatformError && err.kind === 'not_found') return null;
        throw err;
      }
    },

    async reschedulePagePost(pageToken, postId, at, opts) {
      // Page Post reference, Updating: scheduled_publish_time in unix seconds. The same time twice is harmless, so a lost answer may be resent.
      await graph.request(
        { method: 'POST', path: postId, token: pageToken, params: { scheduled_publish_time: Math.floor(at.getTime() / 1000) }, idempotent: true, signal: opts?.signal },
        graphSuccessSchema,
      );
    },

    async deletePagePost(pageToken, postId, opts) {
      // Not resent on a lost answer: the second delete would answer "does not exist"; the caller looks the post up instead.
      await graph.request({ method: 'DELETE', path: postId, token: pageToken, signal: opts?.signal }, graphSuccessSchema);
    },

    async findPagePost(pageToken, pageId, input, exclude, opts) {
      if (input.kind === 'video') {
        for await (const rows of graph.pages({ path: `${pageId}/videos`, token: pageToken, fields: ['id', 'title', 'description', 'post_id'], signal: opts?.signal }, graphVideoPostSchema)) {
          const hit = rows.find((v) => v.description === input.message && (input.title ?? undefined) === (v.title ?? undefined) && v.post_id && !exclude.has(v.post_id));
          if (hit) return { postId: hit.post_id!, mediaId: hit.id };
        }
        return null;
      }
      for await (const rows of graph.pages({ path: `${pageId}/promotable_posts`, token: pageToken, fields: PAGE_POST_FIELDS, signal: opts?.signal }, graphPagePostSchema)) {
        const hit = rows.map(toPagePost).find((p) => p.message === input.message && p.mediaType === input.kind && !exclude.has(p.id));
        if (hit) return { postId: hit.id, mediaId: null };
      }
      return null;
    },

    async listPixels(token, adAccountIds, opts) {
      const accounts = [...new Set(adAccountIds.map(actId))];
      const pixels = new Map<string, PlatformPixel>();
      const add = (accountId: string, rows: Array<z.infer<typeof graphPixelSchema>>) => {
        for (const p of rows) {
          const known = pixels.get(p.id);
          if (known) {
            if (!known.adAccountIds.includes(accountId)) known.adAccountIds.push(accountId);
            continue;
          }
          pixels.set(p.id, { id: p.id, name: p.name, lastFiredAt: dateOrNull(p.last_fired_time), ownerBusinessId: p.owner_business?.id ?? null, adAccountIds: [accountId] });
        }
      };

      const pageSchema = graphPageSchema.extend({ data: graphPixelSchema.array() });
      const results = await graph.batch(
        token,
        accounts.map((id) => ({ path: `${id}/adspixels`, fields: PIXEL_FIELDS, params: { limit: 100 } })),
        { signal: opts?.signal },
      );
      for (const [i, result] of results.entries()) {
        const accountId = accounts[i]!;
        // One account we cannot read fails the listing: a partial list would look like pixels were unshared.
        if (!result.ok) throw result.error;
        const page = pageSchema.safeParse(result.body);
        if (!page.success) throw unexpectedAnswer(`${accountId}/adspixels`, undefined);
        add(accountId, page.data.data);
        // An account with more pixels than one page holds: the rest page by page, outside the batch.
        // Re-reading the first page is harmless: rows merge by pixel id.
        if (page.data.paging?.next) {
          for await (const rows of graph.pages({ path: `${accountId}/adspixels`, token, fields: PIXEL_FIELDS, signal: opts?.signal }, graphPixelSchema)) {
            add(accountId, rows);
          }
        }
      }
      return [...pixels.values()];
    },

    async uploadAdImage(token, adAccountId, image, opts) {
      // Content-addressed (the hash is the file's MD5): a resend after an ambiguous failure adds nothing.
      const answer = await graph.request(
        { method: 'POST', path: `${actId(adAccountId)}/adimages`, token, files: { filename: { data: image.data, filename: image.filename } }, idempotent: true, signal: opts?.signal },
        graphImageUploadSchema,
      );
      const first = Object.values(answer.images)[0];
      if (!first) throw unexpectedAnswer(`${actId(adAccountId)}/adimages: no image in the answer`, undefined);
      return { hash: first.hash, url: first.url ?? null };
    },

    async uploadAdVideo(token, adAccountId, source, input, opts) {
      const path = `${actId(adAccountId)}/advideos`;
      const signal = opts?.signal;
      const post = <T>(params: Record<string, string | number>, schema: z.ZodType<T>, extra: { files?: Record<string, { data: Uint8Array; filename: string }>; idempotent?: boolean } = {}) =>
        graph.request({ method: 'POST', path, token, params, signal, ...(videoBaseUrl && { baseUrl: videoBaseUrl }), ...extra }, schema);
      const transfer = (session: VideoUploadSession, start: number, data: Uint8Array) =>
        // A chunk names its offset, so a resend the platform already has is answered with the offsets to go on from.
        post({ upload_phase: 'transfer', upload_session_id: session.sessionId, start_offset: start }, graphVideoOffsetsSchema, { files: { video_file_chunk: { data, filename: 'chunk' } }, idempotent: true });

      let session: VideoUploadSession | null = input.resume ?? null;
      let offsets: { start: number; end: number } | null = null;
      if (session) {
        // Where does the open session stand? Offer the first chunk: accepted, or refused with the offsets it expects.
        try {
          const next = await transfer(session, 0, await source.read(0, Math.min(source.size, PROBE_CHUNK_BYTES)));
          offsets = { start: next.start_offset, end: next.end_offset };
        } catch (err) {
          offsets = expectedOffsets(err);
          if (!offsets) {
            if (!isDeadSession(err)) throw err;
            // The session is gone; its video can never complete: remove it so the account keeps one copy.
            await graph.request({ method: 'DELETE', path: session.videoId, token, signal }, graphSuccessSchema).catch(() => undefined);
            session = null;
          }
        }
      }
      if (!session) {
        // The description goes with the start too, so even a video whose session we never recorded can be found (findAdVideo).
        const started = await post({ upload_phase: 'start', file_size: source.size, title: input.title, description: input.description }, graphVideoStartSchema);
        session = { videoId: started.video_id, sessionId: started.upload_session_id };
        await input.onSession?.(session);
        offsets = { start: started.start_offset, end: started.end_offset };
      }

      let resyncs = 0;
      for (let n = 0; offsets && offsets.start < offsets.end; n++) {
        if (n >= MAX_VIDEO_EXCHANGES) throw unexpectedAnswer(`${path}: upload did not end after ${MAX_VIDEO_EXCHANGES} chunks`, undefined);
        signal?.throwIfAborted();
        if (offsets.end > source.size || offsets.start > offsets.end) throw unexpectedAnswer(`${path}: offsets ${offsets.start}-${offsets.end} outside the file`, undefined);
        try {
          const next = await transfer(session, offsets.start, await source.read(offsets.start, offsets.end));
          offsets = { start: next.start_offset, end: next.end_offset };
          resyncs = 0;
        } catch (err) {
          const expected = expectedOffsets(err);
          if (!expected || ++resyncs > MAX_OFFSET_RESYNCS) throw err;
          offsets = expected;
        }
        input.onProgress?.(Math.min(offsets.start, source.size), source.size);
      }

      try {
        await post({ upload_phase: 'finish', upload_session_id: session.sessionId, title: input.title, description: input.description }, graphSuccessSchema);
      } catch (err) {
        // A finish that went through but whose answer was lost: the video has left the uploading state.
        const video = await getAdVideo(token, session.videoId, opts).catch(() => null);
        if (!video || video.status === 'uploading') throw err;
      }
      return { videoId: session.videoId };
    },

    getAdVideo,

    async findAdVideo(token, adAccountId, description, opts) {
      for await (const rows of graph.pages({ path: `${actId(adAccountId)}/advideos`, token, fields: VIDEO_FIELDS, signal: opts?.signal }, graphVideoSchema)) {
        const hit = rows.find((v) => v.description === description);
        if (hit) return toVideo(hit);
      }
      return null;
    },

    async deleteAdVideo(token, videoId, opts) {
      await graph.request({ method: 'DELETE', path: videoId, token, signal: opts?.signal }, graphSuccessSchema);
    },
  };
}

const PAGE_POST_FIELDS = ['id', 'message', 'created_time', 'is_published', 'scheduled_publish_time', 'attachments', 'full_picture', 'permalink_url'] as const;

const graphPagePostSchema = zod.object({
  id: zod.string(),
  message: zod.string().optional(),
  created_time: zod.string().optional(),
  is_published: zod.boolean().optional(),
  /** Unix seconds [U: Meta answers a number here]. */
  scheduled_publish_time: zod.union([zod.number(), zod.string()]).optional(),
  full_picture: zod.string().optional(),
  permalink_url: zod.string().optional(),
  attachments: zod.object({ data: zod.array(zod.object({ media_type: zod.string().optional(), url: zod.string().optional() }).loose()) }).optional(),
});
const graphPhotoPostSchema = zod.object({ id: zod.string(), post_id: zod.string().optional() });
const graphVideoPostSchema = zod.object({ id: zod.string(), title: zod.string().optional(), description: zod.string().optional(), post_id: zod.string().optional() });

function toPagePost(p: zod.infer<typeof graphPagePostSchema>): PlatformPagePost {
  const a = p.attachments?.data[0];
  const type = a?.media_type;
  return {
    id: p.id,
    message: p.message ?? null,
    createdTime: p.created_time ? new Date(p.created_time) : null,
    isPublished: p.is_published ?? true,
    mediaType: type === 'video' || type === 'photo' || type === 'link' ? type : null,
    scheduledPublishTime: p.scheduled_publish_time === undefined ? null : new Date(typeof p.scheduled_publish_time === 'number' ? p.scheduled_publish_time * 1000 : p.scheduled_publish_time),
    picture: p.full_picture ?? null,
    link: a?.url ?? null,
    permalink: p.permalink_url ?? null,
  };
}

const graphIdSchema = zod.object({ id: zod.string() });
