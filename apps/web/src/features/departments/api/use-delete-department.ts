import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-departments/delete: refused (with the count) while it has sub-departments or members. */
export function useDeleteDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.sysDepartments.delete, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.departments }),
  });
}
