import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

type Scalar = string | number | boolean;
type QueryObject = Record<string, unknown>;

/**
 * Parses the URL search params with a zod schema (values arrive as strings, so number fields
 * need `numberInput`-style preprocessing). A param that fails the schema is dropped rather
 * than breaking the page, so a hand-edited or stale link still opens with its valid parts.
 */
export function parseSearchParams<S extends z.ZodType<QueryObject>>(schema: S, params: URLSearchParams): z.output<S> {
  const raw: QueryObject = {};
  for (const key of new Set(params.keys())) raw[key] = params.get(key) ?? undefined;
  // Each round drops the keys the schema refused; bounded by the number of keys.
  for (let round = 0; round <= Object.keys(raw).length; round++) {
    const result = schema.safeParse(raw);
    if (result.success) return result.data;
    const bad = new Set(result.error.issues.map((i) => String(i.path[0] ?? '')));
    if (!bad.size || [...bad].every((k) => !(k in raw))) break;
    for (const key of bad) delete raw[key];
  }
  return schema.parse({});
}

/** Writes a query object as search params, leaving out empty values and the schema's defaults. */
export function toSearchParams(value: QueryObject, defaults: QueryObject = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null || v === '') continue;
    if (defaults[key] === v) continue;
    params.set(key, String(v as Scalar));
  }
  return params;
}

/**
 * List state (filters, sort, page) kept in the URL query string, so refresh, back and shared
 * links reopen the same view. `setQuery` replaces the whole query and pushes a history entry.
 */
export function useUrlQuery<S extends z.ZodType<QueryObject>>(schema: S) {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const defaults = useMemo<QueryObject>(() => {
    const r = schema.safeParse({});
    return r.success ? r.data : {};
  }, [schema]);
  // Parse once per distinct query string so the result is stable for query keys and effects.
  const query = useMemo(() => parseSearchParams(schema, new URLSearchParams(search)), [schema, search]);
  const setQuery = useCallback(
    (next: z.input<S> | z.output<S>, opts: { replace?: boolean } = {}) => {
      setParams(toSearchParams(next as QueryObject, defaults), { replace: opts.replace });
    },
    [setParams, defaults],
  );
  return [query, setQuery] as const;
}
