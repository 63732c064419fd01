import { z } from 'zod';
import { exportColumnsSchema, flagInput, idSchema, pageBodySchema, pageResultSchema } from './envelope.ts';
import { CATALOG_EXTERNAL_ID_MAX, CATALOG_FILE_PATTERN, CATALOG_NAME_MAX, CATALOG_TAG_MAX, CATALOG_TAGS_MAX, DOMAIN_PATTERN, LINK_TEMPLATE_MAX, LINK_TEMPLATE_MIN, LINK_TEMPLATE_PATTERN, REMARK_MAX, SITE_NAME_MAX } from './rules.ts';
import { platformSchema } from './session.ts';
import { httpUrl, text } from './text.ts';

/**
 * Authorization (授权管理) and hosting (托管管理): personal accounts and their tokens, the ad
 * accounts, pages and pixels synced from them, sites with their drama / product catalogs, and
 * background tasks. Money read from the platform is converted to major units of the account
 * currency here (the platform sends minor units); `*_usd` fields are converted at the day's rate.
 */

const ids = z.array(idSchema).min(1).max(500);
const ref = z.object({ id: z.number().int(), name: z.string() });
export type Ref = z.infer<typeof ref>;
const keyword = text().trim().max(100).optional();
const iso = z.string();
const nullableIso = z.string().nullable();

/**
 * A page of an asset list (personal accounts, ad accounts, pages, pixels), with `outside_scope`:
 * how many rows matching the same filters exist in the company that the caller cannot see (0 for
 * managers and a company asset scope), so an empty screen can say the company has some.
 */
export function assetPageResultSchema<T extends z.ZodType>(row: T) {
  return pageResultSchema(row).extend({ outside_scope: z.number().int().optional() });
}

/** How a list association edit applies: add to what is there, replace it, or remove from it. */
export const assignModeSchema = z.enum(['add', 'replace', 'remove']);
export type AssignMode = z.infer<typeof assignModeSchema>;

// ---------------------------------------------------------------------------------------------
// Background tasks (sync now, imports…): one row per run, with progress a screen can poll.

export const taskStatusSchema = z.enum(['queued', 'running', 'success', 'skipped', 'failed', 'cancelled']);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const taskSchema = z.object({
  id: z.number().int(),
  job_name: z.string(),
  /** A title for people, in the caller's language. */
  title: z.string(),
  status: taskStatusSchema,
  progress_done: z.number().int(),
  progress_total: z.number().int(),
  message: z.string().nullable(),
  summary: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  created_by: z.number().int().nullable(),
  created_by_name: z.string().nullable(),
  trigger: z.enum(['schedule', 'manual']),
  queued_at: iso,
  started_at: nullableIso,
  finished_at: nullableIso,
  /** A queued task starts no earlier than this (a start time given when it was queued, or a continuation's); null = as soon as it can. */
  start_at: nullableIso.optional(),
});
export type Task = z.infer<typeof taskSchema>;

export const listTasksBodySchema = pageBodySchema.extend({
  job_name: text().trim().max(64).optional(),
  status: taskStatusSchema.optional(),
  mine: flagInput.optional(),
});
export type ListTasksBody = z.infer<typeof listTasksBodySchema>;
export const taskRefSchema = z.object({ task_id: z.number().int() });

// ---------------------------------------------------------------------------------------------
// Personal accounts (个号): a Facebook user whose token reaches ad accounts, pages and pixels.

/** valid; expiring = expires within 7 days; invalid = expired, revoked or refused by the platform. */
export const tokenStatusSchema = z.enum(['valid', 'expiring', 'invalid']);
export type TokenStatus = z.infer<typeof tokenStatusSchema>;

/** Scopes the product needs (reference §11); a missing one is shown and blocks what needs it. */
export const REQUIRED_SCOPES = ['ads_management', 'ads_read', 'business_management', 'pages_show_list', 'pages_read_engagement', 'pages_manage_ads'] as const;
/** Warn this long before a token expires (PRODUCT.md "Domain facts"). */
export const TOKEN_EXPIRY_WARNING_DAYS = 7;

export const personalAccountSchema = z.object({
  id: z.number().int(),
  fb_user_id: z.string(),
  name: z.string(),
  status: tokenStatusSchema,
  /** Why the token is invalid or expiring, in the caller's language. */
  status_reason: z.string().nullable(),
  token_expires_at: nullableIso,
  data_access_expires_at: nullableIso,
  scopes: z.array(z.string()),
  missing_scopes: z.array(z.string()),
  owner: ref.nullable(),
  hosted: z.boolean(),
  ad_account_count: z.number().int(),
  page_count: z.number().int(),
  pixel_count: z.number().int(),
  last_checked_at: nullableIso,
  last_synced_at: nullableIso,
  last_sync_status: taskStatusSchema.nullable(),
  last_sync_error: z.string().nullable(),
  created_at: iso,
});
export type PersonalAccount = z.infer<typeof personalAccountSchema>;

export const PERSONAL_ACCOUNT_SORT_FIELDS = ['id', 'name', 'token_expires_at', 'last_synced_at', 'created_at'] as const;
export const listPersonalAccountsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(PERSONAL_ACCOUNT_SORT_FIELDS).optional(),
  keyword,
  status: tokenStatusSchema.optional(),
  owner_user_id: idSchema.optional(),
  hosted: flagInput.optional(),
});
export type ListPersonalAccountsBody = z.infer<typeof listPersonalAccountsBodySchema>;

/** Paste a token (user or system-user access token); it is checked with debug_token before it is kept. */
export const connectTokenBodySchema = z.object({
  access_token: text().trim().min(20).max(1000),
  owner_user_id: idSchema.optional(),
});
export type ConnectTokenBody = z.infer<typeof connectTokenBodySchema>;

/** The OAuth dialog URL to open; the callback comes back to /api/personal-accounts/oauth_callback. */
export const oauthStartResultSchema = z.object({ url: z.string() });

export const setOwnerBodySchema = z.object({ ids, owner_user_id: idSchema.nullable() });
export const setHostedBodySchema = z.object({ ids, hosted: flagInput });
export const syncBodySchema = z.object({ ids });

// ---------------------------------------------------------------------------------------------
// Ad accounts (广告账户).

/** account_status of reference §2. */
export const AD_ACCOUNT_STATUS = { ACTIVE: 1, DISABLED: 2, UNSETTLED: 3, PENDING_RISK_REVIEW: 7, PENDING_SETTLEMENT: 8, IN_GRACE_PERIOD: 9, PENDING_CLOSURE: 100, CLOSED: 101 } as const;

export const adAccountSchema = z.object({
  id: z.number().int(),
  /** act_<n> */
  platform_id: z.string(),
  account_id: z.string(),
  name: z.string(),
  currency: z.string(),
  timezone_name: z.string(),
  account_status: z.number().int(),
  disable_reason: z.number().int(),
  /** Major units of `currency`. */
  amount_spent: z.number(),
  balance: z.number(),
  /** null when there is no cap. */
  spend_cap: z.number().nullable(),
  business_name: z.string().nullable(),
  platform: platformSchema.nullable(),
  hosted: z.boolean(),
  remark: z.string(),
  personal_accounts: z.array(ref.extend({ status: tokenStatusSchema })),
  users: z.array(ref),
  last_synced_at: nullableIso,
});
export type AdAccount = z.infer<typeof adAccountSchema>;

export const AD_ACCOUNT_SORT_FIELDS = ['id', 'name', 'account_status', 'amount_spent', 'balance', 'last_synced_at'] as const;
export const listAdAccountsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(AD_ACCOUNT_SORT_FIELDS).optional(),
  /** Name, act_ id or numeric id. */
  keyword,
  account_status: z.number().int().optional(),
  platform: platformSchema.optional(),
  currency: text().trim().length(3).optional(),
  user_id: idSchema.optional(),
  /** Only accounts assigned to nobody. */
  unassigned: flagInput.optional(),
  personal_account_id: idSchema.optional(),
  hosted: flagInput.optional(),
});
export type ListAdAccountsBody = z.infer<typeof listAdAccountsBodySchema>;
/** The ad account table's columns an export can hold (keyed as the web table's, in its order). */
export const AD_ACCOUNT_EXPORT_COLUMNS = ['name', 'account_status', 'currency', 'timezone', 'balance', 'spend_cap', 'amount_spent', 'business', 'personal_accounts', 'users', 'platform', 'hosted', 'remark', 'last_synced_at'] as const;
export const exportAdAccountsBodySchema = listAdAccountsBodySchema.extend({ columns: exportColumnsSchema(AD_ACCOUNT_EXPORT_COLUMNS) });

export const assignUsersBodySchema = z.object({ ad_account_ids: ids, user_ids: z.array(idSchema).max(500), mode: assignModeSchema });
export const setAdAccountPlatformBodySchema = z.object({ ad_account_ids: ids, platform: platformSchema.nullable() });
export const setAdAccountHostedBodySchema = z.object({ ad_account_ids: ids, hosted: flagInput });
export const editAdAccountBodySchema = z.object({ id: idSchema, remark: text().trim().max(REMARK_MAX) });

// ---------------------------------------------------------------------------------------------
// Pages (主页) and pixels (像素).

export const pageSchema = z.object({
  id: z.number().int(),
  platform_id: z.string(),
  name: z.string(),
  picture_url: z.string().nullable(),
  category: z.string().nullable(),
  personal_accounts: z.array(ref),
  ad_accounts: z.array(ref),
  users: z.array(ref),
  last_synced_at: nullableIso,
});
export type Page = z.infer<typeof pageSchema>;

export const listPagesBodySchema = pageBodySchema.extend({
  sort_field: z.enum(['id', 'name']).optional(),
  keyword,
  ad_account_id: idSchema.optional(),
  user_id: idSchema.optional(),
  personal_account_id: idSchema.optional(),
});
export type ListPagesBody = z.infer<typeof listPagesBodySchema>;

/** Which ad accounts and users may use the pages (主页关联). */
export const associatePagesBodySchema = z.object({
  page_ids: ids,
  ad_account_ids: z.array(idSchema).max(500).optional(),
  user_ids: z.array(idSchema).max(500).optional(),
  mode: assignModeSchema,
});

/**
 * An ad account a pixel may be used on: `platform` when the platform shares the pixel with it (the
 * sync finds it; only the owner can unshare it, in Meta), `manual` when it was only associated
 * here (/auth/pixel can remove it).
 */
export const pixelAdAccountSchema = ref.extend({ source: z.enum(['platform', 'manual']) });
export type PixelAdAccount = z.infer<typeof pixelAdAccountSchema>;

export const pixelSchema = z.object({
  id: z.number().int(),
  platform_id: z.string(),
  name: z.string(),
  last_fired_at: nullableIso,
  ad_accounts: z.array(pixelAdAccountSchema),
  sites: z.array(ref),
  last_synced_at: nullableIso,
});
export type Pixel = z.infer<typeof pixelSchema>;

export const listPixelsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(['id', 'name', 'last_fired_at']).optional(),
  keyword,
  ad_account_id: idSchema.optional(),
});
export type ListPixelsBody = z.infer<typeof listPixelsBodySchema>;

/** Which ad accounts may use the pixels. */
export const associatePixelsBodySchema = z.object({ pixel_ids: ids, ad_account_ids: z.array(idSchema).max(500), mode: assignModeSchema });

// ---------------------------------------------------------------------------------------------
// Sites (站点) and their catalogs: dramas (剧集) for `dj`, products for `ec`.

/**
 * Placeholders a link template may use. {drama_id} / {product_id} are filled at publish time;
 * the ids of the created objects are filled by the platform (Meta's dynamic URL parameters).
 */
export const LINK_PLACEHOLDERS = ['{drama_id}', '{product_id}', '{episode}', '{campaign_id}', '{adset_id}', '{ad_id}', '{campaign_name}', '{adset_name}', '{ad_name}', '{placement}'] as const;

/**
 * One request to a site's order webhook: when, how many events, and the result (`ok`, or why it
 * was refused: `bad_signature`, `stale_timestamp`, `invalid`, `conflict`, `too_large`).
 */
export const orderDeliverySchema = z.object({
  id: z.number().int(),
  received_at: iso,
  events: z.number().int().nullable(),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  http_status: z.number().int(),
  result: z.enum(['ok', 'bad_signature', 'stale_timestamp', 'invalid', 'conflict', 'too_large']),
  message: z.string(),
});
export type OrderDelivery = z.infer<typeof orderDeliverySchema>;

/**
 * Health of a site's order webhook. status: `none` (nothing received yet), `failing` (the last
 * request was refused), `silent` (no order received for SITE_SILENT_HOURS), else `ok`.
 */
export const siteWebhookHealthSchema = z.object({
  status: z.enum(['none', 'ok', 'failing', 'silent']),
  /** Latest paid_at of the site's orders. */
  last_order_at: iso.nullable(),
  /** When the latest order was received. */
  last_received_at: iso.nullable(),
  last_delivery_at: iso.nullable(),
  /** Orders received in the last 24 hours, and per hour over them. */
  orders_24h: z.number().int(),
  orders_per_hour: z.number(),
  /** Refused requests in the last 24 hours. */
  failures_24h: z.number().int(),
});
export type SiteWebhookHealth = z.infer<typeof siteWebhookHealthSchema>;
export const SITE_SILENT_HOURS = 6;

export const siteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  domain: z.string(),
  platform: platformSchema,
  link_template: z.string(),
  pixel: ref.nullable(),
  remark: z.string(),
  /** The receiving URL for recharge orders (shown; the secret is not). */
  webhook_url: z.string(),
  catalog_count: z.number().int(),
  created_at: iso,
  updated_at: iso,
  /** How the order webhook is doing (features/orders); absent where it is not computed. */
  webhook_health: siteWebhookHealthSchema.optional(),
  /** The last requests to the site's order webhook, newest first. */
  recent_deliveries: z.array(orderDeliverySchema).optional(),
});
export type Site = z.infer<typeof siteSchema>;

const domainSchema = text()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(DOMAIN_PATTERN, 'domain');
const linkTemplateSchema = text().trim().min(LINK_TEMPLATE_MIN).max(LINK_TEMPLATE_MAX).regex(LINK_TEMPLATE_PATTERN, 'https_url');

export const listSitesBodySchema = pageBodySchema.extend({ sort_field: z.enum(['id', 'name', 'domain']).optional(), keyword, platform: platformSchema.optional() });
export type ListSitesBody = z.infer<typeof listSitesBodySchema>;
export const createSiteBodySchema = z.object({
  name: text().trim().min(1).max(SITE_NAME_MAX),
  domain: domainSchema,
  platform: platformSchema,
  link_template: linkTemplateSchema,
  pixel_id: idSchema.nullable().optional(),
  remark: text().trim().max(REMARK_MAX).optional(),
});
export type CreateSiteBody = z.infer<typeof createSiteBodySchema>;
export const editSiteBodySchema = createSiteBodySchema.partial().extend({ id: idSchema });
export type EditSiteBody = z.infer<typeof editSiteBodySchema>;
/** Answered once on create and on rotate: the secret the site signs its order webhooks with. */
export const siteSecretSchema = z.object({ id: z.number().int(), webhook_secret: z.string() });

export const dramaTestStatusSchema = z.enum(['untested', 'testing', 'passed', 'failed']);
export type DramaTestStatus = z.infer<typeof dramaTestStatusSchema>;

export const dramaSchema = z.object({
  id: z.number().int(),
  site: ref,
  /** The drama's id in the site (what {drama_id} becomes). */
  external_id: z.string(),
  name: z.string(),
  language: z.string(),
  episode_count: z.number().int(),
  cover_url: z.string().nullable(),
  tags: z.array(z.string()),
  test_status: dramaTestStatusSchema,
  created_at: iso,
  updated_at: iso,
});
export type Drama = z.infer<typeof dramaSchema>;

const languageSchema = text().trim().min(2).max(16);
const tagsSchema = z.array(text().trim().min(1).max(CATALOG_TAG_MAX)).max(CATALOG_TAGS_MAX);

export const listDramasBodySchema = pageBodySchema.extend({
  sort_field: z.enum(['id', 'name', 'episode_count', 'created_at']).optional(),
  keyword,
  site_id: idSchema.optional(),
  language: text().trim().max(16).optional(),
  test_status: dramaTestStatusSchema.optional(),
  tag: text().trim().max(32).optional(),
});
export type ListDramasBody = z.infer<typeof listDramasBodySchema>;
/** The drama table's columns an export can hold (keyed as the web table's, in its order). */
export const DRAMA_EXPORT_COLUMNS = ['cover', 'name', 'language', 'episode_count', 'tags', 'test_status', 'created_at'] as const;
export const exportDramasBodySchema = listDramasBodySchema.extend({ columns: exportColumnsSchema(DRAMA_EXPORT_COLUMNS) });
export const createDramaBodySchema = z.object({
  site_id: idSchema,
  external_id: text().trim().min(1).max(CATALOG_EXTERNAL_ID_MAX),
  name: text().trim().min(1).max(CATALOG_NAME_MAX),
  language: languageSchema,
  episode_count: z.number().int().min(1).max(10_000),
  cover_url: httpUrl().nullable().optional(),
  tags: tagsSchema.optional(),
  test_status: dramaTestStatusSchema.optional(),
});
export type CreateDramaBody = z.infer<typeof createDramaBodySchema>;
export const editDramaBodySchema = createDramaBodySchema.partial().extend({ id: idSchema });
export type EditDramaBody = z.infer<typeof editDramaBodySchema>;

export const productSchema = z.object({
  id: z.number().int(),
  site: ref,
  external_id: z.string(),
  name: z.string(),
  url: z.string(),
  price: z.number(),
  currency: z.string(),
  cover_url: z.string().nullable(),
  tags: z.array(z.string()),
  created_at: iso,
  updated_at: iso,
});
export type Product = z.infer<typeof productSchema>;

export const listProductsBodySchema = pageBodySchema.extend({
  sort_field: z.enum(['id', 'name', 'price', 'created_at']).optional(),
  keyword,
  site_id: idSchema.optional(),
  tag: text().trim().max(32).optional(),
});
export type ListProductsBody = z.infer<typeof listProductsBodySchema>;
/** The product table's columns an export can hold (keyed as the web table's, in its order). */
export const PRODUCT_EXPORT_COLUMNS = ['cover', 'name', 'url', 'price', 'tags', 'created_at'] as const;
export const exportProductsBodySchema = listProductsBodySchema.extend({ columns: exportColumnsSchema(PRODUCT_EXPORT_COLUMNS) });
export const createProductBodySchema = z.object({
  site_id: idSchema,
  external_id: text().trim().min(1).max(CATALOG_EXTERNAL_ID_MAX),
  name: text().trim().min(1).max(CATALOG_NAME_MAX),
  url: httpUrl(),
  price: z.number().min(0).max(1_000_000),
  currency: text().trim().toUpperCase().length(3),
  cover_url: httpUrl().nullable().optional(),
  tags: tagsSchema.optional(),
});
export type CreateProductBody = z.infer<typeof createProductBodySchema>;
export const editProductBodySchema = createProductBodySchema.partial().extend({ id: idSchema });
export type EditProductBody = z.infer<typeof editProductBodySchema>;

/**
 * A catalog file (.csv or .xlsx) for one site, sent as base64 in JSON. Rows are checked one by
 * one; nothing is written unless every row is valid (`dry_run` only checks).
 */
export const importCatalogBodySchema = z.object({
  site_id: idSchema,
  filename: text().trim().min(1).max(200).regex(CATALOG_FILE_PATTERN, 'catalog_file'),
  content_base64: text().min(1).max(14_000_000),
  dry_run: flagInput.optional(),
});
export type ImportCatalogBody = z.infer<typeof importCatalogBodySchema>;
export const importCatalogResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  /** Row numbers are 1-based as a spreadsheet shows them (the header is row 1). */
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
});
export type ImportCatalogResult = z.infer<typeof importCatalogResultSchema>;

/** Orders from a .csv / .xlsx whose headers are the webhook's field names (API.md "Orders"). */
export const importOrdersBodySchema = importCatalogBodySchema;
export type ImportOrdersBody = z.infer<typeof importOrdersBodySchema>;
export const importOrdersResultSchema = z.object({
  /** Events stored (or, in a dry run, that would be): paid orders and refunds. */
  accepted: z.number().int(),
  paid: z.number().int(),
  refunded: z.number().int(),
  /** Events already stored with the same content (an import can be repeated safely). */
  duplicates: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })),
});
export type ImportOrdersResult = z.infer<typeof importOrdersResultSchema>;

/** /ad-accounts/list: the page plus the totals row (USD sums over every matching account). */
export const adAccountPageResultSchema = assetPageResultSchema(adAccountSchema).extend({
  summary: z.object({ amount_spent_usd: z.number(), balance_usd: z.number() }),
});
export type AdAccountPageResult = z.infer<typeof adAccountPageResultSchema>;
