import { PAGE_SIZE_OPTIONS } from '@ads/contracts';
import type { SorterResult, SortOrder, TablePaginationConfig } from 'antd/es/table/interface';
import i18n from './i18n';

/** The paging and sort part of every list body (API.md "Lists"). */
export interface ListState {
  page: number;
  page_size: number;
  sort_field?: string;
  sort_order?: 'ascend' | 'descend';
}

/** Table pagination for a list: 10/20/50/100 per page with the total shown (PRODUCT.md "Screens"). */
export function listPagination(state: ListState, total: number | undefined): TablePaginationConfig {
  return {
    current: state.page,
    pageSize: state.page_size,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
    showTotal: (n) => i18n.t('table.total', { total: n }),
  };
}

/** The controlled sort order of a column. */
export function columnSortOrder(state: ListState, field: string): SortOrder {
  return state.sort_field === field ? (state.sort_order ?? null) : null;
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

/**
 * Scroll width of a table: the sum of its columns' widths (120 px for a column without one) plus
 * `extra` (the selection column), so a narrow window scrolls instead of squeezing the columns.
 */
export function tableScrollX(columns: ReadonlyArray<{ width?: string | number }>, extra = 48): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 120), extra);
}
