import { endpoints, type ListAdAccountsBody, type Platform } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** How many matches a search picker offers at once. */
const OPTIONS_PAGE_SIZE = 50;

export const adAccountOptionsKey = (keyword: string, platform?: Platform) => [...rootKeys.adAccounts, 'options', keyword, platform ?? 'all'] as const;

export interface AdAccountOption {
  id: number;
  name: string;
  platform_id: string;
  currency: string;
  platform: Platform | null;
}

/**
 * Ad accounts the viewer can see whose name or id contains `keyword` (/ad-accounts/list), for
 * pickers; only those of `platform` when given. The call needs /auth/account or
 * /operation/account: pass `enabled: false` otherwise.
 */
export function useAdAccountOptions(keyword: string, opts: { enabled?: boolean; platform?: Platform } = {}) {
  const body: ListAdAccountsBody = { page: 1, page_size: OPTIONS_PAGE_SIZE, sort_field: 'name', sort_order: 'ascend', ...(keyword && { keyword }), ...(opts.platform && { platform: opts.platform }) };
  return useQuery({
    queryKey: adAccountOptionsKey(keyword, opts.platform),
    queryFn: () => api.call(endpoints.adAccounts.list, body),
    select: (page): AdAccountOption[] => page.list.map((a) => ({ id: a.id, name: a.name, platform_id: a.platform_id, currency: a.currency, platform: a.platform })),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}
