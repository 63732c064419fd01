import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-users/delete_user (soft delete; the server refuses deleting oneself). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.sysUsers.delete_user, { id }),
    // The user leaves member counts and, if they led one, their department's leader.
    onSuccess: () =>
      Promise.all([rootKeys.users, rootKeys.departments, rootKeys.roles].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
