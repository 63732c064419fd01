import type { RateLimitSettings, SimSettings } from './store/state.ts';

// Defaults of everything a test or demo may tune through the control API.

/** Graph versions answered; below the minimum is a dead version (code 2635). */
export const SUPPORTED_VERSIONS = { min: 24, max: 26, default: 25 } as const;

/** Standard-tier quotas of reference §16, per ad account per hour. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  tier: 'standard_access',
  app_calls_per_hour: 200_000,
  account_score_max: 9000,
  account_score_decay_seconds: 300,
  account_block_seconds: 60,
  ads_management_per_hour: 100_000,
  ads_management_per_active_ad: 40,
  ads_insights_per_hour: 190_000,
  ads_insights_per_active_ad: 400,
  ad_creations_per_hour: 1000,
  accounts: {},
};

/** Development-tier quotas (what a new app gets): handy for throttling demos. */
export const DEVELOPMENT_RATE_LIMITS: RateLimitSettings = {
  tier: 'development_access',
  app_calls_per_hour: 200_000,
  account_score_max: 60,
  account_score_decay_seconds: 300,
  account_block_seconds: 300,
  ads_management_per_hour: 300,
  ads_management_per_active_ad: 40,
  ads_insights_per_hour: 600,
  ads_insights_per_active_ad: 400,
  ad_creations_per_hour: 100,
  accounts: {},
};

export function defaultSettings(): SimSettings {
  return {
    review_delay_seconds: 600,
    video_processing_seconds: 120,
    video_processing_seconds_per_mb: 2,
    report_run_seconds: 30,
    video_chunk_bytes: 4 * 1024 * 1024,
    copy_sync_limit: 3,
    require_appsecret_proof: false,
    rate_limits: structuredClone(DEFAULT_RATE_LIMITS),
    async_batch_seconds: 10,
    webhook_retry_base_ms: 1000,
    webhook_max_attempts: 8,
    webhook_timeout_ms: 5000,
    delivery_dynamics: true,
  };
}

/** Lifetimes of tokens issued by the OAuth endpoints (reference §11). */
export const TOKEN_LIFETIME = {
  shortLivedSeconds: 2 * 3600,
  longLivedSeconds: 60 * 86_400,
  dataAccessSeconds: 90 * 86_400,
  authCodeSeconds: 600,
} as const;

/** Scopes a test user gets when the caller names none. */
export const DEFAULT_SCOPES = [
  'ads_management',
  'ads_read',
  'business_management',
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_ads',
  'pages_manage_posts',
  'read_insights',
  'public_profile',
];
