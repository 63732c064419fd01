import { PAGE_SIZE_OPTIONS } from '@ads/contracts';
import type { SorterResult, SortOrder, TablePaginationConfig } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { nextListState, type ListState, type ListView } from '@/components/list-kit';
import i18n from '@/lib/i18n';

/** A list state kept in the component (a table inside a drawer), with the kit's ListView shape. */
export function useLocalList(pageSize = 20): ListView<ListState> {
  const [query, setQuery] = useState<ListState>({ page: 1, page_size: pageSize });
  return useMemo(
    () => ({
      query,
      hasFilters: false,
      onTableChange: <R>(p: TablePaginationConfig, _f: unknown, s: SorterResult<R> | SorterResult<R>[]) => setQuery((q) => nextListState(q, p, s)),
      stepBackTo: (page: number) => setQuery((q) => ({ ...q, page })),
      sortOrder: (field: string): SortOrder => (query.sort_field === field ? (query.sort_order ?? null) : null),
      pagination: (total: number | undefined): TablePaginationConfig => ({
        current: query.page,
        pageSize: query.page_size,
        total: total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
        showTotal: (n) => i18n.t('table.total', { total: n }),
      }),
    }),
    [query],
  );
}
