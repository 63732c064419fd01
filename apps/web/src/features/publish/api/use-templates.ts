import { endpoints, type Platform, type SaveTemplateBody } from '@ads/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { publishKeys } from './keys';

/** /publish-templates/list: the caller's templates and those shared with their department. */
export function usePublishTemplates(platform: Platform) {
  return useQuery({
    queryKey: publishKeys.templates(platform),
    queryFn: () => api.call(endpoints.publishTemplates.list, { platform }),
  });
}

/** /publish-templates/save: a new template, or an edit (rename, visibility, settings). */
export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveTemplateBody) => api.call(endpoints.publishTemplates.save, body),
    onSuccess: (_t, body) => void queryClient.invalidateQueries({ queryKey: publishKeys.templates(body.platform) }),
  });
}

/** /publish-templates/delete. */
export function useDeleteTemplate(platform: Platform) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(endpoints.publishTemplates.delete, { id }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: publishKeys.templates(platform) }),
  });
}
