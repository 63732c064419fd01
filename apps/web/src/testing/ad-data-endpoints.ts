import {
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
  pageResultSchema,
  saveFxRateBodySchema,
} from '@ads/contracts';
import { z } from 'zod';
import { xlsx } from './contract-helpers';

/** The calls of the 广告数据 screens (reports, operations, logs, exchange rates), with their contract schemas. */
export const adDataEndpoints = {
  '/ad-reports/list': { request: adReportBodySchema, response: adReportResultSchema },
  '/ad-reports/export': { request: adReportBodySchema, response: xlsx },
  '/ad-reports/hourly': { request: adHourlyBodySchema, response: adHourlyResultSchema },
  '/ad-reports/sync': { request: adSyncBodySchema, response: adSyncResultSchema },
  '/ad-ops/apply': { request: adOpsApplyBodySchema, response: adOpsResultSchema },
  '/ad-ops/copy': { request: adOpsCopyBodySchema, response: adOpsResultSchema },
  '/ad-operations/list': { request: adOperationsBodySchema, response: pageResultSchema(adOperationSchema) },
  '/ad-operations/export': { request: adOperationsBodySchema, response: xlsx },
  '/fx-rates/list': { request: fxRatesBodySchema, response: pageResultSchema(fxRateSchema) },
  '/fx-rates/save': { request: saveFxRateBodySchema, response: z.object({ updated_rows: z.number().int() }) },
} as const;
