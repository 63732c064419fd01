import { endpoints, type Platform } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { materialKeys } from './use-materials';

/** /materials/facets: the tags, editors, uploaders and languages that appear, for the filters. */
export function useMaterialFacets(platform: Platform | undefined) {
  return useQuery({
    queryKey: materialKeys.facets(platform),
    queryFn: () => api.call(endpoints.materials.facets, platform ? { platform } : {}),
    staleTime: 60_000,
  });
}
