import { AD_ACCOUNT_SORT_FIELDS, adAccountSchema, assetPageResultSchema, endpoints, type ListAdAccountsBody, pageBodySchema, platformSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';
import { urlInt } from '@/components/list-kit';

/** The hosting screen's state in the URL: which side (hosted or not) and its filters, sort and page. */
export const hostingQuerySchema = pageBodySchema.extend({
  /** The screen's part (托管账户 when absent); each part keeps its own state beside it. */
  view: z.literal('accounts').optional(),
  tab: z.enum(['hosted', 'available']).default('hosted'),
  sort_field: z.enum(AD_ACCOUNT_SORT_FIELDS).optional(),
  keyword: z.string().trim().max(100).optional(),
  platform: platformSchema.optional(),
  account_status: urlInt.optional(),
});
export type HostingQuery = z.output<typeof hostingQuerySchema>;

export const hostingPageSchema = assetPageResultSchema(adAccountSchema);
export type HostingPage = z.infer<typeof hostingPageSchema>;

/** The /ad-accounts/list body of one side of the screen. */
export function hostingBody(q: HostingQuery, hosted: boolean): ListAdAccountsBody {
  const { tab: _tab, view: _view, ...rest } = q;
  return { ...rest, hosted };
}

export const hostingKeys = {
  list: (body: ListAdAccountsBody) => [...rootKeys.adAccounts, 'list', body] as const,
};

/** One page of ad accounts under hosting (hosted: true) or not (hosted: false). */
export function useHostingAccounts(body: ListAdAccountsBody) {
  return useQuery({
    queryKey: hostingKeys.list(body),
    queryFn: () => api.call(endpoints.adAccounts.list, body),
    placeholderData: keepPreviousData,
  });
}
