import type { Sim } from '../graph/context.ts';
import type { AdAccountRecord, AdRecord, AdSetRecord, CampaignRecord, CreativeRecord, DeliverySnapshot, ImageRecord, PostRecord, VideoRecord } from '../store/state.ts';
import { DAY_MS, formatGraphTime } from '../time.ts';
import { ControlError } from './assets.ts';

// `POST /__sim/backdate`: moves objects and their delivery history N days into the past, as
// if they had been created and run N days earlier, so a fresh demo starts with a month of
// delivery. Everything of an object moves by the same amount (created/updated times, schedule,
// review, every history snapshot), so its state now is unchanged and its past is a copy of the
// future it would have had. With `account_id` the whole account moves; with `ids` (campaigns,
// ad sets, ads) those objects and everything under them move, and the parents they need to
// have existed (ad set, campaign, account) are stretched back to their children's new start
// (their first state is taken to have held since then).

export interface BackdateInput {
  ids?: unknown;
  account_id?: unknown;
  days?: unknown;
  /** Make the order webhook send the back-dated purchases too (receivers dedupe by order_no). */
  resend_orders?: unknown;
}

/** Longest move: the 37 months Insights can report. */
const MAX_DAYS = 37 * 31;

const shiftHistory = (history: DeliverySnapshot[], ms: number) => {
  for (const snap of history) {
    snap.at -= ms;
    if (snap.from !== undefined) snap.from -= ms;
    if (snap.until !== undefined) snap.until -= ms;
  }
};
const back = (t: number | undefined, ms: number) => (t === undefined ? undefined : t - ms);

/** Stretches a parent's first state back to `to`, if it began later. */
function stretch(obj: { created_at: number; history: DeliverySnapshot[] }, to: number): void {
  if (obj.created_at > to) obj.created_at = to;
  const first = obj.history[0];
  if (first && first.at > to) first.at = to;
}

export function backdate(sim: Sim, input: BackdateInput) {
  const state = sim.store.state;
  const now = sim.clock.now();
  const days = input.days;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS) throw new ControlError(`days must be an integer from 1 to ${MAX_DAYS}`);
  const ms = days * DAY_MS;
  if (input.ids === undefined && input.account_id === undefined) throw new ControlError('give account_id or ids');
  if (input.ids !== undefined && (!Array.isArray(input.ids) || input.ids.length === 0 || input.ids.some((id) => typeof id !== 'string'))) {
    throw new ControlError('ids must be a non-empty array of campaign, ad set or ad ids');
  }

  const accounts = new Set<AdAccountRecord>();
  const campaigns = new Set<CampaignRecord>();
  const adsets = new Set<AdSetRecord>();
  const ads = new Set<AdRecord>();
  const childrenOf = <T>(rows: T[], parent: (row: T) => string) => {
    const out = new Map<string, T[]>();
    for (const row of rows) {
      const list = out.get(parent(row));
      if (list) list.push(row);
      else out.set(parent(row), [row]);
    }
    return out;
  };
  const adsOfAdset = childrenOf(Object.values(state.ads), (ad) => ad.adset_id);
  const adsetsOfCampaign = childrenOf(Object.values(state.adsets), (s) => s.campaign_id);
  const adsetTree = (s: AdSetRecord) => {
    adsets.add(s);
    for (const ad of adsOfAdset.get(s.id) ?? []) ads.add(ad);
  };
  const campaignTree = (c: CampaignRecord) => {
    campaigns.add(c);
    for (const s of adsetsOfCampaign.get(c.id) ?? []) adsetTree(s);
  };

  if (input.account_id !== undefined) {
    const account = sim.store.account(String(input.account_id));
    if (!account) throw new ControlError(`unknown ad account ${String(input.account_id)}`, 404);
    accounts.add(account);
    for (const c of Object.values(state.campaigns)) if (c.account_id === account.id) campaignTree(c);
  }
  for (const id of (input.ids as string[] | undefined) ?? []) {
    if (state.campaigns[id]) campaignTree(state.campaigns[id]);
    else if (state.adsets[id]) adsetTree(state.adsets[id]);
    else if (state.ads[id]) ads.add(state.ads[id]);
    else throw new ControlError(`unknown campaign, ad set or ad ${id}`, 404);
  }

  // What the moved ads show: their creatives, the dark posts and the media behind them.
  const creatives = new Set<CreativeRecord>();
  for (const ad of ads) {
    const creative = state.creatives[ad.creative_id];
    if (creative) creatives.add(creative);
  }
  const videos = new Set<VideoRecord>();
  const images = new Set<ImageRecord>();
  for (const account of accounts) {
    for (const c of Object.values(state.creatives)) if (c.account_id === account.id) creatives.add(c);
    for (const v of Object.values(state.videos)) if (v.account_id === account.id) videos.add(v);
    for (const img of Object.values(state.images)) if (img.account_id === account.id) images.add(img);
  }
  const posts = new Set<PostRecord>();
  for (const c of creatives) {
    const post = c.effective_object_story_id ? state.posts[c.effective_object_story_id] : undefined;
    if (post?.is_ad_post) posts.add(post);
    if (post?.video_id && state.videos[post.video_id]) videos.add(state.videos[post.video_id]!);
  }

  for (const a of accounts) {
    a.created_at -= ms;
    a.spend_cap_changes = a.spend_cap_changes.map((t) => t - ms);
    shiftHistory(a.history, ms);
  }
  for (const c of campaigns) {
    c.created_at -= ms;
    c.updated_at -= ms;
    c.start_time = back(c.start_time, ms);
    c.stop_time = back(c.stop_time, ms);
    shiftHistory(c.history, ms);
  }
  for (const s of adsets) {
    s.created_at -= ms;
    s.updated_at -= ms;
    s.start_time = back(s.start_time, ms);
    s.end_time = back(s.end_time, ms);
    s.budget_changes = s.budget_changes.map((t) => t - ms);
    shiftHistory(s.history, ms);
  }
  for (const ad of ads) {
    ad.created_at -= ms;
    ad.updated_at -= ms;
    ad.review_until -= ms;
    ad.disapproved_at = back(ad.disapproved_at, ms);
    shiftHistory(ad.history, ms);
  }
  for (const c of creatives) c.created_at -= ms;
  for (const p of posts) {
    p.created_at -= ms;
    p.updated_at -= ms;
  }
  for (const img of images) {
    img.created_at -= ms;
    img.updated_at -= ms;
  }
  // Only finished videos move: a video still processing keeps its processing time.
  let movedVideos = 0;
  for (const v of videos) {
    if (v.uploaded_at === undefined || (v.ready_at ?? v.uploaded_at) > now) continue;
    movedVideos += 1;
    v.created_at -= ms;
    v.updated_at -= ms;
    v.uploaded_at -= ms;
    v.ready_at = back(v.ready_at, ms);
  }

  // Parents that did not move must have existed (in their first state) before their children.
  for (const ad of ads) {
    const adset = state.adsets[ad.adset_id];
    if (adset && !adsets.has(adset)) stretch(adset, ad.created_at);
    const campaign = state.campaigns[ad.campaign_id];
    if (campaign && !campaigns.has(campaign)) stretch(campaign, ad.created_at);
  }
  for (const s of adsets) {
    const campaign = state.campaigns[s.campaign_id];
    if (campaign && !campaigns.has(campaign)) stretch(campaign, s.created_at);
  }
  let earliest = Infinity;
  for (const obj of [...campaigns, ...adsets, ...ads]) earliest = Math.min(earliest, obj.created_at);
  for (const obj of [...campaigns, ...adsets, ...ads]) {
    const account = sim.store.account(obj.account_id);
    if (account && !accounts.has(account)) stretch(account, obj.created_at);
  }
  for (const a of accounts) earliest = Math.min(earliest, a.created_at);

  if (input.resend_orders === true && Number.isFinite(earliest)) {
    for (const site of Object.values(state.sites)) site.dispatched_until = Math.min(site.dispatched_until, earliest);
  }
  sim.delivery.clearCache();
  sim.store.changed();
  return {
    days,
    shifted: {
      ad_accounts: accounts.size,
      campaigns: campaigns.size,
      adsets: adsets.size,
      ads: ads.size,
      creatives: creatives.size,
      videos: movedVideos,
      images: images.size,
    },
    earliest: Number.isFinite(earliest) ? formatGraphTime(earliest) : null,
  };
}
