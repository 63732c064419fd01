import { z } from 'zod';
import { toMinor } from './currency.ts';
import type { GraphClient, GraphParams } from './graph-client.ts';
import { unexpectedAnswer } from './graph-errors.ts';
import { graphSuccessSchema } from './graph-schemas.ts';
import {
  PlatformError,
  type AdObjectsApi,
  type CopyResult,
  type CreateAdInput,
  type CreateAdSetInput,
  type CreateCampaignInput,
  type CreateCreativeInput,
  type CreateLevel,
  type CreateOptions,
  type CreateRequest,
  type CreateResult,
  type UpdateAdObjectInput,
  type UpdateResult,
  type InsightsOptions,
  type InsightsRange,
  type ListAdObjectsOptions,
  type PlatformAd,
  type PlatformAdDay,
  type PlatformAdHour,
  type PlatformAdSet,
  type PlatformCampaign,
  type PlatformCreative,
  type PlatformLevel,
  type CreativeSpec,
} from './types.ts';

// Campaigns, ad sets, ads, creatives and Insights over the Graph API (reference §3–§6, §12),
// translated to our vocabulary. Lists always send the effective_status filter with every status,
// because edges leave deleted and archived objects out otherwise (reference §1); Insights send it
// as `ad.effective_status` for the same reason.

/** The fields an update sets (undefined ones are left out of the call). */
const updateParams = (input: UpdateAdObjectInput): GraphParams => ({
  status: input.status,
  name: input.name,
  daily_budget: input.dailyBudgetMinor,
  lifetime_budget: input.lifetimeBudgetMinor,
  bid_amount: input.bidAmountMinor,
});

const actId = (id: string) => (id.startsWith('act_') ? id : `act_${id}`);

/** Every effective status per level (reference §1). */
const CAMPAIGN_STATUSES = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES'];
const ADSET_STATUSES = [...CAMPAIGN_STATUSES, 'CAMPAIGN_PAUSED'];
const AD_STATUSES = [...ADSET_STATUSES, 'ADSET_PAUSED', 'DISAPPROVED', 'PENDING_REVIEW', 'PREAPPROVED', 'PENDING_BILLING_INFO'];

const time = z
  .string()
  .optional()
  .transform((v) => {
    if (!v) return null;
    const ms = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isNaN(ms) ? null : new Date(ms);
  });
const minor = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v) => {
    if (v === undefined || v === '') return null;
    const n = Number(v);
    return Number.isFinite(n) ? Math.round(n) : null;
  });
/** Budgets of "0" mean "not set here" (the other level holds the budget). */
const budget = minor.transform((v) => (v ? v : null));

const CAMPAIGN_FIELDS = ['id', 'name', 'status', 'effective_status', 'objective', 'buying_type', 'special_ad_categories', 'daily_budget', 'lifetime_budget', 'budget_remaining', 'bid_strategy', 'start_time', 'stop_time', 'created_time', 'updated_time'];
const campaignSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  status: z.string(),
  effective_status: z.string(),
  objective: z.string().optional(),
  buying_type: z.string().optional(),
  special_ad_categories: z.array(z.string()).default([]),
  daily_budget: budget,
  lifetime_budget: budget,
  budget_remaining: minor,
  bid_strategy: z.string().optional(),
  start_time: time,
  stop_time: time,
  created_time: time,
  updated_time: time,
});

const ADSET_FIELDS = [
  'id', 'campaign_id', 'name', 'status', 'effective_status', 'daily_budget', 'lifetime_budget', 'budget_remaining', 'bid_amount', 'bid_strategy', 'bid_constraints',
  'billing_event', 'optimization_goal', 'promoted_object', 'targeting', 'attribution_spec', 'start_time', 'end_time', 'created_time', 'updated_time',
];
const targetingSchema = z
  .object({
    geo_locations: z.object({ countries: z.array(z.string()).optional() }).passthrough().optional(),
    age_min: z.coerce.number().optional(),
    age_max: z.coerce.number().optional(),
    genders: z.array(z.coerce.number()).optional(),
    publisher_platforms: z.array(z.string()).optional(),
    facebook_positions: z.array(z.string()).optional(),
    instagram_positions: z.array(z.string()).optional(),
    audience_network_positions: z.array(z.string()).optional(),
    messenger_positions: z.array(z.string()).optional(),
    targeting_automation: z.object({ advantage_audience: z.coerce.number().optional() }).passthrough().optional(),
  })
  .passthrough();
const adsetSchema = z.object({
  id: z.string(),
  campaign_id: z.string(),
  name: z.string().default(''),
  status: z.string(),
  effective_status: z.string(),
  daily_budget: budget,
  lifetime_budget: budget,
  budget_remaining: minor,
  bid_amount: minor,
  bid_strategy: z.string().optional(),
  bid_constraints: z.object({ roas_average_floor: z.coerce.number().optional() }).passthrough().optional(),
  billing_event: z.string().optional(),
  optimization_goal: z.string().optional(),
  promoted_object: z.object({ pixel_id: z.coerce.string().optional(), custom_event_type: z.string().optional() }).passthrough().optional(),
  targeting: targetingSchema.optional(),
  attribution_spec: z.unknown().optional(),
  start_time: time,
  end_time: time,
  created_time: time,
  updated_time: time,
});

const AD_FIELDS = ['id', 'adset_id', 'campaign_id', 'name', 'status', 'effective_status', 'creative', 'created_time', 'updated_time'];
const adSchema = z.object({
  id: z.string(),
  adset_id: z.string(),
  campaign_id: z.string(),
  name: z.string().default(''),
  status: z.string(),
  effective_status: z.string(),
  creative: z.object({ id: z.coerce.string() }).optional(),
  created_time: time,
  updated_time: time,
});

const CREATIVE_FIELDS = ['id', 'name', 'status', 'object_story_id', 'object_story_spec', 'url_tags', 'video_id', 'image_hash', 'link_url', 'call_to_action_type', 'body', 'title', 'created_time'];
const linkData = z
  .object({
    link: z.string().optional(),
    message: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    image_hash: z.string().optional(),
    call_to_action: z.object({ type: z.string().optional(), value: z.object({ link: z.string().optional() }).passthrough().optional() }).passthrough().optional(),
  })
  .passthrough();
const creativeSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  status: z.string().optional(),
  object_story_id: z.string().optional(),
  object_story_spec: z
    .object({
      page_id: z.coerce.string().optional(),
      link_data: linkData.optional(),
      video_data: linkData.extend({ video_id: z.coerce.string().optional(), title: z.string().optional() }).optional(),
    })
    .passthrough()
    .optional(),
  url_tags: z.string().optional(),
  video_id: z.coerce.string().optional(),
  image_hash: z.string().optional(),
  link_url: z.string().optional(),
  call_to_action_type: z.string().optional(),
  body: z.string().optional(),
  title: z.string().optional(),
  created_time: time,
});

const actionList = z.array(z.object({ action_type: z.string(), value: z.union([z.string(), z.number()]) })).optional();
const num = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v) => (v === undefined || v === '' ? 0 : Number(v)));
const insightRowSchema = z.object({
  ad_id: z.string().optional(),
  adset_id: z.string().optional(),
  campaign_id: z.string().optional(),
  date_start: z.string(),
  spend: z.union([z.string(), z.number()]).optional(),
  impressions: num,
  clicks: num,
  inline_link_clicks: num,
  actions: actionList,
  action_values: actionList,
  video_play_actions: actionList,
  video_p25_watched_actions: actionList,
  video_p50_watched_actions: actionList,
  video_p75_watched_actions: actionList,
  video_p95_watched_actions: actionList,
  video_p100_watched_actions: actionList,
  video_thruplay_watched_actions: actionList,
  video_avg_time_watched_actions: actionList,
  hourly_stats_aggregated_by_advertiser_time_zone: z.string().optional(),
});
type InsightRow = z.infer<typeof insightRowSchema>;

const DAILY_FIELDS = [
  'ad_id', 'adset_id', 'campaign_id', 'spend', 'impressions', 'clicks', 'inline_link_clicks', 'actions', 'action_values', 'video_play_actions', 'video_p25_watched_actions',
  'video_p50_watched_actions', 'video_p75_watched_actions', 'video_p95_watched_actions', 'video_p100_watched_actions', 'video_thruplay_watched_actions', 'video_avg_time_watched_actions',
];
const HOURLY_FIELDS = ['ad_id', 'spend', 'impressions', 'clicks'];
const HOURLY_BREAKDOWN = 'hourly_stats_aggregated_by_advertiser_time_zone';

/**
 * The pixel purchase arrives under several overlapping action types (reference §12): exactly one
 * is counted — `purchase`, falling back to `offsite_conversion.fb_pixel_purchase` (design §2).
 */
export const PURCHASE_ACTION_TYPES = ['purchase', 'offsite_conversion.fb_pixel_purchase'] as const;

const pick = (list: InsightRow['actions'], types: readonly string[]): number | null => {
  for (const t of types) {
    const hit = list?.find((a) => a.action_type === t);
    if (hit) return Number(hit.value) || 0;
  }
  return null;
};
const count = (list: InsightRow['actions'], types: readonly string[]) => pick(list, types) ?? 0;
const video = (list: InsightRow['actions']) => count(list, ['video_view']);

function toAdDay(r: InsightRow, currency: string): PlatformAdDay {
  const purchaseValue = pick(r.action_values, PURCHASE_ACTION_TYPES);
  const plays = video(r.video_play_actions);
  return {
    adId: r.ad_id ?? '',
    adsetId: r.adset_id ?? null,
    campaignId: r.campaign_id ?? null,
    date: r.date_start,
    spendMinor: r.spend === undefined ? 0 : toMinor(r.spend, currency),
    impressions: r.impressions,
    clicks: r.clicks,
    linkClicks: r.inline_link_clicks,
    landingPageViews: count(r.actions, ['landing_page_view']),
    purchases: count(r.actions, PURCHASE_ACTION_TYPES),
    // Values are major units of the account currency, like spend.
    purchaseValueMinor: purchaseValue === null ? 0 : toMinor(purchaseValue, currency),
    addToCart: count(r.actions, ['offsite_conversion.fb_pixel_add_to_cart', 'add_to_cart']),
    initiateCheckout: count(r.actions, ['offsite_conversion.fb_pixel_initiate_checkout', 'initiate_checkout']),
    videoPlays: plays,
    videoP25: video(r.video_p25_watched_actions),
    videoP50: video(r.video_p50_watched_actions),
    videoP75: video(r.video_p75_watched_actions),
    videoP95: video(r.video_p95_watched_actions),
    videoP100: video(r.video_p100_watched_actions),
    thruplays: video(r.video_thruplay_watched_actions),
    // The platform gives the average seconds per play; × plays makes it summable.
    videoWatchMs: Math.round(count(r.video_avg_time_watched_actions, ['video_view']) * plays * 1000),
  };
}

/** "13:00:00 - 13:59:59" → 13. */
function hourOfBucket(bucket: string | undefined): number {
  const h = Number(bucket?.slice(0, 2));
  if (!Number.isInteger(h) || h < 0 || h > 23) throw unexpectedAnswer(`insights: hourly bucket ${String(bucket)}`, undefined);
  return h;
}

const reportRunSchema = z.object({ report_run_id: z.coerce.string() });
const reportStatusSchema = z.object({
  id: z.coerce.string(),
  async_status: z.string(),
  async_percent_completion: z.coerce.number().default(0),
  error_code: z.coerce.number().optional(),
  error_subcode: z.coerce.number().optional(),
  error_message: z.string().optional(),
  error_user_msg: z.string().optional(),
});

const copyAnswerSchema = z
  .object({
    copied_campaign_id: z.coerce.string().optional(),
    copied_adset_id: z.coerce.string().optional(),
    copied_ad_id: z.coerce.string().optional(),
    ad_object_ids: z.array(z.object({ ad_object_type: z.string(), source_id: z.coerce.string(), copied_id: z.coerce.string() })).default([]),
  })
  .passthrough();
const idSchema = z.object({ id: z.coerce.string() });


const createPath: Record<CreateLevel, string> = { campaign: 'campaigns', adset: 'adsets', creative: 'adcreatives', ad: 'ads' };

/** Campaign create parameters (reference §3). Without a campaign budget, budget sharing between ad sets is off, and said so. */
function campaignParams(input: CreateCampaignInput): GraphParams {
  const campaignBudget = Boolean(input.dailyBudgetMinor || input.lifetimeBudgetMinor);
  return {
    name: input.name,
    objective: input.objective,
    status: input.status,
    special_ad_categories: [...input.specialAdCategories],
    buying_type: input.buyingType ?? 'AUCTION',
    start_time: input.startTime?.toISOString(),
    daily_budget: input.dailyBudgetMinor ?? undefined,
    lifetime_budget: input.lifetimeBudgetMinor ?? undefined,
    bid_strategy: campaignBudget ? (input.bidStrategy ?? undefined) : undefined,
    stop_time: (input.stopTime ?? input.endTime)?.toISOString(),
    ...(!campaignBudget && { is_adset_budget_sharing_enabled: false }),
  };
}

function adsetParams(input: CreateAdSetInput): GraphParams {
  return {
    campaign_id: input.campaignId,
    name: input.name,
    status: input.status,
    daily_budget: input.dailyBudgetMinor ?? undefined,
    lifetime_budget: input.lifetimeBudgetMinor ?? undefined,
    bid_amount: input.bidAmountMinor ?? undefined,
    bid_strategy: input.bidStrategy ?? undefined,
    bid_constraints: input.roasFloor ? { roas_average_floor: input.roasFloor } : undefined,
    billing_event: input.billingEvent,
    optimization_goal: input.optimizationGoal,
    promoted_object: input.promotedObject ? { pixel_id: input.promotedObject.pixelId, custom_event_type: input.promotedObject.customEventType } : undefined,
    targeting: input.targeting as Record<string, unknown>,
    start_time: input.startTime?.toISOString(),
    end_time: input.endTime?.toISOString(),
    attribution_spec: input.attributionSpec?.length ? [...input.attributionSpec] : undefined,
    destination_type: input.destinationType ?? undefined,
    dsa_beneficiary: input.dsaBeneficiary ?? undefined,
    dsa_payor: input.dsaPayor ?? undefined,
    ...(input.dynamicCreative && { is_dynamic_creative: true }),
  };
}

/** Creative parameters (reference §6): a dark post from object_story_spec, an existing post, or an asset feed. */
function creativeParams(input: CreateCreativeInput): GraphParams {
  const base = { name: input.name, url_tags: input.urlTags || undefined };
  if (input.kind === 'post') return { ...base, object_story_id: input.objectStoryId };
  if (input.kind === 'dynamic') {
    return {
      ...base,
      object_story_spec: { page_id: input.pageId },
      asset_feed_spec: {
        ...(input.videos.length && { videos: input.videos.map((v) => ({ video_id: v.videoId, thumbnail_hash: v.thumbnailHash })) }),
        ...(input.imageHashes.length && { images: input.imageHashes.map((hash) => ({ hash })) }),
        bodies: input.bodies.map((text) => ({ text })),
        ...(input.titles.length && { titles: input.titles.map((text) => ({ text })) }),
        ...(input.descriptions.length && { descriptions: input.descriptions.map((text) => ({ text })) }),
        link_urls: [{ website_url: input.link }],
        call_to_action_types: [input.callToAction],
        // One format per feed: videos and images together need AUTOMATIC_FORMAT (Meta refuses SINGLE_VIDEO with images).
        ad_formats: [input.videos.length && input.imageHashes.length ? 'AUTOMATIC_FORMAT' : input.videos.length ? 'SINGLE_VIDEO' : 'SINGLE_IMAGE'],
      },
    };
  }
  const cta = input.callToAction === 'NO_BUTTON' ? { type: 'NO_BUTTON' } : { type: input.callToAction, value: { link: input.link } };
  const story =
    input.kind === 'video'
      ? { video_data: { video_id: input.videoId, image_hash: input.imageHash, message: input.message ?? undefined, title: input.headline ?? undefined, link_description: input.description ?? undefined, call_to_action: cta } }
      : { link_data: { link: input.link, image_hash: input.imageHash, message: input.message ?? undefined, name: input.headline ?? undefined, description: input.description ?? undefined, call_to_action: cta } };
  return { ...base, object_story_spec: JSON.parse(JSON.stringify({ page_id: input.pageId, ...story })) as Record<string, unknown> };
}

function adParams(input: CreateAdInput): GraphParams {
  return { adset_id: input.adsetId, name: input.name, status: input.status, creative: { creative_id: input.creativeId } };
}

function paramsOf(r: CreateRequest): GraphParams {
  switch (r.level) {
    case 'campaign':
      return campaignParams(r.input);
    case 'adset':
      return adsetParams(r.input);
    case 'creative':
      return creativeParams(r.input);
    case 'ad':
      return adParams(r.input);
  }
}

/** validate_only: the platform checks the call and creates nothing (execution_options). */
const withExecution = (params: GraphParams, opts: CreateOptions | undefined): GraphParams => (opts?.validateOnly ? { ...params, execution_options: ['validate_only'] } : params);

const ctaSchema = z.object({ type: z.string().optional(), value: z.object({ link: z.string().optional() }).passthrough().optional() }).passthrough().optional();
const storyData = z
  .object({
    link: z.string().optional(),
    message: z.string().optional(),
    caption: z.string().optional(),
    name: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    link_description: z.string().optional(),
    image_hash: z.string().optional(),
    image_url: z.string().optional(),
    video_id: z.coerce.string().optional(),
    call_to_action: ctaSchema,
  })
  .passthrough();
const creativeSpecSchema = z.object({
  id: z.string(),
  name: z.string().default(''),
  object_story_id: z.string().optional(),
  url_tags: z.string().optional(),
  object_story_spec: z
    .object({
      page_id: z.coerce.string().optional(),
      instagram_user_id: z.coerce.string().optional(),
      instagram_actor_id: z.coerce.string().optional(),
      video_data: storyData.optional(),
      link_data: storyData.optional(),
      photo_data: storyData.optional(),
    })
    .passthrough()
    .optional(),
});

/** A creative's story as our spec (reference §5): a page post, or a video / link / photo story. */
function toCreativeSpec(c: z.infer<typeof creativeSpecSchema>): CreativeSpec {
  const spec = c.object_story_spec;
  const data = spec?.video_data ?? spec?.link_data ?? spec?.photo_data;
  const kind: CreativeSpec['kind'] = c.object_story_id && !spec ? 'post' : spec?.video_data ? 'video' : spec?.photo_data ? 'photo' : 'link';
  const cta = data?.call_to_action;
  return {
    name: c.name,
    kind,
    pageId: spec?.page_id ?? (c.object_story_id ? c.object_story_id.split('_')[0]! : null),
    instagramUserId: spec?.instagram_user_id ?? spec?.instagram_actor_id ?? null,
    objectStoryId: kind === 'post' ? (c.object_story_id ?? null) : null,
    videoId: spec?.video_data?.video_id ?? null,
    imageHash: data?.image_hash ?? null,
    imageUrl: data?.image_url ?? null,
    link: data?.link ?? cta?.value?.link ?? null,
    message: data?.message ?? data?.caption ?? null,
    title: spec?.video_data?.title ?? data?.name ?? null,
    description: spec?.video_data?.link_description ?? data?.description ?? null,
    callToAction: cta?.type ? { type: cta.type, link: cta.value?.link ?? null } : null,
    urlTags: c.url_tags ?? null,
  };
}

/** Our spec → the platform's creative parameters (object_story_spec, or an existing post). */
function creativeSpecParams(spec: CreativeSpec): GraphParams {
  const cta = spec.callToAction ? { type: spec.callToAction.type, ...(spec.callToAction.link && { value: { link: spec.callToAction.link } }) } : undefined;
  const clean = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
  if (spec.kind === 'post') return { name: spec.name, object_story_id: spec.objectStoryId ?? undefined, url_tags: spec.urlTags ?? undefined };
  const story: Record<string, unknown> = { page_id: spec.pageId ?? undefined, instagram_user_id: spec.instagramUserId ?? undefined };
  if (spec.kind === 'video') {
    story.video_data = clean({ video_id: spec.videoId, image_hash: spec.imageHash ?? undefined, image_url: spec.imageHash ? undefined : (spec.imageUrl ?? undefined), title: spec.title ?? undefined, message: spec.message ?? undefined, link_description: spec.description ?? undefined, call_to_action: cta });
  } else if (spec.kind === 'photo') {
    story.photo_data = clean({ image_hash: spec.imageHash ?? undefined, caption: spec.message ?? undefined, call_to_action: cta });
  } else {
    story.link_data = clean({ link: spec.link ?? undefined, message: spec.message ?? undefined, name: spec.title ?? undefined, description: spec.description ?? undefined, image_hash: spec.imageHash ?? undefined, call_to_action: cta });
  }
  return { name: spec.name, object_story_spec: clean(story), url_tags: spec.urlTags ?? undefined };
}

export interface MetaAdsDeps {
  graph: GraphClient;
  /** Waits between polls of an async report run. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createMetaAdsApi({ graph, sleep = realSleep, now = Date.now }: MetaAdsDeps): AdObjectsApi {
  function listParams(statuses: string[], opts: ListAdObjectsOptions | undefined): GraphParams {
    const filtering: { field: string; operator: string; value: unknown }[] = [];
    // Seconds since the epoch, as the Graph filter on updated_time expects.
    if (opts?.updatedSince) filtering.push({ field: 'updated_time', operator: 'GREATER_THAN', value: Math.floor(opts.updatedSince.getTime() / 1000) });
    if (opts?.ids?.length) filtering.push({ field: 'id', operator: 'IN', value: opts.ids });
    if (opts?.campaignIds?.length) filtering.push({ field: 'campaign.id', operator: 'IN', value: opts.campaignIds });
    if (opts?.adsetIds?.length) filtering.push({ field: 'adset.id', operator: 'IN', value: opts.adsetIds });
    if (opts?.name !== undefined) filtering.push({ field: 'name', operator: 'EQUAL', value: opts.name });
    return { effective_status: statuses, ...(filtering.length && { filtering }) };
  }

  async function insightsRows(token: string, adAccountId: string, params: GraphParams, opts: InsightsOptions): Promise<InsightRow[]> {
    const path = `${actId(adAccountId)}/insights`;
    if (!opts.async) return graph.all({ path, token, params, signal: opts.signal }, insightRowSchema);
    // Async report run (reference §12): start, poll until Job Completed, then page its rows.
    const { report_run_id: runId } = await graph.request({ method: 'POST', path, token, params, signal: opts.signal, accountId: adAccountId }, reportRunSchema);
    const deadline = now() + (opts.asyncTimeoutMs ?? 10 * 60_000);
    for (let wait = 500; ; wait = Math.min(wait * 2, 10_000)) {
      const run = await graph.request({ path: runId, token, signal: opts.signal, accountId: adAccountId, fields: ['id', 'async_status', 'async_percent_completion', 'error_code', 'error_subcode', 'error_message', 'error_user_msg'] }, reportStatusSchema);
      if (run.async_status === 'Job Completed' && run.async_percent_completion >= 100) break;
      if (run.async_status === 'Job Failed' || run.async_status === 'Job Skipped') {
        throw new PlatformError('unavailable', run.error_message ?? `report run ${runId}: ${run.async_status}`, { retryable: true, code: run.error_code ?? -2, subcode: run.error_subcode, userMessage: run.error_user_msg });
      }
      if (now() + wait > deadline) throw new PlatformError('unavailable', `report run ${runId} did not finish in time`, { retryable: true });
      await sleep(wait, opts.signal);
    }
    return graph.all({ path: `${runId}/insights`, token, signal: opts.signal, accountId: adAccountId }, insightRowSchema);
  }

  const insightParams = (range: InsightsRange, fields: string[], extra: GraphParams = {}): GraphParams => ({
    level: 'ad',
    time_increment: 1,
    time_range: { since: range.since, until: range.until },
    fields: fields.join(','),
    // Deleted and archived ads report too only when asked for by status (reference §12).
    filtering: [{ field: 'ad.effective_status', operator: 'IN', value: AD_STATUSES }],
    limit: 500,
    ...extra,
  });


  /** One create; never resent by the client after an ambiguous failure (the caller looks it up instead). */
  async function create(token: string, adAccountId: string, level: CreateLevel, params: GraphParams, opts: CreateOptions | undefined): Promise<{ id: string }> {
    const path = `${actId(adAccountId)}/${createPath[level]}`;
    if (opts?.validateOnly) {
      const answer = await graph.request({ method: 'POST', path, token, params: withExecution(params, opts), signal: opts.signal, accountId: adAccountId }, z.object({ id: z.coerce.string().optional() }).passthrough());
      // A platform that ignored validate_only made the object: it must not stay.
      if (answer.id) await graph.request({ method: 'DELETE', path: answer.id, token, signal: opts.signal, idempotent: true }, graphSuccessSchema);
      return { id: '' };
    }
    return graph.request({ method: 'POST', path, token, params, signal: opts?.signal, accountId: adAccountId }, idSchema);
  }

  return {
    async listCampaigns(token, adAccountId, opts) {
      const rows = await graph.all({ path: `${actId(adAccountId)}/campaigns`, token, fields: CAMPAIGN_FIELDS, params: listParams(CAMPAIGN_STATUSES, opts), signal: opts?.signal }, campaignSchema);
      return rows.map(
        (c): PlatformCampaign => ({
          id: c.id,
          name: c.name,
          status: c.status,
          effectiveStatus: c.effective_status,
          createdTime: c.created_time,
          updatedTime: c.updated_time,
          objective: c.objective ?? null,
          buyingType: c.buying_type ?? null,
          specialAdCategories: c.special_ad_categories,
          dailyBudgetMinor: c.daily_budget,
          lifetimeBudgetMinor: c.lifetime_budget,
          budgetRemainingMinor: c.daily_budget || c.lifetime_budget ? c.budget_remaining : null,
          bidStrategy: c.bid_strategy ?? null,
          startTime: c.start_time,
          endTime: c.stop_time,
        }),
      );
    },

    async listAdSets(token, adAccountId, opts) {
      const rows = await graph.all({ path: `${actId(adAccountId)}/adsets`, token, fields: ADSET_FIELDS, params: listParams(ADSET_STATUSES, opts), signal: opts?.signal }, adsetSchema);
      return rows.map((s): PlatformAdSet => {
        const t = s.targeting ?? {};
        return {
          id: s.id,
          campaignId: s.campaign_id,
          name: s.name,
          status: s.status,
          effectiveStatus: s.effective_status,
          createdTime: s.created_time,
          updatedTime: s.updated_time,
          dailyBudgetMinor: s.daily_budget,
          lifetimeBudgetMinor: s.lifetime_budget,
          budgetRemainingMinor: s.daily_budget || s.lifetime_budget ? s.budget_remaining : null,
          bidStrategy: s.bid_strategy ?? null,
          bidAmountMinor: s.bid_amount,
          roasFloor: s.bid_constraints?.roas_average_floor ?? null,
          startTime: s.start_time,
          endTime: s.end_time,
          optimizationGoal: s.optimization_goal ?? null,
          billingEvent: s.billing_event ?? null,
          pixelId: s.promoted_object?.pixel_id ?? null,
          customEventType: s.promoted_object?.custom_event_type ?? null,
          attributionSpec: s.attribution_spec ?? null,
          targeting: {
            countries: t.geo_locations?.countries ?? [],
            ageMin: t.age_min ?? null,
            ageMax: t.age_max ?? null,
            genders: t.genders ?? [],
            publisherPlatforms: t.publisher_platforms ?? [],
            positions: [...(t.facebook_positions ?? []), ...(t.instagram_positions ?? []), ...(t.audience_network_positions ?? []), ...(t.messenger_positions ?? [])],
            advantageAudience: t.targeting_automation?.advantage_audience ?? null,
          },
        };
      });
    },

    async listAds(token, adAccountId, opts) {
      const rows = await graph.all({ path: `${actId(adAccountId)}/ads`, token, fields: AD_FIELDS, params: listParams(AD_STATUSES, opts), signal: opts?.signal }, adSchema);
      return rows.map(
        (a): PlatformAd => ({
          id: a.id,
          adsetId: a.adset_id,
          campaignId: a.campaign_id,
          name: a.name,
          status: a.status,
          effectiveStatus: a.effective_status,
          createdTime: a.created_time,
          updatedTime: a.updated_time,
          creativeId: a.creative?.id ?? null,
        }),
      );
    },

    async listCreatives(token, adAccountId, opts) {
      // Creatives have no effective_status; their edge lists them all.
      const filtering = opts?.ids?.length ? [{ field: 'id', operator: 'IN', value: opts.ids }] : undefined;
      const rows = await graph.all({ path: `${actId(adAccountId)}/adcreatives`, token, fields: CREATIVE_FIELDS, params: { ...(filtering && { filtering }) }, signal: opts?.signal }, creativeSchema);
      return rows.map((c): PlatformCreative => {
        const spec = c.object_story_spec;
        const data = spec?.video_data ?? spec?.link_data;
        const cta = data?.call_to_action;
        return {
          id: c.id,
          name: c.name,
          status: c.status ?? null,
          objectStoryId: c.object_story_id ?? null,
          videoId: c.video_id ?? spec?.video_data?.video_id ?? null,
          imageHash: c.image_hash ?? data?.image_hash ?? null,
          pageId: spec?.page_id ?? null,
          callToAction: c.call_to_action_type ?? cta?.type ?? null,
          linkUrl: c.link_url ?? spec?.link_data?.link ?? cta?.value?.link ?? null,
          urlTags: c.url_tags ?? null,
          texts: { message: data?.message ?? c.body, title: spec?.video_data?.title ?? data?.name ?? c.title, description: data?.description },
          createdTime: c.created_time,
        };
      });
    },

    async insightsDaily(token, adAccountId, range, opts) {
      const rows = await insightsRows(token, adAccountId, insightParams(range, DAILY_FIELDS), opts);
      return rows.filter((r) => r.ad_id).map((r) => toAdDay(r, opts.currency));
    },

    async insightsHourly(token, adAccountId, range, opts) {
      const rows = await insightsRows(token, adAccountId, insightParams(range, HOURLY_FIELDS, { breakdowns: [HOURLY_BREAKDOWN] }), opts);
      return rows
        .filter((r) => r.ad_id)
        .map(
          (r): PlatformAdHour => ({
            adId: r.ad_id!,
            date: r.date_start,
            hour: hourOfBucket(r.hourly_stats_aggregated_by_advertiser_time_zone),
            spendMinor: r.spend === undefined ? 0 : toMinor(r.spend, opts.currency),
            impressions: r.impressions,
            clicks: r.clicks,
          }),
        );
    },

    async updateAdObject(token, id, input, opts) {
      // Setting a value is idempotent: resending after a lost answer does no harm.
      await graph.request({ method: 'POST', path: id, token, params: updateParams(input), signal: opts?.signal, idempotent: true }, graphSuccessSchema);
    },

    async updateMany(token, adAccountId, items, opts) {
      // Round k holds the k-th ad set of each campaign: the platform refuses a batch with two ad
      // sets of one campaign (reference §14); other objects all go in the first round.
      const rounds: number[][] = [];
      const seen = new Map<string, number>();
      items.forEach((it, i) => {
        const k = it.campaignId === undefined ? 0 : (seen.get(it.campaignId) ?? 0);
        if (it.campaignId !== undefined) seen.set(it.campaignId, k + 1);
        (rounds[k] ??= []).push(i);
      });
      const out: UpdateResult[] = new Array(items.length);
      for (const round of rounds) {
        const results = await graph.batch(
          token,
          round.map((i) => ({ method: 'POST' as const, path: items[i]!.id, params: updateParams(items[i]!.input), accountId: adAccountId })),
          { signal: opts?.signal, resendUnanswered: false },
        );
        results.forEach((r, j) => {
          if (!r.ok) out[round[j]!] = { ok: false, error: r.error, unknown: r.unanswered === true };
          else out[round[j]!] = graphSuccessSchema.safeParse(r.body).success ? { ok: true } : { ok: false, error: unexpectedAnswer('batch update: no success', undefined), unknown: true };
        });
      }
      return out;
    },

    async deleteAdObject(token, id, opts) {
      await graph.request({ method: 'DELETE', path: id, token, signal: opts?.signal, idempotent: true }, graphSuccessSchema);
    },

    async copyAdObject(token, level, id, input, opts): Promise<CopyResult> {
      const o = input.campaignOverrides;
      const overrides = o && { name: o.name, daily_budget: o.dailyBudgetMinor, lifetime_budget: o.lifetimeBudgetMinor, bid_strategy: o.bidStrategy };
      const rename = input.renamePrefix !== undefined || input.renameSuffix !== undefined ? { rename_strategy: 'ONLY_TOP_LEVEL_RENAME', rename_prefix: input.renamePrefix ?? '', rename_suffix: input.renameSuffix ?? '' } : undefined;
      // Each copies edge takes its own parameters (reference §3): overrides on campaigns only,
      // a target parent and deep_copy on ad sets, a creative on ads.
      const params: GraphParams = {
        status_option: input.statusOption ?? 'PAUSED',
        rename_options: rename,
        ...(level !== 'ad' && { deep_copy: input.deepCopy ?? false }),
        ...(level === 'campaign' && overrides && Object.values(overrides).some((v) => v !== undefined) && { parameter_overrides: JSON.parse(JSON.stringify(overrides)) as Record<string, unknown> }),
        ...(level === 'adset' && input.parentId && { campaign_id: input.parentId }),
        ...(level === 'ad' && input.parentId && { adset_id: input.parentId }),
        ...(level === 'ad' && input.creativeId && { creative_parameters: { creative_id: input.creativeId } }),
      };
      const answer = await graph.request({ method: 'POST', path: `${id}/copies`, token, params, signal: opts?.signal }, copyAnswerSchema);
      const copiedId = answer.copied_campaign_id ?? answer.copied_adset_id ?? answer.copied_ad_id;
      if (!copiedId) throw unexpectedAnswer(`${id}/copies: no copied id`, undefined);
      const levelOf = (t: string): PlatformLevel => (t === 'campaign' ? 'campaign' : t === 'ad_set' || t === 'adset' ? 'adset' : 'ad');
      return { copiedId, objects: answer.ad_object_ids.map((x) => ({ level: levelOf(x.ad_object_type), sourceId: x.source_id, copiedId: x.copied_id })) };
    },

    async createCampaign(token, adAccountId, input, opts) {
      return create(token, adAccountId, 'campaign', campaignParams(input), opts);
    },

    async createAdSet(token, adAccountId, input, opts) {
      return create(token, adAccountId, 'adset', adsetParams(input), opts);
    },

    async createCreative(token, adAccountId, input, opts) {
      return create(token, adAccountId, 'creative', creativeParams(input), opts);
    },

    async getCreativeSpec(token, id, opts) {
      return toCreativeSpec(await graph.request({ path: id, token, fields: ['id', 'name', 'object_story_id', 'object_story_spec', 'url_tags'], signal: opts?.signal }, creativeSpecSchema));
    },

    async createAdCreative(token, adAccountId, spec, opts) {
      return graph.request({ method: 'POST', path: `${actId(adAccountId)}/adcreatives`, token, params: creativeSpecParams(spec), signal: opts?.signal }, idSchema);
    },

    async createAd(token, adAccountId, input, opts) {
      return create(token, adAccountId, 'ad', adParams(input), opts);
    },

    async createMany(token, adAccountId, requests, opts) {
      const items = requests.map((r) => ({ method: 'POST' as const, path: `${actId(adAccountId)}/${createPath[r.level]}`, params: withExecution(paramsOf(r), opts), accountId: adAccountId }));
      // An item without an answer may have been applied: it is reported, not resent (the caller looks it up).
      const results = await graph.batch(token, items, { signal: opts?.signal, resendUnanswered: false });
      return results.map((r): CreateResult => {
        if (!r.ok) return { ok: false, error: r.error, unknown: r.unanswered === true };
        if (opts?.validateOnly) return { ok: true, id: '' };
        const parsed = idSchema.safeParse(r.body);
        return parsed.success ? { ok: true, id: parsed.data.id } : { ok: false, error: unexpectedAnswer('batch create: no id', undefined), unknown: true };
      });
    },

    async findByName(token, adAccountId, level, name, parentId, opts) {
      const filtering: { field: string; operator: string; value: unknown }[] = [{ field: 'name', operator: 'EQUAL', value: name }];
      if (parentId && level === 'adset') filtering.push({ field: 'campaign.id', operator: 'EQUAL', value: parentId });
      if (parentId && level === 'ad') filtering.push({ field: 'adset.id', operator: 'EQUAL', value: parentId });
      // Every status but DELETED: an archived or paused object is still the one that was made.
      const statuses = { campaign: CAMPAIGN_STATUSES, adset: ADSET_STATUSES, ad: AD_STATUSES, creative: null }[level]?.filter((x) => x !== 'DELETED');
      const rows = await graph.all(
        { path: `${actId(adAccountId)}/${createPath[level]}`, token, fields: ['id', 'name', 'status'], params: { filtering, ...(statuses && { effective_status: statuses }) }, signal: opts?.signal },
        z.object({ id: z.string(), name: z.string().default(''), status: z.string().optional() }),
      );
      return rows.filter((r) => r.name === name && r.status !== 'DELETED').map((r) => ({ id: r.id, name: r.name }));
    },

    async getAdSetSpec(token, id, opts) {
      const s = await graph.request(
        { path: id, token, fields: ['targeting', 'billing_event', 'optimization_goal', 'attribution_spec'], signal: opts?.signal },
        z.object({ targeting: z.unknown().optional(), billing_event: z.string().optional(), optimization_goal: z.string().optional(), attribution_spec: z.unknown().optional() }),
      );
      return { targeting: s.targeting ?? {}, billingEvent: s.billing_event ?? null, optimizationGoal: s.optimization_goal ?? null, attributionSpec: s.attribution_spec ?? null };
    },
  };
}
