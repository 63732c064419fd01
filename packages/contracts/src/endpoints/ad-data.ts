import { z } from 'zod';
import {
  AD_ADMIN_PATHS,
  AD_LOG_PATHS,
  AD_REPORT_PATHS,
  adBudgetChangesBodySchema,
  adBudgetChangesSchema,
  adCopyAccountsBodySchema,
  adCopyAccountsSchema,
  adCopyTargetsBodySchema,
  adCopyTargetsSchema,
  adHourlyBodySchema,
  adHourlyResultSchema,
  adOperationSchema,
  adOperationsBodySchema,
  adOpsApplyBodySchema,
  adOpsCopyBodySchema,
  adOpsResultSchema,
  adReportBodySchema,
  adReportResultSchema,
  adSyncBodySchema,
  adSyncResultSchema,
  exportAdOperationsBodySchema,
  fxRateSchema,
  fxRatesBodySchema,
  saveFxRateBodySchema,
} from '../ad-data.ts';
import { ANALYSE_PATHS, dimReportBodySchema, dimReportResultSchema } from '../dim-reports.ts';
import { pageResultSchema } from '../envelope.ts';
import { define } from './define.ts';

// Ad data (issue 7, docs/ad-data-design.md): reports from optimizer down to ad, operations on
// campaigns / ad sets / ads, their log, and exchange rates. Data scope is applied by the server
// on every row, total, export, chart and action.

/** The report screens and the admin area (is_admin 9) read the same reports. */
const REPORTS = [...AD_REPORT_PATHS, ...AD_ADMIN_PATHS] as const;
/** 系统日志 / 关闭日志 / 删除日志, and a campaign's log on 系列详情. */
const LOGS = [...AD_LOG_PATHS, '/admin/advertising/details'] as const;

export const adReports = {
  list: define({ path: '/ad-reports/list', body: adReportBodySchema, answer: adReportResultSchema, allow: REPORTS, tag: 'ad-data', summary: 'Report rows (optimizer, ad account, campaign, ad set, ad) with every metric, totals and the previous period' }),
  export: define({ path: '/ad-reports/export', body: adReportBodySchema, answer: 'xlsx', allow: REPORTS, tag: 'ad-data', summary: 'The report rows as .xlsx, with the chosen metric columns' }),
  dimension: define({ path: '/ad-reports/dimension', body: dimReportBodySchema, answer: dimReportResultSchema, allow: [...REPORTS, ...ANALYSE_PATHS], tag: 'ad-data', summary: 'Every metric by report day, drama, product, material, editor, scheme, site or country (rollups, fresh within minutes), with organic orders apart' }),
  hourly: define({ path: '/ad-reports/hourly', body: adHourlyBodySchema, answer: adHourlyResultSchema, allow: REPORTS, tag: 'ad-data', summary: 'Spend, impressions and clicks per report-zone hour of a day and the day before' }),
  sync: define({ path: '/ad-reports/sync', body: adSyncBodySchema, answer: adSyncResultSchema, allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'Sync now: queues today and yesterday for the ad accounts in view (tasks of the caller)' }),
};

export const adOps = {
  apply: define({ path: '/ad-ops/apply', body: adOpsApplyBodySchema, answer: adOpsResultSchema, allow: REPORTS, tag: 'ad-data', summary: 'Switch on / pause / budget / bid / rename / delete, one object or many; dry_run previews' }),
  copy: define({
    path: '/ad-ops/copy',
    body: adOpsCopyBodySchema,
    answer: adOpsResultSchema,
    allow: AD_REPORT_PATHS,
    tag: 'ad-data',
    summary: 'Copy campaigns, ad sets or ads: within the ad account through the copies edge; with another pixel, event, name or budget, or into another ad account (a task), by reading and re-creating; dry_run previews',
  }),
  budget_changes: define({ path: '/ad-ops/budget_changes', body: adBudgetChangesBodySchema, answer: adBudgetChangesSchema, allow: REPORTS, tag: 'ad-data', summary: 'Ad sets’ budget changes of the last hour (the platform allows 4) and when each may change again' }),
  copy_accounts: define({ path: '/ad-ops/copy_accounts', body: adCopyAccountsBodySchema, answer: adCopyAccountsSchema, allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'Ad accounts of the caller’s data scope a copy may go to (50 by name or id), with their currency' }),
  copy_targets: define({ path: '/ad-ops/copy_targets', body: adCopyTargetsBodySchema, answer: adCopyTargetsSchema, allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'An ad account a copy may go to: its currency, whether a valid token reaches it, its pixels and the conversion events' }),
};

export const adOperations = {
  list: define({ path: '/ad-operations/list', body: adOperationsBodySchema, answer: pageResultSchema(adOperationSchema), allow: LOGS, tag: 'ad-data', summary: 'The operation log: all acts (copies first), pauses, or deletes' }),
  export: define({ path: '/ad-operations/export', body: exportAdOperationsBodySchema, answer: 'xlsx', allow: LOGS, tag: 'ad-data', summary: 'The operation log as .xlsx, with the shown columns' }),
};

export const fxRates = {
  list: define({ path: '/fx-rates/list', body: fxRatesBodySchema, answer: pageResultSchema(fxRateSchema), allow: REPORTS, tag: 'ad-data', summary: 'Exchange rates per currency and day (units per US dollar)' }),
  save: define({ path: '/fx-rates/save', body: saveFxRateBodySchema, answer: z.object({ updated_rows: z.number().int() }), allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'Sets a rate from a day on (managers); report facts in that currency are re-priced' }),
};
