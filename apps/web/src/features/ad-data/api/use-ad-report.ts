import { adReportBodySchema, endpoints, adStatusFilterSchema, sortOrderSchema, type AdReportBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { urlBoolean, urlInt } from '@/components/list-kit';
import { api } from '@/lib/api-client';
import { adDataKeys, urlIds } from './keys';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * A report screen's state as it lives in the URL: range, comparison, filters, drill-down parents
 * (with their names, for the breadcrumbs of a shared link), sort and page. The level comes from
 * the path, not the URL.
 */
export const adReportQuerySchema = z.object({
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(500)).default(20),
  sort_field: z.string().max(64).optional(),
  sort_order: sortOrderSchema.optional(),
  date_from: day.optional(),
  date_to: day.optional(),
  compare: urlBoolean.optional(),
  platform: z.enum(['dj', 'ec']).optional(),
  ad_account_ids: urlIds.optional(),
  status: adStatusFilterSchema.optional(),
  keyword: z.string().max(100).optional(),
  drama_id: urlInt.optional(),
  product_id: urlInt.optional(),
  owner_user_id: urlInt.optional(),
  campaign_id: urlInt.optional(),
  adset_id: urlInt.optional(),
  /** Names of the drill-down parents, for the breadcrumbs. */
  owner_name: z.string().max(200).optional(),
  account_name: z.string().max(200).optional(),
  campaign_name: z.string().max(400).optional(),
});
export type AdReportQuery = z.output<typeof adReportQuerySchema>;

/** Keys of the filter bar (重置 clears exactly these). */
export const REPORT_FILTER_KEYS = ['platform', 'ad_account_ids', 'status', 'keyword', 'drama_id', 'product_id'] as const;

/** The report body for a screen's URL state (names stay in the URL only). */
export function reportBody(level: AdReportBody['level'], q: AdReportQuery, range: [string, string]): AdReportBody {
  const { owner_name: _o, account_name: _a, campaign_name: _c, date_from: _f, date_to: _t, compare, sort_field, ...rest } = q;
  return adReportBodySchema.parse({
    ...rest,
    level,
    date_from: range[0],
    date_to: range[1],
    ...(compare && { compare: true }),
    ...(sort_field && { sort_field }),
  });
}

/** The query of one /ad-reports/list body (for useQueries: several bodies at once). */
export const adReportQuery = (body: AdReportBody) => ({ queryKey: adDataKeys.report(body), queryFn: () => api.call(endpoints.adReports.list, body) });

/** One page of /ad-reports/list, with the totals of every matching row (and the previous period's when comparing). */
export function useAdReport(body: AdReportBody, opts: { refetchInterval?: number | false; enabled?: boolean } = {}) {
  return useQuery({
    ...adReportQuery(body),
    placeholderData: keepPreviousData,
    refetchInterval: opts.refetchInterval,
    enabled: opts.enabled ?? true,
  });
}
