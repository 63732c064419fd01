import { endpoints, type ListRolesBody, listRolesBodySchema, pageResultSchema, roleSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** The roles list state as it lives in the URL. */
export const rolesQuerySchema = listRolesBodySchema;
export type RolesQuery = z.output<typeof rolesQuerySchema>;

export const rolesPageSchema = pageResultSchema(roleSchema);
export type RolesPage = z.infer<typeof rolesPageSchema>;

export const roleKeys = {
  all: rootKeys.roles,
  lists: () => [...roleKeys.all, 'list'] as const,
  list: (q: ListRolesBody) => [...roleKeys.lists(), q] as const,
};

/** One page of /sys-roles/list. */
export function useRoles(q: RolesQuery) {
  return useQuery({
    queryKey: roleKeys.list(q),
    queryFn: () => api.call(endpoints.sysRoles.list, q),
    placeholderData: keepPreviousData,
  });
}
