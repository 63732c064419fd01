import { assetPageResultSchema, listPersonalAccountsBodySchema, personalAccountSchema, type ListPersonalAccountsBody } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { rootKeys } from '@/lib/query-keys';
import { urlBoolean } from '@/components/list-kit';

/** The personal-account list state as it lives in the URL. */
export const personalAccountsQuerySchema = listPersonalAccountsBodySchema.extend({ hosted: urlBoolean.optional() });
export type PersonalAccountsQuery = z.output<typeof personalAccountsQuerySchema>;

export const personalAccountsPageSchema = assetPageResultSchema(personalAccountSchema);
export type PersonalAccountsPage = z.infer<typeof personalAccountsPageSchema>;

export const personalAccountKeys = {
  all: rootKeys.personalAccounts,
  lists: () => [...personalAccountKeys.all, 'list'] as const,
  list: (q: ListPersonalAccountsBody) => [...personalAccountKeys.lists(), q] as const,
};

/** How often the list is asked again while a sync of a listed account is queued or running. */
export const SYNC_POLL_MS = 3000;

const syncing = (page: PersonalAccountsPage | undefined) => page?.list.some((a) => a.last_sync_status === 'queued' || a.last_sync_status === 'running') ?? false;

/**
 * One page of /personal-accounts/list. A connection (token or OAuth) queues a sync nobody on
 * the screen follows: while a listed account's sync is queued or running, the page is asked
 * again, so its status and asset counts arrive without a reload.
 */
export function usePersonalAccounts(q: PersonalAccountsQuery) {
  return useQuery({
    queryKey: personalAccountKeys.list(q),
    queryFn: () => api.post<PersonalAccountsPage>('/personal-accounts/list', q),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (syncing(query.state.data) ? SYNC_POLL_MS : false),
  });
}
