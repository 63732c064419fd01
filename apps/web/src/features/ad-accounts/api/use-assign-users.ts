import { endpoints, type AssignMode } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /ad-accounts/assign_users: add the users to, replace the users of, or remove them from the accounts. */
export function useAssignUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ad_account_ids: number[]; user_ids: number[]; mode: AssignMode }) => api.call(endpoints.adAccounts.assign_users, body),
    // Who may use a page or pixel follows the accounts a user has.
    onSuccess: () => Promise.all([rootKeys.adAccounts, rootKeys.pages, rootKeys.pixels].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
