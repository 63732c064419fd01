import { act, renderHook } from '@testing-library/react';
import { useSyncExternalStore, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listUsersBodySchema, pageBodySchema } from '@ads/contracts';
import { urlBoolean } from './url-params';
import { parseSearchParams, toSearchParams, useListQuery } from './use-list-query';
import { useStepBack } from './use-step-back';

const schema = pageBodySchema.extend({ keyword: z.string().optional(), unassigned: urlBoolean.optional(), tab: z.enum(['a', 'b']).default('a') });

function setup(url: string, extra?: (list: ReturnType<typeof useList>) => void) {
  let router!: ReturnType<typeof createMemoryRouter>;
  const wrapper = ({ children }: { children: ReactNode }) => {
    router ??= createMemoryRouter([{ path: '/x', element: children }], { initialEntries: [url] });
    return <RouterProvider router={router} />;
  };
  const hook = renderHook(() => {
    const list = useList();
    extra?.(list);
    return list;
  }, { wrapper });
  const search = () => Object.fromEntries(new URLSearchParams(router.state.location.search));
  return { hook, search, router };
}
const useList = () => useListQuery(schema, { filterKeys: ['keyword', 'unassigned'] });

describe('useListQuery', () => {
  it('reads the state from the URL with defaults, and filters apart from view keys', () => {
    const { hook } = setup('/x?keyword=ab&unassigned=true&tab=b&page=3&sort_field=name&sort_order=descend');
    expect(hook.result.current.query).toEqual({ page: 3, page_size: 20, keyword: 'ab', unassigned: true, tab: 'b', sort_field: 'name', sort_order: 'descend' });
    expect(hook.result.current.filters).toEqual({ keyword: 'ab', unassigned: true });
    expect(hook.result.current.hasFilters).toBe(true);
  });

  it('a filter change goes to page 1 and keeps sort, size and view keys; 重置 clears only the filters', () => {
    const { hook, search } = setup('/x?keyword=ab&tab=b&page=3&page_size=50&sort_field=name&sort_order=descend');
    act(() => hook.result.current.setFilters({ unassigned: true }));
    expect(search()).toEqual({ unassigned: 'true', tab: 'b', page_size: '50', sort_field: 'name', sort_order: 'descend' });
    act(() => hook.result.current.reset());
    expect(search()).toEqual({ tab: 'b', page_size: '50', sort_field: 'name', sort_order: 'descend' });
    expect(hook.result.current.hasFilters).toBe(false);
  });

  it('a sort clicked with the handlers of the render before 重置 does not bring the filters back', () => {
    const { hook, search } = setup('/x?keyword=ab&unassigned=true&page=2');
    // A fast click runs the handler of the render the user saw, before the reset has rendered.
    const seen = hook.result.current;
    act(() => {
      seen.reset();
      seen.onTableChange({ current: 2, pageSize: 20 }, {}, { columnKey: 'amount_spent', order: 'ascend' });
    });
    expect(search()).toEqual({ sort_field: 'amount_spent', sort_order: 'ascend' });
    expect(hook.result.current.filters).toEqual({});
    expect(hook.result.current.query.page).toBe(1);
  });

  it('a new page size or sort goes back to page 1; a page change keeps the rest', () => {
    const { hook, search } = setup('/x?keyword=ab&page=4');
    act(() => hook.result.current.onTableChange({ current: 5, pageSize: 20 }, {}, {}));
    expect(search()).toEqual({ keyword: 'ab', page: '5' });
    act(() => hook.result.current.onTableChange({ current: 5, pageSize: 50 }, {}, {}));
    expect(search()).toEqual({ keyword: 'ab', page_size: '50' });
    act(() => hook.result.current.setPage(3));
    act(() => hook.result.current.onTableChange({ current: 3, pageSize: 50 }, {}, { columnKey: 'name', order: 'descend' }));
    expect(search()).toEqual({ keyword: 'ab', page_size: '50', sort_field: 'name', sort_order: 'descend' });
    // Clearing the sort goes back to the server's order.
    act(() => hook.result.current.onTableChange({ current: 1, pageSize: 50 }, {}, { columnKey: 'name', order: undefined }));
    expect(search()).toEqual({ keyword: 'ab', page_size: '50' });
  });

  it('steps back to the last page once the answer says the current one is past it, without a history entry', () => {
    // The query result, as a store the hook re-renders from (the router keeps its first element).
    let result: { data?: { total: number }; isPlaceholderData: boolean } = { data: { total: 41 }, isPlaceholderData: false };
    const listeners = new Set<() => void>();
    const answer = (next: typeof result) =>
      act(() => {
        result = next;
        listeners.forEach((l) => l());
      });
    const useResult = () =>
      useSyncExternalStore(
        (l) => (listeners.add(l), () => listeners.delete(l)),
        () => result,
      );
    const { search, router } = setup('/x?page=3', (list) => useStepBack(list, useResult()));
    expect(search()).toEqual({ page: '3' });
    // The last row of page 3 goes: 40 rows are 2 pages. While the old page is a placeholder, nothing moves.
    answer({ data: { total: 40 }, isPlaceholderData: true });
    expect(search()).toEqual({ page: '3' });
    answer({ data: { total: 40 }, isPlaceholderData: false });
    expect(search()).toEqual({ page: '2' });
    expect(router.state.historyAction).toBe('REPLACE');
    // No rows at all: page 1.
    answer({ data: { total: 0 }, isPlaceholderData: false });
    expect(search()).toEqual({});
  });
});

describe('URL list state', () => {
  it('parses numbers and enums from the query string with the schema defaults', () => {
    const q = parseSearchParams(listUsersBodySchema, new URLSearchParams('page=3&department_id=7&status=disabled&account=ali'));
    expect(q).toEqual({ page: 3, page_size: 20, department_id: 7, status: 'disabled', account: 'ali' });
  });

  it('drops only the params a stale or hand-edited link gets wrong', () => {
    const q = parseSearchParams(listUsersBodySchema, new URLSearchParams('page=-1&status=gone&name=Bo&sort_field=password'));
    expect(q).toEqual({ page: 1, page_size: 20, name: 'Bo' });
  });

  it('writes only what differs from the defaults and is not empty', () => {
    const params = toSearchParams({ page: 1, page_size: 50, account: '', name: 'Bo', role_id: undefined, status: 'enabled' }, { page: 1, page_size: 20 });
    expect(params.toString()).toBe('page_size=50&name=Bo&status=enabled');
  });
});
