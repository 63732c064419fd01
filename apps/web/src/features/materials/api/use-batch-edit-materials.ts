import { endpoints, type BatchEditMaterialsBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { materialKeys } from './use-materials';

/** /materials/batch_edit: the same metadata for many materials (tags added, replaced or removed). */
export function useBatchEditMaterials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchEditMaterialsBody) => api.call(endpoints.materials.batch_edit, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: materialKeys.all }),
  });
}
