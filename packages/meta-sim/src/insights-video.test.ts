import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from './testing/harness.ts';

// Video metrics of video ads: plays, the 25–100 % points, 3-second views, ThruPlay and the
// average watch time, as lists of {action_type: "video_view", value}.

const RANGE = { since: '2026-05-01', until: '2026-05-03' };
const VIDEO_FIELDS = [
  'video_play_actions', 'video_p25_watched_actions', 'video_p50_watched_actions', 'video_p75_watched_actions', 'video_p95_watched_actions',
  'video_p100_watched_actions', 'video_thruplay_watched_actions', 'video_avg_time_watched_actions',
];

let t: TestSim;
let account: string;
const ads: Record<'long' | 'short' | 'link', string> = { long: '', short: '', link: '' };

/** A ready video of about `seconds` (the simulator derives length from size). */
async function uploadVideo(upload: { file_url?: string; bytes?: number }): Promise<string> {
  if (upload.file_url) return (await t.graph('POST', `/${account}/advideos`, { file_url: upload.file_url, title: 'Trailer' })).body.id;
  const form = new FormData();
  form.set('access_token', t.token);
  form.set('source', new Blob([new Uint8Array(upload.bytes!)]), 'clip.mp4');
  const res = await fetch(`${t.url}/v25.0/${account}/advideos`, { method: 'POST', body: form });
  return ((await res.json()) as { id: string }).id;
}

async function videoAd(adsetId: string, videoId: string, name: string): Promise<string> {
  const creative = await t.graph('POST', `/${account}/adcreatives`, {
    name,
    object_story_spec: {
      page_id: t.user.pages[0].id,
      video_data: { video_id: videoId, image_url: 'https://drama.example/cover.jpg', call_to_action: { type: 'WATCH_MORE', value: { link: 'https://drama.example/ep1' } } },
    },
  });
  expect(creative.status).toBe(200);
  const ad = await t.graph('POST', `/${account}/ads`, { name, adset_id: adsetId, status: 'ACTIVE', creative: { creative_id: creative.body.id } });
  expect(ad.status).toBe(200);
  return ad.body.id;
}

beforeAll(async () => {
  t = await startTestSim();
  account = t.user.ad_accounts[0].id;
  // A file_url upload is taken as a 30 s video; 1.5 MB of source is a 6 s one.
  const long = await uploadVideo({ file_url: 'https://cdn.example/trailer.mp4' });
  const short = await uploadVideo({ bytes: 1_500_000 });
  expect((await t.graph('GET', `/${long}`, { fields: 'length' })).body.length).toBe(30);
  expect((await t.graph('GET', `/${short}`, { fields: 'length' })).body.length).toBe(6);
  await t.advance('1h');
  const tree = await createTree(t, account, { adsetBudget: 20000, ads: 1 });
  ads.link = tree.adIds[0]!;
  ads.long = await videoAd(tree.adsetId, long, 'Long video');
  ads.short = await videoAd(tree.adsetId, short, 'Short video');
  await t.advance('3d');
});
afterAll(() => t.close());

const num = (v: unknown) => Number(v ?? 0);
const video = (row: any, field: string) => {
  const list = row[field];
  if (list === undefined) return undefined;
  expect(list).toEqual([{ action_type: 'video_view', value: expect.stringMatching(/^\d+$/) }]);
  return Number(list[0].value);
};

async function rows(extra: Record<string, unknown> = {}) {
  const res = await t.graph('GET', `/${account}/insights`, { level: 'ad', fields: ['ad_id', 'impressions', 'actions', ...VIDEO_FIELDS].join(','), time_range: RANGE, limit: 500, ...extra });
  expect(res.status).toBe(200);
  return res.body.data as any[];
}

describe('video metrics', () => {
  it('counts plays and how far they got, in order, with ThruPlay at 15 s or the end', async () => {
    const data = await rows();
    const row = (id: string) => data.find((r) => r.ad_id === id)!;
    for (const [id, seconds] of [[ads.long, 30], [ads.short, 6]] as const) {
      const r = row(id);
      const v = (f: string) => video(r, `video_${f}_actions`) ?? 0;
      const [plays, p25, p50, p75, p95, p100, thru, avg] = [v('play'), v('p25_watched'), v('p50_watched'), v('p75_watched'), v('p95_watched'), v('p100_watched'), v('thruplay_watched'), v('avg_time_watched')];
      expect(plays).toBeGreaterThan(0);
      expect(plays).toBeLessThanOrEqual(num(r.impressions));
      expect(p25).toBeGreaterThan(0);
      expect([plays, p25, p50, p75, p95, p100]).toEqual([...[plays, p25, p50, p75, p95, p100]].sort((a, b) => b - a));
      expect(p25).toBeLessThan(plays);
      // ThruPlay: 15 s of a 30 s video is its 50 % point; a 6 s video must be watched to the end.
      expect(thru).toBe(seconds === 30 ? p50 : p100);
      expect(avg).toBeGreaterThan(0);
      expect(avg).toBeLessThanOrEqual(seconds);
      // The 3-second view (video_view action): the 50 % point of the 6 s video.
      const views3s = num(r.actions.find((a: any) => a.action_type === 'video_view')?.value);
      if (seconds === 6) expect(views3s).toBe(p50);
      else expect(views3s).toBeGreaterThanOrEqual(p25);
    }
    // The link ad has no video metrics at all.
    const link = row(ads.link);
    for (const f of VIDEO_FIELDS) expect(link[f]).toBeUndefined();
    expect(link.actions.some((a: any) => a.action_type === 'video_view')).toBe(false);
  });

  it('adds up across levels and hours', async () => {
    const data = await rows();
    const [acct] = (await t.graph('GET', `/${account}/insights`, { fields: VIDEO_FIELDS.join(','), time_range: RANGE })).body.data;
    for (const f of VIDEO_FIELDS.slice(0, 7)) expect(video(acct, f)).toBe(data.reduce((s, r) => s + (video(r, f) ?? 0), 0));
    const hourly = await rows({ breakdowns: ['hourly_stats_aggregated_by_advertiser_time_zone'] });
    for (const f of VIDEO_FIELDS.slice(0, 7)) {
      expect(hourly.filter((r) => r.ad_id === ads.long).reduce((s, r) => s + (video(r, f) ?? 0), 0)).toBe(video(data.find((r) => r.ad_id === ads.long), f));
    }
  });
});
