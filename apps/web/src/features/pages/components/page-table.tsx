import { FlagOutlined } from '@ant-design/icons';
import type { Page } from '@ads/contracts';
import { Avatar, Button, Flex, theme, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RefTags } from '@/components/ref-tags';
import { formatDateTime, formatRelative } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import type { PagesPage } from '../api/use-pages';

interface Props {
  list: ListView;
  result: ListResult<PagesPage>;
  empty: EmptyConfig;
  selection?: RowSelection<Page>;
  /** Absent when the viewer may not associate anything. */
  onAssociate?: (page: Page) => void;
}

/** Facebook pages with who reaches them and who may use them. */
export function PageTable({ list, result, empty, selection, onAssociate }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { token } = theme.useToken();

  const columns: ListColumn<Page>[] = [
    {
      key: 'name',
      title: t('pages.columns.name'),
      dataIndex: 'name',
      sortable: true,
      fixed: 'left',
      width: 240,
      render: (name: string, p) => (
        <Flex gap={10} align="center">
          <Avatar shape="square" size={40} src={p.picture_url ?? undefined} icon={<FlagOutlined />} alt="" style={{ flex: 'none', background: token.colorFillSecondary, color: token.colorTextTertiary }} />
          <Flex vertical gap={2} style={{ minWidth: 0 }}>
            <Typography.Text strong ellipsis={{ tooltip: name }}>
              {name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: p.platform_id, tooltips: [t('common.copyId'), t('common.copied')] }}>
              {p.platform_id}
            </Typography.Text>
          </Flex>
        </Flex>
      ),
    },
    {
      key: 'category',
      title: t('pages.columns.category'),
      dataIndex: 'category',
      width: 120,
      ellipsis: true,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">{tc('dash')}</Typography.Text>,
    },
    {
      key: 'personal_accounts',
      title: t('pages.columns.personalAccounts'),
      width: 180,
      render: (_, p) => <RefTags refs={p.personal_accounts} max={2} empty={t('pages.noPersonalAccounts')} />,
    },
    { key: 'ad_accounts', title: t('pages.columns.adAccounts'), width: 200, render: (_, p) => <RefTags refs={p.ad_accounts} empty={t('pages.noAdAccounts')} /> },
    { key: 'users', title: t('pages.columns.users'), width: 180, render: (_, p) => <RefTags refs={p.users} empty={t('pages.noUsers')} /> },
    {
      key: 'last_synced_at',
      title: t('pages.columns.lastSync'),
      dataIndex: 'last_synced_at',
      width: 110,
      render: (v: string | null) =>
        v ? (
          <Tooltip title={formatDateTime(v)}>
            <span>{formatRelative(v)}</span>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">{t('common.never')}</Typography.Text>
        ),
    },
  ];
  if (onAssociate)
    columns.push({
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 90,
      render: (_, p) => (
        <Button type="link" size="small" onClick={() => onAssociate(p)} aria-label={t('pages.associateOne', { name: p.name })}>
          {t('pages.associate')}
        </Button>
      ),
    });

  return (
    <ListTable<Page, PagesPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      empty={empty}
      selection={selection && { ...selection.tableSelection, label: (p) => p.name }}
    />
  );
}
