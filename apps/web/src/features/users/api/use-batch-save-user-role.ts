import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-users/batch_save_user_role: each listed user's roles become exactly role_ids. */
export function useBatchSaveUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { user_ids: number[]; role_ids: number[] }) => api.call(endpoints.sysUsers.batch_save_user_role, body),
    onSuccess: () => Promise.all([rootKeys.users, rootKeys.roles].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
