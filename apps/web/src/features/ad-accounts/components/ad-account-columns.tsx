import { EditOutlined } from '@ant-design/icons';
import type { AdAccount } from '@ads/contracts';
import { Button, Flex, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { AdAccountStatus } from '@/components/ad-account-status';
import { HostedTag, PlatformTag } from '@/components/platform-tag';
import { RefTags } from '@/components/ref-tags';
import { TokenStatusTag } from '@/components/token-status-tag';
import { formatDateTime, formatMoney, formatRelative } from '@/lib/format';
import { columnSortOrder, type ListState } from '@/lib/list-table';

/** Hidden until chosen: useful, but the table is wide enough without them. */
export const DEFAULT_HIDDEN_COLUMNS = ['currency', 'timezone', 'business', 'remark', 'last_synced_at'] as const;
/** Always shown. */
export const LOCKED_COLUMNS = new Set(['name', 'actions']);

interface Options {
  t: TFunction<'assets'>;
  tc: TFunction;
  query: ListState;
  onEditRemark?: (a: AdAccount) => void;
}

/**
 * Every column of the ad-account table, keyed for the column chooser. Money is in the
 * account's currency (2 decimals, none for JPY and the like).
 */
export function adAccountColumns({ t, tc, query, onEditRemark }: Options): TableColumnsType<AdAccount> {
  const money = (v: number | null, a: AdAccount) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(v, a.currency)}</span>;
  return [
    {
      key: 'name',
      title: t('adAccounts.columns.name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: columnSortOrder(query, 'name'),
      fixed: 'left',
      width: 220,
      render: (name: string, a) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: a.platform_id, tooltips: [t('common.copyId'), t('common.copied')] }}>
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
      width: 140,
      render: (_, a) => <AdAccountStatus status={a.account_status} disableReason={a.disable_reason} />,
    },
    { key: 'currency', title: t('adAccounts.columns.currency'), dataIndex: 'currency', width: 80 },
    { key: 'timezone', title: t('adAccounts.columns.timezone'), dataIndex: 'timezone_name', width: 170, ellipsis: true },
    {
      key: 'balance',
      title: t('adAccounts.columns.balance'),
      dataIndex: 'balance',
      align: 'right',
      sorter: true,
      sortOrder: columnSortOrder(query, 'balance'),
      width: 150,
      render: (v: number, a) => money(v, a),
    },
    {
      key: 'spend_cap',
      title: t('adAccounts.columns.spendCap'),
      dataIndex: 'spend_cap',
      align: 'right',
      width: 150,
      render: (v: number | null, a) => (v === null ? <Typography.Text type="secondary">{t('adAccounts.noCap')}</Typography.Text> : money(v, a)),
    },
    {
      key: 'amount_spent',
      title: t('adAccounts.columns.amountSpent'),
      dataIndex: 'amount_spent',
      align: 'right',
      sorter: true,
      sortOrder: columnSortOrder(query, 'amount_spent'),
      width: 160,
      render: (v: number, a) => money(v, a),
    },
    {
      key: 'business',
      title: t('adAccounts.columns.business'),
      dataIndex: 'business_name',
      width: 160,
      ellipsis: true,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">{tc('dash')}</Typography.Text>,
    },
    {
      key: 'personal_accounts',
      title: t('adAccounts.columns.personalAccounts'),
      width: 200,
      render: (_, a) =>
        a.personal_accounts.length ? (
          <RefTags
            refs={a.personal_accounts}
            max={2}
            renderTag={(r) => {
              const p = a.personal_accounts.find((x) => x.id === r.id)!;
              return (
                <TokenStatusTag status={p.status} reason={t(`tokenStatus.${p.status}`)}>
                  {p.name}
                </TokenStatusTag>
              );
            }}
          />
        ) : (
          <Tooltip title={t('adAccounts.unreachableHelp')}>
            <Typography.Text type="danger">{t('adAccounts.unreachable')}</Typography.Text>
          </Tooltip>
        ),
    },
    {
      key: 'users',
      title: t('adAccounts.columns.users'),
      width: 180,
      render: (_, a) => <RefTags refs={a.users} empty={t('adAccounts.unassigned')} />,
    },
    { key: 'platform', title: t('adAccounts.columns.platform'), width: 90, render: (_, a) => <PlatformTag platform={a.platform} /> },
    { key: 'hosted', title: t('adAccounts.columns.hosted'), width: 90, render: (_, a) => <HostedTag hosted={a.hosted} /> },
    {
      key: 'remark',
      title: t('adAccounts.columns.remark'),
      width: 180,
      render: (_, a) => (
        <Flex gap={4} align="center">
          <Typography.Text ellipsis={{ tooltip: a.remark }} style={{ maxWidth: 140 }} type={a.remark ? undefined : 'secondary'}>
            {a.remark || tc('dash')}
          </Typography.Text>
          {onEditRemark && (
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={t('adAccounts.editRemarkOf', { name: a.name })} onClick={() => onEditRemark(a)} />
          )}
        </Flex>
      ),
    },
    {
      key: 'last_synced_at',
      title: t('adAccounts.columns.lastSync'),
      dataIndex: 'last_synced_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'last_synced_at'),
      width: 140,
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
}
