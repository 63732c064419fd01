import type { StartJobData } from '@ads/contracts';
import { both, type Bilingual } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PublishSchemeItemRow, PublishSchemeRow, SchemeItemLevel, SchemeStatus } from '../../db/schema.ts';
import { defineJob, type JobContext, type JobResult } from '../../jobs/types.ts';
import { secretBoxFor, SecretUnreadableError } from '../../lib/crypto.ts';
import { isAuthFailure, platformDetail } from '../../lib/platform-errors.ts';
import { PlatformError, type AdPlatformClient, type CreateRequest, type CreateResult } from '../../platform/types.ts';
import { createAdOperations } from '../ad-data/ad-ops.service.ts';
import { startAllowance } from '../start/start.service.ts';
import { createAdSync } from '../ad-data/ad-sync.service.ts';
import { pushesFor, queuePushesForPublish, settleVideoPush, thumbnailBytes, type PairPush } from '../materials/materials.service.ts';
import { creativeMaterials, linkSchemeItems } from './scheme-links.service.ts';
import type { AdsetSpec, CampaignSpec, CreativeSpec } from './publish.plan.ts';
import { schemeItems, setSchemeStatus } from './publish.repository.ts';
import { SCHEME_JOB, schemeKey, START_JOB } from './publish.service.ts';

// The engine of a scheme (issue 8 "The engine"): one run at a time per scheme (per-key jobs),
// items created campaign → ad set → creative → ad, materials pushed first, videos waited for by
// continuation, never a duplicate.
//
// Never a duplicate: an item is marked `creating` (in its own committed write) before its call
// goes out. An item found `creating` — a run killed mid-call, an answer lost, a batch item without
// an answer — is first looked up on the platform by its name under its parent (names are unique
// per parent: publish.plan.ts), and adopted when found; only otherwise is it sent again. A
// refusal the platform answered (rate limit, invalid parameter) was not applied: the item goes
// back to pending or fails with the platform's words.

export interface SchemeJobData {
  scheme_id: number;
  /** A retry of failed items: failed material pushes are queued again too. */
  retry?: boolean;
  /** Pushes of this scheme's materials were queued by an earlier run of the same attempt. */
  pushes_queued?: boolean;
}

/** Creates per batch request (≤ 50, reference §14); smaller batches make "cancel after the current item" prompt. */
const BATCH = 25;
/** Accounts worked on at once within one run (the Graph client limits calls per account besides). */
const ACCOUNTS_AT_ONCE = 4;
/** How often a waiting scheme looks at its videos / pushes again. */
const MEDIA_POLL_MS = 15_000;
/** After a rate limit without a hint, wait this long. */
const RATE_WAIT_MS = 60_000;
/** A `creating` item whose call kept failing ambiguously this many times fails. */
const MAX_ATTEMPTS = 5;
/** Creates one run makes before letting other schemes have a turn (divided among the publisher's active schemes). */
const SLICE_CREATES = 300;

type Level = SchemeItemLevel;
const LEVELS: Level[] = ['campaign', 'adset', 'creative', 'ad'];

class RateLimited extends Error {
  constructor(readonly waitMs: number) {
    super('rate limited');
  }
}
class Yield extends Error {}
class Cancelled extends Error {}

interface RunState {
  ctx: JobContext<SchemeJobData>;
  scheme: PublishSchemeRow;
  created: number;
  slice: number;
  /** Materials ready per `${material}:${account}`: the platform reference (video id / image hash). */
  media: Map<string, string>;
  /** Thumbnail hashes per `${material}:${account}` (a video's own frame uploaded as an image). */
  thumbs: Map<string, string>;
  waitingMedia: { pushing: number; processing: number };
  unresolved: number;
  /** Set when an account hit a rate limit: the shortest wait among them. */
  rateWaitMs?: number;
}

const pairKey = (materialId: number, accountId: number) => `${materialId}:${accountId}`;
const text = (b: Bilingual) => ({ error: b.zh, error_en: b.en === b.zh ? null : b.en });
const platformText = (err: unknown): Bilingual => {
  const t = err instanceof PlatformError ? platformDetail(err) : err instanceof Error ? err.message.slice(0, 300) : String(err);
  return { zh: t, en: t };
};

async function updateItems(db: Db, ids: readonly number[], values: Partial<{ status: PublishSchemeItemRow['status']; platform_id: string | null; object_id: number | null; waiting_for: PublishSchemeItemRow['waiting_for']; error: string | null; error_en: string | null; sent_at: Date; finished_at: Date | null }>, now: Date) {
  if (!ids.length) return;
  await db
    .updateTable('publish_scheme_items')
    .set({ ...values, updated_at: now })
    .where('id', 'in', [...ids])
    .execute();
}

/** Marks items `creating` before their call: committed before anything is sent. */
async function markCreating(db: Db, ids: readonly number[], now: Date) {
  if (!ids.length) return;
  await db
    .updateTable('publish_scheme_items')
    .set({ status: 'creating', attempts: sql`attempts + 1`, sent_at: now, waiting_for: null, updated_at: now })
    .where('id', 'in', [...ids])
    .execute();
}

async function failItems(st: RunState, items: readonly PublishSchemeItemRow[], why: Bilingual) {
  const now = st.ctx.clock.now();
  await updateItems(st.ctx.db, items.map((i) => i.id), { status: 'failed', ...text(why), waiting_for: null, finished_at: now }, now);
  for (const i of items) i.status = 'failed';
}

/** The first usable token of an account; a token the platform refuses is marked dead and the next one tried. */
function tokenSource(ctx: JobContext<SchemeJobData>, sync: ReturnType<typeof createAdSync>) {
  const secrets = secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log, ctx.config.tokenEncryptionKeyPrevious);
  const cache = new Map<number, { token: string; personalAccountId: number } | null>();
  return {
    async get(accountId: number) {
      if (cache.has(accountId)) return cache.get(accountId)!;
      let found: { token: string; personalAccountId: number } | null = null;
      for (const row of await sync.tokensFor(accountId)) {
        try {
          found = { token: await secrets.decrypt(row.token_enc!), personalAccountId: row.id };
          break;
        } catch (err) {
          if (!(err instanceof SecretUnreadableError)) throw err;
        }
      }
      cache.set(accountId, found);
      return found;
    },
    async dead(accountId: number, err: PlatformError) {
      const current = cache.get(accountId);
      cache.delete(accountId);
      if (current) await sync.markTokenDead(current.personalAccountId, platformDetail(err));
    },
  };
}

const specOf = <T>(i: PublishSchemeItemRow) => i.spec as T;

/**
 * Materials first (the materials push): pairs never pushed are queued (failed ones too on a
 * retry), videos the platform is processing are asked about, and creatives whose material failed
 * fail with its reason. Answers the creative items whose materials are all ready.
 */
async function prepareMedia(st: RunState, creatives: PublishSchemeItemRow[], tokens: ReturnType<typeof tokenSource>): Promise<Set<number>> {
  const { ctx } = st;
  const ready = new Set<number>();
  const wanted = creatives.filter((i) => i.status === 'pending' || i.status === 'creating');
  const pairs = new Map<string, { material_id: number; ad_account_id: number }>();
  for (const i of wanted) for (const m of creativeMaterials(i)) pairs.set(pairKey(m.id, i.ad_account_id), { material_id: m.id, ad_account_id: i.ad_account_id });
  if (!pairs.size) {
    for (const i of wanted) ready.add(i.id);
    return ready;
  }
  const materialIds = [...new Set([...pairs.values()].map((p) => p.material_id))];
  const accountIds = [...new Set([...pairs.values()].map((p) => p.ad_account_id))];
  let pushes = await pushesFor(ctx.db, materialIds, accountIds);
  const byPair = () => new Map(pushes.map((p) => [pairKey(p.material_id, p.ad_account_id), p]));
  let known = byPair();

  // Queue what was never pushed (and on a retry what failed), once per attempt.
  const missing = [...pairs.entries()].filter(([k]) => !known.has(k) || (st.ctx.data.retry && !st.ctx.data.pushes_queued && known.get(k)!.state === 'failed')).map(([, p]) => p);
  if (missing.length) {
    if (!ctx.enqueue) throw new Error('publish: materials need pushing but this run cannot queue jobs');
    await queuePushesForPublish(ctx.db, ctx.enqueue, missing, st.scheme.created_by, ctx.clock.now(), { requeueFailed: Boolean(st.ctx.data.retry) });
    st.ctx.data.pushes_queued = true;
    pushes = await pushesFor(ctx.db, materialIds, accountIds);
    known = byPair();
  }

  // Videos still processing: ask the platform now rather than wait for the check job.
  for (const p of pushes.filter((x) => x.state === 'processing' && x.platform_ref && x.kind === 'video')) {
    ctx.signal.throwIfAborted();
    const token = await tokens.get(p.ad_account_id);
    if (!token) continue;
    try {
      const video = await ctx.platform.getAdVideo(token.token, p.platform_ref!, { signal: ctx.signal });
      if (video.status === 'ready') {
        await settleVideoPush(ctx.db, p.id, { state: 'ready' }, ctx.clock.now());
        p.state = 'ready';
      } else if (video.status === 'error' || video.status === 'expired') {
        const reason = video.errorMessage ?? video.status;
        await settleVideoPush(ctx.db, p.id, { state: 'failed', reason }, ctx.clock.now());
        p.state = 'failed';
        p.failure = both('PUSH_VIDEO_FAILED', { reason });
        p.failureKey = 'PUSH_VIDEO_FAILED';
        p.failureParams = { reason };
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (err instanceof PlatformError && err.kind === 'rate_limited') throw new RateLimited(err.details.retryAfterMs ?? RATE_WAIT_MS);
      // A status that could not be read says nothing: ask again on the next turn.
    }
  }

  const now = ctx.clock.now();
  const waiting: { id: number; why: 'material_push' | 'video_processing' }[] = [];
  for (const i of wanted) {
    let failed: PairPush | null = null;
    let pending: PairPush | 'missing' | null = null;
    for (const m of creativeMaterials(i)) {
      const p = known.get(pairKey(m.id, i.ad_account_id));
      if (!p) pending = 'missing';
      else if (p.state === 'failed') failed = p;
      else if (p.state !== 'ready' || !p.platform_ref) pending ??= p;
      else st.media.set(pairKey(m.id, i.ad_account_id), p.platform_ref);
    }
    if (failed) {
      await failItems(st, [i], failed.failureKey === 'PUSH_VIDEO_FAILED' ? both('PUB_ITEM_VIDEO_FAILED', { name: failed.file_name, reason: failed.failureParams.reason ?? '' }) : both('PUB_ITEM_PUSH_FAILED', { name: failed.file_name, reason: failed.failure ?? '' }));
    } else if (pending) {
      const why = pending !== 'missing' && pending.state === 'processing' ? 'video_processing' : 'material_push';
      waiting.push({ id: i.id, why });
      if (why === 'video_processing') st.waitingMedia.processing++;
      else st.waitingMedia.pushing++;
    } else ready.add(i.id);
  }
  for (const why of ['material_push', 'video_processing'] as const) {
    await updateItems(ctx.db, waiting.filter((w) => w.why === why).map((w) => w.id), { waiting_for: why }, now);
  }
  return ready;
}

/** The thumbnail of a video without a chosen cover, uploaded to the account as an image (its hash). */
async function thumbnailHash(st: RunState, materialId: number, accountId: number, act: string, token: string): Promise<string | null> {
  const key = pairKey(materialId, accountId);
  if (st.thumbs.has(key)) return st.thumbs.get(key)!;
  const file = await thumbnailBytes(st.ctx.db, st.ctx.config.materials.storage, materialId);
  if (!file) return null;
  // The hash depends on the bytes only: uploading the same thumbnail again adds nothing.
  const image = await st.ctx.platform.uploadAdImage(token, act, file, { signal: st.ctx.signal });
  st.thumbs.set(key, image.hash);
  return image.hash;
}

/** The platform call of one item, its parents' ids filled in. */
async function requestOf(st: RunState, i: PublishSchemeItemRow, parents: Map<number, PublishSchemeItemRow>, act: string, token: string): Promise<CreateRequest> {
  const active = st.scheme.launch && (st.scheme.launch as { mode: string }).mode !== 'paused';
  // Launching later switches campaigns on only: ad sets and ads are made active under a paused campaign.
  const childStatus = active ? ('ACTIVE' as const) : ('PAUSED' as const);
  switch (i.level) {
    case 'campaign': {
      const s = specOf<CampaignSpec>(i);
      return { level: 'campaign', input: { name: i.name, objective: s.objective, status: 'PAUSED', specialAdCategories: s.special_ad_categories, dailyBudgetMinor: s.daily_budget_minor, lifetimeBudgetMinor: s.lifetime_budget_minor, bidStrategy: s.bid_strategy, stopTime: s.stop_time ? new Date(s.stop_time) : null } };
    }
    case 'adset': {
      const s = specOf<AdsetSpec>(i);
      return {
        level: 'adset',
        input: {
          campaignId: parents.get(i.parent_id!)!.platform_id!,
          name: i.name,
          status: childStatus,
          dailyBudgetMinor: s.daily_budget_minor,
          lifetimeBudgetMinor: s.lifetime_budget_minor,
          bidStrategy: s.bid_strategy,
          bidAmountMinor: s.bid_amount_minor,
          roasFloor: s.roas_floor,
          billingEvent: s.billing_event,
          optimizationGoal: s.optimization_goal,
          promotedObject: s.promoted_object ? { pixelId: s.promoted_object.pixel_id, customEventType: s.promoted_object.custom_event_type } : null,
          targeting: s.targeting,
          startTime: s.start_time ? new Date(s.start_time) : null,
          endTime: s.end_time ? new Date(s.end_time) : null,
          attributionSpec: s.attribution_spec,
          destinationType: 'WEBSITE',
          dsaBeneficiary: s.dsa_beneficiary,
          dsaPayor: s.dsa_payor,
          dynamicCreative: s.dynamic_creative,
        },
      };
    }
    case 'creative': {
      const s = specOf<CreativeSpec>(i);
      const ref = (id: number) => st.media.get(pairKey(id, i.ad_account_id))!;
      if (s.kind === 'post') return { level: 'creative', input: { kind: 'post', name: i.name, objectStoryId: s.post_id!, urlTags: s.url_tags } };
      if (s.kind === 'dynamic') {
        const d = s.dynamic!;
        const videos = [];
        for (const id of d.video_material_ids) videos.push({ videoId: ref(id), thumbnailHash: (await thumbnailHash(st, id, i.ad_account_id, act, token)) ?? '' });
        return { level: 'creative', input: { kind: 'dynamic', name: i.name, pageId: s.page_platform_id!, videos, imageHashes: d.image_material_ids.map(ref), bodies: d.bodies, titles: d.titles, descriptions: d.descriptions, link: s.link, callToAction: s.call_to_action, urlTags: s.url_tags } };
      }
      const texts = { message: s.primary_text, headline: s.headline, description: s.description, link: s.link, callToAction: s.call_to_action, urlTags: s.url_tags };
      if (s.kind === 'video') {
        const cover = s.cover_material_id ? ref(s.cover_material_id) : await thumbnailHash(st, s.video_material_id!, i.ad_account_id, act, token);
        return { level: 'creative', input: { kind: 'video', name: i.name, pageId: s.page_platform_id!, videoId: ref(s.video_material_id!), imageHash: cover ?? '', ...texts } };
      }
      return { level: 'creative', input: { kind: 'image', name: i.name, pageId: s.page_platform_id!, imageHash: ref(s.image_material_id!), ...texts } };
    }
    case 'ad':
      return { level: 'ad', input: { adsetId: parents.get(i.parent_id!)!.platform_id!, name: i.name, status: childStatus, creativeId: parents.get(i.creative_item_id!)!.platform_id! } };
  }
}

/** Groups of at most BATCH items; ad sets: at most one per campaign in a batch (Meta refuses several). */
function batches(level: Level, items: PublishSchemeItemRow[]): PublishSchemeItemRow[][] {
  if (level !== 'adset') {
    const out: PublishSchemeItemRow[][] = [];
    for (let k = 0; k < items.length; k += BATCH) out.push(items.slice(k, k + BATCH));
    return out;
  }
  const out: PublishSchemeItemRow[][] = [];
  for (const i of items) {
    const slot = out.find((b) => b.length < BATCH && !b.some((x) => x.parent_id === i.parent_id));
    if (slot) slot.push(i);
    else out.push([i]);
  }
  return out;
}

/** Whether the scheme was asked to stop; checked between batches (the batch under way finishes). */
async function assertNotCancelled(st: RunState) {
  const row = await st.ctx.db.selectFrom('publish_schemes').select('cancel_requested_at').where('id', '=', st.scheme.id).executeTakeFirst();
  if (row?.cancel_requested_at) throw new Cancelled();
}

/**
 * Creates one account's ready items of one level. `creating` items are looked up first; the
 * others are marked creating and sent (one call, or a batch).
 */
async function createLevel(st: RunState, level: Level, accountId: number, act: string, all: PublishSchemeItemRow[], byId: Map<number, PublishSchemeItemRow>, readyCreatives: Set<number>, tokens: ReturnType<typeof tokenSource>) {
  const { ctx } = st;
  const parentOk = (i: PublishSchemeItemRow) => {
    const parent = i.parent_id ? byId.get(i.parent_id) : undefined;
    const creative = i.creative_item_id ? byId.get(i.creative_item_id) : undefined;
    return (!i.parent_id || parent?.status === 'created') && (!i.creative_item_id || creative?.status === 'created');
  };
  const parentFailed = (i: PublishSchemeItemRow) => [i.parent_id, i.creative_item_id].some((id) => id && (byId.get(id)?.status === 'failed' || byId.get(id)?.status === 'cancelled'));

  const mine = all.filter((i) => i.level === level && i.ad_account_id === accountId && (i.status === 'pending' || i.status === 'creating'));
  const orphans = mine.filter(parentFailed);
  if (orphans.length) await failItems(st, orphans, both('PUB_ITEM_PARENT_FAILED'));
  const todo = mine.filter((i) => !parentFailed(i) && parentOk(i) && (level !== 'creative' || readyCreatives.has(i.id)));
  if (!todo.length) return;

  for (const group of batches(level, todo)) {
    ctx.signal.throwIfAborted();
    await assertNotCancelled(st);
    if (st.created >= st.slice) throw new Yield();
    const token = await tokens.get(accountId);
    if (!token) {
      await failItems(st, group, both('PUB_ITEM_NO_TOKEN'));
      continue;
    }
    // Anything sent before without a known outcome: look for it first.
    const send: PublishSchemeItemRow[] = [];
    for (const i of group) {
      if (i.status !== 'creating') {
        send.push(i);
        continue;
      }
      const parent = level === 'adset' || level === 'ad' ? byId.get(i.parent_id!)!.platform_id : null;
      try {
        const found = await ctx.platform.findByName(token.token, act, level, i.name, parent, { signal: ctx.signal });
        if (found.length) {
          const now = ctx.clock.now();
          await updateItems(ctx.db, [i.id], { status: 'created', platform_id: found[0]!.id, error: null, error_en: null, finished_at: now }, now);
          i.status = 'created';
          i.platform_id = found[0]!.id;
          continue;
        }
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        if (err instanceof PlatformError && err.kind === 'rate_limited') throw new RateLimited(err.details.retryAfterMs ?? RATE_WAIT_MS);
        // Not knowing whether it exists: leave it for the next turn rather than risk a second copy.
        st.unresolved++;
        continue;
      }
      if (i.attempts >= MAX_ATTEMPTS) {
        await failItems(st, [i], both('PUB_ITEM_UNKNOWN_OUTCOME'));
        continue;
      }
      send.push(i);
    }
    if (!send.length) continue;

    const requests: CreateRequest[] = [];
    for (const i of send) requests.push(await requestOf(st, i, byId, act, token.token));
    await markCreating(ctx.db, send.map((i) => i.id), ctx.clock.now());
    for (const i of send) {
      i.status = 'creating';
      i.attempts += 1;
    }
    let results: CreateResult[];
    try {
      results =
        send.length === 1
          ? [await single(ctx.platform, token.token, act, requests[0]!, ctx.signal)]
          : await ctx.platform.createMany(token.token, act, requests, { signal: ctx.signal });
    } catch (err) {
      if (ctx.signal.aborted || !(err instanceof PlatformError)) throw err;
      // The whole request failed: an answered refusal was not applied; anything else may have been.
      if (err.kind === 'rate_limited' || isAuthFailure(err)) {
        await updateItems(ctx.db, send.map((i) => i.id), { status: 'pending' }, ctx.clock.now());
        for (const i of send) i.status = 'pending';
        if (err.kind !== 'rate_limited') {
          await tokens.dead(accountId, err);
          continue;
        }
        throw new RateLimited(err.details.retryAfterMs ?? RATE_WAIT_MS);
      }
      st.unresolved += send.length;
      continue;
    }
    let limited: PlatformError | null = null;
    const now = ctx.clock.now();
    for (const [k, r] of results.entries()) {
      const i = send[k]!;
      if (r.ok) {
        await updateItems(ctx.db, [i.id], { status: 'created', platform_id: r.id, error: null, error_en: null, finished_at: now }, now);
        i.status = 'created';
        i.platform_id = r.id;
        st.created++;
      } else if (r.unknown) {
        st.unresolved++;
      } else if (r.error.kind === 'unavailable') {
        // A transient failure the platform answered: refused, not applied; sent again on the next turn.
        await updateItems(ctx.db, [i.id], { status: 'pending' }, now);
        i.status = 'pending';
        st.unresolved++;
      } else if (r.error.kind === 'rate_limited' || isAuthFailure(r.error)) {
        await updateItems(ctx.db, [i.id], { status: 'pending' }, now);
        i.status = 'pending';
        if (r.error.kind === 'rate_limited') limited = r.error;
        else await tokens.dead(accountId, r.error);
      } else {
        await failItems(st, [i], platformText(r.error));
      }
    }
    if (limited) throw new RateLimited(limited.details.retryAfterMs ?? RATE_WAIT_MS);
  }
}

async function single(platform: AdPlatformClient, token: string, act: string, r: CreateRequest, signal: AbortSignal): Promise<CreateResult> {
  try {
    const created =
      r.level === 'campaign'
        ? await platform.createCampaign(token, act, r.input, { signal })
        : r.level === 'adset'
          ? await platform.createAdSet(token, act, r.input, { signal })
          : r.level === 'creative'
            ? await platform.createCreative(token, act, r.input, { signal })
            : await platform.createAd(token, act, r.input, { signal });
    return { ok: true, id: created.id };
  } catch (err) {
    if (signal.aborted || !(err instanceof PlatformError)) throw err;
    // No answer at all (dropped, timed out): it may have been applied.
    return { ok: false, error: err, unknown: err.kind === 'unavailable' && err.details.code === undefined };
  }
}

/**
 * Mirrors what was created into ad_campaigns / ad_sets / ads / ad_creatives (a refresh right
 * after the writes), stamps them with the scheme, its items and the publisher, and records which
 * materials each ad uses. Items already mirrored are skipped, so a rerun only does what is left.
 */
async function mirror(st: RunState, sync: ReturnType<typeof createAdSync>) {
  const { ctx } = st;
  const rows = await ctx.db.selectFrom('publish_scheme_items').selectAll().where('scheme_id', '=', st.scheme.id).where('status', '=', 'created').where('object_id', 'is', null).execute();
  if (!rows.length) return;
  const byAccount = new Map<number, PublishSchemeItemRow[]>();
  for (const r of rows) byAccount.set(r.ad_account_id, [...(byAccount.get(r.ad_account_id) ?? []), r]);
  const all = await schemeItems(ctx.db, st.scheme.id);
  const byId = new Map(all.map((i) => [i.id, i]));
  for (const [accountId, items] of byAccount) {
    const campaigns = [...new Set(items.map((i) => (i.level === 'campaign' ? i : i.level === 'adset' ? byId.get(i.parent_id!) : i.level === 'ad' ? byId.get(byId.get(i.parent_id!)!.parent_id!) : undefined)).filter((c): c is PublishSchemeItemRow => !!c?.platform_id).map((c) => c.platform_id!))];
    try {
      if (campaigns.length) await sync.refreshObjects(accountId, 'campaign', campaigns, { signal: ctx.signal });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      // The account's next sync mirrors and links them (linkSchemeItemsOfAccount); object_id stays null until then.
      ctx.log.warn({ err, schemeId: st.scheme.id, accountId }, 'publish: mirror refresh failed');
      continue;
    }
    await linkSchemeItems(ctx.db, st.scheme, accountId, items, byId, ctx.clock.now());
  }
}

/**
 * After a cancel: items whose call went out are looked up (adopted when they exist), never sent
 * again; what is not found was not made.
 */
async function resolveCreating(st: RunState, all: PublishSchemeItemRow[], byId: Map<number, PublishSchemeItemRow>, tokens: ReturnType<typeof tokenSource>) {
  const { ctx } = st;
  const acts = new Map((await ctx.db.selectFrom('ad_accounts').select(['id', 'platform_id']).where('id', 'in', [...new Set(all.map((i) => i.ad_account_id))].concat([0])).execute()).map((a) => [a.id, a.platform_id]));
  for (const level of LEVELS) {
    for (const i of all.filter((x) => x.level === level && x.status === 'creating')) {
      const token = await tokens.get(i.ad_account_id);
      const parent = level === 'adset' || level === 'ad' ? (byId.get(i.parent_id!)?.platform_id ?? null) : null;
      const found = token && (level === 'campaign' || level === 'creative' || parent) ? await ctx.platform.findByName(token.token, acts.get(i.ad_account_id)!, level, i.name, parent, { signal: ctx.signal }) : [];
      const now = ctx.clock.now();
      if (found.length) {
        await updateItems(ctx.db, [i.id], { status: 'created', platform_id: found[0]!.id, finished_at: now }, now);
        i.status = 'created';
        i.platform_id = found[0]!.id;
      } else {
        await updateItems(ctx.db, [i.id], { status: 'cancelled', finished_at: now }, now);
        i.status = 'cancelled';
      }
    }
  }
}

/** Runs of other schemes waiting for a turn, and how many schemes of this publisher are active (their share of a turn). */
async function contention(db: Db, scheme: PublishSchemeRow, now: Date): Promise<{ othersWaiting: boolean; mine: number }> {
  const waiting = await db
    .selectFrom('job_runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('job_name', '=', SCHEME_JOB)
    .where('status', '=', 'queued')
    .where('concurrency_key', '!=', schemeKey(scheme.id))
    .where((eb) => eb.or([eb('start_at', 'is', null), eb('start_at', '<=', now)]))
    .executeTakeFirst();
  const mine = await db
    .selectFrom('publish_schemes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_by', '=', scheme.created_by)
    .where('status', 'in', ['queued', 'running', 'waiting'])
    .executeTakeFirst();
  return { othersWaiting: Number(waiting?.n ?? 0) > 0, mine: Math.max(1, Number(mine?.n ?? 1)) };
}

async function finish(st: RunState): Promise<JobResult> {
  const { ctx, scheme } = st;
  const now = ctx.clock.now();
  const items = await schemeItems(ctx.db, scheme.id);
  const count = (s: string) => items.filter((i) => i.status === s).length;
  const created = count('created');
  const failed = count('failed');
  const cancelled = count('cancelled');
  const firstFailure = items.find((i) => i.status === 'failed');
  const first: Bilingual = firstFailure ? { zh: `${firstFailure.name}：${firstFailure.error ?? ''}`, en: `${firstFailure.name}: ${firstFailure.error_en ?? firstFailure.error ?? ''}` } : { zh: '', en: '' };
  const status: SchemeStatus = cancelled ? 'cancelled' : failed === 0 ? 'done' : created === 0 ? 'failed' : 'partial';
  const message =
    status === 'cancelled'
      ? both('JOB_PUBLISH_CANCELLED', { name: scheme.name, created, cancelled })
      : status === 'done'
        ? both('JOB_PUBLISH_DONE', { name: scheme.name, created })
        : both(status === 'failed' ? 'JOB_PUBLISH_FAILED' : 'JOB_PUBLISH_PARTIAL', { name: scheme.name, created, failed, first });
  let startTask: number | undefined;
  const launch = scheme.launch as { mode: string };
  if (launch.mode === 'now' && !scheme.start_task_id && status !== 'cancelled' && created > 0 && ctx.enqueue) {
    startTask = await ctx.enqueue(START_JOB, { scheme_id: scheme.id }, { createdBy: scheme.created_by });
  }
  await setSchemeStatus(ctx.db, scheme.id, { status, message: message.zh, message_en: message.en, finished_at: now, ...(startTask && { start_task_id: startTask }) }, now);
  const summary = { scheme_id: scheme.id, created, failed, cancelled };
  return { status: status === 'done' || status === 'cancelled' ? 'success' : 'failed', summary, message };
}

/** One turn of a scheme's run: what it can create now, then either done, or a continuation. */
export async function runScheme(ctx: JobContext<SchemeJobData>): Promise<JobResult> {
  const { db } = ctx;
  const scheme = await db.selectFrom('publish_schemes').selectAll().where('id', '=', ctx.data.scheme_id).executeTakeFirst();
  if (!scheme) return { status: 'failed', message: both('SCHEME_NOT_FOUND') };
  if (['done', 'partial', 'failed', 'cancelled'].includes(scheme.status)) return { status: 'skipped', message: both('JOB_PUBLISH_NOTHING') };
  const now = ctx.clock.now();
  await setSchemeStatus(db, scheme.id, { status: scheme.cancel_requested_at ? 'cancelling' : 'running', message: null, message_en: null, ...(!scheme.started_at && { started_at: now }) }, now);

  const sync = createAdSync({ db, platform: ctx.platform, clock: ctx.clock, secrets: secretBoxFor(db, ctx.config.tokenEncryptionKey, ctx.log, ctx.config.tokenEncryptionKeyPrevious), reportTimezone: ctx.config.reportTimezone, log: ctx.log });
  const tokens = tokenSource(ctx, sync);
  const { othersWaiting, mine } = await contention(db, scheme, now);
  const st: RunState = {
    ctx,
    scheme,
    created: 0,
    // Alone, a scheme runs through; with others waiting it takes turns, its publisher's schemes sharing one turn.
    slice: othersWaiting ? Math.max(BATCH, Math.floor(SLICE_CREATES / mine)) : Number.POSITIVE_INFINITY,
    media: new Map(),
    thumbs: new Map(),
    waitingMedia: { pushing: 0, processing: 0 },
    unresolved: 0,
  };

  const all = await schemeItems(db, scheme.id);
  const byId = new Map(all.map((i) => [i.id, i]));
  const total = all.length;
  const progress = () => ctx.progress(all.filter((i) => i.status === 'created' || i.status === 'failed' || i.status === 'cancelled').length, total, scheme.name);

  let stop: RateLimited | Yield | Cancelled | null = null;
  try {
    if (scheme.cancel_requested_at) {
      await resolveCreating(st, all, byId, tokens);
      throw new Cancelled();
    }
    const ready = await prepareMedia(
      st,
      all.filter((i) => i.level === 'creative'),
      tokens,
    );
    const accounts = await db.selectFrom('ad_accounts').select(['id', 'platform_id']).where('id', 'in', [...new Set(all.map((i) => i.ad_account_id))].concat([0])).execute();
    // Accounts go side by side (each within the platform's per-account limits); levels in order within each.
    const queue = [...accounts];
    const worker = async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        try {
          for (const level of LEVELS) {
            await createLevel(st, level, a.id, a.platform_id, all, byId, ready, tokens);
            await progress();
          }
        } catch (err) {
          // One account's rate limit does not hold the others up: it waits for the continuation.
          if (!(err instanceof RateLimited)) throw err;
          st.rateWaitMs = Math.min(st.rateWaitMs ?? err.waitMs, err.waitMs);
        }
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: Math.min(ACCOUNTS_AT_ONCE, accounts.length) }, worker));
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) throw failure.reason;
    if (st.rateWaitMs !== undefined) throw new RateLimited(st.rateWaitMs);
  } catch (err) {
    if (err instanceof RateLimited || err instanceof Yield || err instanceof Cancelled) stop = err;
    else {
      // Killed, shut down or unexpected: what is `creating` is looked up by the next attempt.
      await mirror(st, sync).catch(() => undefined);
      throw err;
    }
  }
  await mirror(st, sync);
  await progress();

  if (stop instanceof Cancelled) {
    const t = ctx.clock.now();
    await db.updateTable('publish_scheme_items').set({ status: 'cancelled', waiting_for: null, finished_at: t, updated_at: t }).where('scheme_id', '=', scheme.id).where('status', '=', 'pending').execute();
    // `creating` items may exist on the platform: they are looked up once more before the scheme ends.
    const left = await db.selectFrom('publish_scheme_items').select('id').where('scheme_id', '=', scheme.id).where('status', '=', 'creating').execute();
    if (!left.length) return finish(st);
  }

  const data: SchemeJobData = { ...ctx.data };
  const later = (ms: number) => new Date(ctx.clock.now().getTime() + ms);
  const wait = async (status: SchemeStatus, message: Bilingual, ms: number): Promise<JobResult> => {
    const t = ctx.clock.now();
    await setSchemeStatus(db, scheme.id, { status, message: message.zh, message_en: message.en }, t);
    return { status: 'success', message, summary: { scheme_id: scheme.id, created: st.created }, continuation: { data, at: later(ms), message } };
  };
  if (stop instanceof RateLimited) {
    const at = later(stop.waitMs);
    return wait('waiting', both('JOB_PUBLISH_WAIT_RATE', { at: at.toISOString().slice(11, 19) + ' UTC' }), stop.waitMs);
  }
  if (stop instanceof Yield) return wait('queued', both('JOB_PUBLISH_TURN'), 0);

  const remaining = await db.selectFrom('publish_scheme_items').select(['status', 'waiting_for']).where('scheme_id', '=', scheme.id).where('status', 'in', ['pending', 'creating']).execute();
  if (!remaining.length) return finish(st);
  if (st.waitingMedia.pushing || st.waitingMedia.processing) return wait('waiting', both('JOB_PUBLISH_WAIT_MEDIA', st.waitingMedia), MEDIA_POLL_MS);
  // Calls whose outcome is unknown (or items behind them): look again shortly.
  return wait('waiting', both('JOB_PUBLISH_TURN'), st.unresolved ? 5_000 : MEDIA_POLL_MS);
}

/** Creates a scheme's campaigns, ad sets, creatives and ads (publish/submit, retry_failed). */
export const publishSchemeJob = defineJob<SchemeJobData>({
  name: SCHEME_JOB,
  title: { zh: '发布方案', en: 'Publish scheme' },
  description: {
    zh: '按方案创建广告系列、广告组、创意和广告：先推送素材并等待视频处理完成；限流时稍后继续；中断后从断点继续且不重复创建。',
    en: 'Creates a scheme’s campaigns, ad sets, creatives and ads: pushes materials first and waits for videos; goes on later after a rate limit; resumes after an interruption without creating anything twice.',
  },
  defaultSchedule: null,
  retryLimit: 5,
  // A retry resumes where the run died (lookups first): no reason to wait long.
  retryDelaySeconds: 2,
  expireInSeconds: 3 * 3600,
  // Schemes run side by side (one run per scheme at a time), at most this many across all servers.
  concurrency: { perKey: true, max: 6 },
  run: runScheme,
});

/**
 * The start task: switches campaigns on (or off), written to the operation log as the task. The
 * wizard queues `{scheme_id}` (its campaigns on); start management (启动管理) queues campaigns
 * and/or whole schemes with an action, per market zone (`ad_account_ids` keeps a scheme's other
 * accounts out). A scheme still being created is waited for.
 */
export const publishStartJob = defineJob<StartJobData>({
  name: START_JOB,
  title: { zh: '启动任务', en: 'Start task' },
  description: { zh: '开启或关闭广告系列或整个方案（立即或在指定时间），逐个写入操作日志。', en: 'Switches campaigns or whole schemes on or off (now or at a set time), each written to the operation log.' },
  defaultSchedule: null,
  retryLimit: 3,
  async run(ctx) {
    const d = ctx.data;
    const action = d.action ?? 'activate';
    const schemeIds = [...(d.scheme_ids ?? []), ...(d.scheme_id ? [d.scheme_id] : [])];
    const schemes = schemeIds.length ? await ctx.db.selectFrom('publish_schemes').select(['id', 'name', 'status', 'created_by', 'platform']).where('id', 'in', schemeIds).execute() : [];
    if (d.scheme_id && !schemes.length) return { status: 'failed', message: both('SCHEME_NOT_FOUND') };
    const live = schemes.filter((s) => s.status !== 'cancelled');
    if (d.scheme_id && !live.length) return { status: 'skipped', message: both('JOB_PUBLISH_CANCELLED', { name: schemes[0]!.name, created: 0, cancelled: 0 }) };
    // Still being created: start once it is (a start time reached before the scheme finished).
    if (action === 'activate' && live.some((s) => !['done', 'partial', 'failed'].includes(s.status))) {
      return { status: 'success', message: both('JOB_PUBLISH_TURN'), continuation: { data: ctx.data, at: new Date(ctx.clock.now().getTime() + MEDIA_POLL_MS) } };
    }
    let q = ctx.db.selectFrom('ad_campaigns').select('id').where('deleted_at', 'is', null);
    const campaignIds = d.campaign_ids ?? [];
    const liveIds = live.map((s) => s.id);
    q = q.where((eb) => {
      const ors = [];
      if (campaignIds.length) ors.push(eb('id', 'in', campaignIds));
      if (liveIds.length) ors.push(d.ad_account_ids?.length ? eb.and([eb('scheme_id', 'in', liveIds), eb('ad_account_id', 'in', d.ad_account_ids)]) : eb('scheme_id', 'in', liveIds));
      return ors.length ? eb.or(ors) : eb.val(false);
    });
    const campaigns = await q.orderBy('id').execute();
    const doneKey = action === 'pause' ? 'JOB_START_OFF_DONE' : 'JOB_PUBLISH_START_DONE';
    if (!campaigns.length) return { status: 'skipped', message: both(doneKey, { count: 0 }) };
    const secrets = secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log, ctx.config.tokenEncryptionKeyPrevious);
    const sync = createAdSync({ db: ctx.db, platform: ctx.platform, clock: ctx.clock, secrets, reportTimezone: ctx.config.reportTimezone, log: ctx.log });
    const ops = createAdOperations({ db: ctx.db, clock: ctx.clock, platform: ctx.platform, sync });
    // A retry of an interrupted run: objects it already switched are logged as this task; skip them.
    const done = new Set((await ctx.db.selectFrom('ad_operations').select('object_id').where('start_task_id', '=', ctx.runId).where('result', '=', 'ok').execute()).map((r) => r.object_id));
    let todo = campaigns.map((c) => c.id).filter((id) => !done.has(id));
    const userId = d.by ?? schemes[0]?.created_by ?? null;
    const opActor = { type: 'start_task' as const, startTaskId: ctx.runId, userId };
    // Switching on is checked again now: the creator may have been disabled, lost the role or the
    // account since the task was made. Each object refused is logged as the task. Switching off
    // (day-parting's end) goes ahead: it only stops spend.
    const refusedResults: { error: Bilingual }[] = [];
    if (action === 'activate' && todo.length) {
      const check = await startAllowance(ctx.db, userId, todo, d.scheme_id && !d.by ? (schemes[0]?.platform ?? null) : null);
      const refusedIds = todo.filter((id) => !check.allowed.has(id));
      if (refusedIds.length) {
        const name = check.refusal ? '' : ((await ctx.db.selectFrom('users').select('name').where('id', '=', userId!).executeTakeFirst())?.name ?? `#${userId}`);
        const error = check.refusal ?? both('START_OUT_OF_SCOPE', { name });
        // A retried run does not log the same refusal twice.
        const logged = new Set((await ctx.db.selectFrom('ad_operations').select('object_id').where('start_task_id', '=', ctx.runId).where('result', '=', 'failed').execute()).map((r) => r.object_id));
        await ops.refuse(opActor, { level: 'campaign', ids: refusedIds.filter((id) => !logged.has(id)), action: 'activate' }, error);
        refusedResults.push(...refusedIds.map(() => ({ error })));
        todo = todo.filter((id) => check.allowed.has(id));
      }
    }
    const { results } = todo.length ? await ops.apply(opActor, { level: 'campaign', ids: todo, action }) : { results: [] };
    const ok = results.filter((r) => r.result === 'ok').length + done.size;
    const failed = [...refusedResults, ...results.filter((r) => r.result === 'failed')];
    if (failed.length) return { status: 'failed', summary: { ok, failed: failed.length }, message: both(action === 'pause' ? 'JOB_START_OFF_FAILED' : 'JOB_PUBLISH_START_FAILED', { failed: failed.length, count: ok, first: failed[0]!.error ?? '' }) };
    return { status: 'success', summary: { ok }, message: both(doneKey, { count: ok }) };
  },
});
