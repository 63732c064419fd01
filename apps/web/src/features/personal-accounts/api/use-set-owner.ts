import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /personal-accounts/set_owner: null clears the owner. */
export function useSetOwner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; owner_user_id: number | null }) => api.call(endpoints.personalAccounts.set_owner, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.personalAccounts }),
  });
}
