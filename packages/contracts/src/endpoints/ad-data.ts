import { z } from 'zod';
import {
  AD_ADMIN_PATHS,
  AD_LOG_PATHS,
  AD_REPORT_PATHS,
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
  fxRateSchema,
  fxRatesBodySchema,
  saveFxRateBodySchema,
} from '../ad-data.ts';
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
  hourly: define({ path: '/ad-reports/hourly', body: adHourlyBodySchema, answer: adHourlyResultSchema, allow: REPORTS, tag: 'ad-data', summary: 'Spend, impressions and clicks per report-zone hour of a day and the day before' }),
  sync: define({ path: '/ad-reports/sync', body: adSyncBodySchema, answer: adSyncResultSchema, allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'Sync now: queues today and yesterday for the ad accounts in view (tasks of the caller)' }),
};

export const adOps = {
  apply: define({ path: '/ad-ops/apply', body: adOpsApplyBodySchema, answer: adOpsResultSchema, allow: REPORTS, tag: 'ad-data', summary: 'Switch on / pause / budget / bid / rename / delete, one object or many; dry_run previews' }),
  copy: define({ path: '/ad-ops/copy', body: adOpsCopyBodySchema, answer: adOpsResultSchema, allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'Copy campaigns, ad sets or ads within their ad account (another pixel or event re-creates the ad set)' }),
};

export const adOperations = {
  list: define({ path: '/ad-operations/list', body: adOperationsBodySchema, answer: pageResultSchema(adOperationSchema), allow: LOGS, tag: 'ad-data', summary: 'The operation log: all acts (copies first), pauses, or deletes' }),
  export: define({ path: '/ad-operations/export', body: adOperationsBodySchema, answer: 'xlsx', allow: LOGS, tag: 'ad-data', summary: 'The operation log as .xlsx' }),
};

export const fxRates = {
  list: define({ path: '/fx-rates/list', body: fxRatesBodySchema, answer: pageResultSchema(fxRateSchema), allow: REPORTS, tag: 'ad-data', summary: 'Exchange rates per currency and day (units per US dollar)' }),
  save: define({ path: '/fx-rates/save', body: saveFxRateBodySchema, answer: z.object({ updated_rows: z.number().int() }), allow: AD_REPORT_PATHS, tag: 'ad-data', summary: 'Sets a rate from a day on (managers); report facts in that currency are re-priced' }),
};
