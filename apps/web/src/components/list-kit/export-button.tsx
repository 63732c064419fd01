import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListState } from './use-list-query';

/** A list's export body: its filters and sort, without paging and the screen's view keys. */
export function exportBody<Q extends ListState, O extends keyof Q = never>(query: Q, omit: readonly O[] = []): Omit<Q, 'page' | 'page_size' | O> {
  const { page: _page, page_size: _size, ...rest } = query;
  for (const k of omit) delete (rest as Partial<Q>)[k];
  return rest as Omit<Q, 'page' | 'page_size' | O>;
}

/**
 * An export body's `columns`: the keys of the columns the table shows (locked ones always), in
 * table order, of those the export can hold (`exportable`, from the contract), so the file has
 * exactly what is on screen.
 */
export function shownColumnKeys<K extends string>(columns: ReadonlyArray<{ key: string; locked?: boolean }>, hidden: readonly string[], exportable: readonly K[]): K[] {
  const hiddenSet = new Set(hidden);
  const can = new Set<string>(exportable);
  return columns.filter((c) => (c.locked || !hiddenSet.has(c.key)) && can.has(c.key)).map((c) => c.key as K);
}

interface Props<B> {
  /** The export endpoint's hook (features/x/api/use-export-x.ts). */
  exporter: { mutate: (v: { body: B; filename: string }) => void; isPending: boolean };
  /** What the list shows: exportBody(list.query) with columns: shownColumnKeys(...). */
  body: B;
  filename: string;
  children?: ReactNode;
}

/**
 * 导出 Excel: the server's xlsx export of what the list shows (its filters and sort), every
 * matching row rather than one page, with the shown columns.
 */
export function ExportButton<B>({ exporter, body, filename, children }: Props<B>) {
  const { t: tc } = useTranslation();
  return (
    <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={() => exporter.mutate({ body, filename })}>
      {children ?? tc('table.export')}
    </Button>
  );
}
