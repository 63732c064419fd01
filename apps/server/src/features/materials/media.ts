import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { MATERIAL_MIME_TYPES, type MaterialKind } from '@ads/contracts';
import { fileTypeFromFile } from 'file-type';
import { z } from 'zod';
import type { MediaToolsConfig } from '../../config.ts';

// What an uploaded file really is, read from its bytes: the type (magic bytes, file-type), the
// MD5, and for videos the duration and size (ffprobe), checked to decode to the end (ffmpeg);
// plus a JPEG thumbnail. The tools are the machine's when it has them (FFMPEG_PATH / FFPROBE_PATH,
// else on PATH: kept up to date by the system's packages), else static builds shipped inside npm
// packages (@ffprobe-installer/ffprobe, @ffmpeg-installer/ffmpeg), so there is nothing to install.
//
// An upload is hostile until proven otherwise, so the tools are held on a short leash: they read
// the file as the format its bytes were sniffed as (-f: never a playlist or another container
// that opens further files), through the file protocol only (-protocol_whitelist file: no
// network), for a bounded time (killed after timeoutMs), a few at a time (a semaphore).

/** Longest side of a thumbnail, pixels. */
export const THUMB_MAX_PX = 480;
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
    readonly reason: 'type' | 'corrupt' | 'timeout',
    /** type: what the content is ('text/plain', 'unknown'); corrupt: the tool's complaint; timeout: the limit in seconds. */
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
  /** Killed for running past its time limit. */
  timedOut: boolean;
}

/** Runs a tool without a shell; output is capped; past `timeoutMs` it is killed (SIGKILL). */
export function runTool(bin: string, args: readonly string[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
    child.stdout.on('data', (c: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += c.toString('utf8');
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** Where a tool comes from: FFMPEG_PATH / FFPROBE_PATH, the machine's PATH, or the npm package. */
export interface ResolvedTool {
  path: string;
  source: 'configured' | 'machine' | 'bundled';
}

const BUNDLED = { ffmpeg: ffmpegInstaller.path, ffprobe: ffprobeInstaller.path };

/** The configured binary, else the first executable of that name on `searchPath`, else the bundled one. */
export function resolveMediaTool(name: 'ffmpeg' | 'ffprobe', configured: string | undefined, searchPath: string): ResolvedTool {
  if (configured) return { path: configured, source: 'configured' };
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return { path: candidate, source: 'machine' };
    } catch {
      // not here
    }
  }
  return { path: BUNDLED[name], source: 'bundled' };
}

/** The demuxer each accepted type is read with: only it, whatever else the bytes could pass for. */
const DEMUXERS: Record<AcceptedMime, string> = {
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/webm': 'matroska',
  'image/jpeg': 'jpeg_pipe',
  'image/png': 'png_pipe',
  'image/webp': 'webp_pipe',
  'image/gif': 'gif',
};

/** The input side of every tool call: the sniffed format, local files only, then the file. */
const inputArgs = (file: string, mime: AcceptedMime, before: readonly string[] = []) => ['-protocol_whitelist', 'file', '-f', DEMUXERS[mime], ...before, '-i', file];

/** At most `limit` holders at once; the others wait their turn (or give up when their signal aborts). */
function semaphore(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    async acquire(signal?: AbortSignal): Promise<() => void> {
      signal?.throwIfAborted();
      if (active >= limit) {
        await new Promise<void>((resolve, reject) => {
          const turn = () => {
            signal?.removeEventListener('abort', abort);
            resolve();
          };
          const abort = () => {
            waiting.splice(waiting.indexOf(turn), 1);
            reject(signal!.reason);
          };
          waiting.push(turn);
          signal?.addEventListener('abort', abort, { once: true });
        });
      } else active++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = waiting.shift();
        // The slot passes straight to the next in line.
        if (next) next();
        else active--;
      };
    },
  };
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

/** The media tools of this process: the binaries chosen, and probe / thumbnail under the limits of MediaToolsConfig. */
export function createMediaTools(config: MediaToolsConfig) {
  const ffmpeg = resolveMediaTool('ffmpeg', config.ffmpegPath, config.searchPath);
  const ffprobe = resolveMediaTool('ffprobe', config.ffprobePath, config.searchPath);
  const slots = semaphore(config.concurrency);

  /** One tool run within the limits; running past the time limit refuses the file. */
  async function run(tool: ResolvedTool, args: readonly string[], signal?: AbortSignal): Promise<ToolResult> {
    const release = await slots.acquire(signal);
    try {
      const res = await runTool(tool.path, ['-hide_banner', ...args], { timeoutMs: config.timeoutMs, signal });
      if (res.timedOut) throw new MediaRefusal('timeout', String(Math.ceil(config.timeoutMs / 1000)));
      return res;
    } finally {
      release();
    }
  }

  return {
    ffmpeg,
    ffprobe,

    /**
     * Duration and size of a video or image, read as its sniffed type. A video must have a video
     * stream, a duration, and decode cleanly over its last second: a truncated file (an upload cut
     * short, a partial copy) fails there even when its header reads fine. Throws MediaRefusal
     * ('corrupt', or 'timeout' when a tool runs past its limit).
     */
    async probe(file: string, sniffed: Pick<SniffResult, 'mime' | 'kind'>, signal?: AbortSignal): Promise<MediaInfo> {
      const res = await run(ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(file, sniffed.mime)], signal);
      if (res.code !== 0) throw new MediaRefusal('corrupt', complaint(res.stderr, file));
      let parsed: z.infer<typeof probeSchema>;
      try {
        parsed = probeSchema.parse(JSON.parse(res.stdout));
      } catch {
        throw new MediaRefusal('corrupt', 'unreadable container');
      }
      const video = parsed.streams.find((s) => s.codec_type === 'video');
      if (!video || !video.width || !video.height) throw new MediaRefusal('corrupt', sniffed.kind === 'video' ? 'no video stream' : 'no image data');
      const rotated = isRotatedQuarter(video);
      const width = rotated ? video.height : video.width;
      const height = rotated ? video.width : video.height;
      if (sniffed.kind === 'image') return { durationS: null, width, height };

      const duration = parsed.format?.duration ?? video.duration;
      if (!duration || !Number.isFinite(duration) || duration <= 0) throw new MediaRefusal('corrupt', 'no duration');
      // Decode the last second and stop at the first error (-xerror): cheap whatever the length.
      const tail = await run(ffmpeg, ['-v', 'error', '-xerror', ...inputArgs(file, sniffed.mime, ['-sseof', '-1']), '-map', '0:v:0', '-f', 'null', '-'], signal);
      if (tail.code !== 0) throw new MediaRefusal('corrupt', complaint(tail.stderr, file) || 'truncated');
      return { durationS: Math.round(duration * 1000) / 1000, width, height };
    },

    /**
     * A JPEG thumbnail (longest side ≤ THUMB_MAX_PX) into `out`: a frame about a second in for a
     * video (earlier for shorter ones), the image itself scaled for an image. Answers false when
     * the tool fails (a missing thumbnail is not worth refusing a file for); a tool past its time
     * limit still refuses the file (MediaRefusal 'timeout').
     */
    async makeThumbnail(file: string, out: string, info: MediaInfo & Pick<SniffResult, 'mime' | 'kind'>, signal?: AbortSignal): Promise<boolean> {
      const scale = `scale=w='min(${THUMB_MAX_PX},iw)':h='min(${THUMB_MAX_PX},ih)':force_original_aspect_ratio=decrease`;
      const at = info.kind === 'video' ? Math.min(1, (info.durationS ?? 0) / 2) : 0;
      const seek = info.kind === 'video' ? ['-ss', at.toFixed(3)] : [];
      const args = ['-v', 'error', '-y', ...inputArgs(file, info.mime, seek), '-frames:v', '1', '-vf', scale, '-q:v', '4', '-f', 'image2', '-c:v', 'mjpeg', out];
      const res = await run(ffmpeg, args, signal);
      if (res.code !== 0) return false;
      const stat = await fs.promises.stat(out).catch(() => null);
      return Boolean(stat && stat.size > 0);
    },
  };
}

export type MediaTools = ReturnType<typeof createMediaTools>;

/** Whether an image is small enough to be its own thumbnail. */
export const isThumbnailSized = (info: MediaInfo) => info.width !== null && info.height !== null && info.width <= THUMB_MAX_PX && info.height <= THUMB_MAX_PX;
