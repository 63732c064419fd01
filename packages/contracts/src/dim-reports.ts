import { z } from 'zod';
import { idSchema, numberInput, pageBodySchema, pageResultSchema, sortOrderSchema } from './envelope.ts';
import { METRIC_KEYS, type MetricKey } from './metrics.ts';
import { daySchema, text } from './text.ts';

// The ad-data report by dimension (issue 9, docs/orders-design.md "Rollups by dimension"): every
// registry metric per report day, drama, product, material, editor, scheme, site or country, read
// from the rollups, in the caller's data scope. The home dashboards read it (trend, top dramas);
// the analysis screens (剧集成效, 素材分析, 素材绩效, 剧集测评, 方案分析, 落地页分析) are built on it.

export const REPORT_DIMENSIONS = ['day', 'drama', 'product', 'material', 'editor', 'scheme', 'site', 'country'] as const;
export const reportDimensionSchema = z.enum(REPORT_DIMENSIONS);
export type ReportDimension = z.infer<typeof reportDimensionSchema>;

/** Dimensions whose organic orders (no ad) have a key of their own: the order's day, drama, product, site, country. */
export const ORGANIC_DIMENSIONS: readonly ReportDimension[] = ['day', 'drama', 'product', 'site', 'country'];

/** The screens that read the report by dimension (besides the ad report screens and the /admin area). */
export const ANALYSE_PATHS = ['/analyse/effect', '/analyse/material', '/analyse/performance', '/analyse/performance-month', '/analyse/evaluate', '/analyse/scheme-user', '/analyse/scheme-list', '/analyse/landing'] as const;

const metricKeySchema = z.enum(METRIC_KEYS as [MetricKey, ...MetricKey[]]);

export const dimReportBodySchema = pageBodySchema.extend({
  dimension: reportDimensionSchema,
  /** Report days (REPORT_TIMEZONE), inclusive; at most 400 days. */
  date_from: daySchema,
  date_to: daySchema,
  platform: z.enum(['dj', 'ec']).optional(),
  ad_account_ids: z.array(idSchema).max(500).optional(),
  /** An optimizer (0 = unassigned). */
  owner_user_id: numberInput(z.number().int().min(0)).optional(),
  drama_id: idSchema.optional(),
  product_id: idSchema.optional(),
  /** The row's name contains it, or its key is it. */
  keyword: text().trim().max(100).optional(),
  /** A metric key, `orders` or `name` (for `day`: chronological). */
  sort_field: z.union([metricKeySchema, z.literal('name'), z.literal('orders')]).optional(),
  sort_order: sortOrderSchema.optional(),
});
export type DimReportBody = z.infer<typeof dimReportBodySchema>;

const metricValues = z.record(z.string(), z.number().nullable());

/** Orders without an ad: revenue (USD, paid minus refunded that day), orders, payers, new payers. */
export const organicFiguresSchema = z.object({ revenue: z.number(), orders: z.number().int(), payers: z.number().int(), new_payers: z.number().int() });
export type OrganicFigures = z.infer<typeof organicFiguresSchema>;

export const dimReportRowSchema = z.object({
  /** The dimension's key: a day, an id as text, a country code; '' = none (no drama, no material…). */
  key: z.string(),
  /** Our id of the drama, product, material, editor (user), scheme or site; null for day, country and none. */
  id: z.number().int().nullable(),
  /** Its name ('' for none; the key itself for day and country). */
  name: z.string(),
  /** A second line: the drama's or product's site, the material's editor, the editor's account, the site's domain. */
  detail: z.string().nullable(),
  metrics: metricValues,
  /** Paid orders attributed to ads (by payment day). */
  orders: z.number().int(),
  /** The key's organic figures, for a caller who sees the whole company and a dimension organic orders have. */
  organic: organicFiguresSchema.nullable(),
});
export type DimReportRow = z.infer<typeof dimReportRowSchema>;

export const dimReportResultSchema = pageResultSchema(dimReportRowSchema).extend({
  /** Over every matching row, equal to their sum. */
  totals: metricValues,
  totals_orders: z.number().int(),
  /** All organic orders in range (null when the caller does not see the whole company, or an ad account / optimizer filter is set). */
  organic_totals: organicFiguresSchema.nullable(),
  not_matured: z.array(metricKeySchema).default([]),
  /** The oldest last insights sync of the ad accounts in view (ISO). */
  as_of: z.string().nullable(),
  /** Changes still being rolled up for this range (minutes at most): the figures may move slightly. */
  pending: z.boolean(),
  report_timezone: z.string(),
});
export type DimReportResult = z.infer<typeof dimReportResultSchema>;
