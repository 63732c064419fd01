import type { AdAccount } from '@ads/contracts';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AdAccountStatus } from '@/components/ad-account-status';
import { PlatformTag } from '@/components/platform-tag';
import { RefTags } from '@/components/ref-tags';
import { formatMoney } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import type { HostingPage } from '../api/use-hosting-accounts';

interface Props {
  hosted: boolean;
  list: ListView;
  result: ListResult<HostingPage>;
  empty: EmptyConfig;
  selection: RowSelection<AdAccount>;
  /** Absent when the viewer may not change hosting. */
  onToggle?: (account: AdAccount) => void;
}

/** Ad accounts on one side of hosting, with what matters for choosing: status, money, people. */
export function HostingTable({ hosted, list, result, empty, selection, onToggle }: Props) {
  const { t } = useTranslation('assets');
  const { t: th } = useTranslation('hosting');
  const { t: tc } = useTranslation();
  const columns: ListColumn<AdAccount>[] = [
    {
      key: 'name',
      title: t('adAccounts.columns.name'),
      dataIndex: 'name',
      sortable: true,
      fixed: 'left',
      width: 170,
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
      sortable: true,
      width: 120,
      render: (_, a) => <AdAccountStatus status={a.account_status} disableReason={a.disable_reason} />,
    },
    { key: 'platform', title: t('adAccounts.columns.platform'), width: 90, render: (_, a) => <PlatformTag platform={a.platform} /> },
    {
      key: 'amount_spent',
      title: t('adAccounts.columns.amountSpent'),
      sortable: true,
      align: 'right',
      width: 130,
      render: (_, a) => formatMoney(a.amount_spent, a.currency),
    },
    {
      key: 'balance',
      title: t('adAccounts.columns.balance'),
      sortable: true,
      align: 'right',
      width: 120,
      render: (_, a) => formatMoney(a.balance, a.currency),
    },
    { key: 'users', title: t('adAccounts.columns.users'), width: 140, render: (_, a) => <RefTags refs={a.users} empty={t('adAccounts.unassigned')} /> },
    { key: 'personal_accounts', title: t('adAccounts.columns.personalAccounts'), width: 150, render: (_, a) => <RefTags refs={a.personal_accounts} max={2} empty={t('adAccounts.unreachable')} /> },
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

  return (
    <ListTable<AdAccount, HostingPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      empty={empty}
      selection={onToggle ? { ...selection.tableSelection, label: (a) => a.name } : undefined}
    />
  );
}
