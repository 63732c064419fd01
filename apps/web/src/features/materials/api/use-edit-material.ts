import { endpoints, type EditMaterialBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { materialKeys } from './use-materials';

/** /materials/edit: name and metadata of one material (omitted fields stay, null clears). */
export function useEditMaterial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditMaterialBody) => api.call(endpoints.materials.edit, body),
    onSuccess: (material) => {
      queryClient.setQueryData(materialKeys.detail(material.id), material);
      return queryClient.invalidateQueries({ queryKey: materialKeys.all });
    },
  });
}
