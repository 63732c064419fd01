import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { materialKeys } from './use-materials';

/** /materials/delete: refused (with the names) while ads use any of them. */
export function useDeleteMaterials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.call(endpoints.materials.delete, { ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: materialKeys.all }),
  });
}
