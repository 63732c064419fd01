import { endpoints, type EditDepartmentBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-departments/edit: rename, move (parent_id), re-sort or change the leader. */
export function useEditDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditDepartmentBody) => api.call(endpoints.sysDepartments.edit, body),
    // Account rows show the department name.
    onSuccess: () => Promise.all([rootKeys.departments, rootKeys.users].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
