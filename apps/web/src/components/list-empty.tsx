import { Button, Empty, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  query: { isError: boolean; isPending: boolean; isPlaceholderData: boolean; data?: unknown; refetch: () => unknown };
  /** Whether filters are applied (then "no results", not "nothing yet"). */
  filtered: boolean;
  /** What to say (and offer) when there is nothing at all yet. */
  emptyText: ReactNode;
  emptyAction?: ReactNode;
}

/**
 * What a table shows instead of rows: the load failure with a retry, nothing while a new query
 * loads over the previous page, "no results" under filters, or the first-use message.
 */
export function ListEmpty({ query, filtered, emptyText, emptyAction }: Props) {
  const { t: tc } = useTranslation();
  if (query.isError && !query.data)
    return <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void query.refetch()}>{tc('states.retry')}</Button>} />;
  if (query.isPending || query.isPlaceholderData) return <div style={{ height: 120 }} />;
  if (filtered) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tc('states.noResults')} />;
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText}>
      {emptyAction}
    </Empty>
  );
}
