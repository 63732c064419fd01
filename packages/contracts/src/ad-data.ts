import { z } from 'zod';
import { exportColumnsSchema, flagInput, idSchema, numberInput, pageBodySchema, pageResultSchema, sortOrderSchema } from './envelope.ts';
import { METRIC_KEYS, type MetricKey } from './metrics.ts';
import { daySchema, text } from './text.ts';

// Ad data (issue 7, docs/ad-data-design.md): the report tables from optimizer down to ad, their
// hourly chart, the operations on campaigns / ad sets / ads and their log, and exchange rates.

/** The rows a report groups by; a drill-down goes optimizer → account → campaign → adset → ad. */
export const reportLevelSchema = z.enum(['optimizer', 'account', 'campaign', 'adset', 'ad']);
export type ReportLevel = z.infer<typeof reportLevelSchema>;

export const adLevelSchema = z.enum(['campaign', 'adset', 'ad']);
export type AdLevel = z.infer<typeof adLevelSchema>;

/** Status filter of the object tables: active (effective ACTIVE), paused (by itself or a parent), deleted, or any. */
export const adStatusFilterSchema = z.enum(['active', 'paused', 'deleted', 'all']);

const metricKeySchema = z.enum(METRIC_KEYS as [MetricKey, ...MetricKey[]]);
const ids = z.array(idSchema).max(500);

export const adReportBodySchema = pageBodySchema.extend({
  level: reportLevelSchema,
  /** Report days (REPORT_TIMEZONE), inclusive; at most 400 days. */
  date_from: daySchema,
  date_to: daySchema,
  /** Also answer the previous period of the same length, and the change per metric. */
  compare: flagInput.optional(),
  platform: z.enum(['dj', 'ec']).optional(),
  ad_account_ids: ids.optional(),
  /** Drill-down parents. */
  owner_user_id: numberInput(z.number().int().min(0)).optional(),
  campaign_id: idSchema.optional(),
  adset_id: idSchema.optional(),
  status: adStatusFilterSchema.optional(),
  /** Name, or platform id, or our id. */
  keyword: text().trim().max(100).optional(),
  drama_id: idSchema.optional(),
  product_id: idSchema.optional(),
  /** A metric key, or `name`. */
  sort_field: z.union([metricKeySchema, z.literal('name')]).optional(),
  sort_order: sortOrderSchema.optional(),
  /**
   * The metric columns shown, in order. The list computes only these and the sort metric (the
   * others come back null; absent: every metric); the export writes these (absent: the registry's
   * default columns).
   */
  columns: z.array(metricKeySchema).max(60).optional(),
});
export type AdReportBody = z.infer<typeof adReportBodySchema>;

const metricValues = z.record(z.string(), z.number().nullable());

export const adReportRowSchema = z.object({
  /** Our id of the row's object (user, ad account, campaign, ad set, ad); 0 = unassigned optimizer. */
  id: z.number().int(),
  name: z.string(),
  /** Platform id (act_…, campaign / ad set / ad id); null for optimizers. */
  platform_id: z.string().nullable(),
  ad_account: z.object({ id: z.number().int(), name: z.string(), currency: z.string(), timezone_name: z.string() }).nullable(),
  owner: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  status: z.string().nullable(),
  effective_status: z.string().nullable(),
  deleted: z.boolean(),
  /** Who holds the budget of a campaign / ad set: 'campaign' or 'adset'; null for other rows. */
  budget_level: z.enum(['campaign', 'adset']).nullable(),
  /** Minor units of `currency`. */
  daily_budget_minor: z.number().int().nullable(),
  lifetime_budget_minor: z.number().int().nullable(),
  bid_amount_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  drama_id: z.number().int().nullable(),
  product_id: z.number().int().nullable(),
  metrics: metricValues,
  previous: metricValues.nullable(),
  /** Change against the previous period as a fraction (0.25 = +25 %). */
  change: metricValues.nullable(),
});
export type AdReportRow = z.infer<typeof adReportRowSchema>;

export const adReportResultSchema = pageResultSchema(adReportRowSchema).extend({
  /** Over every row that matches, not only this page: equal to the sum of the rows. */
  totals: metricValues,
  previous_totals: metricValues.nullable(),
  previous_range: z.object({ date_from: z.string(), date_to: z.string() }).nullable(),
  /** Cohort metrics (Dn ROI) with no day of the range old enough yet: null in every row and the totals, shown as not matured. */
  not_matured: z.array(metricKeySchema).default([]),
  /** The same for the previous period. */
  previous_not_matured: z.array(metricKeySchema).default([]),
  /** The oldest last insights sync of the ad accounts in view (ISO). */
  as_of: z.string().nullable(),
  report_timezone: z.string(),
});
export type AdReportResult = z.infer<typeof adReportResultSchema>;

export const adHourlyBodySchema = z.object({
  level: reportLevelSchema,
  /** The row's id (0 for the unassigned optimizer); omitted = everything in scope. */
  id: numberInput(z.number().int().min(0)).optional(),
  /** A report day; the series of the day before comes with it. */
  day: daySchema,
});
export const adHourlyResultSchema = z.object({
  day: z.string(),
  previous_day: z.string(),
  /** 24 points per day (report-zone hours 0–23): spend in USD, impressions, clicks. */
  series: z.array(z.object({ hour: z.number().int(), spend: z.number(), impressions: z.number(), clicks: z.number(), previous_spend: z.number(), previous_impressions: z.number(), previous_clicks: z.number() })),
});

export type AdHourlyResult = z.infer<typeof adHourlyResultSchema>;

export const adSyncBodySchema = z.object({ ad_account_ids: ids.min(1).optional() });
export const adSyncResultSchema = z.object({ task_ids: z.array(z.number().int()), ad_accounts: z.number().int() });

export const adOpsApplyBodySchema = z.object({
  level: adLevelSchema,
  ids: z.array(idSchema).min(1).max(200),
  action: z.enum(['activate', 'pause', 'budget', 'bid', 'rename', 'delete']),
  /** Major units of the account currency (19.99 USD; 1000 JPY). */
  daily_budget: z.number().positive().max(1e9).optional(),
  lifetime_budget: z.number().positive().max(1e10).optional(),
  bid_amount: z.number().positive().max(1e7).optional(),
  name: text().trim().min(1).max(400).optional(),
  /** Answer what would change (the confirmation) without acting. */
  dry_run: flagInput.optional(),
});
export type AdOpsApplyBody = z.infer<typeof adOpsApplyBodySchema>;

/** Ad-set budget changes the platform allows per hour (reference §4). */
export const ADSET_BUDGET_CHANGES_PER_HOUR = 4;
/** An ad set's budget changes of the last hour, from the operation log (the budget dialog says them before sending). */
export const adBudgetChangeStateSchema = z.object({
  /** Ok budget changes within the last hour (by people, rules and start tasks alike). */
  used: z.number().int(),
  limit: z.number().int(),
  /** When a change is allowed again; null while one is allowed now. */
  next_change_at: z.string().nullable(),
  /** When the oldest counted change leaves the hour (one more change becomes possible); null when none is counted. */
  frees_at: z.string().nullable(),
});
export type AdBudgetChangeState = z.infer<typeof adBudgetChangeStateSchema>;
export const adBudgetChangesBodySchema = z.object({ ids: z.array(idSchema).min(1).max(200) });
export const adBudgetChangesSchema = z.object({ list: z.array(adBudgetChangeStateSchema.extend({ id: z.number().int() })) });

/** Conversion events an ad set can optimise for (the platform's custom_event_type values). */
export const AD_CONVERSION_EVENTS = ['PURCHASE', 'COMPLETE_REGISTRATION', 'ADD_TO_CART', 'INITIATE_CHECKOUT', 'ADD_PAYMENT_INFO', 'LEAD', 'CONTENT_VIEW', 'SUBSCRIBE'] as const;

export const adOpsCopyBodySchema = z.object({
  level: adLevelSchema,
  ids: z.array(idSchema).min(1).max(50),
  /**
   * Another ad account (in the caller's scope, reached by a valid token): the objects are read and
   * re-created there, their materials pushed there first, budgets converted to its currency. The
   * copy then runs as a task (answer `task_id`); its log rows carry the answer's `batch_id`.
   */
  target_ad_account_id: idSchema.optional(),
  /** Target parent (our id): a campaign for ad sets, an ad set for ads; default the source's parent (required in another account). */
  parent_id: idSchema.optional(),
  copies: numberInput(z.number().int().min(1).max(20)).optional(),
  status: z.enum(['ACTIVE', 'PAUSED']).optional(),
  rename_suffix: text().max(100).optional(),
  /** The copy's name (the copied object; children keep theirs). */
  name: text().trim().min(1).max(400).optional(),
  /** Major units of the target account's currency, for whichever holds the budget (campaign, or each ad set); default the source's, converted. */
  daily_budget: z.number().positive().max(1e9).optional(),
  /** Ad sets (campaigns: every ad set): another pixel or conversion event — the platform cannot change them on a published ad set, so the ad set is re-created. */
  pixel_id: z.string().regex(/^\d{1,30}$/).optional(),
  custom_event_type: z.string().regex(/^[A-Z_]{2,40}$/).optional(),
  /** Answer what would be created (the confirmation: objects, conversions, materials to push, refusals) without acting. */
  dry_run: flagInput.optional(),
});
export type AdOpsCopyBody = z.infer<typeof adOpsCopyBodySchema>;

/** Ad accounts a copy may go to: those of the caller's data scope, by name or id. */
export const adCopyAccountsBodySchema = z.object({ keyword: text().trim().max(100).optional() });
export const adCopyAccountsSchema = z.object({
  list: z.array(z.object({ id: z.number().int(), name: z.string(), platform_id: z.string(), currency: z.string(), reachable: z.boolean() })),
});
export type AdCopyAccount = z.infer<typeof adCopyAccountsSchema>['list'][number];

/** What a copy into an ad account may use there (the copy dialog's pickers). */
export const adCopyTargetsBodySchema = z.object({ ad_account_id: idSchema });
export const adCopyTargetsSchema = z.object({
  ad_account: z.object({ id: z.number().int(), name: z.string(), platform_id: z.string(), currency: z.string(), timezone_name: z.string() }),
  /** A personal account with a valid token reaches it (nothing can be created there otherwise). */
  reachable: z.boolean(),
  /** Pixels the account may use (shared with it), as last synced. */
  pixels: z.array(z.object({ platform_id: z.string(), name: z.string() })),
  events: z.array(z.string()),
});
export type AdCopyTargets = z.infer<typeof adCopyTargetsSchema>;

const bilingualSchema = z.object({ zh: z.string(), en: z.string() });
export const adOpResultSchema = z.object({
  /** The object's level (copies that re-create a tree answer one row per object). */
  level: adLevelSchema.optional(),
  id: z.number().int(),
  platform_id: z.string(),
  name: z.string(),
  ad_account_id: z.number().int(),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
  result: z.enum(['ok', 'failed', 'preview']),
  /** The reason, in the caller's language. */
  error: z.string().nullable(),
  warnings: z.array(z.string()),
  operation_id: z.number().int().nullable(),
  /** Budget acts on ad sets: the hour's changes before this one. */
  budget_changes: adBudgetChangeStateSchema.optional(),
});
export const adOpsResultSchema = z.object({
  batch_id: z.string(),
  results: z.array(adOpResultSchema),
  /** A copy to another ad account runs as this task; its log rows carry `batch_id`. */
  task_id: z.number().int().nullable().optional(),
  /** What the confirmation says besides the rows: conversions between currencies, materials to push first. */
  notes: z.array(z.string()).optional(),
});
export { bilingualSchema as adBilingualSchema };

/** 系统日志 (all), 关闭日志 (pauses), 删除日志 (deletes). */
export const adOperationLogSchema = z.enum(['all', 'close', 'remove']);
export const adOperationsBodySchema = pageBodySchema.extend({
  log: adOperationLogSchema.default('all'),
  /** Days (UTC, `time_to` inclusive) or ISO instants with a zone. */
  time_from: z.union([daySchema, z.iso.datetime({ offset: true, message: 'datetime' })]).optional(),
  time_to: z.union([daySchema, z.iso.datetime({ offset: true, message: 'datetime' })]).optional(),
  operator_id: idSchema.optional(),
  actor_type: z.enum(['user', 'rule', 'start_task', 'system']).optional(),
  action: z.enum(['activate', 'pause', 'budget', 'bid', 'rename', 'copy', 'delete', 'create']).optional(),
  ad_account_id: idSchema.optional(),
  result: z.enum(['pending', 'ok', 'failed']).optional(),
  level: adLevelSchema.optional(),
  /** Object name or platform id. */
  keyword: text().trim().max(100).optional(),
  /** One campaign's log (系列详情). */
  campaign_id: idSchema.optional(),
  /** One act's rows (a copy followed in its dialog). */
  batch_id: z.uuid().optional(),
});
export type AdOperationsBody = z.infer<typeof adOperationsBodySchema>;
/** The log table's columns an export can hold (keyed as the web table's, in its order). */
export const AD_OPERATION_EXPORT_COLUMNS = ['time', 'by', 'action', 'object', 'account', 'change', 'result'] as const;
export const exportAdOperationsBodySchema = adOperationsBodySchema.extend({ columns: exportColumnsSchema(AD_OPERATION_EXPORT_COLUMNS) });
export type ExportAdOperationsBody = z.infer<typeof exportAdOperationsBodySchema>;

export const adOperationSchema = z.object({
  id: z.number().int(),
  batch_id: z.string(),
  actor_type: z.enum(['user', 'rule', 'start_task', 'system']),
  actor: z.object({ id: z.number().int(), name: z.string(), account: z.string() }).nullable(),
  rule_id: z.number().int().nullable(),
  start_task_id: z.number().int().nullable(),
  action: z.string(),
  level: adLevelSchema,
  object_id: z.number().int().nullable(),
  object_platform_id: z.string(),
  object_name: z.string(),
  ad_account: z.object({ id: z.number().int(), name: z.string(), platform_id: z.string() }),
  before: z.unknown(),
  after: z.unknown(),
  result: z.enum(['pending', 'ok', 'failed']),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type AdOperation = z.infer<typeof adOperationSchema>;

export const fxRateSchema = z.object({
  currency: z.string(),
  day: z.string(),
  units_per_usd: z.number(),
  updated_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  updated_at: z.string(),
});
export const fxRatesBodySchema = pageBodySchema.extend({ currency: z.string().regex(/^[A-Z]{3}$/).optional() });
export const saveFxRateBodySchema = z.object({
  currency: z.string().regex(/^[A-Z]{3}$/),
  day: daySchema,
  units_per_usd: z.number().positive().max(1e7),
});
export type SaveFxRateBody = z.infer<typeof saveFxRateBodySchema>;

/** Screens of ad data (SPEC.md / PRODUCT.md paths). */
export const AD_REPORT_PATHS = ['/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group'] as const;
export const AD_ADMIN_PATHS = ['/admin/advertising/campaign', '/admin/advertising/group', '/admin/advertising/list', '/admin/advertising/details'] as const;
export const AD_LOG_PATHS = ['/advertising/copy-log', '/advertising/close-log', '/advertising/remove-log'] as const;
