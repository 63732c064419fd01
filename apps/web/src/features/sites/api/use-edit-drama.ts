import { endpoints, type EditDramaBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /dramas/edit. */
export function useEditDrama() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditDramaBody) => api.call(endpoints.dramas.edit, body),
    onSuccess: () => Promise.all([rootKeys.dramas, rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
