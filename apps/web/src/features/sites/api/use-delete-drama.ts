import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /dramas/delete. */
export function useDeleteDrama() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.dramas.delete, { id }),
    onSuccess: () => Promise.all([rootKeys.dramas, rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
