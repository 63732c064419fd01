import { endpoints } from '@ads/contracts';

import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

export const departmentTreeKey = () => [...rootKeys.departments, 'tree'] as const;

/**
 * /sys-departments/tree: the whole tree with leaders and member counts. Shared: the
 * departments screen shows it, the accounts screen filters and assigns by it.
 */
export function useDepartmentTree(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: departmentTreeKey(),
    queryFn: () => api.call(endpoints.sysDepartments.tree, {}),
    enabled: opts.enabled ?? true,
  });
}
