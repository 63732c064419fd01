import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /personal-accounts/sync: one background task syncing their ad accounts, pages and pixels. */
export function useSyncPersonalAccounts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.call(endpoints.personalAccounts.sync, { ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.tasks }),
  });
}
