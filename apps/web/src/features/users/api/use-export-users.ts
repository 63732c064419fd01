import { endpoints, type ListUsersBody } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

type ExportBody = Omit<ListUsersBody, 'page' | 'page_size'>;

/** /sys-users/export: every account matching the filters (no paging) as an .xlsx download. */
export function useExportUsers() {
  return useMutation({
    mutationFn: ({ body, filename }: { body: ExportBody; filename: string }) => api.download(endpoints.sysUsers.export, body, filename),
  });
}
