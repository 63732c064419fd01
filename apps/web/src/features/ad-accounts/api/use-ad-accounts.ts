import { adAccountSchema, assetPageResultSchema, listAdAccountsBodySchema, type ListAdAccountsBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';
import { urlBoolean, urlInt } from '@/components/list-kit';

/** The ad-account list state as it lives in the URL. */
export const adAccountsQuerySchema = listAdAccountsBodySchema.extend({
  account_status: urlInt.optional(),
  unassigned: urlBoolean.optional(),
  hosted: urlBoolean.optional(),
});
export type AdAccountsQuery = z.output<typeof adAccountsQuerySchema>;

/** The totals row (api-assets.md: `summary`), in USD at the day's rate. */
export const adAccountsSummarySchema = z.object({ amount_spent_usd: z.number(), balance_usd: z.number() });
export const adAccountsPageSchema = assetPageResultSchema(adAccountSchema).extend({ summary: adAccountsSummarySchema });
export type AdAccountsPage = z.infer<typeof adAccountsPageSchema>;

export const adAccountKeys = {
  all: rootKeys.adAccounts,
  lists: () => [...adAccountKeys.all, 'list'] as const,
  list: (q: ListAdAccountsBody) => [...adAccountKeys.lists(), q] as const,
};

/** One page of /ad-accounts/list with the totals of every matching account. */
export function useAdAccounts(q: AdAccountsQuery) {
  return useQuery({
    queryKey: adAccountKeys.list(q),
    queryFn: () => api.post<AdAccountsPage>('/ad-accounts/list', q),
    placeholderData: keepPreviousData,
  });
}
