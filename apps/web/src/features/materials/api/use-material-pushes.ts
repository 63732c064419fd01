import { endpoints, type ListPushesBody, type MaterialPush } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { materialKeys } from './use-materials';

export const isPushActive = (p: Pick<MaterialPush, 'state'>) => p.state === 'pending' || p.state === 'uploading' || p.state === 'processing';

/** How often pushes on their way are asked again. */
const PUSH_POLL_MS = 2000;

/** /materials/pushes: the pushes of a material to ad accounts, asked again while any is on its way. */
export function useMaterialPushes(body: ListPushesBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...materialKeys.pushes(), body] as const,
    queryFn: () => api.call(endpoints.materials.pushes, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    refetchInterval: (query) => (query.state.data?.list.some(isPushActive) ? PUSH_POLL_MS : false),
  });
}
