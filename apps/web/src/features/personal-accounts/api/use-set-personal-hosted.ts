import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /personal-accounts/set_hosted. */
export function useSetPersonalHosted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; hosted: boolean }) => api.call(endpoints.personalAccounts.set_hosted, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.personalAccounts }),
  });
}
