import { ADS_READ, ADS_WRITE } from '../domain.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { EdgeDef, NodeDef, NodeRegistry } from '../graph/node.ts';
import type { AdAccountRecord, VideoRecord } from '../store/state.ts';
import { accountTime, listEdge, pageVisible, userCanUseAccount } from './common.ts';
import { postPublished } from './post-schedule.ts';

// Ad videos (reference §7): simple upload (`source` file or `file_url`) and the chunked
// phases start → transfer* → finish (or cancel). Processing then takes sim time in proportion
// to the file's size (capped); thumbnails exist once the video is ready. The bytes themselves are not kept.

export type VideoStatus = 'uploading' | 'processing' | 'ready' | 'error';

/** Assumed bitrate to derive a plausible duration from the file size (~2 Mbit/s). */
export const BYTES_PER_SECOND = 250_000;

/** A video's duration in seconds (the `length` field; the delivery model's watch times use it too). */
export function videoLengthSeconds(v: VideoRecord): number {
  return Math.max(1, Math.round((v.file_size / BYTES_PER_SECOND) * 100) / 100);
}

export function videoState(v: VideoRecord, now: number): { status: VideoStatus; progress: number } {
  if (v.failed) return { status: 'error', progress: 0 };
  if (v.uploaded_at === undefined) return { status: 'uploading', progress: 0 };
  const ready = v.ready_at ?? v.uploaded_at;
  if (now >= ready) return { status: 'ready', progress: 100 };
  const total = Math.max(1, ready - v.uploaded_at);
  return { status: 'processing', progress: Math.min(99, Math.floor(((now - v.uploaded_at) / total) * 100)) };
}

/** Sim ms a video takes to process: in proportion to its size, at least 1 s, at most video_processing_seconds. */
export function processingMs(fileSize: number, settings: { video_processing_seconds: number; video_processing_seconds_per_mb: number }): number {
  const seconds = Math.min(settings.video_processing_seconds, Math.max(1, (fileSize / 1_000_000) * settings.video_processing_seconds_per_mb));
  return Math.round(seconds * 1000);
}

export function markUploaded(ctx: GraphContext, v: VideoRecord): void {
  v.uploaded_at = ctx.now;
  v.ready_at = ctx.now + processingMs(v.file_size, ctx.sim.store.state.settings);
  v.updated_at = ctx.now;
}

function readMeta(ctx: GraphContext, v: VideoRecord): void {
  for (const key of ['title', 'description', 'name'] as const) {
    const value = ctx.params.string(key);
    if (value !== undefined) v[key] = value;
  }
}

function newVideo(ctx: GraphContext, account: AdAccountRecord, fileSize: number): VideoRecord {
  const v: VideoRecord = { id: ctx.sim.store.newId(), account_id: account.id, file_size: fileSize, failed: false, created_at: ctx.now, updated_at: ctx.now };
  readMeta(ctx, v);
  ctx.sim.store.state.videos[v.id] = v;
  return v;
}

function session(ctx: GraphContext, account: AdAccountRecord) {
  const id = ctx.params.requiredString('upload_session_id');
  const s = ctx.sim.store.state.upload_sessions[id];
  if (!s || s.account_id !== account.id) throw errors.invalidParameter(`Invalid upload_session_id ${id}`, { data: { blame_field_specs: [['upload_session_id']] } });
  return s;
}

function upload(ctx: GraphContext, account: AdAccountRecord): unknown {
  const chunk = ctx.sim.store.state.settings.video_chunk_bytes;
  const phase = ctx.params.enumValue('upload_phase', ['start', 'transfer', 'finish', 'cancel'] as const);
  const state = ctx.sim.store.state;
  let result: unknown;

  if (phase === 'start') {
    const size = ctx.params.uint('file_size');
    if (!size) throw errors.requiredParameter('file_size');
    const v = newVideo(ctx, account, size);
    const s = { id: ctx.sim.store.newId(), video_id: v.id, account_id: account.id, file_size: size, received: 0 };
    state.upload_sessions[s.id] = s;
    result = { video_id: v.id, upload_session_id: s.id, start_offset: '0', end_offset: String(Math.min(chunk, size)) };
  } else if (phase === 'transfer') {
    const s = session(ctx, account);
    const expectedEnd = Math.min(s.received + chunk, s.file_size);
    const start = ctx.params.uint('start_offset');
    const file = ctx.files.find((f) => f.field === 'video_file_chunk');
    if (!file) throw errors.requiredParameter('video_file_chunk');
    // The chunk must be exactly [expected start, expected end) (reference §7).
    if (start !== s.received || file.size !== expectedEnd - s.received) throw errors.videoChunkOffset(s.received, expectedEnd);
    s.received += file.size;
    result = { start_offset: String(s.received), end_offset: String(Math.min(s.received + chunk, s.file_size)) };
  } else if (phase === 'finish') {
    const s = session(ctx, account);
    if (s.received < s.file_size) throw errors.videoChunkOffset(s.received, Math.min(s.received + chunk, s.file_size));
    const v = state.videos[s.video_id]!;
    readMeta(ctx, v);
    markUploaded(ctx, v);
    delete state.upload_sessions[s.id];
    result = { success: true };
  } else if (phase === 'cancel') {
    const s = session(ctx, account);
    delete state.videos[s.video_id];
    delete state.upload_sessions[s.id];
    result = { success: true };
  } else {
    const file = ctx.files.find((f) => f.field === 'source');
    const fileUrl = ctx.params.string('file_url');
    if (!file && !fileUrl) throw errors.requiredParameter('source');
    // A `file_url` is never fetched: the simulator contacts nothing; it assumes a 30 s video.
    const v = newVideo(ctx, account, file?.size ?? 30 * BYTES_PER_SECOND);
    markUploaded(ctx, v);
    result = { id: v.id };
  }
  ctx.sim.store.changed();
  return result;
}

function thumbnails(ctx: GraphContext, v: VideoRecord) {
  if (videoState(v, ctx.now).status !== 'ready') return { data: [] };
  return {
    data: [0, 1, 2].map((i) => ({
      id: `${v.id}${i}`,
      uri: `${ctx.sim.baseUrl()}/__sim/media/vthumb-${v.id}-${i}.png`,
      is_preferred: i === 0,
      width: 1280,
      height: 720,
      scale: 1,
    })),
  };
}

export function videoNode(): NodeDef<VideoRecord> {
  return {
    kind: 'video',
    typeName: 'AdVideo',
    load: (ctx, id) => ctx.sim.store.state.videos[id],
    visible: (ctx, v) => {
      if (v.page_id) {
        const page = ctx.sim.store.state.pages[v.page_id];
        return !!page && pageVisible(ctx, page);
      }
      return userCanUseAccount(ctx, ctx.sim.store.account(v.account_id));
    },
    accountId: (v) => v.account_id || undefined,
    fields: {
      id: (v) => v.id,
      title: (v) => v.title,
      description: (v) => v.description,
      length: (v) => videoLengthSeconds(v),
      // While processing, only a tiny placeholder picture exists (reference §6).
      picture: (v, ctx) =>
        videoState(v, ctx.now).status === 'ready'
          ? `${ctx.sim.baseUrl()}/__sim/media/vthumb-${v.id}-0.png`
          : `${ctx.sim.baseUrl()}/__sim/media/placeholder.png?stp=dst-jpg_p228x119`,
      source: (v, ctx) => (videoState(v, ctx.now).status === 'ready' ? `${ctx.sim.baseUrl()}/__sim/media/video-${v.id}.mp4` : undefined),
      permalink_url: (v) => `/${v.page_id ?? v.account_id}/videos/${v.id}/`,
      // A page video's post (its object_story_id) and whether it is published.
      post_id: (v) => v.post_id,
      published: (v, ctx) => {
        const post = v.post_id ? ctx.sim.store.state.posts[v.post_id] : undefined;
        return post ? postPublished(post, ctx.now) : undefined;
      },
      created_time: (v, ctx) => accountTime(ctx, v.account_id, v.created_at),
      updated_time: (v, ctx) => accountTime(ctx, v.account_id, v.updated_at),
      format: (v, ctx) => (videoState(v, ctx.now).status === 'ready' ? [{ filter: 'native', width: 720, height: 1280 }] : []),
      status: (v, ctx) => {
        const { status, progress } = videoState(v, ctx.now);
        const phase = (done: boolean, active: boolean) => ({ status: done ? 'complete' : active ? 'in_progress' : 'not_started' });
        return {
          video_status: status,
          processing_progress: progress,
          uploading_phase: phase(status !== 'uploading', status === 'uploading'),
          // [U] Meta reports processing failures as errors of the phase; the code is a simulator choice.
          processing_phase: status === 'error' ? { status: 'error', errors: [{ code: 6000, message: v.error_message ?? 'Video processing failed.' }] } : phase(status === 'ready', status === 'processing'),
          publishing_phase: phase(status === 'ready', false),
        };
      },
    },
    defaultFields: ['id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    remove: (ctx, v) => {
      delete ctx.sim.store.state.videos[v.id];
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {
      thumbnails: { get: (ctx, v) => thumbnails(ctx, v) },
    },
  };
}

export function accountVideosEdge(registry: NodeRegistry): EdgeDef<AdAccountRecord> {
  return {
    get: (ctx, a) => listEdge(ctx, registry, 'video', Object.values(ctx.sim.store.state.videos).filter((v) => v.account_id === a.id)),
    post: upload,
  };
}
