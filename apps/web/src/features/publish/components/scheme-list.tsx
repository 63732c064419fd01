import { CopyOutlined } from '@ant-design/icons';
import { SCHEME_STATUSES, type Platform, type Scheme } from '@ads/contracts';
import { Button, Flex, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterBar, ListTable, type ListColumn } from '@/components/list-kit';
import { formatCount, formatDateTime, formatMoney } from '@/lib/format';
import { useSchemes } from '../api/use-schemes';
import type { PublishScreenList } from './screen-query';
import { LaunchText, SchemeProgress, SchemeStatusTag } from './scheme-status';

interface Props {
  platform: Platform;
  list: PublishScreenList;
  onOpen: (id: number) => void;
  onCopy: (id: number) => void;
  onCreate: () => void;
}

/** The schemes of this platform: filters, progress live while any runs, open or start a new one from it. */
export function SchemeList({ platform, list, onOpen, onCopy, onCreate }: Props) {
  const { t } = useTranslation('publish');
  const { query } = list;
  const schemes = useSchemes({
    platform,
    page: query.page,
    page_size: query.page_size,
    ...(query.sort_field && { sort_field: query.sort_field as 'id', sort_order: query.sort_order }),
    ...(query.keyword && { keyword: query.keyword }),
    ...(query.status && { status: query.status }),
  });

  const columns: ListColumn<Scheme>[] = [
    {
      key: 'name',
      title: t('list.columns.name'),
      width: 200,
      locked: true,
      render: (_, s) => (
        <Button type="link" size="small" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }} onClick={() => onOpen(s.id)}>
          {s.name}
        </Button>
      ),
    },
    { key: 'title', title: t(platform === 'dj' ? 'list.columns.drama' : 'list.columns.product'), width: 120, render: (_, s) => (s.drama ?? s.product)?.name ?? '-' },
    { key: 'status', title: t('list.columns.status'), width: 90, render: (_, s) => <SchemeStatusTag status={s.status} message={s.message} /> },
    { key: 'progress', title: t('list.columns.progress'), width: 150, render: (_, s) => <SchemeProgress counts={s.counts} /> },
    {
      key: 'planned',
      title: t('list.columns.planned'),
      width: 120,
      render: (_, s) => t('list.plannedText', { accounts: s.planned.accounts, campaigns: formatCount(s.planned.campaigns), adsets: formatCount(s.planned.adsets), ads: formatCount(s.planned.ads) }),
    },
    { key: 'budget', title: t('list.columns.dailyUsd'), width: 100, align: 'right', render: (_, s) => formatMoney(s.daily_budget_usd, 'USD') },
    { key: 'launch', title: t('list.columns.launch'), width: 110, render: (_, s) => <LaunchText launch={s.launch} /> },
    {
      key: 'created_at',
      title: t('list.columns.createdAt'),
      width: 140,
      sortable: true,
      render: (_, s) => (
        <Flex vertical>
          <span>{formatDateTime(s.created_at)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {s.created_by.name}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'actions',
      title: t('list.columns.actions'),
      width: 130,
      fixed: 'right',
      render: (_, s) => (
        <Button size="small" type="link" icon={<CopyOutlined />} onClick={() => onCopy(s.id)} aria-label={t('list.copyOf', { name: s.name })}>
          {t('list.copy')}
        </Button>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <FilterBar value={list.filters} onChange={list.setFilters} onReset={list.reset} applyOnChange={['status']} label={t('list.filters')}>
        <Form.Item name="keyword" label={t('list.keyword')}>
          <Input allowClear placeholder={t('list.keywordHint')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="status" label={t('list.columns.status')}>
          <Select allowClear style={{ width: 140 }} options={SCHEME_STATUSES.map((s) => ({ value: s, label: t(`schemeStatus.${s}`) }))} />
        </Form.Item>
      </FilterBar>
      <ListTable<Scheme, NonNullable<typeof schemes.data>>
        list={list}
        result={schemes}
        columns={columns}
        rowKey="id"
        empty={{ text: t('list.empty'), action: <Button type="primary" onClick={onCreate}>{t('list.create')}</Button> }}
      />
    </Flex>
  );
}
