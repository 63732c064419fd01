import { EditOutlined } from '@ant-design/icons';
import type { AdAccount } from '@ads/contracts';
import { Button, Flex, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { AdAccountStatus } from '@/components/ad-account-status';
import { HostedTag, PlatformTag } from '@/components/platform-tag';
import { RefTags } from '@/components/ref-tags';
import { TokenStatusTag } from '@/components/token-status-tag';
import { formatDateTime, formatMoney, formatRelative } from '@/lib/format';
import type { ListColumn } from '@/components/list-kit';

/** Hidden until chosen: useful, but the rest fill a 1440 px screen without scrolling sideways. */
export const DEFAULT_HIDDEN_COLUMNS = ['currency', 'timezone', 'spend_cap', 'business', 'remark', 'last_synced_at'] as const;
interface Options {
  t: TFunction<'assets'>;
  tc: TFunction;
  onEditRemark?: (a: AdAccount) => void;
  /** The totals row (USD, every matching account). */
  summary?: { amount_spent_usd: number; balance_usd: number } | null;
}

/**
 * Every column of the ad-account table, keyed for the column chooser. Money is in the
 * account's currency (2 decimals, none for JPY and the like).
 */
export function adAccountColumns({ t, tc, onEditRemark, summary }: Options): ListColumn<AdAccount>[] {
  const money = (v: number | null, a: AdAccount) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoney(v, a.currency)}</span>;
  return [
    {
      key: 'name',
      title: t('adAccounts.columns.name'),
      dataIndex: 'name',
      sortable: true,
      fixed: 'left',
      locked: true,
      width: 180,
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
      sortable: true,
      width: 120,
      render: (_, a) => <AdAccountStatus status={a.account_status} disableReason={a.disable_reason} />,
    },
    { key: 'currency', title: t('adAccounts.columns.currency'), dataIndex: 'currency', width: 80 },
    { key: 'timezone', title: t('adAccounts.columns.timezone'), dataIndex: 'timezone_name', width: 170, ellipsis: true },
    {
      key: 'balance',
      title: t('adAccounts.columns.balance'),
      dataIndex: 'balance',
      align: 'right',
      sortable: true,
      width: 130,
      render: (v: number, a) => money(v, a),
      ...(summary && { total: formatMoney(summary.balance_usd, 'USD') }),
    },
    {
      key: 'spend_cap',
      title: t('adAccounts.columns.spendCap'),
      dataIndex: 'spend_cap',
      align: 'right',
      width: 130,
      render: (v: number | null, a) => (v === null ? <Typography.Text type="secondary">{t('adAccounts.noCap')}</Typography.Text> : money(v, a)),
    },
    {
      key: 'amount_spent',
      title: t('adAccounts.columns.amountSpent'),
      dataIndex: 'amount_spent',
      align: 'right',
      sortable: true,
      width: 140,
      render: (v: number, a) => money(v, a),
      ...(summary && { total: formatMoney(summary.amount_spent_usd, 'USD') }),
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
      width: 150,
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
      width: 130,
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
      sortable: true,
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
