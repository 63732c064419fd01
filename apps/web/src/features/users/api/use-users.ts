import { endpoints, type ListUsersBody, listUsersBodySchema, pageResultSchema, sysUserSchema } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';

const digitsToNumber = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);

/** The accounts list state as it lives in the URL (numbers arrive as strings there). */
export const usersQuerySchema = listUsersBodySchema.extend({
  is_admin: z.preprocess(digitsToNumber, z.union([z.literal(0), z.literal(1), z.literal(9)])).optional(),
});
export type UsersQuery = z.output<typeof usersQuerySchema>;

export const usersPageSchema = pageResultSchema(sysUserSchema);
export type UsersPage = z.infer<typeof usersPageSchema>;

export const userKeys = {
  all: rootKeys.users,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (q: ListUsersBody) => [...userKeys.lists(), q] as const,
};

/** One page of /sys-users/list. */
export function useUsers(q: UsersQuery) {
  return useQuery({
    queryKey: userKeys.list(q),
    queryFn: () => api.call(endpoints.sysUsers.list, q),
    placeholderData: keepPreviousData,
  });
}
