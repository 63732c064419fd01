import { EditOutlined } from '@ant-design/icons';
import type { AdAccount } from '@ads/contracts';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import type { AdAccountsPage } from '../api/use-ad-accounts';
import { adAccountColumns } from './ad-account-columns';

interface Props {
  list: ListView;
  result: ListResult<AdAccountsPage>;
  hidden: readonly string[];
  empty: EmptyConfig;
  selection: RowSelection<AdAccount>;
  onEditRemark: (a: AdAccount) => void;
}

/** The ad-account table: server paging and sort, the chosen columns, and the USD totals of every match. */
export function AdAccountTable({ list, result, hidden, empty, selection, onEditRemark }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const columns: ListColumn<AdAccount>[] = [
    ...adAccountColumns({ t, tc, onEditRemark, summary: result.data?.summary }),
    {
      key: 'actions',
      title: tc('table.actions'),
      locked: true,
      fixed: 'right',
      width: 64,
      render: (_, a) => (
        <Tooltip title={t('adAccounts.editRemark')}>
          <Button type="link" size="small" icon={<EditOutlined />} aria-label={t('adAccounts.editRemark')} onClick={() => onEditRemark(a)} />
        </Tooltip>
      ),
    },
  ];
  return (
    <ListTable<AdAccount, AdAccountsPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      hidden={hidden}
      empty={empty}
      totalsLabel={t('adAccounts.totals', { count: result.data?.total ?? 0 })}
      selection={{ ...selection.tableSelection, label: (a) => a.name }}
    />
  );
}
