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

/** /ad-operations/list: one page of the operation log (asked again every `refetchInterval` ms while given). */
export function useAdOperations(body: AdOperationsBody, opts: { enabled?: boolean; refetchInterval?: number | false } = {}) {
  return useQuery({
    queryKey: adDataKeys.operations(body),
    queryFn: () => api.call(endpoints.adOperations.list, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    refetchInterval: opts.refetchInterval,
  });
}

/**
 * /ad-ops/budget_changes: ad sets' budget changes of the last hour and when each may change again,
 * read when the budget dialog opens (outside adDataKeys.all: an act's invalidation need not re-ask;
 * the dialog reads it afresh each time it opens).
 */
export function useBudgetChanges(ids: number[], opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['ad-budget-changes', ids] as const,
    queryFn: () => api.call(endpoints.adOps.budget_changes, { ids }),
    enabled: (opts.enabled ?? true) && ids.length > 0,
    gcTime: 0,
  });
}

/** /ad-ops/copy_accounts: ad accounts of the viewer's data scope a copy may go to, with their currency. */
export function useCopyAccounts(keyword: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...adDataKeys.all, 'copy-accounts', keyword] as const,
    queryFn: () => api.call(endpoints.adOps.copy_accounts, keyword ? { keyword } : {}),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}

/** /ad-ops/copy_targets: an ad account's currency, token, pixels and conversion events, for the copy dialog's pickers. */
export function useCopyTargets(adAccountId: number | undefined) {
  return useQuery({
    queryKey: [...adDataKeys.all, 'copy-targets', adAccountId ?? 0] as const,
    queryFn: () => api.call(endpoints.adOps.copy_targets, { ad_account_id: adAccountId! }),
    enabled: adAccountId !== undefined,
    staleTime: 60_000,
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
