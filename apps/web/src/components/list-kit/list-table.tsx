import { Flex, Table, Typography, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser } from './column-chooser';
import { ListEmpty, type EmptyConfig, type ListResult } from './list-states';
import type { ColumnPrefsState } from './use-column-prefs';
import type { ListView } from './use-list-query';
import { useStepBack } from './use-step-back';

/** Width of the selection column (antd's checkbox column). */
export const SELECTION_WIDTH = 40;
/** Width assumed for a column that declares none. */
const DEFAULT_WIDTH = 120;

/**
 * A column of a kit table: an antd column with a string key, plus the kit's parts. Give every
 * column a width: the table's scroll width is their sum, so columns never squeeze or overlap a
 * fixed column; keep the default set within the 1440 px screen's ~1150 px content width.
 */
export interface ListColumn<T> extends Omit<ColumnType<T>, 'key' | 'sorter' | 'sortOrder'> {
  key: string;
  /** Sorted on the server by this column's key (the sort_field it sends). */
  sortable?: boolean;
  /** What the totals row shows under this column (from the server's `summary`). */
  total?: ReactNode;
  /** Always shown: the column chooser cannot hide it (the name). */
  locked?: boolean;
  /** The column's name in the chooser when its title is not plain text. */
  label?: string;
}

/** A page of a list answer: rows, their total, and what the kit reads beside them. */
export interface ListPage<T> {
  list: T[];
  total: number;
  outside_scope?: number;
}

interface Props<T, D extends ListPage<T>> extends Omit<TableProps<T>, 'columns' | 'dataSource' | 'pagination' | 'onChange' | 'rowSelection' | 'summary' | 'loading' | 'rowKey'> {
  /** The URL state; absent for a list shown whole (no paging or sort, e.g. scheduled jobs). */
  list?: ListView;
  result: ListResult<D>;
  columns: readonly ListColumn<T>[];
  /** Column keys the user hides (useColumnPrefs); locked columns stay. */
  hidden?: readonly string[];
  /** A column chooser above the table (its prefs give `hidden`), when the page header has none. */
  chooser?: ColumnPrefsState;
  rowKey: (keyof T & string) | ((row: T) => Key);
  empty: EmptyConfig;
  /** Whether the rows are filtered, for a list filtered on the page (a search box) rather than in the URL. */
  filtered?: boolean;
  /** The label of the totals row (under the first column); the row shows when a column has a `total`. */
  totalsLabel?: ReactNode;
  /** Checkbox selection across pages (useRowSelection().tableSelection). */
  selection?: { selectedKeys: Key[]; onChange: (keys: never[], rows: (T | undefined)[]) => void; disabled?: (row: T) => boolean; label?: (row: T) => string };
}

/** The columns shown: the chooser's choice applied, the sort state of sortable columns set. */
export function visibleColumns<T>(columns: readonly ListColumn<T>[], hidden: readonly string[] | undefined, list: Pick<ListView, 'sortOrder'> | null) {
  const hiddenSet = new Set(hidden ?? []);
  return columns
    .filter((c) => c.locked || !hiddenSet.has(c.key))
    .map(({ sortable, total: _total, locked: _locked, label: _label, ...c }) => ({ ...c, ...(sortable && list ? { sorter: true, sortOrder: list.sortOrder(c.key) } : {}) }) as ColumnType<T> & { key: string });
}

/** The scroll width of columns: their widths (120 px for one without) plus `extra` (the selection column). */
export function tableScrollX(columns: ReadonlyArray<{ width?: string | number }>, extra = 0): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : DEFAULT_WIDTH), extra);
}

/**
 * The table of a list or report screen: server paging and sort from the URL state (useListQuery),
 * the chosen columns, a totals row from the server's summary, selection across pages with
 * translated checkboxes, and the empty, loading and error states. Steps back a page when the
 * last row of the last page goes.
 */
export function ListTable<T extends object, D extends ListPage<T>>({ list, result, columns, hidden: hiddenProp, chooser, rowKey, empty, filtered, totalsLabel, selection, ...rest }: Props<T, D>) {
  const hidden = chooser?.hidden ?? hiddenProp;
  const { t: tc } = useTranslation();
  useStepBack(list ?? null, result);
  const shown = visibleColumns(columns, hidden, list ?? null);
  const totals = new Map(columns.filter((c) => c.total !== undefined).map((c) => [c.key, c.total]));
  const data = result.data;
  // Expand arrows and checkboxes take their own columns.
  const extraWidth = (selection ? SELECTION_WIDTH : 0) + (rest.expandable ? Number(rest.expandable.columnWidth ?? 48) : 0);
  // The paginator's own onChange would write the page a second time: the table's onChange has it.
  const { onChange: _pageChange, ...pagination } = list?.pagination(data?.total) ?? {};

  return (
    <Table<T>
      size="middle"
      {...rest}
      rowKey={rowKey}
      columns={shown}
      dataSource={data?.list}
      // A new query over the previous page spins; a background refresh (live polling) does not.
      loading={result.isPlaceholderData}
      pagination={list ? pagination : false}
      onChange={(p, f, s) => list?.onTableChange(p, f, s)}
      scroll={{ x: tableScrollX(shown, extraWidth), ...rest.scroll }}
      title={chooser ? () => <Flex justify="end"><ColumnChooser columns={columns} prefs={chooser} /></Flex> : rest.title}
      locale={{ emptyText: <ListEmpty result={result} filtered={filtered ?? list?.hasFilters ?? false} {...empty} /> }}
      rowSelection={
        selection && {
          columnWidth: SELECTION_WIDTH,
          selectedRowKeys: selection.selectedKeys,
          preserveSelectedRowKeys: true,
          fixed: 'left',
          onChange: (keys, rows) => selection.onChange(keys as never[], rows),
          // antd labels the header checkbox "Select all" in every language.
          getTitleCheckboxProps: () => ({ 'aria-label': tc('table.selectAll') }),
          getCheckboxProps: (row) => ({ 'aria-label': selection.label?.(row), disabled: selection.disabled?.(row) }),
        }
      }
      summary={() =>
        totals.size && data && data.total > 0 ? (
          <Table.Summary fixed="bottom">
            <Table.Summary.Row data-testid="totals-row">
              {selection && <Table.Summary.Cell index={0} />}
              {shown.map((c, i) => (
                <Table.Summary.Cell key={c.key} index={i + (selection ? 1 : 0)} align={c.align}>
                  {i === 0 && !totals.has(c.key) ? <Typography.Text strong>{totalsLabel ?? tc('table.totalsRow')}</Typography.Text> : <Typography.Text strong>{totals.get(c.key)}</Typography.Text>}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null
      }
    />
  );
}
