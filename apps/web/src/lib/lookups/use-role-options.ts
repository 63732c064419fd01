import { endpoints, type AssetScope, type ListRolesBody } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

/** Enough for every role of a company in one picker (the API allows page_size up to 500). */
const ALL_ROLES_BODY: ListRolesBody = { page: 1, page_size: 500, sort_field: 'name', sort_order: 'ascend' };

export const roleOptionsKey = () => [...rootKeys.roles, 'options'] as const;

export interface RoleOption {
  id: number;
  name: string;
  /** What the role grants: a non-manager may only hand out roles within their own paths. */
  paths: string[];
  /** 'company': its members see the company's authorization assets (only managers, or those who have it, grant it). */
  asset_scope: AssetScope;
}

/** Every role by name (/sys-roles/list), for pickers and filters. */
export function useRoleOptions() {
  return useQuery({
    queryKey: roleOptionsKey(),
    queryFn: () => api.call(endpoints.sysRoles.list, ALL_ROLES_BODY),
    select: (page): RoleOption[] => page.list.map((r) => ({ id: r.id, name: r.name, paths: r.paths, asset_scope: r.asset_scope })),
  });
}
