import type { Key } from 'react';
import { useCallback, useMemo, useState } from 'react';

/**
 * Rows selected across pages (the keys, and the rows as they were when selected, for bulk
 * actions that need names). Pass `tableSelection` to ListTable's `selection`.
 */
export function useRowSelection<T, K extends Key = number>(keyOf: (row: T) => K) {
  const [selected, setSelected] = useState<Map<K, T>>(new Map());
  const clear = useCallback(() => setSelected(new Map()), []);
  const onChange = useCallback(
    (keys: K[], rows: (T | undefined)[]) =>
      setSelected((prev) => {
        const next = new Map<K, T>();
        for (const k of keys) {
          const row = rows.find((r) => r !== undefined && keyOf(r) === k) ?? prev.get(k);
          if (row !== undefined) next.set(k, row);
        }
        return next;
      }),
    [keyOf],
  );
  return useMemo(
    () => ({
      keys: [...selected.keys()],
      rows: [...selected.values()],
      count: selected.size,
      clear,
      set: (rows: T[]) => setSelected(new Map(rows.map((r) => [keyOf(r), r]))),
      has: (key: K) => selected.has(key),
      /** Selects or unselects one row (cards of a grid view). */
      toggle: (row: T, checked: boolean) =>
        setSelected((prev) => {
          const next = new Map(prev);
          if (checked) next.set(keyOf(row), row);
          else next.delete(keyOf(row));
          return next;
        }),
      /** Unselects rows that went away (deleted). */
      drop: (keys: readonly K[]) => setSelected((prev) => new Map([...prev].filter(([k]) => !keys.includes(k)))),
      tableSelection: { selectedKeys: [...selected.keys()], onChange },
    }),
    [selected, clear, onChange, keyOf],
  );
}

export type RowSelection<T, K extends Key = number> = ReturnType<typeof useRowSelection<T, K>>;
