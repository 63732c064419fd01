import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaToolsConfig } from '../../config.ts';
import { testConfig } from '../../test/build-test-app.ts';
import { makeTestMedia, type TestMedia } from '../../test/materials.ts';
import { createMediaTools, MediaRefusal, resolveMediaTool, type MediaTools } from './media.ts';

/**
 * The media tools read hostile files: they must read nothing but the file, as the type it was
 * sniffed as, never over the network, for a bounded time, a few at a time. Uses the machine's
 * ffmpeg when there is one (as the server does) and checks the bundled one still works.
 */

const base = testConfig().materials.media;
const tools = (overrides: Partial<MediaToolsConfig> = {}) => createMediaTools({ ...base, ...overrides });

let dir: string;
let media: TestMedia;
let secret: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-media-tools-'));
  media = makeTestMedia();
  // A file on the server that no upload may reach: another material, a key, anything.
  secret = path.join(dir, 'secret.ts');
  execFileSync(tools().ffmpeg.path, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=6:size=320x240:rate=25', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', secret], { timeout: 30_000 });
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(media.dir, { recursive: true, force: true });
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => (err instanceof MediaRefusal ? err.reason : err),
  );

const VIDEO = { mime: 'video/mp4', kind: 'video' } as const;
const IMAGE = { mime: 'image/png', kind: 'image' } as const;

/** Everything the tools do with an upload: probe it as a video and as an image, and thumbnail it both ways. */
async function useEveryWay(m: MediaTools, file: string) {
  const out = path.join(dir, `thumb-${path.basename(file)}.jpg`);
  return {
    probeVideo: await refusal(m.probe(file, VIDEO)),
    probeImage: await refusal(m.probe(file, IMAGE)),
    thumbVideo: await m.makeThumbnail(file, out, { ...VIDEO, durationS: 6, width: 320, height: 240 }),
    thumbImage: await m.makeThumbnail(file, out, { ...IMAGE, durationS: null, width: 320, height: 240 }),
    thumbFile: fs.existsSync(out),
  };
}

describe('media tools', () => {
  it('read an upload only as its sniffed type: a playlist naming another local file gives no facts and no thumbnail of it', async () => {
    // Before: ffmpeg guessed the format, followed the playlist and made a thumbnail of the other file.
    const upload = path.join(dir, 'upload-local');
    fs.writeFileSync(upload, `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n${secret}\n#EXT-X-ENDLIST\n`);
    expect(await useEveryWay(tools(), upload)).toEqual({ probeVideo: 'corrupt', probeImage: 'corrupt', thumbVideo: false, thumbImage: false, thumbFile: false });
  });

  it('never open the network: playlists and concat lists pointing at a server make no request', async () => {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const files = {
        'upload-hls': `#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI="${url}/key"\n#EXTINF:6,\n${url}/seg0.ts\n#EXT-X-ENDLIST\n`,
        'upload-concat': `ffconcat version 1.0\nfile ${url}/clip.mp4\n`,
        'upload-sdp': `v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video 9 RTP/AVP 96\na=rtpmap:96 H264/90000\n`,
      };
      for (const [name, text] of Object.entries(files)) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        expect(await useEveryWay(tools(), file), name).toMatchObject({ probeVideo: 'corrupt', probeImage: 'corrupt', thumbVideo: false, thumbImage: false });
      }
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('kill a tool that runs past the time limit and refuse the file for it', async () => {
    // A named pipe nobody writes to: the tool waits on it for ever.
    const fifo = path.join(dir, 'stuck');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(await refusal(tools({ timeoutMs: 300 }).probe(fifo, VIDEO))).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(5000);
    const err = await tools({ timeoutMs: 1500 })
      .probe(fifo, VIDEO)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'timeout', detail: '2' });
  });

  it('run at most `concurrency` tools at once; the next starts when one ends', async () => {
    const m = tools({ concurrency: 2, timeoutMs: 30_000 });
    const fifos = ['q1', 'q2', 'q3'].map((n) => path.join(dir, n));
    for (const f of fifos) execFileSync('mkfifo', [f]);
    /** Opens the pipe for writing when a tool has it open for reading (ENXIO: nobody reads it yet). */
    const writerOf = (fifo: string): number | null => {
      try {
        return fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENXIO') return null;
        throw err;
      }
    };
    const runs = fifos.map((f) => refusal(m.probe(f, VIDEO)));
    const writers: (number | null)[] = [null, null, null];
    await vi.waitFor(
      () => {
        writers[0] ??= writerOf(fifos[0]!);
        writers[1] ??= writerOf(fifos[1]!);
        expect(writers[0] !== null && writers[1] !== null).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    // Two run; the third waits for a slot and has not opened its file.
    expect(writerOf(fifos[2]!)).toBeNull();
    // The first ends (it reads junk): the third starts.
    fs.writeSync(writers[0]!, 'not a video');
    fs.closeSync(writers[0]!);
    expect(await runs[0]).toBe('corrupt');
    await vi.waitFor(
      () => {
        writers[2] ??= writerOf(fifos[2]!);
        expect(writers[2]).not.toBeNull();
      },
      { timeout: 10_000, interval: 20 },
    );
    for (const i of [1, 2]) {
      fs.writeSync(writers[i]!, 'not a video');
      fs.closeSync(writers[i]!);
    }
    expect(await Promise.all(runs.slice(1))).toEqual(['corrupt', 'corrupt']);
  });

  it('take FFMPEG_PATH / FFPROBE_PATH first, then the machine’s tools on PATH, then the bundled ones', () => {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'ffprobe'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'ffmpeg'), 'not executable', { mode: 0o644 });
    expect(resolveMediaTool('ffprobe', '/opt/ffmpeg/bin/ffprobe', bin)).toEqual({ path: '/opt/ffmpeg/bin/ffprobe', source: 'configured' });
    expect(resolveMediaTool('ffprobe', undefined, `/nonexistent${path.delimiter}${bin}`)).toEqual({ path: path.join(bin, 'ffprobe'), source: 'machine' });
    expect(resolveMediaTool('ffmpeg', undefined, bin)).toMatchObject({ source: 'bundled', path: expect.stringContaining('@ffmpeg-installer') });
    expect(resolveMediaTool('ffprobe', undefined, '')).toMatchObject({ source: 'bundled', path: expect.stringContaining('@ffprobe-installer') });
  });

  it('read real videos and images with the bundled tools and with the machine’s (when it has them) alike', async () => {
    const sets = [tools({ searchPath: '' }), tools()];
    for (const m of sets) {
      const label = `${m.ffprobe.source} ${m.ffprobe.path}`;
      const write = (name: string, data: Buffer) => {
        const file = path.join(dir, `${m.ffprobe.source}-${name}`);
        fs.writeFileSync(file, data);
        return file;
      };
      const video = write('video', media.video);
      expect(await m.probe(video, VIDEO), label).toEqual({ durationS: expect.closeTo(2, 0), width: 320, height: 240 });
      const image = write('image', media.bigImage);
      expect(await m.probe(image, IMAGE), label).toEqual({ durationS: null, width: 800, height: 600 });
      const thumb = path.join(dir, `${m.ffprobe.source}-thumb.jpg`);
      expect(await m.makeThumbnail(video, thumb, { ...VIDEO, durationS: 2, width: 320, height: 240 }), label).toBe(true);
      expect(fs.readFileSync(thumb).subarray(0, 2).toString('hex')).toBe('ffd8');
      expect(await refusal(m.probe(write('truncated', media.truncated), VIDEO)), label).toBe('corrupt');
    }
    expect(sets[0]!.ffmpeg.source).toBe('bundled');
  });
});
