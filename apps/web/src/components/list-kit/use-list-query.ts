import { PAGE_SIZE_OPTIONS } from '@ads/contracts';
import type { SorterResult, SortOrder, TablePaginationConfig } from 'antd/es/table/interface';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import i18n from '@/lib/i18n';

type Scalar = string | number | boolean;
type QueryObject = Record<string, unknown>;

/** The paging and sort part of every list body (API.md "Lists"). */
export interface ListState {
  page: number;
  page_size: number;
  sort_field?: string;
  sort_order?: 'ascend' | 'descend';
}

/**
 * Parses the URL search params with a zod schema (values arrive as strings, so number fields
 * need `urlInt`-style preprocessing). A param that fails the schema is dropped rather than
 * breaking the page, so a hand-edited or stale link still opens with its valid parts.
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
 * The list state after a table change: a new page size or sort goes back to page 1; a cleared
 * sort removes sort_field so the server's default order applies.
 */
export function nextListState<S extends ListState, R>(state: S, pagination: TablePaginationConfig, sorter: SorterResult<R> | SorterResult<R>[]): S {
  const s = Array.isArray(sorter) ? sorter[0] : sorter;
  const field = s?.order ? String(s.columnKey ?? s.field) : undefined;
  const order = s?.order ?? undefined;
  const pageSize = pagination.pageSize ?? state.page_size;
  const sortChanged = field !== state.sort_field || order !== state.sort_order;
  const page = sortChanged || pageSize !== state.page_size ? 1 : (pagination.current ?? state.page);
  return { ...state, page, page_size: pageSize, sort_field: field, sort_order: order };
}

/** The last page that holds rows (1 when there are none). */
export const lastPageOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

export interface ListQueryOptions<K extends string> {
  /** The keys the filter bar owns: 重置 clears exactly these; a filter change goes back to page 1. */
  filterKeys: readonly K[];
}

/**
 * A list's state (filters, sort, page, and any other view keys such as a tab) kept in the URL,
 * so refresh, back and shared links reopen the same view (STYLE.md §8).
 *
 * Every write is computed from the latest URL this hook wrote or saw, not from the render that
 * made the handler: the router commits a navigation in a transition, so a click right after
 * 重置 (a sort header) could otherwise run with the state from before the reset and put the
 * cleared filters back while the filter form shows them off.
 */
export function useListQuery<S extends z.ZodType<QueryObject & ListState>, K extends keyof z.output<S> & string>(schema: S, { filterKeys }: ListQueryOptions<K>) {
  type Q = z.output<S>;
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const defaults = useMemo<QueryObject>(() => {
    const r = schema.safeParse({});
    return r.success ? r.data : {};
  }, [schema]);
  // Parse once per distinct query string so the result is stable for query keys and effects.
  const query = useMemo(() => parseSearchParams(schema, new URLSearchParams(search)), [schema, search]);
  const latest = useRef(search);
  useLayoutEffect(() => {
    latest.current = search;
  }, [search]);

  // A screen's filter keys are a constant list: the first render's are kept.
  const [keys] = useState(filterKeys);

  /** Writes the state `update` makes of the latest one. */
  const write = useCallback(
    (update: (current: Q) => Q, opts: { replace?: boolean } = {}) => {
      const current = parseSearchParams(schema, new URLSearchParams(latest.current));
      const next = toSearchParams(update(current) as QueryObject, defaults);
      latest.current = next.toString();
      setParams(next, { replace: opts.replace });
    },
    [schema, defaults, setParams],
  );

  const filters = useMemo(() => {
    const f: Partial<Pick<Q, K>> = {};
    for (const k of filterKeys) if (query[k] !== undefined) f[k] = query[k];
    return f;
    // filterKeys is a constant list per screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);

  const actions = useMemo(() => {
    const withoutFilters = (q: Q): Q => {
      const next = { ...q };
      for (const k of keys) delete next[k];
      return next;
    };
    return {
      /** Replaces the whole state (another item opened: nothing of the previous view stays). */
      set: (next: Partial<Q>, opts?: { replace?: boolean }) => write(() => next as Q, opts),
      /** Merges `patch` into the state (other view keys such as a tab, or an opened item). */
      patch: (patch: Partial<Q>, opts?: { replace?: boolean }) => write((q) => ({ ...q, ...patch }), opts),
      /** Replaces the filters (keeping sort, page size and view keys) and goes back to page 1. */
      setFilters: (next: Partial<Pick<Q, K>>) => write((q) => ({ ...withoutFilters(q), ...next, page: 1 })),
      /** 重置: clears every filter and goes back to page 1; sort and page size stay. */
      reset: () => write((q) => ({ ...withoutFilters(q), page: 1 })),
      /** A page or page size from a paginator; a new size goes back to page 1. */
      setPage: (page: number, pageSize?: number) =>
        write((q) => ({ ...q, page: pageSize !== undefined && pageSize !== q.page_size ? 1 : page, page_size: pageSize ?? q.page_size })),
      /** Sets the sort (undefined: the server's default order) and goes back to page 1. */
      setSort: (field: string | undefined, order?: 'ascend' | 'descend') =>
        write((q) => ({ ...q, page: 1, sort_field: field, sort_order: field ? (order ?? 'ascend') : undefined })),
      /** An antd Table's onChange: page, size and sort together. */
      onTableChange: <R>(pagination: TablePaginationConfig, _filters: unknown, sorter: SorterResult<R> | SorterResult<R>[]) =>
        write((q) => nextListState(q, pagination, sorter)),
      /** Steps back to `page` without a history entry (the last row of the last page went). */
      stepBackTo: (page: number) => write((q) => ({ ...q, page }), { replace: true }),
    };
  }, [write, keys]);

  const hasFilters = Object.keys(filters).length > 0;

  return {
    query,
    filters,
    hasFilters,
    ...actions,
    /** The controlled sort order of a column. */
    sortOrder: (field: string): SortOrder => (query.sort_field === field ? (query.sort_order ?? null) : null),
    /** Table or Pagination props for a list of `total` rows: 10/20/50/100 with the total shown (PRODUCT.md "Screens"). */
    pagination: (total: number | undefined): TablePaginationConfig => ({
      current: query.page,
      pageSize: query.page_size,
      total: total ?? 0,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
      showTotal: (n) => i18n.t('table.total', { total: n }),
      onChange: (page, pageSize) => actions.setPage(page, pageSize),
    }),
  };
}

/** What a table needs of a list's state (ListTable, ExportButton); useListQuery's answer has it. */
export interface ListView<Q extends ListState = ListState> {
  query: Q;
  hasFilters: boolean;
  onTableChange: <R>(pagination: TablePaginationConfig, filters: unknown, sorter: SorterResult<R> | SorterResult<R>[]) => void;
  stepBackTo: (page: number) => void;
  sortOrder: (field: string) => SortOrder;
  pagination: (total: number | undefined) => TablePaginationConfig;
}
