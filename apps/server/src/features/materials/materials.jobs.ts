import { both, joinBoth, type ErrorKey } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { MaterialPushState } from '../../db/schema.ts';
import { defineJob, type JobContext } from '../../jobs/types.ts';
import { secretBoxFor, SecretUnreadableError } from '../../lib/crypto.ts';
import { platformDetail } from '../../lib/platform-errors.ts';
import { PlatformError, type AdPlatformClient } from '../../platform/types.ts';
import { failOrphanPushes, loadPushes, taskPushOutcomes, tokensReaching, updatePush, type PushRow } from './materials.repository.ts';
import { PUSH_JOB } from './materials.service.ts';
import { createMaterialStorage, readBytes, type MaterialStorage } from './storage.ts';
import { deleteExpiredUploads } from './tus.ts';

/** Larger images are refused by the platform (Meta: 30 MB); they are not sent at all. */
const MAX_IMAGE_BYTES = 30 * 1024 * 1024;

/** What the push job needs besides its context. */
interface PushDeps {
  ctx: JobContext<unknown>;
  storage: MaterialStorage;
  /** Clear tokens by ad account id, looked up once per run. */
  tokenFor(adAccountId: number): Promise<string | null>;
}

/** The platform marks the videos of a material with this description, so a re-run finds what an earlier one sent. */
export const videoMarker = (materialId: number, md5: string) => `ads-material:${materialId}:${md5}`;

async function fail(deps: PushDeps, row: PushRow, reason: { error: string } | { key: ErrorKey; params?: Record<string, unknown> }) {
  const now = deps.ctx.clock.now();
  await updatePush(
    deps.ctx.db,
    row.id,
    'error' in reason
      ? { state: 'failed', error: reason.error, error_key: null, error_params: null, upload_session_id: null, finished_at: now }
      : { state: 'failed', error: null, error_key: reason.key, error_params: reason.params ? JSON.stringify(reason.params) : null, upload_session_id: null, finished_at: now },
    now,
  );
}

/** The platform's words for a failure (its user-facing message when it gives one). */
const platformReason = (err: unknown) => ({ error: err instanceof PlatformError ? platformDetail(err) : err instanceof Error ? err.message.slice(0, 300) : String(err) });

/**
 * Sends one material to one ad account. An image goes up in one call (its hash depends on the
 * bytes only, so a resend adds nothing). A video goes in chunks; its id and session are stored
 * before the first byte, so a run that died midway resumes that session, or finds the video by its
 * marker, instead of sending a second copy. Answers the state reached.
 */
async function pushOne(deps: PushDeps, row: PushRow): Promise<MaterialPushState> {
  const { ctx, storage } = deps;
  const { db, platform, clock, signal } = ctx;
  if (row.deleted_at) {
    await fail(deps, row, { key: 'PUSH_MATERIAL_GONE' });
    return 'failed';
  }
  const token = await deps.tokenFor(row.ad_account_id);
  if (!token) {
    await fail(deps, row, { key: 'PUSH_NO_TOKEN', params: { account: row.account_name } });
    return 'failed';
  }
  if (row.state === 'processing' && row.platform_ref) return 'processing';
  await updatePush(db, row.id, { state: 'uploading', attempts: row.attempts + 1, error: null, error_key: null, error_params: null }, clock.now());
  try {
    if (row.kind === 'image') {
      if (row.size_bytes > MAX_IMAGE_BYTES) {
        await fail(deps, row, { key: 'PUSH_IMAGE_TOO_LARGE', params: { max: '30 MB' } });
        return 'failed';
      }
      const data = await readBytes(storage, row.storage_key, 0, row.size_bytes);
      const image = await platform.uploadAdImage(token, row.account_platform_id, { data, filename: row.file_name }, { signal });
      const now = clock.now();
      await updatePush(db, row.id, { state: 'ready', platform_ref: image.hash, finished_at: now }, now);
      return 'ready';
    }
    return await pushVideo(deps, row, token, platform);
  } catch (err) {
    // Shutdown or cancel: leave the push as it is; the retried run picks it up where it stands.
    if (signal.aborted) throw err;
    ctx.log.warn({ err, pushId: row.id }, 'material push failed');
    await fail(deps, row, platformReason(err));
    return 'failed';
  }
}

async function pushVideo(deps: PushDeps, row: PushRow, token: string, platform: AdPlatformClient): Promise<MaterialPushState> {
  const { ctx, storage } = deps;
  const { db, clock, signal } = ctx;
  const marker = videoMarker(row.material_id, row.md5);
  const adopt = async (videoId: string) => {
    await updatePush(db, row.id, { state: 'processing', platform_ref: videoId, upload_session_id: null }, clock.now());
    return 'processing' as const;
  };

  let resume: { videoId: string; sessionId: string } | null = null;
  // What became of an earlier attempt? Its video is used if the platform has it whole, resumed if
  // its session is still open, and removed otherwise (so the account never holds two copies).
  const earlier = row.platform_ref ? await platform.getAdVideo(token, row.platform_ref, { signal }).catch(() => null) : row.attempts > 0 ? await platform.findAdVideo(token, row.account_platform_id, marker, { signal }) : null;
  if (earlier) {
    if (earlier.status === 'processing' || earlier.status === 'ready') return adopt(earlier.id);
    if (earlier.status === 'uploading' && row.platform_ref === earlier.id && row.upload_session_id) resume = { videoId: earlier.id, sessionId: row.upload_session_id };
    else await platform.deleteAdVideo(token, earlier.id, { signal }).catch(() => undefined);
  }

  const { videoId } = await platform.uploadAdVideo(
    token,
    row.account_platform_id,
    { size: row.size_bytes, read: (start, end) => readBytes(storage, row.storage_key, start, end) },
    {
      title: row.file_name,
      description: marker,
      resume,
      onSession: async (s) => updatePush(db, row.id, { platform_ref: s.videoId, upload_session_id: s.sessionId }, clock.now()),
    },
    { signal },
  );
  return adopt(videoId);
}

/** Asks the platform about videos it is processing; answers how many are still processing. */
async function pollProcessing(deps: PushDeps, rows: PushRow[]): Promise<number> {
  const { ctx } = deps;
  let left = 0;
  for (const row of rows) {
    ctx.signal.throwIfAborted();
    const token = await deps.tokenFor(row.ad_account_id);
    if (!token || !row.platform_ref) {
      await fail(deps, row, token ? { error: 'no video id' } : { key: 'PUSH_NO_TOKEN', params: { account: row.account_name } });
      continue;
    }
    try {
      const video = await ctx.platform.getAdVideo(token, row.platform_ref, { signal: ctx.signal });
      if (video.status === 'ready') {
        const now = ctx.clock.now();
        await updatePush(ctx.db, row.id, { state: 'ready', finished_at: now }, now);
      } else if (video.status === 'error' || video.status === 'expired') {
        await fail(deps, row, { key: 'PUSH_VIDEO_FAILED', params: { reason: video.errorMessage ?? video.status } });
      } else left++;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      // A failed status read says nothing about the video: ask again next time.
      ctx.log.warn({ err, pushId: row.id }, 'video status could not be read');
      left++;
    }
  }
  return left;
}

/** Tokens that reach each ad account: a personal account with a usable token, valid ones first. */
function tokenLookup(ctx: JobContext<unknown>) {
  const secrets = secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log);
  const cache = new Map<number, Promise<string | null>>();
  const find = async (adAccountId: number) => {
    const rows = await tokensReaching(ctx.db, adAccountId);
    for (const r of rows) {
      try {
        return await secrets.decrypt(r.token_enc!);
      } catch (err) {
        if (!(err instanceof SecretUnreadableError)) throw err;
      }
    }
    return null;
  };
  return (adAccountId: number) => {
    let hit = cache.get(adAccountId);
    if (!hit) {
      hit = find(adAccountId);
      cache.set(adAccountId, hit);
    }
    return hit;
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

async function outcome(db: Db, ids: readonly number[], taskId: number) {
  const rows = await taskPushOutcomes(db, ids, taskId);
  const count = (s: MaterialPushState) => rows.filter((r) => r.state === s).length;
  const failures = rows
    .filter((r) => r.state === 'failed')
    .slice(0, 5)
    .map((r) =>
      both('JOB_PUSH_FAILURE', {
        file: r.file_name,
        account: r.account_name,
        // A failure of ours is stored as a key (formatted in each language); the platform's own words as they are.
        reason: r.error_key ? both(r.error_key as ErrorKey, (r.error_params as Record<string, unknown> | null) ?? {}) : (r.error ?? ''),
      }),
    );
  return { total: rows.length, ready: count('ready'), processing: count('processing'), failed: count('failed'), failures };
}

/**
 * Pushes materials to ad accounts (/materials/push and retry_push queue it with the push ids).
 * Every pair's state is written as it changes, so the screens follow it. After the uploads it
 * waits a little for the platform to process the videos; the check job takes over those still
 * processing. A rerun (crash, restart) continues each pair from its stored state. Runs per person
 * (pushKey): different people's pushes go at once, and a run handles only the pushes stamped with
 * its task, so a pair queued again by a later task is never uploaded by two runs.
 */
export const pushMaterialsJob = defineJob<{ push_ids?: number[] }>({
  name: PUSH_JOB,
  title: { zh: '推送素材到广告账户', en: 'Push materials to ad accounts' },
  description: {
    zh: '把素材上传到广告账户（视频分片上传，图片按哈希上传），并等待平台处理完视频。',
    en: 'Uploads materials to ad accounts (videos in chunks, images by hash) and waits for videos to be processed.',
  },
  defaultSchedule: null,
  retryLimit: 2,
  // 200 videos of 100 MB to 30 accounts is hours of upload.
  expireInSeconds: 6 * 3600,
  // Uploads are bound by bandwidth: a few people's pushes at once across all servers.
  concurrency: { perKey: true, max: 4 },
  async run(ctx) {
    const ids = ctx.data.push_ids ?? [];
    const taskId = ctx.runId;
    const rows = await loadPushes(ctx.db, { ids, states: ['pending', 'uploading', 'processing'], taskId });
    if (!rows.length) return { status: 'skipped', message: both('JOB_PUSH_NOTHING'), summary: { pushes: 0 } };
    const deps: PushDeps = { ctx, storage: createMaterialStorage(ctx.config.materials.storage), tokenFor: tokenLookup(ctx) };

    for (const [i, row] of rows.entries()) {
      ctx.signal.throwIfAborted();
      await ctx.progress(i, rows.length, `${row.file_name} → ${row.account_name}`);
      await pushOne(deps, row);
    }
    await ctx.progress(rows.length, rows.length);

    // Processing usually takes a minute or two: wait for it here, within bounds. The bound is on
    // real time (performance.now), not the clock: it limits how long this run really waits.
    const deadline = performance.now() + ctx.config.materials.pushWaitMs;
    for (let round = 0; round < 10_000; round++) {
      const processing = await loadPushes(ctx.db, { ids, states: ['processing'], taskId });
      if (!processing.length || performance.now() >= deadline) break;
      await sleep(ctx.config.materials.pushPollMs, ctx.signal);
      if ((await pollProcessing(deps, processing)) === 0) break;
    }

    const o = await outcome(ctx.db, ids, taskId);
    const summary = { pushes: o.total, ready: o.ready, processing: o.processing, failed: o.failed };
    const done = o.processing ? both('JOB_PUSH_DONE_PROCESSING', { ready: o.ready, processing: o.processing }) : both('JOB_PUSH_DONE', { ready: o.ready });
    if (o.failed) {
      const key = o.failed > o.failures.length ? 'JOB_PUSH_FAILED_MORE' : 'JOB_PUSH_FAILED';
      return { status: 'failed', summary, message: both(key, { done, failed: o.failed, failures: joinBoth(o.failures) }) };
    }
    return { status: 'success', summary, message: done };
  },
});

/**
 * Every few minutes: finishes pushes whose videos the platform was still processing when their
 * run ended, and marks as failed (retryable) the pushes whose run was cancelled or gave up.
 */
export const checkMaterialPushesJob = defineJob({
  name: 'check-material-pushes',
  title: { zh: '检查素材推送', en: 'Check material pushes' },
  description: {
    zh: '查询平台仍在处理的视频；推送任务已结束却未完成的推送标记为失败。',
    en: 'Polls videos the platform is still processing; marks pushes whose task ended without them as failed.',
  },
  defaultSchedule: '*/5 * * * *',
  retryLimit: 1,
  system: true,
  async run(ctx) {
    const processing = await loadPushes(ctx.db, { states: ['processing'] });
    const deps: PushDeps = { ctx, storage: createMaterialStorage(ctx.config.materials.storage), tokenFor: tokenLookup(ctx) };
    const left = processing.length ? await pollProcessing(deps, processing) : 0;

    // Pending or uploading with no live run behind them (cancelled, or out of retries).
    const now = ctx.clock.now();
    const orphans = await failOrphanPushes(ctx.db, now);
    if (!processing.length && !orphans.length) return { status: 'skipped', summary: { checked: 0 } };
    return { status: 'success', summary: { checked: processing.length, still_processing: left, interrupted: orphans.length } };
  },
});

/** Nightly: unfinished uploads older than a week (their clients gave up) and stray scratch files. */
export const cleanupMaterialUploadsJob = defineJob({
  name: 'cleanup-material-uploads',
  title: { zh: '清理未完成的上传', en: 'Clean up unfinished uploads' },
  description: {
    zh: '删除超过 7 天仍未完成的上传，以及异常退出时留下的临时文件。',
    en: 'Removes tus uploads not finished within 7 days, and scratch files left by a crash.',
  },
  defaultSchedule: '43 3 * * *',
  retryLimit: 1,
  system: true,
  async run(ctx) {
    const removed = await deleteExpiredUploads(ctx.config.materials, ctx.clock.now());
    return { status: removed ? 'success' : 'skipped', summary: { removed } };
  },
});
