import { endpoints, type PublishDraft, type PublishSubmitBody } from '@ads/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { publishKeys } from './keys';

/**
 * /publish/preview of the draft as it is when step 5 opens: every object, totals and checks
 * (ours and the platform's validate-only). Read like a query so going back and forth on an
 * unchanged draft does not ask again.
 */
export function usePublishPreview(draft: PublishDraft | null) {
  return useQuery({
    queryKey: [...publishKeys.all, 'preview', draft] as const,
    queryFn: () => api.call(endpoints.publish.preview, { draft: draft!, validate: true }),
    enabled: draft !== null,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}

/** /publish/submit: stores the scheme and queues its run. */
export function useSubmitScheme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishSubmitBody) => api.call(endpoints.publish.submit, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: publishKeys.schemes() }),
  });
}
