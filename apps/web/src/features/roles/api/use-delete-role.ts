import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-roles/delete: its members lose what it granted. */
export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.sysRoles.delete, { id }),
    onSuccess: () => Promise.all([rootKeys.roles, rootKeys.users].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
