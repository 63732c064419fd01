import { ArrowLeftOutlined, CopyOutlined, RedoOutlined, StopOutlined } from '@ant-design/icons';
import { SCHEME_ITEM_LEVELS, SCHEME_ITEM_STATUSES, type SchemeItem, type SchemeItemLevel, type SchemeItemStatus } from '@ads/contracts';
import { Alert, App, Button, Card, Descriptions, Empty, Flex, Result, Select, Skeleton, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime, formatMoney } from '@/lib/format';
import { isSchemeLive, useScheme, useSchemeAction, useSchemeItems } from '../api/use-schemes';
import { ItemStatusTag, LaunchText, SchemeProgress, SchemeStatusTag } from './scheme-status';

const PAGE_SIZE = 20;

interface Props {
  id: number;
  onBack: () => void;
  onCopy: (id: number) => void;
}

/** One scheme: its settings, live progress per account and per item, retry of failed items and cancel. */
export function SchemeDetail({ id, onBack, onCopy }: Props) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const scheme = useScheme(id);
  const retry = useSchemeAction('retry_failed');
  const cancel = useSchemeAction('cancel');
  const [status, setStatus] = useState<SchemeItemStatus | undefined>();
  const [level, setLevel] = useState<SchemeItemLevel | undefined>();
  const [account, setAccount] = useState<number | undefined>();
  const [page, setPage] = useState(1);
  const s = scheme.data;
  const live = isSchemeLive(s);
  const items = useSchemeItems(
    { scheme_id: id, page, page_size: PAGE_SIZE, ...(status && { status }), ...(level && { level }), ...(account && { ad_account_id: account }) },
    live,
    s ? `${s.status}:${JSON.stringify(s.counts)}` : '',
  );

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
      {t('detail.back')}
    </Button>
  );
  if (scheme.isPending) return <Skeleton active />;
  if (!s)
    return (
      <Result
        status="warning"
        title={scheme.isError ? tc('states.loadFailed') : t('detail.notFound')}
        extra={
          <Flex gap={8} justify="center">
            {back}
            <Button onClick={() => void scheme.refetch()}>{tc('states.retry')}</Button>
          </Flex>
        }
      />
    );

  const handleRetry = () =>
    confirmAction(modal, {
      title: t('detail.retryTitle', { count: s.counts.failed }),
      content: t('detail.retryBody'),
      okText: t('detail.retry'),
      action: async () => {
        const r = await retry.mutateAsync(s.id);
        message.success(t('detail.retried', { count: r.items }));
      },
    });
  const handleCancel = () =>
    confirmAction(modal, {
      title: t('detail.cancelTitle', { name: s.name }),
      content: t('detail.cancelBody', { count: s.counts.pending }),
      okText: t('detail.cancel'),
      danger: true,
      action: async () => {
        await cancel.mutateAsync(s.id);
        message.success(t('detail.cancelAsked'));
      },
    });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" wrap gap={8} align="center">
        <Flex gap={8} align="center" wrap>
          {back}
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="scheme-name">
            {s.name}
          </Typography.Title>
          <SchemeStatusTag status={s.status} />
        </Flex>
        <Flex gap={8} wrap>
          <Button icon={<RedoOutlined />} disabled={s.counts.failed === 0 || live} loading={retry.isPending} onClick={handleRetry}>
            {t('detail.retryFailed', { count: s.counts.failed })}
          </Button>
          <Button danger icon={<StopOutlined />} disabled={!live || s.status === 'cancelling'} onClick={handleCancel}>
            {t('detail.cancel')}
          </Button>
          <Button icon={<CopyOutlined />} onClick={() => onCopy(s.id)}>
            {t('list.copy')}
          </Button>
        </Flex>
      </Flex>
      {s.message && <Alert type={s.status === 'waiting' ? 'warning' : 'info'} showIcon title={s.message} data-testid="scheme-message" />}
      <Card size="small">
        <Flex gap={32} wrap align="center">
          <div style={{ flex: '1 1 260px' }}>
            <SchemeProgress counts={s.counts} size="default" />
          </div>
          <Statistic title={t('detail.created')} value={`${s.created_objects.campaigns} / ${s.created_objects.adsets} / ${s.created_objects.ads}`} />
          <Statistic title={t('detail.planned')} value={`${s.planned.campaigns} / ${s.planned.adsets} / ${s.planned.ads}`} />
          <Statistic title={t('detail.pending')} value={s.counts.pending + s.counts.creating} />
          <Statistic title={t('detail.failed')} value={s.counts.failed} styles={{ content: s.counts.failed ? { color: 'var(--ant-color-error)' } : undefined }} />
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('detail.levelsNote')}
        </Typography.Text>
      </Card>
      <Card size="small" title={t('detail.settings')}>
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'title', label: t(s.platform === 'dj' ? 'list.columns.drama' : 'list.columns.product'), children: (s.drama ?? s.product)?.name ?? '-' },
            { key: 'by', label: t('list.columns.createdBy'), children: s.created_by.name },
            { key: 'dept', label: t('detail.department'), children: s.department?.name ?? '-' },
            { key: 'launch', label: t('list.columns.launch'), children: <LaunchText launch={s.launch} /> },
            { key: 'budget', label: t('list.columns.dailyUsd'), children: formatMoney(s.daily_budget_usd, 'USD') },
            { key: 'template', label: t('detail.template'), children: s.template?.name ?? '-' },
            { key: 'created', label: t('list.columns.createdAt'), children: formatDateTime(s.created_at) },
            { key: 'started', label: t('detail.started'), children: formatDateTime(s.started_at) || '-' },
            { key: 'finished', label: t('detail.finished'), children: formatDateTime(s.finished_at) || '-' },
          ]}
        />
      </Card>
      <Card size="small" title={t('detail.byAccount')}>
        <Table
          size="small"
          rowKey={(r) => r.ad_account.id}
          pagination={false}
          dataSource={s.accounts}
          columns={[
            { key: 'account', title: t('where.columns.account'), render: (_, r) => `${r.ad_account.name} (${r.ad_account.platform_id})` },
            { key: 'currency', title: t('where.columns.currency'), width: 90, render: (_, r) => r.ad_account.currency },
            { key: 'progress', title: t('list.columns.progress'), width: 260, render: (_, r) => <SchemeProgress counts={r.counts} /> },
            {
              key: 'filter',
              width: 120,
              render: (_, r) => (
                <Button
                  size="small"
                  type="link"
                  onClick={() => {
                    setAccount(r.ad_account.id);
                    setPage(1);
                  }}
                >
                  {t('detail.showItems')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <Card
        size="small"
        title={t('detail.items')}
        extra={
          <Flex gap={8} wrap>
            <Select<SchemeItemStatus>
              allowClear
              size="small"
              placeholder={t('detail.filterStatus')}
              aria-label={t('detail.filterStatus')}
              style={{ width: 130 }}
              value={status}
              onChange={(v) => {
                setStatus(v);
                setPage(1);
              }}
              options={SCHEME_ITEM_STATUSES.map((x) => ({ value: x, label: t(`itemStatus.${x}`) }))}
            />
            <Select<SchemeItemLevel>
              allowClear
              size="small"
              placeholder={t('detail.filterLevel')}
              aria-label={t('detail.filterLevel')}
              style={{ width: 120 }}
              value={level}
              onChange={(v) => {
                setLevel(v);
                setPage(1);
              }}
              options={SCHEME_ITEM_LEVELS.map((x) => ({ value: x, label: t(`levels.${x}`) }))}
            />
            <Select<number>
              allowClear
              size="small"
              placeholder={t('detail.filterAccount')}
              aria-label={t('detail.filterAccount')}
              style={{ width: 180 }}
              value={account}
              onChange={(v) => {
                setAccount(v);
                setPage(1);
              }}
              options={s.accounts.map((a) => ({ value: a.ad_account.id, label: a.ad_account.name }))}
            />
          </Flex>
        }
      >
        <Table<SchemeItem>
          size="small"
          rowKey="id"
          loading={items.isPending || items.isPlaceholderData}
          dataSource={items.data?.list}
          scroll={{ x: 1100 }}
          data-testid="scheme-items"
          locale={{ emptyText: items.isError ? tc('states.loadFailed') : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noItems')} /> }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: items.data?.total ?? 0, onChange: setPage, showSizeChanger: false, showTotal: (n) => tc('table.total', { total: n }) }}
          columns={[
            { key: 'level', title: t('detail.columns.level'), width: 90, render: (_, i) => <Tag>{t(`levels.${i.level}`)}</Tag> },
            { key: 'name', title: t('preview.columns.name'), width: 300, render: (_, i) => i.name },
            { key: 'account', title: t('where.columns.account'), width: 170, render: (_, i) => i.ad_account.name },
            {
              key: 'status',
              title: t('list.columns.status'),
              width: 170,
              render: (_, i) => (
                <Flex gap={4} wrap>
                  <ItemStatusTag status={i.status} />
                  {i.waiting_for && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`waitingFor.${i.waiting_for}`)}</Typography.Text>}
                </Flex>
              ),
            },
            { key: 'platform_id', title: t('detail.columns.platformId'), width: 160, render: (_, i) => i.platform_id ?? '-' },
            { key: 'error', title: t('detail.columns.error'), render: (_, i) => (i.error ? <Typography.Text type="danger">{i.error}</Typography.Text> : null) },
            { key: 'attempts', title: t('detail.columns.attempts'), width: 80, align: 'right', render: (_, i) => i.attempts },
            { key: 'updated', title: t('detail.columns.updated'), width: 140, render: (_, i) => formatDateTime(i.updated_at) },
          ]}
        />
      </Card>
    </Flex>
  );
}
