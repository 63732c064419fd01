import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<unknown, string | null | undefined, string | null>;

export interface UsersTable {
  id: Generated<number>;
  account: string;
  name: string;
  remark: Generated<string>;
  /** argon2id of the client's MD5 hex of the password. */
  pwd_hash: string;
  is_admin: Generated<number>;
  is_leader: Generated<number>;
  platform: Generated<string>;
  department_id: number | null;
  status: Generated<'enabled' | 'disabled'>;
  login_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface DepartmentsTable {
  id: Generated<number>;
  name: string;
  parent_id: number | null;
  sort: Generated<number>;
  leader_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  remark: Generated<string>;
  paths: ColumnType<string[], string[] | undefined, string[]>;
  /** 'company': members see every authorization asset (/auth, /operation) as managers do (migration 0006). */
  asset_scope: Generated<'own' | 'company'>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 hex of the token; the token itself is never stored. */
  token_hash: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  first_failed_at: Timestamp;
  locked_until: NullableTimestamp;
}

export interface AuditLogsTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_account: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: Json;
  after: Json;
  ip: string | null;
  request_id: string | null;
  created_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  departments: DepartmentsTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  audit_logs: AuditLogsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type DepartmentRow = Selectable<DepartmentsTable>;
export type RoleRow = Selectable<RolesTable>;

// ---------------------------------------------------------------------------------------------
// Authorization and hosting assets (migration 0002_assets). Declared as a second `DB` interface,
// which TypeScript merges with the one above, so each feature's migration appends its own tables.

type Bool = ColumnType<boolean, boolean | undefined, boolean>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export interface AppSettingsTable {
  key: string;
  value: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PersonalAccountsTable {
  id: Generated<number>;
  fb_user_id: string;
  name: string;
  /** AES-256-GCM of the access token (lib/crypto.ts); null once disconnected. */
  token_enc: string | null;
  token_expires_at: NullableTimestamp;
  data_access_expires_at: NullableTimestamp;
  scopes: TextArray;
  token_type: string | null;
  status: Generated<'valid' | 'expiring' | 'invalid'>;
  /** A key of the message catalogue explaining the status, with its parameters. */
  status_reason_key: string | null;
  status_reason_params: Json;
  owner_user_id: number | null;
  hosted: Bool;
  last_checked_at: NullableTimestamp;
  last_synced_at: NullableTimestamp;
  last_sync_status: 'queued' | 'running' | 'success' | 'skipped' | 'failed' | 'cancelled' | null;
  /** In zh-CN; `last_sync_error_en` holds the English text, null when the same (or written before migration 0005). */
  last_sync_error: string | null;
  last_sync_error_en: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface AdAccountsTable {
  id: Generated<number>;
  /** act_<n> */
  platform_id: string;
  account_id: string;
  name: string;
  currency: string;
  timezone_name: string;
  timezone_offset_hours: ColumnType<number, number | undefined, number>;
  account_status: number;
  disable_reason: ColumnType<number, number | undefined, number>;
  /** Minor units of `currency`. */
  amount_spent_minor: ColumnType<number, number | undefined, number>;
  balance_minor: ColumnType<number, number | undefined, number>;
  spend_cap_minor: number | null;
  business_id: string | null;
  business_name: string | null;
  platform: 'dj' | 'ec' | null;
  hosted: Bool;
  hosted_at: NullableTimestamp;
  remark: Generated<string>;
  last_synced_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PersonalAccountAdAccountsTable {
  personal_account_id: number;
  ad_account_id: number;
  reachable: Bool;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface UserAdAccountsTable {
  user_id: number;
  ad_account_id: number;
  created_at: Timestamp;
}

export interface PagesTable {
  id: Generated<number>;
  platform_id: string;
  name: string;
  category: string | null;
  picture_url: string | null;
  last_synced_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PersonalAccountPagesTable {
  personal_account_id: number;
  page_id: number;
  tasks: TextArray;
  /** AES-256-GCM of the page access token. */
  page_token_enc: string | null;
  reachable: Bool;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface PageAdAccountsTable {
  page_id: number;
  ad_account_id: number;
  created_at: Timestamp;
}

export interface PageUsersTable {
  page_id: number;
  user_id: number;
  created_at: Timestamp;
}

export interface PixelsTable {
  id: Generated<number>;
  platform_id: string;
  name: string;
  last_fired_at: NullableTimestamp;
  owner_business_id: string | null;
  last_synced_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 'platform': found by a sync; 'manual': associated by a person (see migration 0002). */
export type PixelLinkSource = 'platform' | 'manual';

export interface PixelAdAccountsTable {
  pixel_id: number;
  ad_account_id: number;
  source: PixelLinkSource;
  created_at: Timestamp;
}

export interface SitesTable {
  id: Generated<number>;
  name: string;
  domain: string;
  platform: 'dj' | 'ec';
  link_template: string;
  pixel_id: number | null;
  webhook_secret_enc: string;
  /** The secret before the last rotation, valid 24 hours after `webhook_secret_rotated_at` (0011). */
  webhook_secret_prev_enc: string | null;
  webhook_secret_rotated_at: NullableTimestamp;
  remark: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface DramasTable {
  id: Generated<number>;
  site_id: number;
  external_id: string;
  name: string;
  language: string;
  episode_count: number;
  cover_url: string | null;
  tags: TextArray;
  test_status: Generated<'untested' | 'testing' | 'passed' | 'failed'>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface ProductsTable {
  id: Generated<number>;
  site_id: number;
  external_id: string;
  name: string;
  url: string;
  /** Major units of `currency` (a shop price, not a platform amount). */
  price: number;
  currency: string;
  cover_url: string | null;
  tags: TextArray;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface OauthStatesTable {
  id: Generated<number>;
  /** sha256 hex of the state; the state itself only travels through the browser. */
  state_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
  /** sha256 hex of the starting browser's cookie value (0007_oauth_browser); null on older states, which are refused. */
  browser_hash: string | null;
}

export interface DB {
  app_settings: AppSettingsTable;
  personal_accounts: PersonalAccountsTable;
  ad_accounts: AdAccountsTable;
  personal_account_ad_accounts: PersonalAccountAdAccountsTable;
  user_ad_accounts: UserAdAccountsTable;
  pages: PagesTable;
  personal_account_pages: PersonalAccountPagesTable;
  page_ad_accounts: PageAdAccountsTable;
  page_users: PageUsersTable;
  pixels: PixelsTable;
  pixel_ad_accounts: PixelAdAccountsTable;
  sites: SitesTable;
  dramas: DramasTable;
  products: ProductsTable;
  oauth_states: OauthStatesTable;
}

export type PersonalAccountRow = Selectable<PersonalAccountsTable>;
export type AdAccountRow = Selectable<AdAccountsTable>;
export type SiteRow = Selectable<SitesTable>;
export type DramaRow = Selectable<DramasTable>;
export type ProductRow = Selectable<ProductsTable>;

// ---------------------------------------------------------------------------------------------
// Background jobs (migration 0003_jobs; jobs/runner.ts). Merged into `DB` like the blocks above.

export type JobRunStatus = 'queued' | 'running' | 'success' | 'skipped' | 'failed' | 'cancelled';

export interface JobRunsTable {
  id: Generated<number>;
  job_name: string;
  trigger: 'schedule' | 'manual';
  created_by: number | null;
  data: Json;
  status: Generated<JobRunStatus>;
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  /** message and error in zh-CN; the `_en` columns hold the English text, null when the same (or written before migration 0005). */
  message: string | null;
  message_en: string | null;
  summary: Json;
  error: string | null;
  error_en: string | null;
  attempt: Generated<number>;
  boss_job_id: string | null;
  singleton_key: string | null;
  queued_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** The job_processes id of the process running (or that last ran) the current attempt (migration 0008). */
  process_id: string | null;
  /** enqueue(..., { key }): runs of the job with one key never overlap (migration 0008). */
  concurrency_key: string | null;
  /** The run starts no earlier than this, by the job clock (enqueue startAt, a continuation's `at`; migration 0008). */
  start_at: NullableTimestamp;
}

export interface JobSettingsTable {
  name: string;
  schedule: string | null;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  updated_by: number | null;
  updated_at: Timestamp;
}

export interface DB {
  job_runs: JobRunsTable;
  job_settings: JobSettingsTable;
}

export type JobRunRow = Selectable<JobRunsTable>;

// ---------------------------------------------------------------------------------------------
// Materials (migration 0004_materials; features/materials). Merged into `DB` like the blocks above.

export type MaterialPushState = 'pending' | 'uploading' | 'processing' | 'ready' | 'failed';

export interface MaterialsTable {
  id: Generated<number>;
  kind: 'video' | 'image';
  platform: 'dj' | 'ec';
  file_name: string;
  mime_type: string;
  size_bytes: number;
  md5: string;
  /** Seconds; null for images. */
  duration_s: number | null;
  width: number | null;
  height: number | null;
  storage_key: string;
  thumb_key: string | null;
  drama_id: number | null;
  product_id: number | null;
  language: string | null;
  editor_id: number | null;
  tags: TextArray;
  remark: Generated<string>;
  uploader_id: number;
  department_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface MaterialUploadsTable {
  /** The tus upload id. */
  id: string;
  user_id: number;
  material_id: number;
  status: 'created' | 'duplicate';
  size_bytes: number;
  created_at: Timestamp;
}

export interface MaterialPushesTable {
  id: Generated<number>;
  material_id: number;
  ad_account_id: number;
  state: Generated<MaterialPushState>;
  platform_ref: string | null;
  upload_session_id: string | null;
  /** The platform's message when failed. */
  error: string | null;
  /** Or our reason: a message key (contracts/messages.ts) and its parameters. */
  error_key: string | null;
  error_params: Json;
  attempts: Generated<number>;
  pushed_by: number | null;
  task_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface MaterialUsagesTable {
  material_id: number;
  ad_account_id: number;
  platform_ad_id: string;
  /** The local ad (migration 0013); null on usages recorded before. */
  ad_id: number | null;
  role: Generated<'video' | 'cover' | 'image'>;
  created_at: Timestamp;
}

export interface DB {
  materials: MaterialsTable;
  material_uploads: MaterialUploadsTable;
  material_pushes: MaterialPushesTable;
  material_usages: MaterialUsagesTable;
}

export type MaterialRow = Selectable<MaterialsTable>;
export type MaterialPushRow = Selectable<MaterialPushesTable>;

// ---------------------------------------------------------------------------------------------
// Job-runner processes (migration 0008_job_processes; jobs/runner.ts). Merged into `DB` like the blocks above.

export interface JobProcessesTable {
  /** A random id per runner start. */
  id: string;
  host: string;
  pid: number;
  started_at: Timestamp;
  /** Database time of the last heartbeat. */
  last_beat: Timestamp;
}

export interface DB {
  job_processes: JobProcessesTable;
}

// ---------------------------------------------------------------------------------------------
// Orders (migration 0011_orders; features/orders). Merged into `DB` like the blocks above.

export type AttributionSource = 'landing_url' | 'payload';
export type OrderStatus = 'paid' | 'partially_refunded' | 'refunded';
export type OrderSource = 'webhook' | 'import';
export type DeliveryResult = 'ok' | 'bad_signature' | 'stale_timestamp' | 'invalid' | 'conflict' | 'too_large';
type DateColumn = ColumnType<string, string, string>;

export interface OrderBuyersTable {
  id: Generated<number>;
  site_id: number;
  app_user_id: string;
  registered_at: NullableTimestamp;
  country: string | null;
  first_order_no: string;
  first_paid_at: Timestamp;
  acquisition_day: DateColumn;
  campaign_platform_id: string | null;
  adset_platform_id: string | null;
  ad_platform_id: string | null;
  attribution_source: AttributionSource | null;
  attributed_paid_at: NullableTimestamp;
  landing_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrdersTable {
  id: Generated<number>;
  site_id: number;
  order_no: string;
  buyer_id: number;
  app_user_id: string;
  status: OrderStatus;
  currency: string;
  amount_minor: number;
  refunded_minor: Generated<number>;
  amount_usd_cents: number | null;
  refunded_usd_cents: Generated<number>;
  paid_at: Timestamp;
  paid_day: DateColumn;
  refunded_at: NullableTimestamp;
  user_registered_at: NullableTimestamp;
  country: string | null;
  landing_url: string | null;
  campaign_platform_id: string | null;
  adset_platform_id: string | null;
  ad_platform_id: string | null;
  attribution_source: AttributionSource | null;
  is_new_payer: boolean;
  drama_external_id: string | null;
  drama_id: number | null;
  episode: number | null;
  product_external_id: string | null;
  product_id: number | null;
  quantity: number | null;
  unit_price_minor: number | null;
  source: OrderSource;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderRefundsTable {
  id: Generated<number>;
  order_id: number;
  site_id: number;
  currency: string;
  amount_minor: number;
  amount_usd_cents: number | null;
  refunded_at: Timestamp;
  refund_day: DateColumn;
  created_at: Timestamp;
}

export interface OrderDeliveriesTable {
  id: Generated<number>;
  site_id: number;
  received_at: Timestamp;
  events: number | null;
  accepted: Generated<number>;
  duplicates: Generated<number>;
  http_status: number;
  result: DeliveryResult;
  message: Generated<string>;
  bytes: Generated<number>;
}

export interface OrderEventsTable {
  id: Generated<number>;
  site_id: number;
  order_no: string;
  event: 'order.paid' | 'order.refunded';
  order_id: number | null;
  content_hash: string;
  payload: Json;
  source: OrderSource;
  delivery_id: number | null;
  received_at: Timestamp;
}

export interface DB {
  order_buyers: OrderBuyersTable;
  orders: OrdersTable;
  order_refunds: OrderRefundsTable;
  order_deliveries: OrderDeliveriesTable;
  order_events: OrderEventsTable;
}

// Cohort ROI facts (migration 0012_cohorts; features/orders/cohorts.ts).
export interface AdOrderDailyTable {
  ad_platform_id: string;
  day: DateColumn;
  revenue_usd_cents: number;
  payers: number;
  new_payers: number;
  cohort_d0_usd_cents: number;
  cohort_d1_usd_cents: number;
  cohort_d3_usd_cents: number;
  cohort_d7_usd_cents: number;
  cohort_d14_usd_cents: number;
  cohort_d30_usd_cents: number;
  updated_at: Generated<Timestamp>;
}

/** Cohort pairs whose ad_order_daily row is out of date (migration 0019_cohort_dirty; features/orders/cohorts.ts). */
export interface AdOrderDirtyTable {
  id: Generated<string>;
  ad_platform_id: string;
  day: DateColumn;
  marked_at: Generated<Timestamp>;
}

export interface DB {
  ad_order_daily: AdOrderDailyTable;
  ad_order_dirty: AdOrderDirtyTable;
}

// Order facts per campaign and report day (migration 0023_campaign_order_rollup; kept by dim-rollups.ts).
export interface CampaignOrderDailyTable {
  campaign_id: number;
  day: DateColumn;
  ad_account_id: number;
  owner_user_id: number | null;
  platform: 'dj' | 'ec' | null;
  drama_id: number | null;
  product_id: number | null;
  revenue_usd_cents: number;
  payers: number;
  new_payers: number;
  cohort_d0_usd_cents: number;
  cohort_d1_usd_cents: number;
  cohort_d3_usd_cents: number;
  cohort_d7_usd_cents: number;
  cohort_d14_usd_cents: number;
  cohort_d30_usd_cents: number;
}

/**
 * A daily campaign rollup summed over an aligned block of 2–128 days (migration 0025, kept by
 * triggers; features/ad-data/day-blocks.ts). `day` is the block's last day; the facts are the daily
 * table's, read with raw SQL.
 */
export interface CampaignBlocksTable {
  block: number;
  day: DateColumn;
  campaign_id: number;
  ad_account_id: number;
  owner_user_id: number | null;
  platform: 'dj' | 'ec' | null;
  drama_id: number | null;
  product_id: number | null;
  /** Daily rows summed in; the row goes when it reaches 0. */
  n: number;
}

export interface DB {
  campaign_order_daily: CampaignOrderDailyTable;
  campaign_stats_blocks: CampaignBlocksTable;
  campaign_order_blocks: CampaignBlocksTable;
}

// Rollups of the reports by dimension (migration 0015_report_rollups; features/ad-data/dim-rollups.ts).
export type RollupDim = 'all' | 'material' | 'scheme' | 'site' | 'country';

/** The insights facts (spend_usd_cents … video_watch_ms) are read with raw SQL (metrics.ts FACT_COLUMNS). */
export interface AdDimDailyTable {
  dim: RollupDim;
  /** The dimension's id as text, or a country code; '' = none. */
  key: string;
  day: DateColumn;
  /** 0 = organic orders. */
  ad_account_id: number;
  owner_user_id: number | null;
  platform: 'dj' | 'ec' | null;
  drama_id: number | null;
  product_id: number | null;
  spend_usd_cents: Int8;
  revenue_usd_cents: Int8;
  payers: Int8;
  new_payers: Int8;
  orders: Int8;
  cohort_d0_usd_cents: Int8;
  cohort_d1_usd_cents: Int8;
  cohort_d3_usd_cents: Int8;
  cohort_d7_usd_cents: Int8;
  cohort_d14_usd_cents: Int8;
  cohort_d30_usd_cents: Int8;
}

export interface AdDimDirtyTable {
  id: Generated<string>;
  day: DateColumn;
  ad_account_id: number;
  marked_at: Generated<Timestamp>;
}

export interface DB {
  ad_dim_daily: AdDimDailyTable;
  ad_dim_dirty: AdDimDirtyTable;
}

// ---------------------------------------------------------------------------------------------
// User preferences (migration 0009_user_preferences; features/user-preferences). Merged into `DB` like the blocks above.

export interface UserPreferencesTable {
  user_id: number;
  /** `<family>:<name>`, e.g. `columns:/auth/account` (contracts/preferences.ts). */
  key: string;
  value: Json;
  updated_at: Timestamp;
}

export interface DB {
  user_preferences: UserPreferencesTable;
}

// ---------------------------------------------------------------------------------------------
// Ad data (migration 0010_ad_data; docs/ad-data-design.md). Merged into `DB` like the blocks above.

type Int8 = ColumnType<number, number | undefined, number>;
type NullableInt8 = ColumnType<number | null, number | null | undefined, number | null>;
/** `YYYY-MM-DD` (date columns are read as text). */
type DateText = ColumnType<string, string, string>;

export type OwnerSource = 'scheme' | 'name' | 'account' | 'manual';

interface MirrorCommon {
  id: Generated<number>;
  platform_id: string;
  ad_account_id: number;
  name: string;
  status: string;
  effective_status: string;
  created_time: NullableTimestamp;
  updated_time: NullableTimestamp;
  owner_user_id: number | null;
  owner_source: OwnerSource | null;
  scheme_id: number | null;
  scheme_item_id: number | null;
  name_dims: Json;
  deleted_at: NullableTimestamp;
  synced_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface BudgetColumns {
  /** Minor units of `currency`. */
  daily_budget_minor: NullableInt8;
  lifetime_budget_minor: NullableInt8;
  budget_remaining_minor: NullableInt8;
  currency: string;
  bid_strategy: string | null;
  bid_amount_minor: NullableInt8;
  /** Basis points (10000 = ROAS 1.0). */
  roas_floor: number | null;
  start_time: NullableTimestamp;
  end_time: NullableTimestamp;
  drama_id: number | null;
  product_id: number | null;
}

export interface AdCampaignsTable extends MirrorCommon, BudgetColumns {
  objective: string | null;
  buying_type: string | null;
  special_ad_categories: TextArray;
  budget_level: 'campaign' | 'adset';
  platform: 'dj' | 'ec' | null;
}

export interface AdSetsTable extends MirrorCommon, BudgetColumns {
  campaign_id: number;
  optimization_goal: string | null;
  billing_event: string | null;
  pixel_id: string | null;
  custom_event_type: string | null;
  attribution_spec: Json;
  targeting: Json;
  countries: TextArray;
}

export interface AdsTable extends MirrorCommon {
  campaign_id: number;
  adset_id: number;
  creative_id: number | null;
  creative_platform_id: string | null;
  material_id: number | null;
  cover_material_id: number | null;
  landing_url: string | null;
  url_tags: string | null;
  site_id: number | null;
  drama_id: number | null;
  episode: number | null;
  product_id: number | null;
}

export interface AdCreativesTable {
  id: Generated<number>;
  platform_id: string;
  ad_account_id: number;
  name: string;
  status: string | null;
  object_story_id: string | null;
  video_platform_id: string | null;
  image_hash: string | null;
  page_id: string | null;
  call_to_action: string | null;
  link_url: string | null;
  url_tags: string | null;
  texts: Json;
  material_id: number | null;
  cover_material_id: number | null;
  created_time: NullableTimestamp;
  synced_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The insights facts every daily table carries (ad_insights_daily in the account currency). */
export interface InsightFacts {
  spend_minor: Int8;
  impressions: Int8;
  clicks: Int8;
  link_clicks: Int8;
  landing_page_views: Int8;
  purchases: Int8;
  purchase_value_minor: Int8;
  add_to_cart: Int8;
  initiate_checkout: Int8;
  video_plays: Int8;
  video_p25: Int8;
  video_p50: Int8;
  video_p75: Int8;
  video_p95: Int8;
  video_p100: Int8;
  thruplays: Int8;
  video_watch_ms: Int8;
}

export interface AdInsightsDailyTable extends InsightFacts {
  ad_id: number;
  /** The ad account's day. */
  date: DateText;
  synced_at: Timestamp;
}

export interface AdInsightsHourlyTable {
  ad_id: number;
  /** UTC start of the hour. */
  hour: Timestamp;
  spend_minor: Int8;
  impressions: Int8;
  clicks: Int8;
  synced_at: Timestamp;
}

export interface StatFacts extends InsightFacts {
  spend_usd_cents: Int8;
  purchase_value_usd_cents: Int8;
}

export interface AdStatsDailyTable extends StatFacts {
  ad_id: number;
  /** REPORT_TIMEZONE day. */
  day: DateText;
  ad_account_id: number;
  campaign_id: number;
  adset_id: number;
  owner_user_id: number | null;
  platform: 'dj' | 'ec' | null;
  drama_id: number | null;
  product_id: number | null;
  material_id: number | null;
  country: string | null;
  currency: string;
}

export interface CampaignStatsDailyTable extends StatFacts {
  campaign_id: number;
  day: DateText;
  ad_account_id: number;
  owner_user_id: number | null;
  platform: 'dj' | 'ec' | null;
  drama_id: number | null;
  product_id: number | null;
  currency: string;
}

export interface FxRatesTable {
  currency: string;
  day: DateText;
  units_per_usd: number;
  updated_by: number | null;
  updated_at: Timestamp;
}

export type AdOperationAction = 'activate' | 'pause' | 'budget' | 'bid' | 'rename' | 'copy' | 'delete' | 'create';
export type AdLevel = 'campaign' | 'adset' | 'ad';
export type AdOperationResult = 'pending' | 'ok' | 'failed';

export interface AdOperationsTable {
  id: Generated<number>;
  batch_id: string;
  actor_type: 'user' | 'rule' | 'start_task' | 'system';
  actor_user_id: number | null;
  rule_id: number | null;
  start_task_id: number | null;
  action: AdOperationAction;
  level: AdLevel;
  object_id: number | null;
  object_platform_id: string;
  object_name: string;
  ad_account_id: number;
  before: Json;
  after: Json;
  result: Generated<AdOperationResult>;
  /** zh-CN; `error_en` the English text. */
  error: string | null;
  error_en: string | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface AdAccountSyncStateTable {
  ad_account_id: number;
  structure_since: NullableTimestamp;
  structure_synced_at: NullableTimestamp;
  insights_synced_at: NullableTimestamp;
  backfill_synced_at: NullableTimestamp;
  last_active_date: DateText | null;
  status: Generated<'idle' | 'queued' | 'running' | 'paused' | 'failed' | 'no_token'>;
  resume_at: NullableTimestamp;
  last_error: string | null;
  last_error_en: string | null;
  updated_at: Timestamp;
}

export interface DB {
  ad_campaigns: AdCampaignsTable;
  ad_sets: AdSetsTable;
  ads: AdsTable;
  ad_creatives: AdCreativesTable;
  ad_insights_daily: AdInsightsDailyTable;
  ad_insights_hourly: AdInsightsHourlyTable;
  ad_stats_daily: AdStatsDailyTable;
  campaign_stats_daily: CampaignStatsDailyTable;
  fx_rates: FxRatesTable;
  ad_operations: AdOperationsTable;
  ad_account_sync_state: AdAccountSyncStateTable;
}

export type AdCampaignRow = Selectable<AdCampaignsTable>;
export type AdSetRow = Selectable<AdSetsTable>;
export type AdRow = Selectable<AdsTable>;
export type AdOperationRow = Selectable<AdOperationsTable>;

// ---------------------------------------------------------------------------------------------
// Publishing (migration 0013_publish; features/publish). Merged into `DB` like the blocks above.

export type SchemeStatus = 'queued' | 'running' | 'waiting' | 'done' | 'partial' | 'failed' | 'cancelling' | 'cancelled';
export type SchemeItemLevel = 'campaign' | 'adset' | 'creative' | 'ad';
export type SchemeItemStatus = 'pending' | 'creating' | 'created' | 'failed' | 'cancelled';

export interface PublishTemplatesTable {
  id: Generated<number>;
  name: string;
  platform: 'dj' | 'ec';
  visibility: 'personal' | 'department';
  owner_user_id: number;
  department_id: number | null;
  settings: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface PublishSchemesTable {
  id: Generated<number>;
  name: string;
  platform: 'dj' | 'ec';
  status: Generated<SchemeStatus>;
  drama_id: number | null;
  product_id: number | null;
  created_by: number;
  department_id: number | null;
  template_id: number | null;
  draft: Json;
  launch: Json;
  planned: Json;
  daily_budget_usd_cents: Int8;
  start_task_id: number | null;
  message: string | null;
  message_en: string | null;
  cancel_requested_at: NullableTimestamp;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface PublishSchemeItemsTable {
  id: Generated<number>;
  scheme_id: number;
  level: SchemeItemLevel;
  key: string;
  parent_id: number | null;
  creative_item_id: number | null;
  ad_account_id: number;
  seq: number;
  name: string;
  spec: Json;
  status: Generated<SchemeItemStatus>;
  platform_id: string | null;
  object_id: number | null;
  material_id: number | null;
  cover_material_id: number | null;
  waiting_for: 'material_push' | 'video_processing' | 'rate_limit' | null;
  error: string | null;
  error_en: string | null;
  attempts: Generated<number>;
  sent_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  publish_templates: PublishTemplatesTable;
  publish_schemes: PublishSchemesTable;
  publish_scheme_items: PublishSchemeItemsTable;
}

export type PublishSchemeRow = Selectable<PublishSchemesTable>;
export type PublishSchemeItemRow = Selectable<PublishSchemeItemsTable>;

// ---------------------------------------------------------------------------------------------
// Hosting rules and notifications (migration 0014_hosting_rules; features/rules, features/notifications).

export interface HostingRulesTable {
  id: Generated<number>;
  name: string;
  enabled: Bool;
  owner_user_id: number;
  template: string | null;
  scope: Json;
  level: AdLevel;
  filters: Json;
  conditions: Json;
  action: Json;
  action_type: string;
  stop_loss: Json;
  schedule: Json;
  cooldown_minutes: number;
  max_actions_per_run: number;
  notify: Json;
  consecutive_failures: Generated<number>;
  paused_reason: string | null;
  paused_reason_en: string | null;
  /** The last schedule slot evaluated (the engine's idempotency key with the rule). */
  last_slot_at: NullableTimestamp;
  last_evaluated_at: NullableTimestamp;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export type RuleTrigger = 'schedule' | 'manual' | 'revive';
export type RuleEvaluationStatus = 'running' | 'ok' | 'partial' | 'failed' | 'skipped';

export interface RuleEvaluationsTable {
  id: Generated<number>;
  rule_id: number;
  tick_at: Timestamp;
  trigger: RuleTrigger;
  status: Generated<RuleEvaluationStatus>;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  accounts: Generated<number>;
  objects_checked: Generated<number>;
  matched: Generated<number>;
  acted: Generated<number>;
  failed: Generated<number>;
  skipped: Generated<number>;
  revived: Generated<number>;
  error: string | null;
  error_en: string | null;
  data_as_of: NullableTimestamp;
}

export interface RuleFiringsTable {
  id: Generated<number>;
  evaluation_id: number;
  rule_id: number;
  level: AdLevel;
  object_id: number;
  object_platform_id: string;
  object_name: string;
  ad_account_id: number;
  action: string;
  outcome: string;
  values: Json;
  before: Json;
  after: Json;
  error: string | null;
  error_en: string | null;
  operation_id: number | null;
  created_at: Timestamp;
}

export interface RuleStopsTable {
  id: Generated<number>;
  rule_id: number;
  level: AdLevel;
  object_id: number;
  ad_account_id: number;
  firing_id: number | null;
  operation_id: number | null;
  report_day: DateText;
  paused_at: Timestamp;
  revive_at: NullableTimestamp;
  status: Generated<'paused' | 'revived' | 'kept_off' | 'cancelled'>;
  settled_at: NullableTimestamp;
}

export interface NotificationChannelsTable {
  id: Generated<number>;
  name: string;
  type: 'feishu' | 'dingtalk' | 'wecom' | 'slack' | 'email';
  enabled: Bool;
  system_alerts: Bool;
  lang: 'zh' | 'en';
  rate_limit_per_minute: number;
  owner_user_id: number;
  webhook_url_enc: string | null;
  secret_enc: string | null;
  /** SMTP settings and recipients, without the password (smtp_password_enc). */
  email: Json;
  smtp_password_enc: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface NotificationsTable {
  id: Generated<number>;
  channel_id: number;
  kind: string;
  dedupe_key: string | null;
  duplicates: Generated<number>;
  rule_id: number | null;
  title: string;
  title_en: string;
  /** The message in both languages (features/notifications/message.ts). */
  body: Json;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  http_status: number | null;
  error: string | null;
  response: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}

export interface DB {
  hosting_rules: HostingRulesTable;
  rule_evaluations: RuleEvaluationsTable;
  rule_firings: RuleFiringsTable;
  rule_stops: RuleStopsTable;
  notification_channels: NotificationChannelsTable;
  notifications: NotificationsTable;
}

// Page posts (migration 0018_page_posts; features/posts).
export interface PagePostsTable {
  id: Generated<number>;
  batch_id: string;
  page_id: number;
  kind: 'video' | 'photo' | 'link';
  material_id: number | null;
  message: string;
  link: string | null;
  call_to_action: string | null;
  published: boolean;
  /** A scheduled post (migration 0024): unpublished until the platform publishes it at this time. */
  scheduled_at: NullableTimestamp;
  /** `cancelled` (migration 0026): a scheduled post deleted on the platform before it went live. */
  status: Generated<'pending' | 'creating' | 'created' | 'failed' | 'cancelled'>;
  platform_post_id: string | null;
  platform_media_id: string | null;
  error: string | null;
  error_en: string | null;
  attempts: Generated<number>;
  task_id: number | null;
  created_by: number;
  created_at: Timestamp;
  posted_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface DB {
  page_posts: PagePostsTable;
}
