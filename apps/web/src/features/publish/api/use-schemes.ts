import { endpoints, type ListSchemeItemsBody, type ListSchemesBody, type Scheme, type SchemeStatus } from '@ads/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { publishKeys } from './keys';

/** How often a scheme under way is asked for its progress. */
export const SCHEME_POLL_MS = 1500;

const LIVE: ReadonlySet<SchemeStatus> = new Set(['queued', 'running', 'waiting', 'cancelling']);
/** Whether a scheme is still moving (its items can change by themselves). */
export const isSchemeLive = (s: Pick<Scheme, 'status'> | undefined) => s !== undefined && LIVE.has(s.status);

/** /publish-schemes/list: one page of schemes, refreshed while any of them runs. */
export function useSchemes(body: ListSchemesBody, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: publishKeys.schemeList(body),
    queryFn: () => api.call(endpoints.publishSchemes.list, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    refetchInterval: (q) => (q.state.data?.list.some(isSchemeLive) ? SCHEME_POLL_MS * 2 : false),
  });
}

/** /publish-schemes/get: one scheme with its progress per account, polled while it moves. */
export function useScheme(id: number | null) {
  return useQuery({
    queryKey: publishKeys.scheme(id ?? 0),
    queryFn: () => api.call(endpoints.publishSchemes.get, { id: id! }),
    enabled: id !== null,
    refetchInterval: (q) => (isSchemeLive(q.state.data) ? SCHEME_POLL_MS : false),
  });
}

/**
 * /publish-schemes/items: a page of a scheme's items, polled while the scheme moves. `stamp`
 * (the scheme's counts) asks again when the scheme has moved, so the last changes show too.
 */
export function useSchemeItems(body: ListSchemeItemsBody, live: boolean, stamp: string) {
  return useQuery({
    queryKey: [...publishKeys.items(body), stamp] as const,
    queryFn: () => api.call(endpoints.publishSchemes.items, body),
    placeholderData: keepPreviousData,
    refetchInterval: live ? SCHEME_POLL_MS : false,
  });
}

/** /publish-schemes/retry_failed and /cancel: both move the scheme; its views refresh. */
export function useSchemeAction(action: 'retry_failed' | 'cancel') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.publishSchemes[action], { id }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: publishKeys.schemes() }),
  });
}

/** /publish-schemes/draft: a past scheme's draft for "new from this scheme". */
export function useSchemeDraft(id: number | null) {
  return useQuery({
    queryKey: [...publishKeys.schemes(), 'draft', id ?? 0] as const,
    queryFn: () => api.call(endpoints.publishSchemes.draft, { id: id! }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}
