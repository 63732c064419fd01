import { endpoints, type ListPersonalAccountsBody, type TokenStatus } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** Enough for every personal account a company connects, in one picker (the API allows page_size up to 500). */
const ALL_BODY: ListPersonalAccountsBody = { page: 1, page_size: 500, sort_field: 'name', sort_order: 'ascend' };

export const personalAccountOptionsKey = () => [...rootKeys.personalAccounts, 'options'] as const;

export interface PersonalAccountOption {
  id: number;
  name: string;
  fb_user_id: string;
  status: TokenStatus;
}

/**
 * The personal accounts the viewer can see (/personal-accounts/list), for filters. The call
 * needs /auth/personage or /operation/auth: pass `enabled: false` to viewers without them.
 */
export function usePersonalAccountOptions(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: personalAccountOptionsKey(),
    queryFn: () => api.call(endpoints.personalAccounts.list, ALL_BODY),
    select: (page): PersonalAccountOption[] => page.list.map((p) => ({ id: p.id, name: p.name, fb_user_id: p.fb_user_id, status: p.status })),
    enabled: opts.enabled ?? true,
    staleTime: 60_000,
  });
}
