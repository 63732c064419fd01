import { endpoints, type CreateDepartmentBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /sys-departments/create. */
export function useCreateDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDepartmentBody) => api.call(endpoints.sysDepartments.create, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKeys.departments }),
  });
}
