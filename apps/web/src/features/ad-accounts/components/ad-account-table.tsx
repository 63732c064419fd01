import type { AdAccount } from '@ads/contracts';
import { Button, Table, Typography, type TableColumnsType, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/format';
import { listPagination, nextListState, tableScrollX } from '@/lib/list-table';
import type { AdAccountsPage, AdAccountsQuery } from '../api/use-ad-accounts';
import { adAccountColumns } from './ad-account-columns';

interface Props {
  query: AdAccountsQuery;
  data: AdAccountsPage | undefined;
  loading: boolean;
  hidden: readonly string[];
  empty: ReactNode;
  selectedIds: number[];
  onSelect: (ids: number[], rows: AdAccount[]) => void;
  onQueryChange: (next: AdAccountsQuery) => void;
  onEditRemark: (a: AdAccount) => void;
}

/** The ad-account table: server paging and sort, the chosen columns, and the USD totals of every match. */
export function AdAccountTable({ query, data, loading, hidden, empty, selectedIds, onSelect, onQueryChange, onEditRemark }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const hiddenSet = new Set(hidden);
  const columns: TableColumnsType<AdAccount> = [
    ...adAccountColumns({ t, tc, query, onEditRemark }).filter((c) => !hiddenSet.has(String(c.key))),
    {
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 100,
      render: (_, a) => (
        <Button type="link" size="small" onClick={() => onEditRemark(a)}>
          {t('adAccounts.editRemark')}
        </Button>
      ),
    },
  ];
  const width = tableScrollX(columns);

  const handleChange: TableProps<AdAccount>['onChange'] = (pagination, _filters, sorter) => onQueryChange(nextListState(query, pagination, sorter));

  const summary = data?.summary;
  return (
    <Table<AdAccount>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.list}
      loading={loading}
      pagination={listPagination(query, data?.total)}
      onChange={handleChange}
      scroll={{ x: width }}
      locale={{ emptyText: empty }}
      rowSelection={{
        selectedRowKeys: selectedIds,
        preserveSelectedRowKeys: true,
        fixed: 'left',
        onChange: (keys, rows) => onSelect(keys as number[], rows),
        getCheckboxProps: (a) => ({ 'aria-label': a.name }),
      }}
      summary={() =>
        summary && (data?.total ?? 0) > 0 ? (
          <Table.Summary fixed="bottom">
            <Table.Summary.Row data-testid="totals-row">
              <Table.Summary.Cell index={0} />
              {columns.map((c, i) => (
                <Table.Summary.Cell key={String(c.key)} index={i + 1} align={c.key === 'amount_spent' || c.key === 'balance' ? 'right' : undefined}>
                  {c.key === 'name' ? (
                    <Typography.Text strong>{t('adAccounts.totals', { count: data?.total ?? 0 })}</Typography.Text>
                  ) : c.key === 'amount_spent' ? (
                    <Typography.Text strong>{formatMoney(summary.amount_spent_usd, 'USD')}</Typography.Text>
                  ) : c.key === 'balance' ? (
                    <Typography.Text strong>{formatMoney(summary.balance_usd, 'USD')}</Typography.Text>
                  ) : null}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        ) : null
      }
    />
  );
}
