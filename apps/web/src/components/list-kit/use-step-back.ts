import { useEffect } from 'react';
import { lastPageOf, type ListView } from './use-list-query';

/**
 * Steps back a page when the current one is past the last (its last row was deleted, or a
 * filter narrowed the list), once the answer for the current query is in. Without it the
 * screen shows an empty page and a paginator pointing elsewhere.
 */
export function useStepBack(list: Pick<ListView, 'query' | 'stepBackTo'> | null, result: { data?: { total: number }; isPlaceholderData: boolean }) {
  const total = result.data?.total;
  const page = list?.query.page ?? 1;
  const page_size = list?.query.page_size ?? 1;
  const stepBackTo = list?.stepBackTo;
  useEffect(() => {
    if (!stepBackTo || total === undefined || result.isPlaceholderData) return;
    const last = lastPageOf(total, page_size);
    if (page > last) stepBackTo(last);
  }, [total, page, page_size, result.isPlaceholderData, stepBackTo]);
}
