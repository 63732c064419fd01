import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingMs } from './routes/videos.ts';
import { startTestSim, type TestSim } from './testing/harness.ts';

let t: TestSim;
let account: string;

beforeAll(async () => {
  t = await startTestSim();
  await t.control('PUT', '/__sim/settings', { video_chunk_bytes: 1024, video_processing_seconds: 60 });
  account = t.user.ad_accounts[0].id;
});
afterAll(() => t.close());

async function multipart(path: string, fields: Record<string, string>, files: Record<string, Buffer>) {
  const form = new FormData();
  form.set('access_token', t.token);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, v] of Object.entries(files)) form.set(k, new Blob([new Uint8Array(v)]), `${k}.bin`);
  const res = await fetch(`${t.url}/v25.0${path}`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as any };
}

/** A 2×3 PNG header (enough for the dimensions). */
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 0, 2, 0, 0, 0, 3]), Buffer.alloc(20)]);

describe('ad images', () => {
  it('uploads by multipart and answers a hash keyed by the file name', async () => {
    const res = await multipart(`/${account}/adimages`, {}, { cover: png });
    expect(res.status).toBe(200);
    const image = res.body.images['cover.bin'];
    expect(image.hash).toMatch(/^[0-9a-f]{32}$/);
    const list = await t.graph('GET', `/${account}/adimages`, { hashes: [image.hash], fields: 'hash,width,height,status' });
    expect(list.body.data).toEqual([{ hash: image.hash, width: 2, height: 3, status: 'ACTIVE', id: `${account.slice(4)}:${image.hash}` }]);
  });
});

describe('ad videos', () => {
  it('uploads in chunks, rejects a bad offset with 1363037, then processes by the clock', async () => {
    const size = 2500;
    const start = await t.graph('POST', `/${account}/advideos`, { upload_phase: 'start', file_size: size });
    expect(start.body).toMatchObject({ start_offset: '0', end_offset: '1024', video_id: expect.any(String), upload_session_id: expect.any(String) });
    const session = start.body.upload_session_id;

    const first = await multipart(`/${account}/advideos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, { video_file_chunk: Buffer.alloc(1024, 1) });
    expect(first.body).toEqual({ start_offset: '1024', end_offset: '2048' });

    const wrong = await multipart(`/${account}/advideos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, { video_file_chunk: Buffer.alloc(1024, 1) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.error_subcode).toBe(1363037);
    expect(JSON.parse(wrong.body.error.error_data)).toEqual({ start_offset: '1024', end_offset: '2048' });

    const second = await multipart(`/${account}/advideos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: '1024' }, { video_file_chunk: Buffer.alloc(1024, 2) });
    expect(second.body).toEqual({ start_offset: '2048', end_offset: '2500' });
    const last = await multipart(`/${account}/advideos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: '2048' }, { video_file_chunk: Buffer.alloc(452, 3) });
    expect(last.body).toEqual({ start_offset: '2500', end_offset: '2500' });
    expect((await t.graph('POST', `/${account}/advideos`, { upload_phase: 'finish', upload_session_id: session, title: 'Episode 1' })).body).toEqual({ success: true });

    const videoId = start.body.video_id;
    const status = () => t.graph('GET', `/${videoId}`, { fields: 'title,status' });
    expect((await status()).body.status.video_status).toBe('processing');
    expect((await t.graph('GET', `/${videoId}/thumbnails`)).body.data).toEqual([]);

    // A creative on a processing video, or without a thumbnail, is refused.
    const page = t.user.pages[0].id;
    const spec = (extra: Record<string, unknown>) => ({ object_story_spec: { page_id: page, video_data: { video_id: videoId, call_to_action: { type: 'WATCH_MORE', value: { link: 'https://drama.example/x' } }, ...extra } } });
    const noThumb = await t.graph('POST', `/${account}/adcreatives`, spec({}));
    expect(noThumb.body.error.error_subcode).toBe(1443226);
    const notReady = await t.graph('POST', `/${account}/adcreatives`, spec({ image_url: 'https://img.example/t.png' }));
    expect(notReady.body.error.error_user_title).toBe('Video not ready');

    await t.advance('61s');
    expect((await status()).body).toMatchObject({ title: 'Episode 1', status: { video_status: 'ready', processing_progress: 100 } });
    const thumbs = (await t.graph('GET', `/${videoId}/thumbnails`)).body.data;
    expect(thumbs).toHaveLength(3);
    expect(thumbs[0].is_preferred).toBe(true);
    const ok = await t.graph('POST', `/${account}/adcreatives`, spec({ image_url: thumbs[0].uri }));
    expect(ok.status).toBe(200);
    expect((await t.graph('GET', `/${ok.body.id}`, { fields: 'object_type,effective_object_story_id,video_id' })).body).toMatchObject({ object_type: 'VIDEO', video_id: videoId });
  });

  it('processes a video in time proportional to its size: a 95 KB clip in a second, 20 MB in 40 s, the largest at the cap', async () => {
    // A simple upload of a 95 KB clip: ready after 1 s of sim time, not after the 60 s cap.
    const clip = await multipart(`/${account}/advideos`, { title: 'Clip' }, { source: Buffer.alloc(95_000) });
    const state = (id: string) => t.graph('GET', `/${id}`, { fields: 'status' }).then((r) => r.body.status.video_status);
    expect(await state(clip.body.id)).toBe('processing');
    await t.advance('1s');
    expect(await state(clip.body.id)).toBe('ready');
    // The same rule for chunked uploads, read from the function the upload uses.
    expect(processingMs(95_000, { video_processing_seconds: 60, video_processing_seconds_per_mb: 2 })).toBe(1000);
    expect(processingMs(20_000_000, { video_processing_seconds: 60, video_processing_seconds_per_mb: 2 })).toBe(40_000);
    expect(processingMs(500_000_000, { video_processing_seconds: 60, video_processing_seconds_per_mb: 2 })).toBe(60_000);
  });

  it('accepts a simple multipart upload', async () => {
    const res = await multipart(`/${account}/advideos`, { title: 'Trailer' }, { source: Buffer.alloc(5000) });
    expect(res.body.id).toMatch(/^\d+$/);
    expect((await t.graph('GET', `/${res.body.id}`, { fields: 'status' })).body.status.video_status).toBe('processing');
  });

  it('a video failed by the control API reports error with the reason in its processing phase', async () => {
    const res = await multipart(`/${account}/advideos`, { title: 'Broken' }, { source: Buffer.alloc(3000) });
    await t.control('POST', `/__sim/videos/${res.body.id}/fail`, { message: 'The video codec is not supported.' });
    const status = (await t.graph('GET', `/${res.body.id}`, { fields: 'status' })).body.status;
    expect(status).toMatchObject({ video_status: 'error', processing_phase: { status: 'error', errors: [{ code: expect.any(Number), message: 'The video codec is not supported.' }] } });
    // Without a message the simulator gives a generic one; an unknown video is a 404.
    const other = await multipart(`/${account}/advideos`, { title: 'Broken 2' }, { source: Buffer.alloc(3000) });
    await t.control('POST', `/__sim/videos/${other.body.id}/fail`);
    expect((await t.graph('GET', `/${other.body.id}`, { fields: 'status' })).body.status.processing_phase.errors[0].message).toMatch(/failed/);
    await expect(t.control('POST', '/__sim/videos/999999999/fail')).rejects.toThrow(/404/);
  });

  it('a started upload carries its title and description, so a client can find it by them', async () => {
    const start = await t.graph('POST', `/${account}/advideos`, { upload_phase: 'start', file_size: 100, title: 'Ep 2', description: 'material:abc' });
    const list = await t.graph('GET', `/${account}/advideos`, { fields: 'description,status' });
    expect(list.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: start.body.video_id, description: 'material:abc', status: expect.objectContaining({ video_status: 'uploading' }) })]));
  });
});

describe('pages and posts', () => {
  it('lists pages with page tokens; a page token can post to the feed', async () => {
    const pages = await t.graph('GET', '/me/accounts');
    expect(pages.body.data[0]).toMatchObject({ id: t.user.pages[0].id, access_token: expect.stringMatching(/^EAA/), tasks: expect.any(Array) });
    const pageToken = pages.body.data[0].access_token;
    const asUser = await t.graph('POST', `/${t.user.pages[0].id}/feed`, { message: 'hi' });
    expect(asUser.status).toBe(403);
    const post = await t.graph('POST', `/${t.user.pages[0].id}/feed`, { access_token: pageToken, message: 'New episode', link: 'https://drama.example/2' });
    expect(post.body.id).toMatch(new RegExp(`^${t.user.pages[0].id}_\\d+$`));
    const posts = await t.graph('GET', `/${t.user.pages[0].id}/posts`, { fields: 'message,is_published' });
    expect(posts.body.data[0]).toMatchObject({ message: 'New episode', is_published: true });
    const creative = await t.graph('POST', `/${account}/adcreatives`, { object_story_id: post.body.id });
    expect(creative.status).toBe(200);
  });
});
