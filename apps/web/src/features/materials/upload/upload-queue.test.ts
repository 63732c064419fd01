import type { Material, UploadResult } from '@ads/contracts';
import { describe, expect, it, vi } from 'vitest';
import { buildMaterial } from '@/testing/material-factories';
import { canRetry, summarize, UploadQueue, uploadMetadata, type Transfer, type TransferEvents, type UploadDeps, type UploadItem } from './upload-queue';

/** A transfer the test drives by hand: progress, success, errors. */
interface FakeTransfer extends Transfer {
  file: File;
  metadata: Record<string, string>;
  events: TransferEvents;
  starts: number;
  pauses: number;
  cancels: number;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(opts: { existing?: Record<string, Material>; hashes?: Record<string, string>; result?: (uploadId: string) => UploadResult } = {}) {
  let clock = 0;
  const transfers: FakeTransfer[] = [];
  const hashing: { file: File; resolve: (md5: string) => void; reject: (e: Error) => void; onProgress: (n: number) => void; signal: AbortSignal }[] = [];
  const deps: UploadDeps = {
    hash: vi.fn(
      (file: File, onProgress: (n: number) => void, signal: AbortSignal) =>
        new Promise<string>((resolve, reject) => {
          hashing.push({ file, resolve, reject, onProgress, signal });
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    ),
    checkHash: vi.fn(async (md5: string) => opts.existing?.[md5] ?? null),
    createTransfer: vi.fn((file: File, metadata: Record<string, string>, events: TransferEvents) => {
      const t: FakeTransfer = {
        file,
        metadata,
        events,
        starts: 0,
        pauses: 0,
        cancels: 0,
        start: () => void t.starts++,
        pause: async () => void t.pauses++,
        cancel: async () => void t.cancels++,
      };
      transfers.push(t);
      return t;
    }),
    fetchResult: vi.fn(async (uploadId: string) => opts.result?.(uploadId) ?? { status: 'created' as const, material: buildMaterial({ file_name: uploadId }) }),
    now: () => clock,
  };
  const queue = new UploadQueue(deps, { progressIntervalMs: 0 });
  const item = (name: string) => queue.getSnapshot().find((i) => i.file.name === name)!;
  /** Finishes hashing of the file being hashed with its md5 (from `hashes`, else derived from the name). */
  const hashNext = async () => {
    const h = hashing.shift()!;
    h.onProgress(h.file.size);
    h.resolve(opts.hashes?.[h.file.name] ?? h.file.name.padEnd(32, '0').slice(0, 32));
    await flush();
  };
  const transferOf = (name: string) => transfers.find((t) => t.file.name === name)!;
  return { queue, deps, transfers, hashing, item, hashNext, transferOf, tick: (ms: number) => (clock += ms) };
}

const video = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'video/mp4', lastModified: 1 });
const statuses = (items: readonly UploadItem[]) => Object.fromEntries(items.map((i) => [i.file.name, i.status]));

describe('upload queue', () => {
  it('hashes one file at a time and uploads at most three at once, in the order dropped', async () => {
    const { queue, hashNext, transfers, item } = setup();
    queue.add(['a', 'b', 'c', 'd', 'e'].map((n) => video(`${n}.mp4`)), { platform: 'dj' });
    expect(statuses(queue.getSnapshot())).toEqual({ 'a.mp4': 'hashing', 'b.mp4': 'queued', 'c.mp4': 'queued', 'd.mp4': 'queued', 'e.mp4': 'queued' });

    for (let i = 0; i < 5; i++) await hashNext();
    expect(statuses(queue.getSnapshot())).toEqual({ 'a.mp4': 'uploading', 'b.mp4': 'uploading', 'c.mp4': 'uploading', 'd.mp4': 'waiting', 'e.mp4': 'waiting' });
    expect(transfers.map((t) => t.file.name)).toEqual(['a.mp4', 'b.mp4', 'c.mp4']);

    // A slot frees: the next waiting file starts.
    transfers[1]!.events.onSuccess('up-b', { status: 'created', material: buildMaterial({ id: 2, file_name: 'b.mp4' }) });
    expect(item('b.mp4').status).toBe('done');
    expect(item('b.mp4').material?.id).toBe(2);
    expect(item('d.mp4').status).toBe('uploading');
    expect(item('e.mp4').status).toBe('waiting');
  });

  it('sends the chosen metadata with each file, leaving out what is not set', () => {
    const file = video('ep01.mp4');
    expect(uploadMetadata(file, { platform: 'dj', drama_id: 7, product_id: 9, language: 'en', editor_id: 31, tags: ['hook', 'v2'], remark: '  first cut ' })).toEqual({
      filename: 'ep01.mp4',
      filetype: 'video/mp4',
      platform: 'dj',
      drama_id: '7',
      language: 'en',
      editor_id: '31',
      tags: 'hook,v2',
      remark: 'first cut',
    });
    expect(uploadMetadata(new File(['x'], 'shoe.png', { type: 'image/png' }), { platform: 'ec', product_id: 9, tags: [] })).toEqual({
      filename: 'shoe.png',
      filetype: 'image/png',
      platform: 'ec',
      product_id: '9',
    });
  });

  it('skips the upload of content already in the library and points to the existing material', async () => {
    const existing = buildMaterial({ id: 77, file_name: 'old-name.mp4' });
    const { queue, hashNext, deps, item } = setup({ existing: { ['dup'.padEnd(32, '0')]: existing } });
    queue.add([video('dup'), video('new.mp4')], { platform: 'dj' });
    await hashNext();
    expect(deps.checkHash).toHaveBeenCalledWith('dup'.padEnd(32, '0'));
    expect(item('dup').status).toBe('duplicate');
    expect(item('dup').material?.id).toBe(77);
    await hashNext();
    expect(deps.createTransfer).toHaveBeenCalledTimes(1);
    expect(item('new.mp4').status).toBe('uploading');
  });

  it('treats the same content twice in one drop as one upload', async () => {
    const { queue, hashNext, deps, item } = setup({ hashes: { 'a.mp4': 'f'.repeat(32), 'copy of a.mp4': 'f'.repeat(32) } });
    queue.add([video('a.mp4'), video('copy of a.mp4', 100)], { platform: 'dj' });
    await hashNext();
    await hashNext();
    expect(item('copy of a.mp4').status).toBe('duplicate');
    expect(item('copy of a.mp4').sameAs).toBe('a.mp4');
    expect(deps.createTransfer).toHaveBeenCalledTimes(1);
  });

  it('goes ahead with the upload when the hash check fails (the server dedups anyway)', async () => {
    const { queue, hashNext, deps, item } = setup();
    vi.mocked(deps.checkHash).mockRejectedValueOnce(new Error('offline'));
    queue.add([video('a.mp4')], { platform: 'dj' });
    await hashNext();
    expect(item('a.mp4').status).toBe('uploading');
  });

  it('reports a duplicate the server found after the upload', async () => {
    const { queue, hashNext, transferOf, item } = setup();
    queue.add([video('a.mp4')], { platform: 'dj' });
    await hashNext();
    transferOf('a.mp4').events.onSuccess('up1', { status: 'duplicate', material: buildMaterial({ id: 9 }) });
    expect(item('a.mp4').status).toBe('duplicate');
    expect(item('a.mp4').material?.id).toBe(9);
  });

  it('asks for the result when the last answer did not carry it, and only asks again on retry', async () => {
    const { queue, hashNext, transferOf, item, deps } = setup();
    vi.mocked(deps.fetchResult).mockRejectedValueOnce(new Error('Server busy'));
    queue.add([video('a.mp4')], { platform: 'dj' });
    await hashNext();
    transferOf('a.mp4').events.onSuccess('up-a', null);
    expect(item('a.mp4').status).toBe('finishing');
    await flush();
    expect(item('a.mp4')).toMatchObject({ status: 'failed', error: { kind: 'result', message: 'Server busy' }, uploadId: 'up-a' });

    queue.retry(item('a.mp4').key);
    await flush();
    expect(deps.fetchResult).toHaveBeenCalledTimes(2);
    expect(deps.fetchResult).toHaveBeenLastCalledWith('up-a');
    expect(transferOf('a.mp4').starts).toBe(1);
    expect(item('a.mp4').status).toBe('done');
  });

  it('measures speed and time left from the bytes sent over time', async () => {
    const { queue, hashNext, transferOf, item, tick } = setup();
    const size = 10 * 1024 * 1024;
    queue.add([video('big.mp4', size)], { platform: 'dj' });
    await hashNext();
    const t = transferOf('big.mp4');
    t.events.onProgress(0, size);
    tick(1000);
    t.events.onProgress(1024 * 1024, size);
    tick(1000);
    t.events.onProgress(2 * 1024 * 1024, size);
    expect(item('big.mp4').sent).toBe(2 * 1024 * 1024);
    expect(item('big.mp4').speed).toBe(1024 * 1024);
    expect(item('big.mp4').eta).toBe(8);
    expect(summarize(queue.getSnapshot())).toMatchObject({ bytesTotal: size, bytesSent: 2 * 1024 * 1024, uploading: 1 });
  });

  it('says when a chunk is being tried again, until bytes move again', async () => {
    const { queue, hashNext, transferOf, item, tick } = setup();
    queue.add([video('a.mp4', 1000)], { platform: 'dj' });
    await hashNext();
    const t = transferOf('a.mp4');
    t.events.onProgress(100, 1000);
    tick(1000);
    t.events.onProgress(200, 1000);
    expect(item('a.mp4').speed).toBe(100);
    t.events.onRetry?.(2);
    expect(item('a.mp4')).toMatchObject({ status: 'uploading', retrying: 2, speed: null, eta: null });
    t.events.onResume(200);
    t.events.onProgress(300, 1000);
    expect(item('a.mp4').retrying).toBeNull();
    expect(item('a.mp4').resumedFrom).toBe(200);
  });

  it('pauses and resumes a file from where the server is, freeing its slot meanwhile', async () => {
    const { queue, hashNext, transferOf, item } = setup();
    queue.add(['a', 'b', 'c', 'd'].map((n) => video(`${n}.mp4`)), { platform: 'dj' });
    for (let i = 0; i < 4; i++) await hashNext();
    const a = transferOf('a.mp4');
    a.events.onProgress(40, 100);
    queue.pause(item('a.mp4').key);
    expect(a.pauses).toBe(1);
    expect(item('a.mp4').status).toBe('paused');
    expect(item('d.mp4').status).toBe('uploading');
    // Late events of the paused transfer change nothing.
    a.events.onProgress(60, 100);
    expect(item('a.mp4').sent).toBe(40);

    queue.resume(item('a.mp4').key);
    expect(item('a.mp4').status).toBe('waiting');
    transferOf('b.mp4').events.onSuccess('up-b', { status: 'created', material: buildMaterial() });
    expect(item('a.mp4').status).toBe('uploading');
    // The same transfer continues (tus asks the server for its offset).
    expect(a.starts).toBe(2);
    a.events.onResume(40);
    expect(item('a.mp4').resumedFrom).toBe(40);
  });

  it('pausing while hashing stops the hash; resuming hashes again', async () => {
    const { queue, hashing, item } = setup();
    queue.add([video('a.mp4'), video('b.mp4')], { platform: 'dj' });
    const first = hashing[0]!;
    queue.pause(item('a.mp4').key);
    expect(first.signal.aborted).toBe(true);
    await flush();
    expect(item('a.mp4').status).toBe('paused');
    // The hash lane moves on to the next file.
    expect(item('b.mp4').status).toBe('hashing');
    queue.resume(item('a.mp4').key);
    expect(item('a.mp4').status).toBe('queued');
  });

  it('cancels a file: the upload is discarded on the server and the entry leaves the queue', async () => {
    const { queue, hashNext, transferOf, item } = setup();
    queue.add([video('a.mp4'), video('b.mp4')], { platform: 'dj' });
    await hashNext();
    const a = transferOf('a.mp4');
    queue.cancel(item('a.mp4').key);
    expect(a.cancels).toBe(1);
    expect(queue.getSnapshot().map((i) => i.file.name)).toEqual(['b.mp4']);
    a.events.onSuccess('late', null);
    expect(queue.getSnapshot()).toHaveLength(1);
  });

  it('keeps the server message of a refused file and retries a network failure from the last chunk', async () => {
    const { queue, hashNext, transferOf, item } = setup();
    queue.add([video('bad.mp4'), video('flaky.mp4')], { platform: 'dj' });
    await hashNext();
    await hashNext();
    transferOf('bad.mp4').events.onError({ kind: 'server', message: 'The file is not a video or image we accept', status: 415 });
    transferOf('flaky.mp4').events.onError({ kind: 'network' });
    expect(item('bad.mp4')).toMatchObject({ status: 'failed', error: { kind: 'server', message: 'The file is not a video or image we accept' } });

    queue.retryNetworkFailures();
    expect(item('flaky.mp4').status).toBe('uploading');
    expect(transferOf('flaky.mp4').starts).toBe(2);
    expect(item('bad.mp4').status).toBe('failed');

    // A refusal for what the file is cannot be retried; a server error can.
    expect(canRetry(item('bad.mp4'))).toBe(false);
    queue.retry(item('bad.mp4').key);
    expect(item('bad.mp4').status).toBe('failed');
    expect(canRetry({ status: 'failed', error: { kind: 'server', message: 'Bad gateway', status: 502 } })).toBe(true);
    queue.clearFinished();
    expect(queue.getSnapshot().map((i) => i.file.name)).toEqual(['flaky.mp4']);
  });

  it('refuses files that are not video or image at once, and never adds the same file twice', () => {
    const { queue, deps } = setup();
    const clip = video('a.mp4');
    queue.add([new File(['x'], 'notes.txt', { type: 'text/plain' }), clip], { platform: 'dj' });
    const keys = queue.add([clip], { platform: 'dj' });
    expect(queue.getSnapshot()).toHaveLength(2);
    expect(keys).toEqual([queue.getSnapshot()[1]!.key]);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'failed', error: { kind: 'type' } });
    expect(deps.hash).toHaveBeenCalledTimes(1);
    queue.clearFinished();
    expect(queue.getSnapshot().map((i) => i.file.name)).toEqual(['a.mp4']);
  });

  it('pauses and resumes everything', async () => {
    const { queue, hashNext, item } = setup();
    queue.add(['a', 'b', 'c', 'd'].map((n) => video(`${n}.mp4`)), { platform: 'dj' });
    await hashNext();
    queue.pauseAll();
    expect(queue.getSnapshot().every((i) => i.status === 'paused')).toBe(true);
    queue.resumeAll();
    expect(item('a.mp4').status).toBe('uploading');
    expect(item('b.mp4').status).toBe('hashing');
  });
});
