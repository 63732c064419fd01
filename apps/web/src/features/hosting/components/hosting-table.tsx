import type { AdAccount } from '@ads/contracts';
import { Button, Flex, Table, Typography, type TableColumnsType, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AdAccountStatus } from '@/components/ad-account-status';
import { PlatformTag } from '@/components/platform-tag';
import { RefTags } from '@/components/ref-tags';
import { formatMoney } from '@/lib/format';
import { columnSortOrder, listPagination, nextListState } from '@/lib/list-table';
import type { HostingPage, HostingQuery } from '../api/use-hosting-accounts';

interface Props {
  hosted: boolean;
  query: HostingQuery;
  data: HostingPage | undefined;
  loading: boolean;
  empty: ReactNode;
  selectedIds: number[];
  onSelect: (ids: number[], rows: AdAccount[]) => void;
  onQueryChange: (next: HostingQuery) => void;
  /** Absent when the viewer may not change hosting. */
  onToggle?: (account: AdAccount) => void;
}

/** Ad accounts on one side of hosting, with what matters for choosing: status, money, people. */
export function HostingTable({ hosted, query, data, loading, empty, selectedIds, onSelect, onQueryChange, onToggle }: Props) {
  const { t } = useTranslation('assets');
  const { t: th } = useTranslation('hosting');
  const { t: tc } = useTranslation();
  const columns: TableColumnsType<AdAccount> = [
    {
      key: 'name',
      title: t('adAccounts.columns.name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: columnSortOrder(query, 'name'),
      fixed: 'left',
      width: 200,
      render: (name: string, a) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {a.platform_id}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'account_status',
      title: t('adAccounts.columns.status'),
      sorter: true,
      sortOrder: columnSortOrder(query, 'account_status'),
      width: 120,
      render: (_, a) => <AdAccountStatus status={a.account_status} disableReason={a.disable_reason} />,
    },
    { key: 'platform', title: t('adAccounts.columns.platform'), width: 90, render: (_, a) => <PlatformTag platform={a.platform} /> },
    {
      key: 'amount_spent',
      title: t('adAccounts.columns.amountSpent'),
      sorter: true,
      sortOrder: columnSortOrder(query, 'amount_spent'),
      align: 'right',
      width: 140,
      render: (_, a) => formatMoney(a.amount_spent, a.currency),
    },
    {
      key: 'balance',
      title: t('adAccounts.columns.balance'),
      sorter: true,
      sortOrder: columnSortOrder(query, 'balance'),
      align: 'right',
      width: 130,
      render: (_, a) => formatMoney(a.balance, a.currency),
    },
    { key: 'users', title: t('adAccounts.columns.users'), width: 180, render: (_, a) => <RefTags refs={a.users} empty={t('adAccounts.unassigned')} /> },
    { key: 'personal_accounts', title: t('adAccounts.columns.personalAccounts'), width: 180, render: (_, a) => <RefTags refs={a.personal_accounts} max={2} empty={t('adAccounts.unreachable')} /> },
  ];
  if (onToggle)
    columns.push({
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 150,
      render: (_, a) => (
        <Button type="link" size="small" danger={hosted} onClick={() => onToggle(a)} aria-label={`${hosted ? th('remove') : th('add')} ${a.name}`}>
          {hosted ? th('remove') : th('add')}
        </Button>
      ),
    });

  const handleChange: TableProps<AdAccount>['onChange'] = (pagination, _f, sorter) => onQueryChange(nextListState(query, pagination, sorter));

  return (
    <Table<AdAccount>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.list}
      loading={loading}
      pagination={listPagination(query, data?.total)}
      onChange={handleChange}
      scroll={{ x: 1150 }}
      locale={{ emptyText: empty }}
      rowSelection={
        onToggle
          ? {
              selectedRowKeys: selectedIds,
              preserveSelectedRowKeys: true,
              onChange: (keys, rows) => onSelect(keys as number[], rows),
              getCheckboxProps: (a) => ({ 'aria-label': a.name }),
            }
          : undefined
      }
    />
  );
}
