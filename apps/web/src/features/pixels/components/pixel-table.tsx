import { InfoCircleOutlined } from '@ant-design/icons';
import type { Pixel, PixelAdAccount } from '@ads/contracts';
import { Badge, Button, Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { RefTags } from '@/components/ref-tags';
import { formatDateTime, formatRelative, msSince } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import type { PixelsPage } from '../api/use-pixels';

/** A pixel that has not fired for this long is worth a look. */
const QUIET_AFTER_MS = 24 * 3600 * 1000;

interface Props {
  list: ListView;
  result: ListResult<PixelsPage>;
  empty: EmptyConfig;
  selection?: RowSelection<Pixel>;
  onAssociate?: (pixel: Pixel) => void;
}

/** When a pixel last fired: never, or how long ago (green within a day, orange after). */
export function LastFired({ at }: { at: string | null }) {
  const { t } = useTranslation('assets');
  if (!at) return <Badge status="default" text={<Typography.Text type="secondary">{t('pixels.neverFired')}</Typography.Text>} />;
  const quiet = (msSince(at) ?? 0) > QUIET_AFTER_MS;
  return (
    <Tooltip title={formatDateTime(at)}>
      <Badge status={quiet ? 'warning' : 'success'} text={formatRelative(at)} />
    </Tooltip>
  );
}

/** Grey: the platform shares the pixel with the account (only Meta can undo it); blue: associated here. */
function PixelAccountTag({ account }: { account: PixelAdAccount }) {
  const { t } = useTranslation('assets');
  const manual = account.source === 'manual';
  return (
    <Tooltip title={t(manual ? 'pixels.sourceManual' : 'pixels.sourcePlatform')}>
      <Tag color={manual ? 'blue' : undefined} style={{ marginInlineEnd: 0 }} data-source={account.source}>
        {account.name}
      </Tag>
    </Tooltip>
  );
}

/** Pixels with when they last fired, the ad accounts they are shared with and the sites using them. */
export function PixelTable({ list, result, empty, selection, onAssociate }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();

  const columns: ListColumn<Pixel>[] = [
    {
      key: 'name',
      title: t('pixels.columns.name'),
      dataIndex: 'name',
      sortable: true,
      fixed: 'left',
      width: 240,
      render: (name: string, p) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: p.platform_id, tooltips: [t('common.copyId'), t('common.copied')] }}>
            {p.platform_id}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'last_fired_at',
      title: t('pixels.columns.lastFired'),
      dataIndex: 'last_fired_at',
      sortable: true,
      width: 160,
      render: (v: string | null) => <LastFired at={v} />,
    },
    {
      key: 'ad_accounts',
      title: (
        <Tooltip title={t('pixels.columns.adAccountsHelp')}>
          <Flex gap={4} align="center">
            {t('pixels.columns.adAccounts')}
            <InfoCircleOutlined aria-label={t('pixels.columns.adAccountsHelp')} style={{ fontSize: 12, opacity: 0.6 }} />
          </Flex>
        </Tooltip>
      ),
      width: 260,
      render: (_, p) => <RefTags refs={p.ad_accounts} empty={t('pixels.noAdAccounts')} renderTag={(a) => <PixelAccountTag account={a} />} />,
    },
    { key: 'sites', title: t('pixels.columns.sites'), width: 200, render: (_, p) => <RefTags refs={p.sites} empty={t('pixels.noSites')} /> },
    {
      key: 'last_synced_at',
      title: t('pixels.columns.lastSync'),
      dataIndex: 'last_synced_at',
      width: 130,
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
        <Button type="link" size="small" onClick={() => onAssociate(p)} aria-label={t('pixels.associateOne', { name: p.name })}>
          {t('pixels.associateShort')}
        </Button>
      ),
    });

  return (
    <ListTable<Pixel, PixelsPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      empty={empty}
      selection={onAssociate && selection ? { ...selection.tableSelection, label: (p) => p.name } : undefined}
    />
  );
}
