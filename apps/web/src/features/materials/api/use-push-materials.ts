import { endpoints, type PushMaterialsBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';
import { materialKeys } from './use-materials';

/** /materials/push: one background task for every material × ad account pair not pushed yet. */
export function usePushMaterials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PushMaterialsBody) => api.call(endpoints.materials.push, body),
    onSuccess: () => Promise.all([materialKeys.all, rootKeys.tasks].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
