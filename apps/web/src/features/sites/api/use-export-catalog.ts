import { endpoints } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { CatalogKind } from './use-import-catalog';

/**
 * /dramas/export and /products/export (API.md "Lists": the list body without paging answers
 * an .xlsx of every matching row).
 */
export function useExportCatalog(kind: CatalogKind) {
  return useMutation({
    mutationFn: ({ body, filename }: { body: Record<string, unknown>; filename: string }) => api.download(endpoints[kind].export, body, filename),
  });
}
