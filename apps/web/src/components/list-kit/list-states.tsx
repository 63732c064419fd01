import { Button, Empty, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The parts of a react-query result a list shows states from. */
export interface ListResult<D> {
  data?: D;
  isError: boolean;
  isPending: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

/** What a list says when it has no rows. */
export interface EmptyConfig {
  /** The first-use message (nothing at all yet). */
  text: ReactNode;
  /** What to offer then (connect, create). */
  action?: ReactNode;
  /**
   * The message when rows exist outside the viewer's scope (the server's `outside_scope` count):
   * "the company has 3 accounts, none assigned to you" instead of "connect one".
   */
  outsideScope?: (count: number) => ReactNode;
  /** What "no results" says under filters, when the screen can say more (the keyword searched). */
  filteredText?: ReactNode;
  /** The first-use picture (the simple empty box by default). */
  image?: ReactNode;
}

interface Props extends EmptyConfig {
  result: ListResult<{ outside_scope?: number } | unknown>;
  /** Whether filters are applied (then "no results", not "nothing yet"). */
  filtered: boolean;
}

/**
 * What a list shows instead of rows: the load failure with a retry, nothing while a new query
 * loads over the previous page, "no results" under filters, data outside the viewer's scope, or
 * the first-use message.
 */
export function ListEmpty({ result, filtered, text, action, outsideScope, filteredText, image }: Props) {
  const { t: tc } = useTranslation();
  if (result.isError && !result.data)
    return (
      <Result
        status="warning"
        title={tc('states.loadFailed')}
        extra={
          <Button loading={result.isFetching} onClick={() => void result.refetch()}>
            {tc('states.retry')}
          </Button>
        }
      />
    );
  if (result.isPending || result.isPlaceholderData) return <div style={{ height: 120 }} aria-busy="true" aria-label={tc('states.loading')} />;
  if (filtered) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filteredText ?? tc('states.noResults')} />;
  const outside = (result.data as { outside_scope?: number } | undefined)?.outside_scope;
  if (outside && outsideScope) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="outside-scope">{outsideScope(outside)}</span>} />;
  return (
    <Empty image={image ?? Empty.PRESENTED_IMAGE_SIMPLE} description={text}>
      {action}
    </Empty>
  );
}
