import { endpoints } from '@ads/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** /sites/rotate_secret: a new order-webhook secret, shown once; the old one stops working. */
export function useRotateSecret() {
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.sites.rotate_secret, { id }),
  });
}
