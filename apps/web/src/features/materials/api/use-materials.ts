import { endpoints, idSchema, type ListMaterialsBody, listMaterialsBodySchema, type Material, type MaterialKind, type Platform } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** Tags in the URL as "a,b" (written with String(array)), read back into a list. */
const urlTags = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
  z.array(z.string().trim().min(1).max(32)).min(1).max(10),
);

/** The library state in the URL: the list body's filters, sort and page, the view, and the material open in the drawer. */
export const materialsQuerySchema = listMaterialsBodySchema.extend({
  tags: urlTags.optional(),
  view: z.enum(['grid', 'list']).optional(),
  material: idSchema.optional(),
});
export type MaterialsQuery = z.output<typeof materialsQuerySchema>;

/** What a screen fixes for its whole library (短剧素材: drama videos; 电商素材: e-commerce). */
export interface MaterialsPreset {
  platform?: Platform;
  kind?: MaterialKind;
}

/** The /materials/list body for the URL state: the view and drawer left out, the screen's preset applied. */
export function materialsBody(q: MaterialsQuery, preset: MaterialsPreset): ListMaterialsBody {
  const { view: _view, material: _material, ...rest } = q;
  const body: Record<string, unknown> = { ...rest, ...preset };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return body as ListMaterialsBody;
}

export interface MaterialsPage {
  list: Material[];
  total: number;
}

export const materialKeys = {
  all: rootKeys.materials,
  lists: () => [...materialKeys.all, 'list'] as const,
  list: (body: ListMaterialsBody) => [...materialKeys.lists(), body] as const,
  detail: (id: number) => [...materialKeys.all, 'get', id] as const,
  facets: (platform: Platform | undefined) => [...materialKeys.all, 'facets', platform ?? 'all'] as const,
  pushes: () => [...materialKeys.all, 'pushes'] as const,
};

/** Pushes that are still on their way. */
export const hasActivePushes = (m: Pick<Material, 'push_counts'>) => m.push_counts.pending + m.push_counts.uploading + m.push_counts.processing > 0;

/** How often a page with pushes on their way is asked again, so their state moves on screen. */
const ACTIVE_PUSH_POLL_MS = 5000;

/** One page of /materials/list. */
export function useMaterials(body: ListMaterialsBody) {
  return useQuery({
    queryKey: materialKeys.list(body),
    queryFn: () => api.call(endpoints.materials.list, body),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some(hasActivePushes) ? ACTIVE_PUSH_POLL_MS : false),
  });
}
