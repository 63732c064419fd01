import { endpoints, type EditProductBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /products/edit. */
export function useEditProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditProductBody) => api.call(endpoints.products.edit, body),
    onSuccess: () => Promise.all([rootKeys.products, rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
