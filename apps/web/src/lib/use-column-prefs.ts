import { useCallback, useState } from 'react';

const PREFIX = 'columns:';

function read(key: string): string[] | null {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) && parsed.every((k) => typeof k === 'string') ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The columns a user chose to hide in one table, remembered in localStorage under
 * "columns:<key>" (PRODUCT.md "Screens": columns are many). Only hidden keys are stored, so a
 * column added later shows up by default.
 */
export function useColumnPrefs(key: string, defaultHidden: readonly string[] = []) {
  const [hidden, setHiddenState] = useState<string[]>(() => read(key) ?? [...defaultHidden]);
  const setHidden = useCallback(
    (next: string[]) => {
      setHiddenState(next);
      try {
        localStorage.setItem(PREFIX + key, JSON.stringify(next));
      } catch {
        // Private mode or a full storage: the choice still holds for this visit.
      }
    },
    [key],
  );
  const reset = useCallback(() => {
    setHiddenState([...defaultHidden]);
    try {
      localStorage.removeItem(PREFIX + key);
    } catch {
      // As above.
    }
  }, [key, defaultHidden]);
  return { hidden, setHidden, reset };
}
