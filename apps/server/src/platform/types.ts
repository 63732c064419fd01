/**
 * The ad platform in our own vocabulary (STYLE.md §7). Services talk to Meta only through
 * AdPlatformClient; vendor field names, codes and units never leave the adapter. Money is in
 * minor units of the account currency where it comes from budgets and balances (`*_minor`),
 * major units where Insights report it.
 */

/** What went wrong, in terms a service can act on (reference §15). */
export type PlatformErrorKind =
  | 'rate_limited' // 4, 17, 32, 613, 80000–80014: back off and retry later
  | 'auth_expired' // 190/463: the token expired; the personal account needs a new one
  | 'auth_invalid' // 190 others, 102: revoked, password changed, app removed
  | 'permission' // 10, 200–299: a scope or role is missing
  | 'invalid_request' // 100 and most others: fix the request
  | 'not_found' // 100/33, 803: no such object (or not visible to this token)
  | 'unavailable'; // 1, 2, 5xx, time-outs, dropped connections: transient

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly details: {
      retryable: boolean;
      code?: number;
      subcode?: number;
      /** When the platform said how long to wait (rate limits). */
      retryAfterMs?: number;
      /** Meta's request id, for support. */
      fbtraceId?: string;
      /** The user-facing title/message Meta gives, when it gives one. */
      userTitle?: string;
      userMessage?: string;
      /** `error_data`, parsed when it is JSON text (e.g. the expected offsets of a video chunk). */
      data?: unknown;
    },
  ) {
    super(message);
    this.name = 'PlatformError';
  }
  get retryable() {
    return this.details.retryable;
  }
}

export interface TokenInfo {
  valid: boolean;
  userId: string | null;
  /** USER, SYSTEM_USER, PAGE, APP */
  type: string | null;
  scopes: string[];
  /** null = never expires. */
  expiresAt: Date | null;
  dataAccessExpiresAt: Date | null;
  issuedAt: Date | null;
}

export interface ExchangedToken {
  accessToken: string;
  /** null when the platform gave no expiry (never expires). */
  expiresAt: Date | null;
}

export interface PlatformUser {
  id: string;
  name: string;
}

export interface PlatformAdAccount {
  /** act_<n> */
  id: string;
  accountId: string;
  name: string;
  currency: string;
  timezoneName: string;
  timezoneOffsetHours: number;
  accountStatus: number;
  disableReason: number;
  amountSpentMinor: number;
  balanceMinor: number;
  /** null when no cap is set ("0" on the platform). */
  spendCapMinor: number | null;
  businessId: string | null;
  businessName: string | null;
}

export interface PlatformPage {
  id: string;
  name: string;
  category: string | null;
  pictureUrl: string | null;
  /** What this user may do on the page (ADVERTISE, CREATE_CONTENT, …). */
  tasks: string[];
  /** The page access token, when the user token is allowed to see it. */
  accessToken: string | null;
}

export interface PlatformPixel {
  id: string;
  name: string;
  lastFiredAt: Date | null;
  ownerBusinessId: string | null;
  /** act_ ids of the ad accounts the pixel was found on. */
  adAccountIds: string[];
}

/** Options every call may take. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** An image in an ad account's library: the platform names it by a hash (reference §7). */
export interface PlatformImage {
  hash: string;
  url: string | null;
}

/** uploading: bytes still missing; processing: the platform encodes it; ready: usable in ads. */
export type PlatformVideoStatus = 'uploading' | 'processing' | 'ready' | 'error' | 'expired';

export interface PlatformVideo {
  id: string;
  title: string | null;
  description: string | null;
  status: PlatformVideoStatus;
  /** 0–100 while processing. */
  progress: number;
  /** The platform's reason when the status is error. */
  errorMessage: string | null;
  /** A still of the video (a usable ad thumbnail once the video is ready). */
  pictureUrl: string | null;
}

/** A chunked video upload under way: kept by the caller, so a run that died can resume it. */
export interface VideoUploadSession {
  videoId: string;
  sessionId: string;
}

/** Where the bytes of a video come from: read in the chunks the platform asks for, never whole. */
export interface VideoSource {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
}

export interface UploadVideoInput {
  title: string;
  /** Also a marker: findAdVideo looks videos up by it. */
  description: string;
  /** An earlier session of this upload (its video id and session), to continue instead of starting over. */
  resume?: VideoUploadSession | null;
  /** Called once the platform opened the session, before any byte is sent: persist it. */
  onSession?(session: VideoUploadSession): Promise<void>;
  onProgress?(sent: number, total: number): void;
}

/** The ad platform, as the product uses it. One implementation speaks HTTP to the Graph API or the simulator. */
export interface AdPlatformClient extends AdObjectsApi {
  /** The login dialog a person opens to grant our app access (reference §11). */
  oauthDialogUrl(input: { redirectUri: string; state: string; scopes: readonly string[] }): string;
  /** Code from the dialog → a short-lived token → a long-lived (~60 day) one. */
  exchangeCode(input: { code: string; redirectUri: string }, opts?: CallOptions): Promise<ExchangedToken>;
  exchangeLongLived(token: string, opts?: CallOptions): Promise<ExchangedToken>;
  /** debug_token with the app token: validity, scopes, expiry; never throws for an invalid token. */
  debugToken(token: string, opts?: CallOptions): Promise<TokenInfo>;
  me(token: string, opts?: CallOptions): Promise<PlatformUser>;
  /** Every ad account the token reaches (all pages of /me/adaccounts). */
  listAdAccounts(token: string, opts?: CallOptions): Promise<PlatformAdAccount[]>;
  getAdAccount(token: string, adAccountId: string, opts?: CallOptions): Promise<PlatformAdAccount>;
  /** Pages the token's user has a role on, with page tokens. */
  listPages(token: string, opts?: CallOptions): Promise<PlatformPage[]>;
  /**
   * A page post made with the page's token (pages_manage_posts): a link post (`/feed`), a photo
   * (`/photos`, the image as a file part) or a video (`/videos`, the file as `source`), published
   * or not (an unpublished "dark" post only ads show). Not idempotent: look up (findPagePost)
   * before resending one whose answer was lost.
   */
  createPagePost(pageToken: string, pageId: string, input: PagePostInput, opts?: CallOptions): Promise<{ postId: string; mediaId: string | null }>;
  /**
   * One cursor page of the page's posts that ads may use, published or not, newest first
   * (`promotable_posts`); `after` is the cursor of the next page, null on the last.
   */
  listPagePosts(pageToken: string, pageId: string, opts?: CallOptions & { limit?: number; after?: string }): Promise<{ posts: PlatformPagePost[]; after: string | null }>;
  /** One post as it is now (live or still scheduled); null when it no longer exists. */
  getPagePost(pageToken: string, postId: string, opts?: CallOptions): Promise<PlatformPagePost | null>;
  /**
   * Moves a scheduled post that has not gone live to another time (10 minutes to 30 days ahead);
   * the platform refuses a post that is live. Setting the same time again is harmless.
   */
  reschedulePagePost(pageToken: string, postId: string, at: Date, opts?: CallOptions): Promise<void>;
  /** Deletes a post from its page (live or not); `not_found` when it no longer exists. */
  deletePagePost(pageToken: string, postId: string, opts?: CallOptions): Promise<void>;
  /** The post a lost create made, found by kind and message (and for videos the title): null when none. */
  findPagePost(pageToken: string, pageId: string, input: Pick<PagePostInput, 'kind' | 'message' | 'title'>, exclude: ReadonlySet<string>, opts?: CallOptions): Promise<{ postId: string; mediaId: string | null } | null>;
  /** Pixels of the given ad accounts (batched), each with the accounts it was found on. */
  listPixels(token: string, adAccountIds: readonly string[], opts?: CallOptions): Promise<PlatformPixel[]>;
  /** Adds an image to the account's library. The hash depends on the content only: uploading the same bytes again is harmless. */
  uploadAdImage(token: string, adAccountId: string, image: { data: Uint8Array; filename: string }, opts?: CallOptions): Promise<PlatformImage>;
  /**
   * Uploads a video in chunks (start, transfer…, finish), resuming `input.resume` when it is still
   * open on the platform (a dead session's video is deleted first). Answers the video id; the
   * platform then processes it (getAdVideo).
   */
  uploadAdVideo(token: string, adAccountId: string, source: VideoSource, input: UploadVideoInput, opts?: CallOptions): Promise<{ videoId: string }>;
  getAdVideo(token: string, videoId: string, opts?: CallOptions): Promise<PlatformVideo>;
  /** The account's video whose description is exactly `description`, if any (newest first). */
  findAdVideo(token: string, adAccountId: string, description: string, opts?: CallOptions): Promise<PlatformVideo | null>;
  deleteAdVideo(token: string, videoId: string, opts?: CallOptions): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Campaigns, ad sets, ads, creatives and their insights (reference §3–§6, §12; issue 7).

export type PlatformLevel = 'campaign' | 'adset' | 'ad';

/** Fields common to campaigns, ad sets and ads as the platform reports them. */
export interface PlatformAdObjectBase {
  id: string;
  name: string;
  /** ACTIVE PAUSED DELETED ARCHIVED (configured). */
  status: string;
  effectiveStatus: string;
  createdTime: Date | null;
  updatedTime: Date | null;
}

export interface PlatformBudget {
  /** Minor units of the account currency; null when not set here. */
  dailyBudgetMinor: number | null;
  lifetimeBudgetMinor: number | null;
  budgetRemainingMinor: number | null;
  bidStrategy: string | null;
  startTime: Date | null;
  endTime: Date | null;
}

export interface PlatformCampaign extends PlatformAdObjectBase, PlatformBudget {
  objective: string | null;
  buyingType: string | null;
  specialAdCategories: string[];
}

export interface PlatformTargetingSummary {
  countries: string[];
  ageMin: number | null;
  ageMax: number | null;
  /** 1 male, 2 female; empty = all. */
  genders: number[];
  publisherPlatforms: string[];
  positions: string[];
  advantageAudience: number | null;
}

export interface PlatformAdSet extends PlatformAdObjectBase, PlatformBudget {
  campaignId: string;
  bidAmountMinor: number | null;
  /** Basis points of the ROAS floor (bid_constraints.roas_average_floor). */
  roasFloor: number | null;
  optimizationGoal: string | null;
  billingEvent: string | null;
  pixelId: string | null;
  customEventType: string | null;
  attributionSpec: unknown;
  targeting: PlatformTargetingSummary;
}

export interface PlatformAd extends PlatformAdObjectBase {
  campaignId: string;
  adsetId: string;
  creativeId: string | null;
}

export interface PlatformCreative {
  id: string;
  name: string;
  status: string | null;
  objectStoryId: string | null;
  videoId: string | null;
  imageHash: string | null;
  pageId: string | null;
  callToAction: string | null;
  linkUrl: string | null;
  urlTags: string | null;
  texts: { message?: string; title?: string; description?: string };
  createdTime: Date | null;
}

/** What to list: everything (every effective status, deleted and archived too), or what changed since. */
export interface ListAdObjectsOptions extends CallOptions {
  /** Only objects whose updated_time is later (incremental sync). */
  updatedSince?: Date;
  /** Only these platform ids. */
  ids?: readonly string[];
  /** Only children of these campaigns (ad sets, ads). */
  campaignIds?: readonly string[];
  /** Only children of these ad sets (ads). */
  adsetIds?: readonly string[];
  /** Only objects with exactly this name (to find what an earlier attempt created). */
  name?: string;
}

/** One ad's figures for one day of the account's time zone; money in minor units of the account currency. */
export interface PlatformAdDay {
  adId: string;
  adsetId: string | null;
  campaignId: string | null;
  /** YYYY-MM-DD in the account zone. */
  date: string;
  spendMinor: number;
  impressions: number;
  clicks: number;
  linkClicks: number;
  landingPageViews: number;
  /** From exactly one action type (`purchase`, else `offsite_conversion.fb_pixel_purchase`). */
  purchases: number;
  purchaseValueMinor: number;
  addToCart: number;
  initiateCheckout: number;
  videoPlays: number;
  videoP25: number;
  videoP50: number;
  videoP75: number;
  videoP95: number;
  videoP100: number;
  thruplays: number;
  /** Average watch time × plays, so it sums. */
  videoWatchMs: number;
}

/** One ad's figures for one hour of the account's day. */
export interface PlatformAdHour {
  adId: string;
  date: string;
  /** 0–23 on the account's clock. */
  hour: number;
  spendMinor: number;
  impressions: number;
  clicks: number;
}

export interface InsightsRange {
  /** YYYY-MM-DD, account zone, inclusive. */
  since: string;
  until: string;
}

export interface InsightsOptions extends CallOptions {
  /** Account currency, for minor units (insights report major units). */
  currency: string;
  /** Through an async report run (large accounts): started, then polled until done. */
  async?: boolean;
  /** Async runs: how long to wait for the run before giving up (PlatformError unavailable). */
  asyncTimeoutMs?: number;
}

export interface UpdateAdObjectInput {
  status?: 'ACTIVE' | 'PAUSED';
  name?: string;
  dailyBudgetMinor?: number;
  lifetimeBudgetMinor?: number;
  bidAmountMinor?: number;
}

export interface CopyAdObjectInput {
  /** Target parent: ad sets into a campaign, ads into an ad set (same account). */
  parentId?: string;
  deepCopy?: boolean;
  statusOption?: 'ACTIVE' | 'PAUSED' | 'INHERITED_FROM_SOURCE';
  renameSuffix?: string;
  renamePrefix?: string;
  /** Campaign copies only (the platform refuses them on ad sets and ads). */
  campaignOverrides?: { name?: string; dailyBudgetMinor?: number; lifetimeBudgetMinor?: number; bidStrategy?: string };
  /** Ad copies only: another creative. */
  creativeId?: string;
}

export interface CopyResult {
  /** The top-level copy. */
  copiedId: string;
  /** Every object copied: level, source and copy ids. */
  objects: { level: PlatformLevel; sourceId: string; copiedId: string }[];
}

/** Options of a create call: `validateOnly` asks the platform to check the call and create nothing (execution_options). */
export interface CreateOptions extends CallOptions {
  validateOnly?: boolean;
}

/** A campaign to create (reference §3). Without a campaign budget the ad sets hold the budgets and budget sharing is sent off. */
export interface CreateCampaignInput {
  name: string;
  objective: string;
  status: 'ACTIVE' | 'PAUSED';
  specialAdCategories: readonly string[];
  /** Campaign budget (Advantage campaign budget); absent: the ad sets hold the budgets. */
  dailyBudgetMinor?: number | null;
  lifetimeBudgetMinor?: number | null;
  /** With a campaign budget the strategy lives here; otherwise on the ad sets. */
  bidStrategy?: string | null;
  /** Lifetime campaign budgets need an end. */
  stopTime?: Date | null;
  buyingType?: string | null;
  startTime?: Date | null;
  /** Same as stopTime (a mirrored campaign's end, when copied). */
  endTime?: Date | null;
}

/** A create of ad set / ad from a mirrored object's settings (copy to another account or with another pixel), or from a publish scheme. */
export interface CreateAdSetInput {
  campaignId: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  dailyBudgetMinor?: number | null;
  lifetimeBudgetMinor?: number | null;
  bidAmountMinor?: number | null;
  bidStrategy?: string | null;
  /** Minimum ROAS in basis points (10000 = 1.0; bid_constraints.roas_average_floor). */
  roasFloor?: number | null;
  billingEvent: string;
  optimizationGoal: string;
  promotedObject?: { pixelId: string; customEventType: string } | null;
  targeting: unknown;
  startTime?: Date | null;
  endTime?: Date | null;
  /** attribution_spec as the platform takes it ([{event_type, window_days}]). */
  attributionSpec?: readonly { event_type: string; window_days: number }[] | null;
  destinationType?: string | null;
  /** EU targeting (DSA): who benefits from and who pays for the ads. */
  dsaBeneficiary?: string | null;
  dsaPayor?: string | null;
  /** The ad set holds dynamic (flexible) creatives. */
  dynamicCreative?: boolean;
}

/** A creative to create (reference §6): a video or image with texts (a dark post), an existing page post, or a dynamic creative. */
export type CreateCreativeInput = {
  name: string;
  urlTags?: string | null;
} & (
  | {
      kind: 'video' | 'image';
      pageId: string;
      /** The video (kind video) and its thumbnail's image hash, or the image's hash. */
      videoId?: string;
      imageHash: string;
      link: string;
      message: string | null;
      headline: string | null;
      description: string | null;
      callToAction: string;
    }
  | { kind: 'post'; objectStoryId: string }
  | {
      kind: 'dynamic';
      pageId: string;
      videos: readonly { videoId: string; thumbnailHash: string }[];
      imageHashes: readonly string[];
      bodies: readonly string[];
      titles: readonly string[];
      descriptions: readonly string[];
      link: string;
      callToAction: string;
    }
);

export interface CreateAdInput {
  adsetId: string;
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  creativeId: string;
}

/** One create of a batch (reference §14): what to create under which account. */
export type CreateRequest =
  | { level: 'campaign'; input: CreateCampaignInput }
  | { level: 'adset'; input: CreateAdSetInput }
  | { level: 'creative'; input: CreateCreativeInput }
  | { level: 'ad'; input: CreateAdInput };

/**
 * A create's outcome in a batch. `unknown`: no answer came back for it (a dropped or timed-out
 * batch item): it may have been applied, so look it up before sending it again.
 */
export type UpdateResult = { ok: true } | { ok: false; error: PlatformError; unknown: boolean };

export type CreateResult = { ok: true; id: string } | { ok: false; error: PlatformError; unknown: boolean };

/** Levels a publish creates, for lookups by name. */
export type CreateLevel = 'campaign' | 'adset' | 'creative' | 'ad';

/**
 * What an ad creative shows, in our words (read from one creative to create another elsewhere):
 * an existing page post, or a video / link / photo story on a page.
 */
export interface CreativeSpec {
  name: string;
  kind: 'post' | 'video' | 'link' | 'photo';
  pageId: string | null;
  instagramUserId: string | null;
  /** kind post: the page post the ad shows. */
  objectStoryId: string | null;
  videoId: string | null;
  /** A link or photo ad's image; a video ad's thumbnail. */
  imageHash: string | null;
  /** A video ad's thumbnail by URL (instead of imageHash). */
  imageUrl: string | null;
  link: string | null;
  message: string | null;
  title: string | null;
  description: string | null;
  callToAction: { type: string; link: string | null } | null;
  urlTags: string | null;
}
/** The ad-object part of the platform client. */
export interface AdObjectsApi {
  listCampaigns(token: string, adAccountId: string, opts?: ListAdObjectsOptions): Promise<PlatformCampaign[]>;
  listAdSets(token: string, adAccountId: string, opts?: ListAdObjectsOptions): Promise<PlatformAdSet[]>;
  listAds(token: string, adAccountId: string, opts?: ListAdObjectsOptions): Promise<PlatformAd[]>;
  listCreatives(token: string, adAccountId: string, opts?: ListAdObjectsOptions): Promise<PlatformCreative[]>;
  /** Per ad per day (account zone), deleted and archived ads included. */
  insightsDaily(token: string, adAccountId: string, range: InsightsRange, opts: InsightsOptions): Promise<PlatformAdDay[]>;
  /** Per ad per hour of the account's day (hourly_stats_aggregated_by_advertiser_time_zone). */
  insightsHourly(token: string, adAccountId: string, range: InsightsRange, opts: InsightsOptions): Promise<PlatformAdHour[]>;
  updateAdObject(token: string, id: string, input: UpdateAdObjectInput, opts?: CallOptions): Promise<void>;
  /**
   * Several updates of one account's objects through the batch endpoint (≤ 50 per request), one
   * outcome per item in order. An item without an answer is not resent (`unknown`: it may have
   * been applied). Throws when a batch request as a whole fails (its items may or may not have
   * been applied): the caller reads the objects back to find out. Ad sets name their campaign
   * (`campaignId`): a batch may not hold two ad sets of one campaign, so those go in rounds.
   */
  updateMany(token: string, adAccountId: string, items: readonly { id: string; input: UpdateAdObjectInput; campaignId?: string }[], opts?: CallOptions): Promise<UpdateResult[]>;
  deleteAdObject(token: string, id: string, opts?: CallOptions): Promise<void>;
  copyAdObject(token: string, level: PlatformLevel, id: string, input: CopyAdObjectInput, opts?: CallOptions): Promise<CopyResult>;
  /** With `validateOnly` nothing is created and the answer's id is '' (the platform only checked the call). */
  createCampaign(token: string, adAccountId: string, input: CreateCampaignInput, opts?: CreateOptions): Promise<{ id: string }>;
  createAdSet(token: string, adAccountId: string, input: CreateAdSetInput, opts?: CreateOptions): Promise<{ id: string }>;
  createCreative(token: string, adAccountId: string, input: CreateCreativeInput, opts?: CreateOptions): Promise<{ id: string }>;
  createAd(token: string, adAccountId: string, input: CreateAdInput, opts?: CreateOptions): Promise<{ id: string }>;
  /**
   * Several creates of one account through the batch endpoint (≤ 50 per request, reference §14),
   * in order; items without an answer are not resent (they come back `unknown`).
   */
  createMany(token: string, adAccountId: string, requests: readonly CreateRequest[], opts?: CreateOptions): Promise<CreateResult[]>;
  /**
   * Objects of the account with exactly this name (under `parentId`: the campaign of an ad set, the
   * ad set of an ad), deleted ones left out, newest first: what a create that lost its answer made.
   */
  findByName(token: string, adAccountId: string, level: CreateLevel, name: string, parentId?: string | null, opts?: CallOptions): Promise<{ id: string; name: string }[]>;
  /** The raw targeting spec of an ad set (to re-create it elsewhere). */
  getAdSetSpec(token: string, id: string, opts?: CallOptions): Promise<{ targeting: unknown; billingEvent: string | null; optimizationGoal: string | null; attributionSpec: unknown }>;
  /** What a creative shows (to create the same elsewhere). */
  getCreativeSpec(token: string, id: string, opts?: CallOptions): Promise<CreativeSpec>;
  createAdCreative(token: string, adAccountId: string, spec: CreativeSpec, opts?: CallOptions): Promise<{ id: string }>;
}

// ---------------------------------------------------------------------------------------------
// Page posts (帖子管理, issue 8; reference §8).

export interface PagePostInput {
  kind: 'link' | 'photo' | 'video';
  message: string;
  /** Link posts: the link; photo/video posts: the call to action's link. */
  link?: string | null;
  /** A call-to-action type (LEARN_MORE, WATCH_MORE…) with `link`. */
  callToAction?: string | null;
  published: boolean;
  /** A scheduled post (with `published: false`): the platform publishes it at this time. */
  scheduledPublishTime?: Date | null;
  /** The video's title (also how a lost create is found again). */
  title?: string | null;
  /** photo / video: the file. */
  file?: { data: Uint8Array; filename: string; contentType?: string } | null;
}

export interface PlatformPagePost {
  id: string;
  message: string | null;
  createdTime: Date | null;
  isPublished: boolean;
  mediaType: 'video' | 'photo' | 'link' | null;
  /** An unpublished post that goes live by itself at this time. */
  scheduledPublishTime: Date | null;
  picture: string | null;
  link: string | null;
  permalink: string | null;
}
