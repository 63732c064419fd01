import { endpoints, type CreateProductBody } from '@ads/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** /products/create. */
export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProductBody) => api.call(endpoints.products.create, body),
    // A site shows how many items its catalog holds.
    onSuccess: () => Promise.all([rootKeys.products, rootKeys.sites].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
