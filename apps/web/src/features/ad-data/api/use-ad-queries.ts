import { endpoints, type ReportLevel, type AdOperationsBody, type fxRateSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { adDataKeys } from './keys';

export type FxRate = z.infer<typeof fxRateSchema>;

/** /ad-reports/hourly: a day's 24 report-zone hours against the day before, for one row (or everything in scope). */
export function useAdHourly(level: ReportLevel, id: number | undefined, day: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: adDataKeys.hourly(level, id, day),
    queryFn: () => api.call(endpoints.adReports.hourly, { level, ...(id !== undefined && { id }), day }),
    enabled: opts.enabled ?? true,
  });
}

/** /ad-operations/list: one page of the operation log. */
export function useAdOperations(body: AdOperationsBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: adDataKeys.operations(body),
    queryFn: () => api.call(endpoints.adOperations.list, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}

/** /fx-rates/list: the daily exchange rates, newest first. */
export function useFxRates(currency: string | undefined, page: number, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: adDataKeys.fx(currency, page),
    queryFn: () => api.call(endpoints.fxRates.list, { page, page_size: 10, ...(currency && { currency }) }),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
