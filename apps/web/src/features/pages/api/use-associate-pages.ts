import { endpoints, type AssignMode } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export interface AssociatePagesBody {
  page_ids: number[];
  ad_account_ids?: number[];
  user_ids?: number[];
  mode: AssignMode;
}

/** /pages/associate: which ad accounts and users may use the pages (主页关联). */
export function useAssociatePages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AssociatePagesBody) => api.call(endpoints.pages.associate, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.pages }),
  });
}
