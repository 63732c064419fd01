import { endpoints, type Platform } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /ad-accounts/set_platform: 短剧 (dj), 电商 (ec) or none. */
export function useSetPlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ad_account_ids: number[]; platform: Platform | null }) => api.call(endpoints.adAccounts.set_platform, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.adAccounts }),
  });
}
