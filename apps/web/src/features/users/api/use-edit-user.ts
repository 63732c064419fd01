import { endpoints, type EditUserBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-users/edit_account: also used to enable or disable (status only). */
export function useEditUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditUserBody) => api.call(endpoints.sysUsers.edit_account, body),
    // Department and role member counts follow the user's department and roles.
    onSuccess: () =>
      Promise.all([rootKeys.users, rootKeys.departments, rootKeys.roles].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
