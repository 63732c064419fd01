import { endpoints, type ConnectTokenBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/**
 * /personal-accounts/connect_token: the server checks the token (debug_token), keeps it, updates
 * an already connected Facebook user instead of adding a second, and queues a sync.
 */
export function useConnectToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConnectTokenBody) => api.call(endpoints.personalAccounts.connect_token, body),
    onSuccess: () => Promise.all([rootKeys.personalAccounts, rootKeys.tasks].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
