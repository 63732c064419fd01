import { z } from 'zod';
import { flagInput, idSchema, numberInput, pageBodySchema, pageResultSchema } from './envelope.ts';
import { tokenStatusSchema } from './assets.ts';
import { MATERIAL_SORT_FIELDS } from './materials.ts';
import { platformSchema, type Platform } from './session.ts';
import { instantSchema, text } from './text.ts';

/**
 * Publishing (issue 8): the batch publish wizards (短剧发布 /advertising/publish for dramas,
 * 电商发布 /advertising/publish-ec for products), the schemes (方案) they submit and the
 * templates they save.
 *
 * The wizard edits one `PublishDraft`. `/publish/preview` expands it into every object that will
 * be created (per ad account: campaigns → ad sets → ads, each with its name and settings) and runs
 * our rules and the platform's validate-only checks; `/publish/submit` does the same and, when no
 * check fails, stores a scheme with one item per campaign, ad set, creative and ad and queues the
 * job that creates them. Everything is created PAUSED unless `launch` says otherwise.
 *
 * Money in a draft is in major units (what people type); `budget_basis` says whether a number is
 * in each account's own currency or in US dollars converted at the day's rate. Answers give
 * minor units with the currency beside them, plus major units and USD for display.
 */

/** The two wizards; each draft's platform needs its own path (dj → publish, ec → publish-ec). */
export const PUBLISH_PATHS = ['/advertising/publish', '/advertising/publish-ec'] as const;
export const PUBLISH_PATH_OF: Record<Platform, (typeof PUBLISH_PATHS)[number]> = { dj: '/advertising/publish', ec: '/advertising/publish-ec' };

// ---------------------------------------------------------------------------------------------
// Vocabulary (the platform's own values, so nothing is translated twice).

export const PUBLISH_OBJECTIVES = ['OUTCOME_SALES', 'OUTCOME_TRAFFIC', 'OUTCOME_ENGAGEMENT', 'OUTCOME_AWARENESS', 'OUTCOME_LEADS'] as const;
export const publishObjectiveSchema = z.enum(PUBLISH_OBJECTIVES);
export type PublishObjective = z.infer<typeof publishObjectiveSchema>;

/** lowest cost · bid cap · cost cap · minimum ROAS. */
export const BID_STRATEGIES = ['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'] as const;
export const bidStrategySchema = z.enum(BID_STRATEGIES);
export type BidStrategy = z.infer<typeof bidStrategySchema>;
/** Strategies that need a bid amount (bid cap / cost cap). */
export const CAPPED_BID_STRATEGIES: readonly BidStrategy[] = ['LOWEST_COST_WITH_BID_CAP', 'COST_CAP'];

export const OPTIMIZATION_GOALS = ['OFFSITE_CONVERSIONS', 'VALUE', 'LANDING_PAGE_VIEWS', 'LINK_CLICKS', 'IMPRESSIONS', 'REACH', 'THRUPLAY', 'POST_ENGAGEMENT', 'LEAD_GENERATION'] as const;
export const optimizationGoalSchema = z.enum(OPTIMIZATION_GOALS);
export type OptimizationGoal = z.infer<typeof optimizationGoalSchema>;

/** Which goals each objective allows (the wizard offers these; the platform enforces the same table). */
export const GOALS_BY_OBJECTIVE: Record<PublishObjective, readonly OptimizationGoal[]> = {
  OUTCOME_SALES: ['OFFSITE_CONVERSIONS', 'VALUE', 'LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'IMPRESSIONS', 'REACH'],
  OUTCOME_TRAFFIC: ['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'REACH', 'IMPRESSIONS'],
  OUTCOME_ENGAGEMENT: ['POST_ENGAGEMENT', 'THRUPLAY', 'IMPRESSIONS', 'REACH'],
  OUTCOME_AWARENESS: ['REACH', 'IMPRESSIONS', 'THRUPLAY'],
  OUTCOME_LEADS: ['OFFSITE_CONVERSIONS', 'LEAD_GENERATION'],
};
/** Goals that need a pixel and a conversion event (promoted_object). */
export const PIXEL_GOALS: readonly OptimizationGoal[] = ['OFFSITE_CONVERSIONS', 'VALUE'];

export const CONVERSION_EVENTS = ['PURCHASE', 'ADD_TO_CART', 'INITIATED_CHECKOUT', 'ADD_PAYMENT_INFO', 'COMPLETE_REGISTRATION', 'CONTENT_VIEW', 'LEAD', 'SUBSCRIBE', 'START_TRIAL'] as const;
export const conversionEventSchema = z.enum(CONVERSION_EVENTS);
export type ConversionEvent = z.infer<typeof conversionEventSchema>;

/** Attribution windows offered (attribution_spec): click days and view days. */
export const ATTRIBUTIONS = ['7d_click_1d_view', '7d_click', '1d_click', '1d_click_1d_view', '7d_click_1d_view_1d_engaged_view'] as const;
export const attributionSchema = z.enum(ATTRIBUTIONS);
export type Attribution = z.infer<typeof attributionSchema>;

export const CALLS_TO_ACTION = ['WATCH_MORE', 'LEARN_MORE', 'SHOP_NOW', 'ORDER_NOW', 'BUY_NOW', 'GET_OFFER', 'SIGN_UP', 'SUBSCRIBE', 'SEE_MORE', 'DOWNLOAD', 'NO_BUTTON'] as const;
export const callToActionSchema = z.enum(CALLS_TO_ACTION);
export type CallToAction = z.infer<typeof callToActionSchema>;

export const PUBLISHER_PLATFORMS = ['facebook', 'instagram', 'audience_network', 'messenger'] as const;
export const FACEBOOK_POSITIONS = ['feed', 'right_hand_column', 'marketplace', 'video_feeds', 'story', 'search', 'instream_video', 'facebook_reels', 'profile_feed'] as const;
export const INSTAGRAM_POSITIONS = ['stream', 'story', 'explore', 'explore_home', 'reels', 'profile_feed', 'ig_search'] as const;
export const AUDIENCE_NETWORK_POSITIONS = ['classic', 'rewarded_video'] as const;
export const MESSENGER_POSITIONS = ['messenger_home', 'story'] as const;

/** EU member states: ad sets targeting any of them need the DSA beneficiary and payer. */
export const EU_COUNTRIES = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'] as const;

/**
 * The main time zone of a market: the wizard offers it for "start time in the target market's
 * time zone" (the first targeted country's). Countries not listed fall back to the ad account's zone.
 */
export const MARKET_TIME_ZONES: Readonly<Record<string, string>> = {
  US: 'America/New_York', CA: 'America/Toronto', MX: 'America/Mexico_City', BR: 'America/Sao_Paulo', AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago', CO: 'America/Bogota', PE: 'America/Lima', GB: 'Europe/London', IE: 'Europe/Dublin', FR: 'Europe/Paris',
  DE: 'Europe/Berlin', ES: 'Europe/Madrid', IT: 'Europe/Rome', NL: 'Europe/Amsterdam', PT: 'Europe/Lisbon', PL: 'Europe/Warsaw',
  SE: 'Europe/Stockholm', TR: 'Europe/Istanbul', RU: 'Europe/Moscow', AE: 'Asia/Dubai', SA: 'Asia/Riyadh', IN: 'Asia/Kolkata',
  TH: 'Asia/Bangkok', VN: 'Asia/Ho_Chi_Minh', ID: 'Asia/Jakarta', MY: 'Asia/Kuala_Lumpur', SG: 'Asia/Singapore', PH: 'Asia/Manila',
  HK: 'Asia/Hong_Kong', TW: 'Asia/Taipei', JP: 'Asia/Tokyo', KR: 'Asia/Seoul', AU: 'Australia/Sydney', NZ: 'Pacific/Auckland', ZA: 'Africa/Johannesburg',
};

/** Tokens of naming templates; names parse back into them for reports (server lib/naming.ts). */
export const NAME_TOKENS = ['drama', 'product', 'scheme', 'optimizer', 'editor', 'material', 'country', 'account', 'date', 'seq'] as const;
export type NameToken = (typeof NAME_TOKENS)[number];
export const NAMING_TEMPLATE_MAX = 200;
/** The wizard's defaults (a name is trimmed to the platform's 400 characters). */
export const DEFAULT_PUBLISH_NAMING = {
  campaign: '{drama}-{optimizer}-{date}-{seq}',
  adset: '{drama}-{country}-{date}-{seq}',
  ad: '{drama}-{material}-{editor}-{seq}',
} as const;
export const DEFAULT_PUBLISH_NAMING_EC = {
  campaign: '{product}-{optimizer}-{date}-{seq}',
  adset: '{product}-{country}-{date}-{seq}',
  ad: '{product}-{material}-{editor}-{seq}',
} as const;

/** Platform limits the wizard checks before sending (the server checks them again). */
export const PUBLISH_LIMITS = {
  accounts: 50,
  campaignsPerAccount: 50,
  adsetsPerCampaign: 50,
  /** Meta: at most 50 ads per ad set. */
  adsPerAdset: 50,
  /** One scheme creates at most this many ads. */
  adsPerScheme: 5000,
  videos: 50,
  images: 50,
  texts: 10,
  posts: 50,
  /** Dynamic creative: Meta's asset_feed_spec limits. */
  dynamicVideos: 10,
  dynamicTexts: 5,
  nameMax: 400,
  textMax: 2200,
  headlineMax: 255,
  descriptionMax: 255,
  urlTagsMax: 1000,
} as const;

// ---------------------------------------------------------------------------------------------
// The draft the wizard edits (steps 1–4), and what it submits.

const countrySchema = text().trim().toUpperCase().regex(/^[A-Z]{2}$/, 'country');
const namingTemplateSchema = text().trim().min(1).max(NAMING_TEMPLATE_MAX);
/** A money amount typed in major units (50, 49.99; JPY 7500). */
const majorAmount = z.number().positive().max(1_000_000_000);
/** A wall time `YYYY-MM-DDTHH:mm` in a named zone (what people pick in the target market's clock). */
const localDateTimeSchema = text().trim().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'datetime');
const timeZoneSchema = text().trim().min(1).max(64);

/** Step 1: what is promoted. A drama (dj, from the sites' catalogs) with the episode the link opens, or a product (ec). */
export const publishWhatSchema = z.object({
  drama_id: idSchema.nullable().optional(),
  /** The episode the landing link opens (the site's link template {episode}); default 1. */
  episode: z.number().int().min(1).max(10_000).nullable().optional(),
  product_id: idSchema.nullable().optional(),
});
export type PublishWhat = z.infer<typeof publishWhatSchema>;

/**
 * How materials and texts become ads:
 * - cartesian: every video (or image) × every primary text (headlines and descriptions follow
 *   the text's position, cycling) — one ad each;
 * - per_video: one ad per video (or image), texts rotated (video i gets text i mod n);
 * - dynamic: one flexible creative per ad set holding every video and text (Meta's asset_feed_spec).
 */
export const COMBINATION_MODES = ['cartesian', 'per_video', 'dynamic'] as const;
export const combinationModeSchema = z.enum(COMBINATION_MODES);
export type CombinationMode = z.infer<typeof combinationModeSchema>;

/** A video of the library with its cover: an image material, or null for the video's own thumbnail. */
export const publishVideoSchema = z.object({ material_id: idSchema, cover_material_id: idSchema.nullable().optional() });
export type PublishVideo = z.infer<typeof publishVideoSchema>;

export const publishTextsSchema = z.object({
  primary_texts: z.array(text().trim().min(1).max(PUBLISH_LIMITS.textMax)).min(1).max(PUBLISH_LIMITS.texts),
  headlines: z.array(text().trim().min(1).max(PUBLISH_LIMITS.headlineMax)).max(PUBLISH_LIMITS.texts).default([]),
  descriptions: z.array(text().trim().min(1).max(PUBLISH_LIMITS.descriptionMax)).max(PUBLISH_LIMITS.texts).default([]),
  /** ISO 639-1 of the texts (reports group by it). */
  language: text().trim().min(2).max(16).nullable().optional(),
});
export type PublishTexts = z.infer<typeof publishTextsSchema>;

/** An existing page post used as the creative (object_story_id `<page id>_<post id>`). */
export const publishPostSchema = z.object({
  post_id: text().trim().regex(/^\d+_\d+$/, 'post_id'),
  /** Our page the post belongs to. */
  page_id: idSchema,
});
export type PublishPost = z.infer<typeof publishPostSchema>;

/** Step 2: creatives from materials + texts, or existing page posts. */
export const publishCreativesSchema = z.object({
  source: z.enum(['materials', 'posts']).default('materials'),
  videos: z.array(publishVideoSchema).max(PUBLISH_LIMITS.videos).default([]),
  /** Image materials used as ads of their own (not covers). */
  images: z.array(idSchema).max(PUBLISH_LIMITS.images).default([]),
  texts: publishTextsSchema.optional(),
  combination: combinationModeSchema.default('cartesian'),
  posts: z.array(publishPostSchema).max(PUBLISH_LIMITS.posts).default([]),
});
export type PublishCreatives = z.infer<typeof publishCreativesSchema>;

/** Step 3: one ad account with the page, pixel and landing link it uses. */
export const publishAccountSchema = z.object({
  ad_account_id: idSchema,
  /** Our page id (pages.id) the ads run under. */
  page_id: idSchema,
  /** Our pixel id, shared with the account; required for conversion goals. */
  pixel_id: idSchema.nullable().optional(),
  /**
   * The landing link (http/https). The site's link template with the drama and episode filled
   * (/publish/link_preview); placeholders of created objects belong in `url_tags` as macros.
   */
  link: text().trim().min(8).max(2000),
  /** Query parameters the platform appends (its macros {{campaign.id}}, {{adset.id}}, {{ad.id}}… expanded). */
  url_tags: text().trim().max(PUBLISH_LIMITS.urlTagsMax).default(''),
  /** This account's budget in its own currency's major units, instead of the campaign/ad-set default. */
  budget: majorAmount.nullable().optional(),
});
export type PublishAccount = z.infer<typeof publishAccountSchema>;

export const publishWhereSchema = z.object({
  accounts: z.array(publishAccountSchema).min(1).max(PUBLISH_LIMITS.accounts),
});

/**
 * Step 4: how many objects. `ads_per_adset` null: every ad set gets every ad of the combination;
 * a number: the combination's ads are dealt in order over the account's ad sets, that many each.
 */
export const publishStructureSchema = z.object({
  campaigns_per_account: z.number().int().min(1).max(PUBLISH_LIMITS.campaignsPerAccount).default(1),
  adsets_per_campaign: z.number().int().min(1).max(PUBLISH_LIMITS.adsetsPerCampaign).default(1),
  ads_per_adset: z.number().int().min(1).max(PUBLISH_LIMITS.adsPerAdset).nullable().default(null),
});
export type PublishStructure = z.infer<typeof publishStructureSchema>;

/**
 * Campaign settings. budget_level campaign = Advantage campaign budget (CBO: the campaign holds
 * it); adset = each ad set holds `budget`. `budget`, `bid_amount` in major units of `budget_basis`:
 * `account` = each account's own currency, `usd` = US dollars converted per account at the day's rate.
 */
export const publishCampaignSchema = z.object({
  objective: publishObjectiveSchema.default('OUTCOME_SALES'),
  budget_level: z.enum(['campaign', 'adset']).default('campaign'),
  budget_kind: z.enum(['daily', 'lifetime']).default('daily'),
  budget: majorAmount,
  budget_basis: z.enum(['account', 'usd']).default('account'),
  bid_strategy: bidStrategySchema.default('LOWEST_COST_WITHOUT_CAP'),
  /** Bid cap / cost cap, same units as the budget. */
  bid_amount: majorAmount.nullable().optional(),
  /** Minimum ROAS as a ratio (1.5 = 150 %); needs optimization goal VALUE. */
  roas_floor: z.number().positive().max(1000).nullable().optional(),
  /** Lifetime budgets need an end: a wall time in the ad sets' start zone. */
  end_local: localDateTimeSchema.nullable().optional(),
  special_ad_categories: z.array(z.enum(['CREDIT', 'EMPLOYMENT', 'HOUSING', 'ISSUES_ELECTIONS_POLITICS', 'FINANCIAL_PRODUCTS_SERVICES', 'ONLINE_GAMBLING_AND_GAMING'])).max(6).default([]),
});
export type PublishCampaign = z.infer<typeof publishCampaignSchema>;

/** Placements: Advantage+ (automatic) or chosen platforms and positions. */
export const publishPlacementsSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('advantage') }),
  z.object({
    mode: z.literal('manual'),
    publisher_platforms: z.array(z.enum(PUBLISHER_PLATFORMS)).min(1),
    facebook_positions: z.array(z.enum(FACEBOOK_POSITIONS)).default([]),
    instagram_positions: z.array(z.enum(INSTAGRAM_POSITIONS)).default([]),
    audience_network_positions: z.array(z.enum(AUDIENCE_NETWORK_POSITIONS)).default([]),
    messenger_positions: z.array(z.enum(MESSENGER_POSITIONS)).default([]),
  }),
]);
export type PublishPlacements = z.infer<typeof publishPlacementsSchema>;

export const publishAdsetSchema = z.object({
  countries: z.array(countrySchema).min(1).max(50),
  age_min: z.number().int().min(13).max(65).default(18),
  age_max: z.number().int().min(13).max(65).default(65),
  genders: z.enum(['all', 'male', 'female']).default('all'),
  /** Advantage+ audience (targeting_automation.advantage_audience). */
  advantage_audience: z.boolean().default(false),
  placements: publishPlacementsSchema.default({ mode: 'advantage' }),
  optimization_goal: optimizationGoalSchema.default('OFFSITE_CONVERSIONS'),
  /** The pixel's event for conversion goals (the pixel is per account, in `where`). */
  conversion_event: conversionEventSchema.nullable().default('PURCHASE'),
  attribution: attributionSchema.default('7d_click_1d_view'),
  /**
   * When the ad sets start, as a wall time in `start_time_zone` (default: the first country's
   * market zone, else the account's); null = as soon as they are switched on.
   */
  start_local: localDateTimeSchema.nullable().optional(),
  start_time_zone: timeZoneSchema.nullable().optional(),
  /** EU targeting (DSA): who benefits from and who pays for the ads. */
  dsa_beneficiary: text().trim().max(200).nullable().optional(),
  dsa_payor: text().trim().max(200).nullable().optional(),
});
export type PublishAdset = z.infer<typeof publishAdsetSchema>;

export const publishAdSchema = z.object({
  call_to_action: callToActionSchema.default('WATCH_MORE'),
  /** Appended after each account's url_tags (utm parameters…). */
  url_tags: text().trim().max(PUBLISH_LIMITS.urlTagsMax).default(''),
});
export type PublishAd = z.infer<typeof publishAdSchema>;

export const publishNamingSchema = z.object({
  campaign: namingTemplateSchema,
  adset: namingTemplateSchema,
  ad: namingTemplateSchema,
});
export type PublishNaming = z.infer<typeof publishNamingSchema>;

/**
 * After creation: everything stays PAUSED, or is switched on at once when the scheme finishes
 * (`now`), or at an instant (`at`, the wizard converts the chosen zone's wall time) by a start task.
 */
export const publishLaunchSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('paused') }),
  z.object({ mode: z.literal('now') }),
  z.object({ mode: z.literal('at'), at: instantSchema }),
]);
export type PublishLaunch = z.infer<typeof publishLaunchSchema>;

/** The whole wizard: what the preview expands and the submit stores. */
export const publishDraftSchema = z.object({
  platform: platformSchema,
  /** The scheme's name ({scheme} of the naming templates); default: the drama/product and the date. */
  scheme_name: text().trim().max(100).nullable().optional(),
  what: publishWhatSchema,
  creatives: publishCreativesSchema,
  where: publishWhereSchema,
  structure: publishStructureSchema,
  campaign: publishCampaignSchema,
  adset: publishAdsetSchema,
  ad: publishAdSchema,
  naming: publishNamingSchema,
  launch: publishLaunchSchema.default({ mode: 'paused' }),
});
/** What the wizard sends (defaults not yet applied). */
export type PublishDraftInput = z.input<typeof publishDraftSchema>;
/** What the server works on (defaults applied). */
export type PublishDraft = z.output<typeof publishDraftSchema>;

/**
 * How many ads one ad set's share of the combination makes, before `structure` deals them:
 * the count the wizard shows live in step 2.
 */
export function combinationCount(c: Pick<PublishCreatives, 'source' | 'videos' | 'images' | 'combination' | 'posts'> & { texts?: Pick<PublishTexts, 'primary_texts'> | undefined }): number {
  if (c.source === 'posts') return c.posts.length;
  const media = c.videos.length + c.images.length;
  if (!media) return 0;
  if (c.combination === 'dynamic') return 1;
  if (c.combination === 'per_video') return media;
  return media * Math.max(1, c.texts?.primary_texts.length ?? 0);
}

/** Counts of a draft for one account (campaigns, ad sets, ads), as the preview will expand it. */
export function structureCounts(d: { creatives: Parameters<typeof combinationCount>[0]; structure: PublishStructure }): { campaigns: number; adsets: number; ads: number } {
  const variants = combinationCount(d.creatives);
  const campaigns = d.structure.campaigns_per_account;
  const adsets = campaigns * d.structure.adsets_per_campaign;
  const ads = d.structure.ads_per_adset === null ? adsets * variants : Math.min(variants, adsets * d.structure.ads_per_adset);
  return { campaigns, adsets, ads };
}

// ---------------------------------------------------------------------------------------------
// Lookups for the wizard.

const ref = z.object({ id: z.number().int(), name: z.string() });

/** /publish/accounts: the ad accounts the caller may publish to, with what step 3 needs. */
export const publishAccountsBodySchema = z.object({
  platform: platformSchema,
  keyword: text().trim().max(100).optional(),
});
export type PublishAccountsBody = z.infer<typeof publishAccountsBodySchema>;

export const publishOptionPageSchema = z.object({ id: z.number().int(), platform_id: z.string(), name: z.string(), picture_url: z.string().nullable() });
export const publishOptionPixelSchema = z.object({ id: z.number().int(), platform_id: z.string(), name: z.string(), last_fired_at: z.string().nullable() });

/**
 * Why an account cannot be chosen: not active on the platform, no personal account with a valid
 * token reaches it, or it belongs to the other platform (dj/ec).
 */
export const publishBlockSchema = z.enum(['account_disabled', 'no_token', 'other_platform']);

export const publishAccountOptionSchema = z.object({
  id: z.number().int(),
  platform_id: z.string(),
  name: z.string(),
  currency: z.string(),
  timezone_name: z.string(),
  account_status: z.number().int(),
  /** Major units of `currency`. */
  balance: z.number(),
  spend_cap: z.number().nullable(),
  /** The best token status among the personal accounts that reach it (null: none does). */
  token_status: tokenStatusSchema.nullable(),
  token_expires_at: z.string().nullable(),
  /** null = usable. */
  blocked: publishBlockSchema.nullable(),
  /** Pages usable with this account by the caller (主页关联), pixels shared with it. */
  pages: z.array(publishOptionPageSchema),
  pixels: z.array(publishOptionPixelSchema),
  /** The account's minimum daily budget in major units, when the platform tells it. */
  min_daily_budget: z.number().nullable(),
});
export type PublishAccountOption = z.infer<typeof publishAccountOptionSchema>;
export const publishAccountsResultSchema = z.object({
  list: z.array(publishAccountOptionSchema),
  /** Accounts in the company the caller cannot see (for an empty screen's explanation). */
  outside_scope: z.number().int(),
  /** Units per US dollar of each listed currency today (for the USD preview). */
  fx: z.record(z.string(), z.number()),
});
export type PublishAccountsResult = z.infer<typeof publishAccountsResultSchema>;

/** /publish/catalog: dramas (dj) or products (ec) to pick in step 1, with their site. */
export const publishCatalogBodySchema = z.object({
  platform: platformSchema,
  keyword: text().trim().max(100).optional(),
  site_id: idSchema.optional(),
  limit: numberInput(z.number().int().min(1).max(200)).default(50),
});
export const publishCatalogItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['drama', 'product']),
  name: z.string(),
  external_id: z.string(),
  language: z.string().nullable(),
  episode_count: z.number().int().nullable(),
  cover_url: z.string().nullable(),
  site: ref.extend({ domain: z.string(), link_template: z.string(), pixel_id: z.number().int().nullable() }),
  /** Materials of the library preset to it (videos / images). */
  videos: z.number().int(),
  images: z.number().int(),
});
export type PublishCatalogItem = z.infer<typeof publishCatalogItemSchema>;
export const publishCatalogResultSchema = z.object({ list: z.array(publishCatalogItemSchema) });

/** /publish/materials: the library for step 2 (the materials list body; platform required). */
export const publishMaterialsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(MATERIAL_SORT_FIELDS).optional(),
  platform: platformSchema,
  kind: z.enum(['video', 'image']).optional(),
  drama_id: idSchema.optional(),
  product_id: idSchema.optional(),
  keyword: text().trim().max(100).optional(),
  language: text().trim().max(16).optional(),
  /** Also answer, per material, on which of these accounts it is already pushed and ready. */
  ad_account_ids: z.array(idSchema).max(PUBLISH_LIMITS.accounts).optional(),
  /** Only these materials (the wizard names those of a loaded template or past scheme). */
  ids: z.array(idSchema).max(PUBLISH_LIMITS.videos + PUBLISH_LIMITS.images).optional(),
});
export type PublishMaterialsBody = z.infer<typeof publishMaterialsBodySchema>;
export const publishMaterialSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['video', 'image']),
  file_name: z.string(),
  duration_s: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  thumbnail_url: z.string().nullable(),
  file_url: z.string(),
  drama: ref.nullable(),
  product: ref.nullable(),
  language: z.string().nullable(),
  editor: ref.nullable(),
  tags: z.array(z.string()),
  created_at: z.string(),
  /** Of `ad_account_ids`: those where the material is ready (pushed and processed). */
  ready_account_ids: z.array(z.number().int()),
});
export type PublishMaterial = z.infer<typeof publishMaterialSchema>;

/** /publish/link_preview: a site's link template with the drama / product and episode filled. */
export const linkPreviewBodySchema = z.object({
  drama_id: idSchema.nullable().optional(),
  product_id: idSchema.nullable().optional(),
  episode: z.number().int().min(1).max(10_000).nullable().optional(),
});
export const linkPreviewSchema = z.object({
  site: ref.extend({ domain: z.string() }),
  template: z.string(),
  /** The landing link without the created objects' placeholders. */
  link: z.string(),
  /** Those placeholders as the platform's url_tags macros (`c={{campaign.id}}&s={{adset.id}}&a={{ad.id}}`). */
  url_tags: z.string(),
  /** Placeholders that could not become url_tags (in the link's path): the reports cannot read them. */
  unsupported: z.array(z.string()),
  /** The site's pixel, when it has one (the wizard preselects it where it is shared with the account). */
  pixel_id: z.number().int().nullable(),
});
export type LinkPreview = z.infer<typeof linkPreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Preview: every object that will be created, the totals and every check.

/** Where a check came from: our rules, or the platform's validate-only answer. */
export const publishIssueSchema = z.object({
  level: z.enum(['error', 'warning']),
  source: z.enum(['rules', 'platform']),
  /** Stable key (e.g. PUBLISH_BUDGET_TOO_LOW); the message is in the caller's language. */
  code: z.string(),
  message: z.string(),
  /** The draft field it is about, dotted (`campaign.budget`, `where.accounts.2.pixel_id`), when one is. */
  field: z.string().nullable(),
  ad_account_id: z.number().int().nullable(),
  /** The preview object it is about (`key` below), when one is. */
  key: z.string().nullable(),
});
export type PublishIssue = z.infer<typeof publishIssueSchema>;

/** Money of one object: minor units with the currency beside them, major units and USD for display. */
export const publishMoneySchema = z.object({
  kind: z.enum(['daily', 'lifetime']),
  currency: z.string(),
  minor: z.number().int(),
  major: z.number(),
  usd: z.number(),
});
export type PublishMoney = z.infer<typeof publishMoneySchema>;

export const publishPreviewCreativeSchema = z.object({
  kind: z.enum(['video', 'image', 'post', 'dynamic']),
  /** The video or image material (null for posts; the first video for dynamic). */
  material_id: z.number().int().nullable(),
  material_name: z.string().nullable(),
  cover_material_id: z.number().int().nullable(),
  /** Dynamic creatives: every material they hold. */
  material_ids: z.array(z.number().int()),
  primary_text: z.string().nullable(),
  headline: z.string().nullable(),
  description: z.string().nullable(),
  post_id: z.string().nullable(),
});
export type PublishPreviewCreative = z.infer<typeof publishPreviewCreativeSchema>;

export const publishPreviewAdSchema = z.object({
  /** Stable within the draft (`a<account>.c1.s2.ad3`); items keep it as their key. */
  key: z.string(),
  name: z.string(),
  creative: publishPreviewCreativeSchema,
  link: z.string(),
  url_tags: z.string(),
  call_to_action: callToActionSchema,
});
export type PublishPreviewAd = z.infer<typeof publishPreviewAdSchema>;

export const publishPreviewAdsetSchema = z.object({
  key: z.string(),
  name: z.string(),
  budget: publishMoneySchema.nullable(),
  bid_amount: publishMoneySchema.omit({ kind: true }).nullable(),
  countries: z.array(z.string()),
  optimization_goal: optimizationGoalSchema,
  conversion_event: conversionEventSchema.nullable(),
  pixel: ref.nullable(),
  /** UTC instant, and the same as wall time in its zone. */
  start_time: z.string().nullable(),
  start_local: z.string().nullable(),
  start_time_zone: z.string().nullable(),
  end_time: z.string().nullable(),
  ads: z.array(publishPreviewAdSchema),
});
export type PublishPreviewAdset = z.infer<typeof publishPreviewAdsetSchema>;

export const publishPreviewCampaignSchema = z.object({
  key: z.string(),
  name: z.string(),
  objective: publishObjectiveSchema,
  bid_strategy: bidStrategySchema,
  /** The campaign budget (CBO); null when the ad sets hold it. */
  budget: publishMoneySchema.nullable(),
  adsets: z.array(publishPreviewAdsetSchema),
});
export type PublishPreviewCampaign = z.infer<typeof publishPreviewCampaignSchema>;

export const publishPreviewAccountSchema = z.object({
  ad_account_id: z.number().int(),
  platform_id: z.string(),
  name: z.string(),
  currency: z.string(),
  timezone_name: z.string(),
  page: ref.extend({ platform_id: z.string() }).nullable(),
  pixel: ref.extend({ platform_id: z.string() }).nullable(),
  campaigns: z.array(publishPreviewCampaignSchema),
  /** Materials still to push to this account before its ads can be made (the engine pushes them first). */
  materials_to_push: z.array(z.number().int()),
  counts: z.object({ campaigns: z.number().int(), adsets: z.number().int(), ads: z.number().int() }),
  daily_budget: publishMoneySchema.omit({ kind: true }).nullable(),
});
export type PublishPreviewAccount = z.infer<typeof publishPreviewAccountSchema>;

export const publishTotalsSchema = z.object({
  accounts: z.number().int(),
  campaigns: z.number().int(),
  adsets: z.number().int(),
  ads: z.number().int(),
  /** Daily budgets summed per currency (lifetime budgets are not daily and are not in it). */
  daily_budget: z.array(z.object({ currency: z.string(), minor: z.number().int(), major: z.number(), usd: z.number() })),
  daily_budget_usd: z.number(),
  lifetime_budget_usd: z.number(),
});
export type PublishTotals = z.infer<typeof publishTotalsSchema>;

/** /publish/preview → what will be created; `ok` is false when any issue is an error (submit refuses). */
export const publishPreviewSchema = z.object({
  ok: z.boolean(),
  scheme_name: z.string(),
  issues: z.array(publishIssueSchema),
  totals: publishTotalsSchema,
  accounts: z.array(publishPreviewAccountSchema),
  /** Whether the platform's validate-only checks ran (false when `validate` was off or no token reached an account). */
  platform_checked: z.boolean(),
});
export type PublishPreview = z.infer<typeof publishPreviewSchema>;

export const publishPreviewBodySchema = z.object({
  draft: publishDraftSchema,
  /** Run the platform's validate-only checks too (default); off for a quick live count. */
  validate: flagInput.default(true),
});
export type PublishPreviewBody = z.infer<typeof publishPreviewBodySchema>;

export const publishSubmitBodySchema = z.object({
  draft: publishDraftSchema,
  /** The template the draft came from (kept on the scheme). */
  template_id: idSchema.nullable().optional(),
});
export type PublishSubmitBody = z.infer<typeof publishSubmitBodySchema>;
/** Submit refused by a check: code -2 with the message of the first error and `data.issues`. */
export const publishSubmitResultSchema = z.object({ scheme_id: z.number().int(), task_id: z.number().int(), totals: publishTotalsSchema });

// ---------------------------------------------------------------------------------------------
// Schemes (方案) and their items.

/**
 * queued → running → done | partial (some items failed) | failed (none created) | cancelled.
 * waiting: paused on purpose (rate limit, videos processing) and resumes by itself.
 * cancelling: cancel asked, the current item finishes first.
 */
export const SCHEME_STATUSES = ['queued', 'running', 'waiting', 'done', 'partial', 'failed', 'cancelling', 'cancelled'] as const;
export const schemeStatusSchema = z.enum(SCHEME_STATUSES);
export type SchemeStatus = z.infer<typeof schemeStatusSchema>;

export const SCHEME_ITEM_LEVELS = ['campaign', 'adset', 'creative', 'ad'] as const;
export const schemeItemLevelSchema = z.enum(SCHEME_ITEM_LEVELS);
export type SchemeItemLevel = z.infer<typeof schemeItemLevelSchema>;

/**
 * pending → creating (the call is out; a lookup precedes any retry) → created | failed.
 * cancelled: not attempted because the scheme was cancelled.
 */
export const SCHEME_ITEM_STATUSES = ['pending', 'creating', 'created', 'failed', 'cancelled'] as const;
export const schemeItemStatusSchema = z.enum(SCHEME_ITEM_STATUSES);
export type SchemeItemStatus = z.infer<typeof schemeItemStatusSchema>;

export const schemeCountsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  creating: z.number().int(),
  created: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type SchemeCounts = z.infer<typeof schemeCountsSchema>;

export const schemeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  platform: platformSchema,
  status: schemeStatusSchema,
  drama: ref.nullable(),
  product: ref.nullable(),
  created_by: ref,
  department: ref.nullable(),
  template: ref.nullable(),
  launch: publishLaunchSchema,
  /** Items by status, and what exists of each level. */
  counts: schemeCountsSchema,
  created_objects: z.object({ campaigns: z.number().int(), adsets: z.number().int(), ads: z.number().int() }),
  planned: z.object({ accounts: z.number().int(), campaigns: z.number().int(), adsets: z.number().int(), ads: z.number().int() }),
  daily_budget_usd: z.number(),
  /** The scheme's current run (the task list row), and the start task when launch is `at` / `now`. */
  task_id: z.number().int().nullable(),
  start_task_id: z.number().int().nullable(),
  /** Why it waits (rate limit, videos processing…), in the caller's language. */
  message: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Scheme = z.infer<typeof schemeSchema>;

export const SCHEME_SORT_FIELDS = ['id', 'created_at', 'finished_at'] as const;
export const listSchemesBodySchema = pageBodySchema.extend({
  sort_field: z.enum(SCHEME_SORT_FIELDS).optional(),
  platform: platformSchema.optional(),
  status: schemeStatusSchema.optional(),
  keyword: text().trim().max(100).optional(),
  created_by: idSchema.optional(),
  drama_id: idSchema.optional(),
  product_id: idSchema.optional(),
  /** Days in the reporting zone, inclusive. */
  date_from: z.iso.date({ message: 'date' }).optional(),
  date_to: z.iso.date({ message: 'date' }).optional(),
});
export type ListSchemesBody = z.infer<typeof listSchemesBodySchema>;

export const schemeItemSchema = z.object({
  id: z.number().int(),
  level: schemeItemLevelSchema,
  /** The preview key (`a12.c1.s2.ad3`). */
  key: z.string(),
  parent_id: z.number().int().nullable(),
  ad_account: ref.extend({ platform_id: z.string(), currency: z.string() }),
  name: z.string(),
  status: schemeItemStatusSchema,
  /** The platform's id once created. */
  platform_id: z.string().nullable(),
  /** Our mirror row (ad_campaigns / ad_sets / ads id) once created and mirrored. */
  object_id: z.number().int().nullable(),
  /** What it waits for while pending: a material push, a video still processing, a rate limit. */
  waiting_for: z.enum(['material_push', 'video_processing', 'rate_limit']).nullable(),
  /** The platform's reason (plain words) or ours, in the caller's language. */
  error: z.string().nullable(),
  attempts: z.number().int(),
  material_id: z.number().int().nullable(),
  updated_at: z.string(),
});
export type SchemeItem = z.infer<typeof schemeItemSchema>;

export const listSchemeItemsBodySchema = pageBodySchema.extend({
  scheme_id: idSchema,
  status: schemeItemStatusSchema.optional(),
  level: schemeItemLevelSchema.optional(),
  ad_account_id: idSchema.optional(),
});
export type ListSchemeItemsBody = z.infer<typeof listSchemeItemsBodySchema>;
export const schemeItemPageSchema = pageResultSchema(schemeItemSchema);

/** /publish-schemes/get: the scheme, its draft, and progress per account. */
export const schemeDetailSchema = schemeSchema.extend({
  draft: publishDraftSchema,
  accounts: z.array(
    z.object({
      ad_account: ref.extend({ platform_id: z.string(), currency: z.string() }),
      counts: schemeCountsSchema,
    }),
  ),
});
export type SchemeDetail = z.infer<typeof schemeDetailSchema>;

export const schemeActionResultSchema = z.object({
  /** Items the action touched (retried, cancelled). */
  items: z.number().int(),
  task_id: z.number().int().nullable(),
});

/** "New from past scheme": its draft, to load in the wizard (name cleared, launch back to paused). */
export const schemeDraftResultSchema = z.object({ draft: publishDraftSchema, source_scheme_id: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Templates: the settings of steps 3–4, personal or shared with the department.

/** What a template holds: accounts (with page, pixel, link), structure, settings, naming, launch. */
export const publishTemplateSettingsSchema = z.object({
  where: z.object({ accounts: z.array(publishAccountSchema).max(PUBLISH_LIMITS.accounts) }),
  structure: publishStructureSchema,
  campaign: publishCampaignSchema,
  adset: publishAdsetSchema,
  ad: publishAdSchema,
  naming: publishNamingSchema,
  launch: publishLaunchSchema.default({ mode: 'paused' }),
});
export type PublishTemplateSettings = z.output<typeof publishTemplateSettingsSchema>;

export const publishTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  platform: platformSchema,
  /** personal: the owner only; department: everyone of the owner's department sees and loads it. */
  visibility: z.enum(['personal', 'department']),
  owner: ref,
  department: ref.nullable(),
  /** Whether the caller may edit and delete it (its owner, or a manager). */
  editable: z.boolean(),
  settings: publishTemplateSettingsSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type PublishTemplate = z.infer<typeof publishTemplateSchema>;

export const listTemplatesBodySchema = z.object({ platform: platformSchema, keyword: text().trim().max(100).optional() });
export const saveTemplateBodySchema = z.object({
  /** Absent: a new template. */
  id: idSchema.optional(),
  name: text().trim().min(1).max(64),
  platform: platformSchema,
  visibility: z.enum(['personal', 'department']).default('personal'),
  settings: publishTemplateSettingsSchema,
});
export type SaveTemplateBody = z.infer<typeof saveTemplateBodySchema>;
