import { endpoints } from '@ads/contracts';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /ad-accounts/edit: the remark, the only field kept locally rather than synced. */
export function useEditAdAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; remark: string }) => api.call(endpoints.adAccounts.edit, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.adAccounts }),
  });
}
