import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { syncedAssetKeys } from '@/lib/query-keys';

/**
 * /personal-accounts/disconnect: the token is wiped and the account leaves the list; ad accounts
 * only it reached stay, marked unreachable.
 */
export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.personalAccounts.disconnect, { id }),
    onSuccess: () => Promise.all(syncedAssetKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
