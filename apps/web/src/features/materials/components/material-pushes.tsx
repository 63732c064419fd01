import { CloudUploadOutlined, RedoOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Material, MaterialPush } from '@ads/contracts';
import { App, Button, Empty, Flex, Result, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useMaterialPushes } from '../api/use-material-pushes';
import { useRetryPushes } from '../api/use-retry-pushes';
import { PushStateTag } from './push-state';

const PAGE_SIZE = 20;

interface Props {
  material: Material;
  onPushMore: () => void;
  /** A retry started a background task. */
  onTask: (taskId: number) => void;
}

/** Where a material was pushed: per ad account its state, the platform's id or message, and retry for failures. */
export function MaterialPushes({ material, onPushMore, onTask }: Props) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const pushes = useMaterialPushes({ material_id: material.id, page, page_size: PAGE_SIZE, sort_field: 'updated_at', sort_order: 'descend' });
  const retry = useRetryPushes();
  const failed = material.push_counts.failed;

  const handleRetry = async (body: { push_ids: number[] } | { material_id: number }) => {
    try {
      const result = await retry.mutateAsync(body);
      message.success(t('retry.done'));
      if (result.task_id !== null) onTask(result.task_id);
    } catch {
      // Shown by the request layer.
    }
  };

  const columns: TableColumnsType<MaterialPush> = [
    {
      key: 'account',
      title: t('detail.pushes.account'),
      render: (_, p) => (
        <Flex vertical gap={0}>
          <Typography.Text ellipsis={{ tooltip: p.ad_account.name }}>{p.ad_account.name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {p.ad_account.platform_id}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'state',
      title: t('detail.pushes.state'),
      width: 220,
      render: (_, p) => (
        <Flex vertical gap={2} align="flex-start">
          <PushStateTag state={p.state} />
          {p.state === 'failed' && p.error && (
            <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="push-error">
              {p.error}
            </Typography.Text>
          )}
          {p.platform_ref && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: p.platform_ref }}>
              {t('detail.pushes.platformRef')}: {p.platform_ref}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'attempts', title: t('detail.pushes.attempts'), dataIndex: 'attempts', width: 64, align: 'right' },
    {
      key: 'updated_at',
      title: t('detail.pushes.updatedAt'),
      width: 120,
      render: (_, p) => (
        <Tooltip title={[formatDateTime(p.updated_at), p.pushed_by ? `${t('detail.pushes.pushedBy')}: ${p.pushed_by.name}` : null].filter(Boolean).join(' · ')}>
          <span>{formatRelative(p.updated_at)}</span>
        </Tooltip>
      ),
    },
    {
      key: 'actions',
      title: tc('table.actions'),
      width: 80,
      render: (_, p) =>
        p.state === 'failed' ? (
          <Button
            size="small"
            type="link"
            icon={<RedoOutlined />}
            loading={retry.isPending && 'push_ids' in (retry.variables ?? {}) && (retry.variables as { push_ids: number[] }).push_ids.includes(p.id)}
            onClick={() => void handleRetry({ push_ids: [p.id] })}
            aria-label={`${t('detail.pushes.retry')} ${p.ad_account.name}`}
          >
            {t('detail.pushes.retry')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap justify="space-between">
        <Flex gap={8} wrap>
          <Button size="small" type="primary" icon={<CloudUploadOutlined />} onClick={onPushMore}>
            {t('detail.pushes.pushMore')}
          </Button>
          {failed > 0 && (
            <Button size="small" danger icon={<RedoOutlined />} loading={retry.isPending && 'material_id' in (retry.variables ?? {})} onClick={() => void handleRetry({ material_id: material.id })}>
              {t('detail.pushes.retryAll', { count: failed })}
            </Button>
          )}
        </Flex>
        <Button size="small" icon={<ReloadOutlined />} loading={pushes.isFetching} onClick={() => void pushes.refetch()}>
          {tc('actions.refresh')}
        </Button>
      </Flex>
      {pushes.isError && !pushes.data ? (
        <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void pushes.refetch()}>{tc('states.retry')}</Button>} />
      ) : (
        <Table<MaterialPush>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={pushes.data?.list}
          loading={pushes.isPending}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.pushes.empty')} /> }}
          pagination={(pushes.data?.total ?? 0) > PAGE_SIZE ? { current: page, pageSize: PAGE_SIZE, total: pushes.data?.total, onChange: setPage, size: 'small' } : false}
          data-testid="material-pushes"
        />
      )}
    </Flex>
  );
}
