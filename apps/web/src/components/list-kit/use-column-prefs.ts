import type { ColumnPrefs, ColumnSet, Preference } from '@ads/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '@/lib/api-client';

export const preferenceKeys = {
  all: ['user-preferences'] as const,
  one: (key: string) => [...preferenceKeys.all, key] as const,
};

/** GET /user-preferences: one of the signed-in user's preferences (value null when never saved). */
export function usePreference(key: string) {
  return useQuery({
    queryKey: preferenceKeys.one(key),
    queryFn: () => api.get<Preference>(`/user-preferences?key=${encodeURIComponent(key)}`),
    staleTime: Infinity,
  });
}

/** PUT /user-preferences: shown at once (the cache is updated before the server answers). */
export function useSavePreference(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: unknown) => api.put<Preference>('/user-preferences', { key, value }),
    onMutate: (value) => {
      queryClient.setQueryData<Preference>(preferenceKeys.one(key), (old) => ({ key, value, updated_at: old?.updated_at ?? null }));
    },
    onSuccess: (saved) => queryClient.setQueryData(preferenceKeys.one(key), saved),
  });
}

/**
 * The columns a user hides in one table and the column sets they saved, stored on the server
 * under `columns:<table>` so they follow the user (PRODUCT.md "Screens": column chooser where
 * columns are many). Only hidden keys are stored, so a column added later shows by default.
 */
export function useColumnPrefs(table: string, defaultHidden: readonly string[] = []) {
  const key = `columns:${table}`;
  const pref = usePreference(key);
  const save = useSavePreference(key);
  const stored = pref.data?.value as ColumnPrefs | null | undefined;
  const hidden = useMemo(() => stored?.hidden ?? [...defaultHidden], [stored, defaultHidden]);
  const sets = useMemo(() => stored?.sets ?? [], [stored]);
  const write = save.mutate;

  const setHidden = useCallback((next: string[]) => write({ hidden: next, sets } satisfies ColumnPrefs), [write, sets]);
  const reset = useCallback(() => write({ hidden: [...defaultHidden], sets } satisfies ColumnPrefs), [write, defaultHidden, sets]);
  /** Saves the shown columns under `name` (replacing a set of that name). */
  const saveSet = useCallback(
    (name: string, columns: string[]) => write({ hidden, sets: [...sets.filter((s) => s.name !== name), { name, columns }] } satisfies ColumnPrefs),
    [write, hidden, sets],
  );
  /** Shows exactly the set's columns (of `all`, the table's column keys). */
  const applySet = useCallback(
    (set: ColumnSet, all: readonly string[]) => write({ hidden: all.filter((k) => !set.columns.includes(k)), sets } satisfies ColumnPrefs),
    [write, sets],
  );
  const removeSet = useCallback((name: string) => write({ hidden, sets: sets.filter((s) => s.name !== name) } satisfies ColumnPrefs), [write, hidden, sets]);

  return { hidden, sets, setHidden, reset, saveSet, applySet, removeSet, isLoading: pref.isPending };
}

export type ColumnPrefsState = ReturnType<typeof useColumnPrefs>;
