import { endpoints, type ListAdAccountsBody } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

type ExportBody = Omit<ListAdAccountsBody, 'page' | 'page_size'>;

/** /ad-accounts/export: every account matching the filters (no paging) as an .xlsx download. */
export function useExportAdAccounts() {
  return useMutation({
    mutationFn: ({ body, filename }: { body: ExportBody; filename: string }) => api.download(endpoints.adAccounts.export, body, filename),
  });
}
