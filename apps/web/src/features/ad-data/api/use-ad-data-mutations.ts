import { endpoints, type AdOpsApplyBody, type AdOpsCopyBody, type AdReportBody, type ExportAdOperationsBody, type SaveFxRateBody } from '@ads/contracts';
import type { adOpsResultSchema } from '@ads/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { adDataKeys } from './keys';

export type AdOpsResult = z.infer<typeof adOpsResultSchema>;
export type AdOpResult = AdOpsResult['results'][number];

/** /ad-ops/apply: on/off, budget, bid, rename, delete; `dry_run` answers the confirmation without acting. */
export function useApplyAdOp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdOpsApplyBody) => api.call(endpoints.adOps.apply, body),
    onSuccess: (_r, body) => {
      if (!body.dry_run) void queryClient.invalidateQueries({ queryKey: adDataKeys.all });
    },
  });
}

/**
 * The confirmation of an act: the server's dry run (no side effects), read like a query. Its key
 * is outside adDataKeys.all, so the act's invalidation does not run the dry run again.
 */
export function useAdOpPreview(body: AdOpsApplyBody | null, enabled: boolean) {
  return useQuery({
    queryKey: ['ad-ops-preview', body] as const,
    queryFn: () => api.call(endpoints.adOps.apply, { ...body!, dry_run: true }),
    enabled: enabled && body !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
}

/**
 * The confirmation of a copy: the server's dry run (what will be created, conversions, materials
 * to push, refusals), read like a query outside adDataKeys.all (see useAdOpPreview).
 */
export function useCopyPreview(body: AdOpsCopyBody | null, enabled: boolean) {
  return useQuery({
    queryKey: ['ad-copy-preview', body] as const,
    queryFn: () => api.call(endpoints.adOps.copy, { ...body!, dry_run: true }),
    enabled: enabled && body !== null,
    staleTime: Infinity,
    gcTime: 0,
  });
}

/** /ad-ops/copy: within the account, or re-created (another pixel, event, name, budget or ad account: then a task). */
export function useCopyAdObjects() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdOpsCopyBody) => api.call(endpoints.adOps.copy, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adDataKeys.all }),
  });
}

/** /ad-reports/sync: "sync now" for the ad accounts in view (all in scope when none given). */
export function useSyncAdAccounts() {
  return useMutation({
    mutationFn: (adAccountIds: number[] | undefined) => api.call(endpoints.adReports.sync, adAccountIds?.length ? { ad_account_ids: adAccountIds } : {}),
  });
}

/** /ad-reports/export: exactly what the report shows (its filters, sort and chosen columns), every row. */
export function useExportAdReport() {
  return useMutation({
    mutationFn: ({ body, filename }: { body: Omit<AdReportBody, 'page' | 'page_size'>; filename: string }) => api.download(endpoints.adReports.export, body, filename),
  });
}

/** /ad-operations/export: the log with its filters and the shown columns. */
export function useExportAdOperations() {
  return useMutation({
    mutationFn: ({ body, filename }: { body: Omit<ExportAdOperationsBody, 'page' | 'page_size'>; filename: string }) => api.download(endpoints.adOperations.export, body, filename),
  });
}

/** /fx-rates/save: a currency's rate for a day (managers); report USD figures move with it. */
export function useSaveFxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveFxRateBody) => api.call(endpoints.fxRates.save, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: adDataKeys.all }),
  });
}
