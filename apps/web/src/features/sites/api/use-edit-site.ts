import { endpoints, type EditSiteBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sites/edit. */
export function useEditSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditSiteBody) => api.call(endpoints.sites.edit, body),
    onSuccess: () => Promise.all([rootKeys.sites, rootKeys.pixels].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
