// Enumerations and validation tables of reference §3–§6, kept as data so they can be corrected
// in one place (reference §19 says the objective ↔ goal matrix is unverified).

export const OBJECTIVES = ['OUTCOME_SALES', 'OUTCOME_TRAFFIC', 'OUTCOME_LEADS', 'OUTCOME_ENGAGEMENT', 'OUTCOME_AWARENESS', 'OUTCOME_APP_PROMOTION'] as const;

export const SPECIAL_AD_CATEGORIES = ['NONE', 'CREDIT', 'EMPLOYMENT', 'HOUSING', 'ISSUES_ELECTIONS_POLITICS', 'FINANCIAL_PRODUCTS_SERVICES', 'ONLINE_GAMBLING_AND_GAMING'] as const;

export const BUYING_TYPES = ['AUCTION', 'RESERVED'] as const;

export const BID_STRATEGIES = ['LOWEST_COST_WITHOUT_CAP', 'LOWEST_COST_WITH_BID_CAP', 'COST_CAP', 'LOWEST_COST_WITH_MIN_ROAS'] as const;

/** Bid strategies that need `bid_amount` on the ad set. */
export const BID_STRATEGIES_WITH_AMOUNT = new Set(['LOWEST_COST_WITH_BID_CAP', 'COST_CAP']);

export const BILLING_EVENTS = ['IMPRESSIONS', 'LINK_CLICKS', 'THRUPLAY', 'APP_INSTALLS', 'CLICKS', 'PAGE_LIKES', 'POST_ENGAGEMENT', 'PURCHASE', 'LISTING_INTERACTION', 'OFFER_CLAIMS', 'NONE'] as const;

export const OPTIMIZATION_GOALS = [
  'OFFSITE_CONVERSIONS', 'VALUE', 'LANDING_PAGE_VIEWS', 'LINK_CLICKS', 'IMPRESSIONS', 'REACH', 'THRUPLAY', 'APP_INSTALLS',
  'APP_INSTALLS_AND_OFFSITE_CONVERSIONS', 'LEAD_GENERATION', 'QUALITY_LEAD', 'CONVERSATIONS', 'POST_ENGAGEMENT', 'PAGE_LIKES',
  'ENGAGED_USERS', 'EVENT_RESPONSES', 'AD_RECALL_LIFT', 'VISIT_INSTAGRAM_PROFILE', 'PROFILE_VISIT', 'REMINDERS_SET', 'SUBSCRIBERS',
  'IN_APP_VALUE', 'DERIVED_EVENTS', 'MEANINGFUL_CALL_ATTEMPT', 'QUALITY_CALL', 'MESSAGING_PURCHASE_CONVERSION',
  'MESSAGING_APPOINTMENT_CONVERSION', 'ADVERTISER_SILOED_VALUE', 'AUTOMATIC_OBJECTIVE', 'ENGAGED_PAGE_VIEWS',
  'PROFILE_AND_PAGE_ENGAGEMENT', 'NONE',
] as const;

/**
 * Goals allowed per objective [U]. The reference's rows for sales, traffic, app promotion and
 * awareness, plus plausible rows for leads and engagement (which it does not list).
 */
export const GOALS_BY_OBJECTIVE: Record<(typeof OBJECTIVES)[number], readonly string[]> = {
  OUTCOME_SALES: ['OFFSITE_CONVERSIONS', 'VALUE', 'LINK_CLICKS', 'IMPRESSIONS', 'REACH', 'CONVERSATIONS'],
  OUTCOME_TRAFFIC: ['LINK_CLICKS', 'LANDING_PAGE_VIEWS', 'REACH', 'IMPRESSIONS'],
  OUTCOME_LEADS: ['LEAD_GENERATION', 'QUALITY_LEAD', 'OFFSITE_CONVERSIONS', 'CONVERSATIONS', 'QUALITY_CALL'],
  OUTCOME_ENGAGEMENT: ['POST_ENGAGEMENT', 'THRUPLAY', 'PAGE_LIKES', 'EVENT_RESPONSES', 'CONVERSATIONS', 'LINK_CLICKS', 'IMPRESSIONS', 'REACH'],
  OUTCOME_AWARENESS: ['REACH', 'IMPRESSIONS', 'AD_RECALL_LIFT', 'THRUPLAY'],
  OUTCOME_APP_PROMOTION: ['APP_INSTALLS', 'APP_INSTALLS_AND_OFFSITE_CONVERSIONS', 'OFFSITE_CONVERSIONS', 'VALUE'],
};

/** Goals that optimise for a pixel event and so need `promoted_object`. */
export const CONVERSION_GOALS = new Set(['OFFSITE_CONVERSIONS', 'VALUE']);

export const DESTINATION_TYPES = [
  'WEBSITE', 'APP', 'MESSENGER', 'WHATSAPP', 'INSTAGRAM_DIRECT', 'ON_AD', 'ON_POST', 'ON_VIDEO', 'ON_PAGE', 'FACEBOOK',
  'SHOP_AUTOMATIC', 'APPLINKS_AUTOMATIC', 'UNDEFINED',
] as const;

export const CUSTOM_EVENT_TYPES = [
  'PURCHASE', 'ADD_TO_CART', 'INITIATED_CHECKOUT', 'ADD_PAYMENT_INFO', 'ADD_TO_WISHLIST', 'COMPLETE_REGISTRATION', 'CONTENT_VIEW',
  'LEAD', 'SEARCH', 'SUBSCRIBE', 'START_TRIAL', 'CONTACT', 'DONATE', 'FIND_LOCATION', 'SCHEDULE', 'SUBMIT_APPLICATION',
  'CUSTOMIZE_PRODUCT', 'SERVICE_BOOKING_REQUEST', 'ACHIEVEMENT_UNLOCKED', 'LEVEL_ACHIEVED', 'TUTORIAL_COMPLETION', 'SPENT_CREDITS',
  'RATE', 'D2_RETENTION', 'D7_RETENTION', 'AD_IMPRESSION', 'LISTING_INTERACTION', 'MESSAGING_CONVERSATION_STARTED_7D', 'OTHER',
] as const;

export const CALL_TO_ACTION_TYPES = [
  'LEARN_MORE', 'SHOP_NOW', 'WATCH_MORE', 'WATCH_VIDEO', 'SIGN_UP', 'DOWNLOAD', 'INSTALL_MOBILE_APP', 'USE_APP', 'ORDER_NOW',
  'BUY_NOW', 'GET_OFFER', 'SUBSCRIBE', 'SEE_MORE', 'CONTACT_US', 'APPLY_NOW', 'BOOK_NOW', 'NO_BUTTON',
] as const;

export const STATUS_OPTIONS = ['ACTIVE', 'PAUSED', 'INHERITED_FROM_SOURCE'] as const;
export const RENAME_STRATEGIES = ['DEEP_RENAME', 'ONLY_TOP_LEVEL_RENAME', 'NO_RENAME'] as const;

/** Permissions a token may carry (reference §11) and the ones the product asks for. */
export const KNOWN_SCOPES = [
  'ads_management', 'ads_read', 'business_management', 'pages_show_list', 'pages_read_engagement', 'pages_manage_ads',
  'pages_manage_posts', 'read_insights', 'public_profile', 'email',
] as const;

/** Read ad objects and Insights. */
export const ADS_READ = ['ads_read', 'ads_management'];
/** Change ad objects. */
export const ADS_WRITE = ['ads_management'];

/** Statuses an object may be created with (campaign reference: "Only ACTIVE and PAUSED are valid during creation"). */
export const CREATE_STATUSES = ['ACTIVE', 'PAUSED'] as const;

/** `execution_options` values (the Business SDKs' ExecutionOptions enums). */
export const EXECUTION_OPTIONS = ['validate_only', 'include_recommendations', 'synchronous_ad_review'] as const;

/** Ads per ad set that are not archived or deleted (the ad reference's object limits). */
export const ADS_PER_ADSET_LIMIT = 50;

/**
 * Account statuses that may create and edit ad objects: ACTIVE and IN_GRACE_PERIOD [U for the
 * latter]. DISABLED, UNSETTLED, PENDING_RISK_REVIEW, PENDING_SETTLEMENT, PENDING_CLOSURE and CLOSED
 * may only stop things (pause, archive, delete).
 */
export const WRITABLE_ACCOUNT_STATUSES: ReadonlySet<number> = new Set([1, 9]);

/**
 * Where the EU's Digital Services Act asks for a beneficiary and payer: the 27 member states and
 * the outermost regions / associated territories with their own ISO codes [U: Meta links "the full
 * list" without printing it].
 */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
  'GF', 'GP', 'MQ', 'RE', 'YT', 'MF', 'AX',
]);

/** `geo_locations.country_groups` that include the EU. */
export const EU_COUNTRY_GROUPS: ReadonlySet<string> = new Set(['worldwide', 'europe', 'eu', 'eea']);

/**
 * Minimum daily budgets in USD by what the ad set is charged for (Meta's "About minimum
 * budgets"): impressions 1, clicks / likes / video views / post engagement 5, low-frequency
 * events (offer claims, app installs) 40 — for budgets in the currencies below; half of that in
 * every other currency. Converted with the simulator's rough rates and rounded up.
 */
export const MIN_DAILY_BUDGET_USD: Record<'impressions' | 'engagement' | 'low_frequency', number> = {
  impressions: 1,
  engagement: 5,
  low_frequency: 40,
};
export const FULL_MINIMUM_CURRENCIES: ReadonlySet<string> = new Set([
  'USD', 'AUD', 'CAD', 'SGD', 'JPY', 'NZD', 'TWD', 'EUR', 'CHF', 'SEK', 'HKD', 'GBP', 'ILS', 'NOK', 'KRW', 'DKK',
]);
/** Billing events of the three minimum-budget classes (anything else: impressions). */
export const MIN_BUDGET_CLASS_BY_BILLING_EVENT: Record<string, keyof typeof MIN_DAILY_BUDGET_USD> = {
  IMPRESSIONS: 'impressions',
  NONE: 'impressions',
  CLICKS: 'engagement',
  LINK_CLICKS: 'engagement',
  PAGE_LIKES: 'engagement',
  POST_ENGAGEMENT: 'engagement',
  THRUPLAY: 'engagement',
  LISTING_INTERACTION: 'engagement',
  APP_INSTALLS: 'low_frequency',
  OFFER_CLAIMS: 'low_frequency',
  PURCHASE: 'low_frequency',
};

/** A bid or cost cap: the daily budget must be at least this many times the bid. */
export const BUDGET_TO_BID_MULTIPLE = 5;

/** `bid_constraints.roas_average_floor` is the minimum ROAS × 10000 (10000 = 1.0×); accepted range [U]. */
export const ROAS_FLOOR_RANGE = { min: 1, max: 10_000_000 } as const;
