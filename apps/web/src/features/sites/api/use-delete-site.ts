import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sites/delete. */
export function useDeleteSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.sites.delete, { id }),
    onSuccess: () => Promise.all([rootKeys.sites, rootKeys.pixels, rootKeys.dramas, rootKeys.products].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
