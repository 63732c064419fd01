import { endpoints, type CreateSiteBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sites/create: answers the order-webhook secret, this once. */
export function useCreateSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSiteBody) => api.call(endpoints.sites.create, body),
    // A pixel lists the sites using it.
    onSuccess: () => Promise.all([rootKeys.sites, rootKeys.pixels].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
