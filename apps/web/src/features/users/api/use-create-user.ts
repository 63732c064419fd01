import { endpoints, type CreateUserBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export interface CreateUserResult {
  id: number;
  /** Present only when the server generated the password: shown once, never again. */
  new_passwd?: string;
}

/** /sys-users/create_account. A new member changes department and role member counts too. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUserBody) => api.call(endpoints.sysUsers.create_account, body),
    onSuccess: () =>
      Promise.all([rootKeys.users, rootKeys.departments, rootKeys.roles].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
