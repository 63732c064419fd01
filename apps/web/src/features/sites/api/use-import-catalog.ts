import { endpoints, type ImportCatalogBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export type CatalogKind = 'dramas' | 'products';

/**
 * /dramas/import and /products/import: a .csv or .xlsx as base64. With dry_run the server only
 * checks every row; without, it writes all rows or none.
 */
export function useImportCatalog(kind: CatalogKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportCatalogBody) => api.call(endpoints[kind].import, body),
    onSuccess: (_result, body) => {
      if (body.dry_run) return;
      return Promise.all([rootKeys[kind], rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
