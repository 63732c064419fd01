import { endpoints } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /products/delete. */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.products.delete, { id }),
    onSuccess: () => Promise.all([rootKeys.products, rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
