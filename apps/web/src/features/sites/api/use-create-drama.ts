import { endpoints, type CreateDramaBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /dramas/create. */
export function useCreateDrama() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDramaBody) => api.call(endpoints.dramas.create, body),
    // A site shows how many items its catalog holds.
    onSuccess: () => Promise.all([rootKeys.dramas, rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
