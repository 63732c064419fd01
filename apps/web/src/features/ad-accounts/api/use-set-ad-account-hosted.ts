import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /ad-accounts/set_hosted: put accounts under hosting (托管) or take them out. */
export function useSetAdAccountHosted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ad_account_ids: number[]; hosted: boolean }) => api.call(endpoints.adAccounts.set_hosted, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.adAccounts }),
  });
}
