import { endpoints } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** /sys-users/reset_passwd for another user: answers the new random password, to show once. */
export function useResetUserPassword() {
  return useMutation({
    mutationFn: (userId: number) => api.call(endpoints.sysUsers.reset_passwd, { currentUserId: userId }),
  });
}
