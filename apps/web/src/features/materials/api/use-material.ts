import { endpoints, type Material } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { materialKeys } from './use-materials';

/** /materials/get: one material (the drawer), starting from the row the list already has. */
export function useMaterial(id: number | undefined, initial?: Material) {
  return useQuery({
    queryKey: materialKeys.detail(id ?? 0),
    queryFn: () => api.call(endpoints.materials.get, { id }),
    enabled: id !== undefined,
    placeholderData: initial?.id === id ? initial : undefined,
  });
}
