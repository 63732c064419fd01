import { endpoints, type AssignMode } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /pixels/associate: which ad accounts may use the pixels. */
export function useAssociatePixels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { pixel_ids: number[]; ad_account_ids: number[]; mode: AssignMode }) => api.call(endpoints.pixels.associate, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.pixels }),
  });
}
