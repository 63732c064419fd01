// The simulator's whole state: plain JSON, persisted as one snapshot. Times are epoch ms
// (sim clock); money is in the ad account currency's minor units.

export type ConfiguredStatus = 'ACTIVE' | 'PAUSED' | 'DELETED' | 'ARCHIVED';
export type TokenType = 'USER' | 'PAGE' | 'SYSTEM_USER';

export interface UserRecord {
  id: string;
  name: string;
  created_at: number;
}

export interface TokenRecord {
  token: string;
  type: TokenType;
  user_id: string;
  page_id?: string;
  /** Page tokens live and die with the user token they were derived from. */
  parent_token?: string;
  app_id: string;
  scopes: string[];
  issued_at: number;
  /** 0 = never expires. */
  expires_at: number;
  data_access_expires_at: number;
  /** Set when revoked: the 190 subcode to answer with (458 / 460 / 467). */
  revoked_subcode?: number;
}

export interface AuthCodeRecord {
  code: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  scopes: string[];
  expires_at: number;
  used: boolean;
}

export interface BusinessRecord {
  id: string;
  name: string;
  owner_user_id: string;
  verification_status: 'verified' | 'not_verified';
  created_at: number;
}

/** Delivery-relevant state of an object from `at` on; a history of these drives the model. */
export interface DeliverySnapshot {
  at: number;
  /** Would deliver, as far as this object is concerned. */
  on: boolean;
  /** Not before this instant (ad review, or the object's own start_time). */
  from?: number;
  /** Not after this instant (end_time / stop_time). */
  until?: number;
  daily_budget?: number;
  lifetime_budget?: number;
}

export interface AdAccountRecord {
  /** Numeric part; the Graph id is `act_<id>`. */
  id: string;
  name: string;
  currency: string;
  timezone_name: string;
  business_id: string;
  /** Whether the account is the business's own or a client's (shared with it). */
  relation: 'owned' | 'client';
  user_ids: string[];
  account_status: number;
  disable_reason: number;
  /** Minor units; 0 = no cap. */
  spend_cap: number;
  spend_cap_action?: string;
  spend_cap_changes: number[];
  /** The EU's beneficiary and payer used for ad sets that name none (the ad account's defaults). */
  default_dsa_beneficiary?: string;
  default_dsa_payor?: string;
  created_at: number;
  history: DeliverySnapshot[];
}

export interface PageRecord {
  id: string;
  name: string;
  category: string;
  business_id: string;
  relation: 'owned' | 'client';
  user_ids: string[];
  created_at: number;
}

export interface PostRecord {
  /** `<page_id>_<n>`. */
  id: string;
  page_id: string;
  message?: string;
  link?: string;
  name?: string;
  description?: string;
  image_hash?: string;
  video_id?: string;
  call_to_action?: Record<string, unknown>;
  /** A page photo (`POST /<page>/photos`): its id and where the image came from. */
  photo_id?: string;
  photo_url?: string;
  is_published: boolean;
  /**
   * A scheduled post (`published=false` with `scheduled_publish_time`): epoch ms at which it goes
   * live by itself; until then it is unpublished (postPublished tells).
   */
  scheduled_publish_time?: number;
  /** Created for an ad (a "dark" post from object_story_spec). */
  is_ad_post: boolean;
  /** Made by the page itself (`/feed`, `/photos`, `/videos`), published or not, rather than inline for an ad. */
  by_page?: boolean;
  created_at: number;
  updated_at: number;
}

export interface PixelRecord {
  id: string;
  name: string;
  business_id: string;
  owner_account_id?: string;
  shared_account_ids: string[];
  created_at: number;
}

interface AdObjectBase {
  id: string;
  account_id: string;
  name: string;
  status: ConfiguredStatus;
  created_at: number;
  updated_at: number;
  history: DeliverySnapshot[];
}

export interface CampaignRecord extends AdObjectBase {
  objective: string;
  special_ad_categories: string[];
  special_ad_category_country?: string[];
  buying_type: string;
  daily_budget?: number;
  lifetime_budget?: number;
  bid_strategy?: string;
  is_adset_budget_sharing_enabled?: boolean;
  spend_cap?: number;
  start_time?: number;
  stop_time?: number;
  promoted_object?: Record<string, unknown>;
  source_campaign_id?: string;
}

export interface AdSetRecord extends AdObjectBase {
  campaign_id: string;
  /** Dynamic creative: its one ad's creative is an asset feed (asset_feed_spec). */
  is_dynamic_creative?: boolean;
  daily_budget?: number;
  lifetime_budget?: number;
  bid_amount?: number;
  bid_strategy?: string;
  bid_constraints?: Record<string, unknown>;
  billing_event: string;
  optimization_goal: string;
  destination_type?: string;
  promoted_object?: Record<string, unknown>;
  targeting: Record<string, unknown>;
  start_time?: number;
  end_time?: number;
  pacing_type?: string[];
  attribution_spec?: unknown[];
  dsa_beneficiary?: string;
  dsa_payor?: string;
  budget_changes: number[];
  source_adset_id?: string;
}

export interface AdRecord extends AdObjectBase {
  adset_id: string;
  campaign_id: string;
  creative_id: string;
  tracking_specs?: unknown[];
  conversion_domain?: string;
  /** Review finishes at this instant unless disapproved. */
  review_until: number;
  disapproved_at?: number;
  source_ad_id?: string;
}

export interface CreativeRecord {
  id: string;
  account_id: string;
  name?: string;
  status: 'ACTIVE' | 'DELETED';
  object_story_id?: string;
  object_story_spec?: Record<string, unknown>;
  effective_object_story_id?: string;
  url_tags?: string;
  degrees_of_freedom_spec?: Record<string, unknown>;
  asset_feed_spec?: Record<string, unknown>;
  object_type: string;
  created_at: number;
}

export interface ImageRecord {
  hash: string;
  account_id: string;
  name: string;
  width: number;
  height: number;
  status: 'ACTIVE' | 'DELETED';
  created_at: number;
  updated_at: number;
}

export interface VideoRecord {
  id: string;
  /** The ad account it was uploaded to; '' for a page video. */
  account_id: string;
  /** A page video (`POST /<page>/videos`) and its post. */
  page_id?: string;
  post_id?: string;
  title?: string;
  description?: string;
  name?: string;
  file_size: number;
  /** Upload done (simple upload, or chunked `finish`); processing starts then. */
  uploaded_at?: number;
  ready_at?: number;
  failed: boolean;
  /** Why processing failed (`POST /__sim/videos/:id/fail {message}`), shown in `status.processing_phase.errors`. */
  error_message?: string;
  created_at: number;
  updated_at: number;
}

export interface UploadSessionRecord {
  id: string;
  video_id: string;
  /** The ad account of an ad video ('' for a page video). */
  account_id: string;
  /** A page video's page (`POST /<page>/videos` with upload_phase). */
  page_id?: string;
  file_size: number;
  received: number;
}

export interface ReportRunRecord {
  id: string;
  account_id: string;
  /** Node the report was requested on (account, campaign, ad set or ad id). */
  node_id: string;
  node_type: 'adaccount' | 'campaign' | 'adset' | 'ad';
  params: Record<string, unknown>;
  created_at: number;
  completes_at: number;
  fails: boolean;
}

/** One item of an asynchronous batch request (`POST /` with `asyncbatch`). */
export interface AsyncSessionRecord {
  id: string;
  name: string;
  user_id: string;
  method: string;
  relative_url: string;
  created_at: number;
  /** Reported as in progress until this instant (the work itself is done on receipt). */
  completes_at: number;
  /** HTTP status and JSON body the item answered with. */
  status_code: number;
  body: unknown;
}

/** A drama a site sells (its `external_id` is what orders carry as `drama_id`). */
export interface SiteDrama {
  external_id: string;
  /** Episodes of the drama; orders carry the episode a buyer unlocked (1…episodes). */
  episodes: number;
  /** Price of one episode (major units of the site currency); some orders unlock one episode. */
  episode_price?: string;
}

/** A product a shop site sells, with its unit price in major units of the site currency. */
export interface SiteProduct {
  external_id: string;
  price: string;
}

/** A recharge package of a drama site (major units of the site currency); a subscription renews. */
export interface SitePackage {
  price: string;
  subscription_days?: number;
}

/** What the dispatcher did for a site (kept with the site, so a restart keeps the counts). */
export interface SiteStats {
  requests: number;
  delivered_events: number;
  failed_requests: number;
  /** Events given up on after their attempts ran out. */
  dropped_events: number;
  last_request_at?: number;
  last_status?: number | null;
}

/**
 * A company site (drama or shop) that sends orders to the app's webhook (control API only):
 * the app registers it with its webhook URL, secret, currency and catalog.
 */
export interface SiteRecord {
  id: string;
  name: string;
  webhook_url: string;
  secret: string;
  /** Only ads whose landing link is on this host (or a subdomain) bring buyers to the site. */
  domain?: string;
  kind: 'drama' | 'shop';
  /** ISO 4217: every amount the site sends is in this currency. */
  currency: string;
  /** The site's clock: `paid_at` and the other instants carry this zone's offset. */
  timezone: string;
  /** Whether the site parses campaign / ad set / ad ids from the landing URL and sends them. */
  parses_ids: boolean;
  /** The site's link template (`…/play/{drama_id}?ep={episode}&c={campaign_id}…`), to read landing URLs. */
  link_template?: string;
  dramas: SiteDrama[];
  products: SiteProduct[];
  /** Recharge packages (drama sites); defaults by currency when empty. */
  packages: SitePackage[];
  /** Share of new payers who arrive without an ad. */
  organic_share: number;
  /** Share of orders refunded later (fully or partly). */
  refund_rate: number;
  /** Most events in one request (1–500). */
  batch_size: number;
  /** Every event due at or before this instant has been delivered or given up on. */
  dispatched_until: number;
  created_at: number;
  updated_at: number;
  secret_updated_at: number;
  stats: SiteStats;
}

export interface RateLimitSettings {
  /** Header tier value. */
  tier: 'development_access' | 'standard_access';
  /** Platform limit: calls per rolling hour per app (X-App-Usage, code 4). */
  app_calls_per_hour: number;
  /** Short-window score per ad account: reads cost 1, writes 3 (code 17 / 2446079). */
  account_score_max: number;
  account_score_decay_seconds: number;
  account_block_seconds: number;
  /** Business-use-case quotas per ad account per rolling hour (codes 80004 / 80000). */
  ads_management_per_hour: number;
  ads_management_per_active_ad: number;
  ads_insights_per_hour: number;
  ads_insights_per_active_ad: number;
  /**
   * Ads created per ad account per rolling hour (Meta ties this to the account's daily spend
   * limit without publishing the formula [U]; code 613 / 1487225 beyond).
   */
  ad_creations_per_hour: number;
  /** Overrides for single ad accounts (numeric id → partial settings). */
  accounts: Record<string, Partial<Omit<RateLimitSettings, 'accounts' | 'tier' | 'app_calls_per_hour'>>>;
}

export interface SimSettings {
  review_delay_seconds: number;
  /** The longest a video takes to process (large files); smaller ones take their size × video_processing_seconds_per_mb, at least 1 s. */
  video_processing_seconds: number;
  /** Processing time per MB (1,000,000 bytes) of the file, in sim seconds. */
  video_processing_seconds_per_mb: number;
  report_run_seconds: number;
  video_chunk_bytes: number;
  /** Objects a synchronous copy may create in all (3 on the real API: the object, its ad sets and ads). */
  copy_sync_limit: number;
  require_appsecret_proof: boolean;
  rate_limits: RateLimitSettings;
  /** How long an asynchronous batch item reports being in progress. */
  async_batch_seconds: number;
  /** Order webhook: first resend delay in real ms (doubling per attempt, at most 5 minutes). */
  webhook_retry_base_ms: number;
  /** Order webhook: attempts before an event is given up on (a request-level failure). */
  webhook_max_attempts: number;
  /** Order webhook: real ms to wait for an answer. */
  webhook_timeout_ms: number;
  /**
   * Learning phase, creative fatigue and daily overspend (up to 125 % a day, 7× a week) in the
   * delivery model. Off: flat per-ad rates and days within their budget, as before they existed.
   */
  delivery_dynamics: boolean;
}

export interface SimState {
  version: 1;
  next_id: number;
  users: Record<string, UserRecord>;
  tokens: Record<string, TokenRecord>;
  auth_codes: Record<string, AuthCodeRecord>;
  businesses: Record<string, BusinessRecord>;
  ad_accounts: Record<string, AdAccountRecord>;
  pages: Record<string, PageRecord>;
  posts: Record<string, PostRecord>;
  pixels: Record<string, PixelRecord>;
  campaigns: Record<string, CampaignRecord>;
  adsets: Record<string, AdSetRecord>;
  ads: Record<string, AdRecord>;
  creatives: Record<string, CreativeRecord>;
  /** Keyed by `<account_id>:<hash>`. */
  images: Record<string, ImageRecord>;
  videos: Record<string, VideoRecord>;
  upload_sessions: Record<string, UploadSessionRecord>;
  report_runs: Record<string, ReportRunRecord>;
  async_sessions: Record<string, AsyncSessionRecord>;
  sites: Record<string, SiteRecord>;
  settings: SimSettings;
}
