import { endpoints, type RetryPushesBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';
import { materialKeys } from './use-materials';

/** /materials/retry_push: failed pushes again (these ids, or every failed push of a material). */
export function useRetryPushes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RetryPushesBody) => api.call(endpoints.materials.retry_push, body),
    onSuccess: () => Promise.all([materialKeys.all, rootKeys.tasks].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
