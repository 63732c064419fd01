import { endpoints, type EditRoleBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-roles/edit. Members see the new paths at their next get_user_info. */
export function useEditRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditRoleBody) => api.call(endpoints.sysRoles.edit, body),
    // Account rows show role names.
    onSuccess: () => Promise.all([rootKeys.roles, rootKeys.users].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
