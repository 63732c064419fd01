import { endpoints, type SimpleListBody as SimpleListRequest } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

type SimpleListBody = NonNullable<SimpleListRequest>;

export const simpleUsersKey = (body: SimpleListBody) => [...rootKeys.users, 'simple', body] as const;

/** /sys-users/simple_list: enabled users for pickers (those the viewer may see or act for), searched by name or account. */
export function useSimpleUsers(body: SimpleListBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: simpleUsersKey(body),
    queryFn: () => api.call(endpoints.sysUsers.simple_list, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
