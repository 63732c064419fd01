import { endpoints } from '@ads/contracts';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /personal-accounts/check_token: asks the platform about the token now (debug_token). */
export function useCheckToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.personalAccounts.check_token, { id }),
    // An invalid token also changes how ad accounts show the accounts reaching them.
    onSuccess: () => Promise.all([rootKeys.personalAccounts, rootKeys.adAccounts].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
