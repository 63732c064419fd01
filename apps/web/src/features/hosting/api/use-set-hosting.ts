import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /ad-accounts/set_hosted: put ad accounts under hosting or take them out (nothing changes on the platform). */
export function useSetHosting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ad_account_ids: number[]; hosted: boolean }) => api.call(endpoints.adAccounts.set_hosted, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.adAccounts }),
  });
}
