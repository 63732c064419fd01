import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { MATERIAL_MIME_TYPES, type MaterialKind } from '@ads/contracts';
import { fileTypeFromFile } from 'file-type';
import { z } from 'zod';

// What an uploaded file really is, read from its bytes: the type (magic bytes, file-type), the
// MD5, and for videos the duration and size (ffprobe), checked to decode to the end (ffmpeg);
// plus a JPEG thumbnail. ffprobe and ffmpeg are static binaries shipped inside npm packages
// (@ffprobe-installer/ffprobe, @ffmpeg-installer/ffmpeg): nothing to install on the machine.

export const FFPROBE_PATH = ffprobeInstaller.path;
export const FFMPEG_PATH = ffmpegInstaller.path;

/** Longest side of a thumbnail, pixels. */
export const THUMB_MAX_PX = 480;
/** A media tool taking longer than this on one file is stuck (a 2 GiB file is probed in well under a second). */
const TOOL_TIMEOUT_MS = 120_000;
/** Tool output kept for error messages. */
const MAX_OUTPUT = 64 * 1024;

export type AcceptedMime = (typeof MATERIAL_MIME_TYPES)[number];

export interface SniffResult {
  mime: AcceptedMime;
  kind: MaterialKind;
  ext: string;
}

/** A file the library does not take, with the reason to tell its uploader. */
export class MediaRefusal extends Error {
  constructor(
    readonly reason: 'type' | 'corrupt',
    /** type: what the content is ('text/plain', 'unknown'); corrupt: the tool's complaint. */
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'MediaRefusal';
  }
}

const accepted = new Set<string>(MATERIAL_MIME_TYPES);

/** The type decided from the content; throws MediaRefusal('type') for anything not accepted. */
export async function sniff(file: string): Promise<SniffResult> {
  const found = await fileTypeFromFile(file);
  if (!found) throw new MediaRefusal('type', await looksLikeText(file) ? 'text' : 'unknown');
  if (!accepted.has(found.mime)) throw new MediaRefusal('type', found.mime);
  const mime = found.mime as AcceptedMime;
  return { mime, kind: mime.startsWith('video/') ? 'video' : 'image', ext: found.ext };
}

/** Whether the first KiB reads as text (a better word than "unknown" for a .txt renamed .mp4). */
async function looksLikeText(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    return bytesRead > 0 && !head.includes(0) && /^[\t\n\r\x20-\x7e\x80-\xff]*$/.test(head.toString('latin1'));
  } finally {
    await handle.close();
  }
}

/** MD5 hex of a file, streamed. */
export async function md5File(file: string): Promise<string> {
  const hash = createHash('md5');
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) hash.update(chunk);
  });
  return hash.digest('hex');
}

interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a media tool without a shell; output is capped, time is bounded. */
export function runTool(bin: string, args: readonly string[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal, timeout: opts.timeoutMs ?? TOOL_TIMEOUT_MS, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += c.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const probeSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        width: z.number().int().optional(),
        height: z.number().int().optional(),
        duration: z.coerce.number().optional(),
        tags: z.record(z.string(), z.unknown()).optional(),
        side_data_list: z.array(z.record(z.string(), z.unknown())).optional(),
      }),
    )
    .default([]),
  format: z.object({ duration: z.coerce.number().optional() }).optional(),
});

export interface MediaInfo {
  /** Seconds; null for images. */
  durationS: number | null;
  width: number | null;
  height: number | null;
}

/** The first line of a tool's complaint, without paths: enough to tell a person why. */
function complaint(stderr: string, file: string): string {
  const line = stderr
    .split('\n')
    .map((l) => l.replaceAll(file, 'file').replace(/^\[[^\]]+\]\s*/, '').trim())
    .find(Boolean);
  return (line ?? 'unreadable').slice(0, 200);
}

/** A rotation of ±90° swaps what people see as width and height. */
function isRotatedQuarter(stream: z.infer<typeof probeSchema>['streams'][number]): boolean {
  const tag = Number(stream.tags?.rotate ?? 0);
  const side = Number(stream.side_data_list?.find((d) => 'rotation' in d)?.rotation ?? 0);
  return Math.abs(tag || side) % 180 === 90;
}

/**
 * Duration and size of a video or image. A video must have a video stream, a duration, and decode
 * cleanly over its last second: a truncated file (an upload cut short, a partial copy) fails there
 * even when its header reads fine. Throws MediaRefusal('corrupt').
 */
export async function probe(file: string, kind: MaterialKind, signal?: AbortSignal): Promise<MediaInfo> {
  const res = await runTool(FFPROBE_PATH, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { signal });
  if (res.code !== 0) throw new MediaRefusal('corrupt', complaint(res.stderr, file));
  let parsed: z.infer<typeof probeSchema>;
  try {
    parsed = probeSchema.parse(JSON.parse(res.stdout));
  } catch {
    throw new MediaRefusal('corrupt', 'unreadable container');
  }
  const video = parsed.streams.find((s) => s.codec_type === 'video');
  if (!video || !video.width || !video.height) throw new MediaRefusal('corrupt', kind === 'video' ? 'no video stream' : 'no image data');
  const rotated = isRotatedQuarter(video);
  const width = rotated ? video.height : video.width;
  const height = rotated ? video.width : video.height;
  if (kind === 'image') return { durationS: null, width, height };

  const duration = parsed.format?.duration ?? video.duration;
  if (!duration || !Number.isFinite(duration) || duration <= 0) throw new MediaRefusal('corrupt', 'no duration');
  // Decode the last second and stop at the first error (-xerror): cheap whatever the length.
  const tail = await runTool(FFMPEG_PATH, ['-v', 'error', '-xerror', '-sseof', '-1', '-i', file, '-map', '0:v:0', '-f', 'null', '-'], { signal });
  if (tail.code !== 0) throw new MediaRefusal('corrupt', complaint(tail.stderr, file) || 'truncated');
  return { durationS: Math.round(duration * 1000) / 1000, width, height };
}

/**
 * A JPEG thumbnail (longest side ≤ THUMB_MAX_PX) into `out`: a frame about a second in for a
 * video (earlier for shorter ones), the image itself scaled for an image. Answers false when the
 * tool fails (a missing thumbnail is not worth refusing a file for).
 */
export async function makeThumbnail(file: string, out: string, info: MediaInfo & { kind: MaterialKind }, signal?: AbortSignal): Promise<boolean> {
  const scale = `scale=w='min(${THUMB_MAX_PX},iw)':h='min(${THUMB_MAX_PX},ih)':force_original_aspect_ratio=decrease`;
  const at = info.kind === 'video' ? Math.min(1, (info.durationS ?? 0) / 2) : 0;
  const args = ['-v', 'error', '-y', ...(info.kind === 'video' ? ['-ss', at.toFixed(3)] : []), '-i', file, '-frames:v', '1', '-vf', scale, '-q:v', '4', '-f', 'image2', '-c:v', 'mjpeg', out];
  const res = await runTool(FFMPEG_PATH, args, { signal });
  if (res.code !== 0) return false;
  const stat = await fs.promises.stat(out).catch(() => null);
  return Boolean(stat && stat.size > 0);
}

/** Whether an image is small enough to be its own thumbnail. */
export const isThumbnailSized = (info: MediaInfo) => info.width !== null && info.height !== null && info.width <= THUMB_MAX_PX && info.height <= THUMB_MAX_PX;
