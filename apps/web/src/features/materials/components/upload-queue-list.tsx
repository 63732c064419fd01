import {
  CaretRightOutlined,
  CheckSquareOutlined,
  ClearOutlined,
  CloseOutlined,
  FileImageOutlined,
  PauseOutlined,
  RedoOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { Material } from '@ads/contracts';
import { Button, Flex, Progress, Tag, theme, Tooltip, Typography } from 'antd';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { canRetry, isActive, isFinished, isRefused, summarize, type UploadItem, type UploadQueue, type UploadStatus } from '../upload/upload-queue';
import { formatBytes, formatDuration, formatEta, formatResolution, languageName } from './media-format';

const STATUS_COLORS: Record<UploadStatus, string> = {
  queued: 'default',
  hashing: 'processing',
  checking: 'processing',
  waiting: 'default',
  uploading: 'processing',
  paused: 'warning',
  finishing: 'processing',
  done: 'success',
  duplicate: 'gold',
  failed: 'error',
};

interface Props {
  queue: UploadQueue;
  items: readonly UploadItem[];
  onOpenMaterial: (m: Material) => void;
  /** Selects the materials this queue produced (new and duplicates) in the library. */
  onSelectMaterials: (materials: Material[]) => void;
}

/** The upload queue: overall progress and, per file, its state, progress, speed, time left and actions. */
export function UploadQueueList({ queue, items, onOpenMaterial, onSelectMaterials }: Props) {
  const { t } = useTranslation('materials');
  const { token } = theme.useToken();
  if (!items.length) return null;
  const s = summarize(items);
  const produced = items.flatMap((i) => (i.material ? [i.material] : []));
  const overall = s.bytesTotal > 0 ? Math.floor((s.bytesSent / s.bytesTotal) * 100) : 100;

  return (
    <Flex vertical gap={8} data-testid="upload-queue">
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{t('upload.queue')}</Typography.Text>
          <Typography.Text type="secondary" data-testid="upload-summary">
            {t('upload.summary', { active: s.active + s.paused, done: s.done, duplicate: s.duplicate, failed: s.failed })}
          </Typography.Text>
        </Flex>
        <Flex gap={4} wrap>
          {s.active > 0 && (
            <Button size="small" icon={<PauseOutlined />} onClick={() => queue.pauseAll()}>
              {t('upload.pauseAll')}
            </Button>
          )}
          {s.paused > 0 && (
            <Button size="small" icon={<CaretRightOutlined />} onClick={() => queue.resumeAll()}>
              {t('upload.resumeAll')}
            </Button>
          )}
          {produced.length > 0 && (
            <Button size="small" icon={<CheckSquareOutlined />} onClick={() => onSelectMaterials(produced)}>
              {t('upload.selectUploaded')}
            </Button>
          )}
          {items.some((i) => isFinished(i) || isRefused(i)) && (
            <Button size="small" icon={<ClearOutlined />} onClick={() => queue.clearFinished()}>
              {t('upload.clearFinished')}
            </Button>
          )}
        </Flex>
      </Flex>
      {s.bytesTotal > 0 && (
        <Flex align="center" gap={8}>
          <Progress percent={overall} size="small" status="active" style={{ flex: 1, margin: 0 }} aria-label={t('upload.queue')} />
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
            {t('upload.overall', { sent: formatBytes(s.bytesSent), total: formatBytes(s.bytesTotal) })}
          </Typography.Text>
        </Flex>
      )}
      <Flex vertical style={{ maxHeight: 440, overflow: 'auto', border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius }}>
        {items.map((item, i) => (
          <UploadRow key={item.key} item={item} queue={queue} onOpenMaterial={onOpenMaterial} divider={i > 0} />
        ))}
      </Flex>
    </Flex>
  );
}

const UploadRow = memo(function UploadRow({ item, queue, onOpenMaterial, divider }: { item: UploadItem; queue: UploadQueue; onOpenMaterial: (m: Material) => void; divider: boolean }) {
  const { t } = useTranslation('materials');
  const { token } = theme.useToken();
  const { file, status } = item;
  const size = file.size || 1;
  const isHashPhase = status === 'hashing' || status === 'checking';
  const percent = Math.floor(((isHashPhase ? item.hashed : item.sent) / size) * 100);
  const showBar = isHashPhase || status === 'uploading' || status === 'paused' || status === 'waiting' || status === 'finishing' || (status === 'failed' && item.sent > 0);
  const meta = [
    formatBytes(file.size),
    item.meta.labels?.catalog,
    item.meta.language ? languageName(item.meta.language) : null,
    item.meta.labels?.editor,
    item.meta.tags?.length ? item.meta.tags.map((x) => `#${x}`).join(' ') : null,
  ].filter(Boolean);

  // Every byte is there but the server has not answered yet (it probes the file and makes the thumbnail).
  const processing = status === 'finishing' || (status === 'uploading' && item.sent >= file.size && item.retrying === null);
  const waitingForNetwork = status === 'failed' && item.error?.kind === 'network';
  const tagStatus = processing ? 'finishing' : status;
  const details: string[] = [];
  if (status === 'uploading' && item.retrying !== null) details.push(t('upload.retrying', { attempt: item.retrying }));
  else if (status === 'uploading' && !processing) {
    if (item.speed) details.push(t('upload.speed', { speed: formatBytes(item.speed) }));
    if (item.eta !== null) details.push(t('upload.eta', { time: formatEta(item.eta) }));
  }
  if (item.resumedFrom !== null && !['done', 'duplicate'].includes(status)) details.push(t('upload.resumedFrom', { percent: Math.floor((item.resumedFrom / size) * 100) }));

  const icon = file.type.startsWith('image/') ? <FileImageOutlined /> : <VideoCameraOutlined />;
  const action = (title: string, node: ReactNode, onClick: () => void, danger?: boolean) => (
    <Tooltip title={title}>
      <Button size="small" type="text" danger={danger} icon={node} aria-label={`${title} ${file.name}`} onClick={onClick} />
    </Tooltip>
  );

  return (
    <Flex
      vertical
      gap={4}
      data-testid="upload-row"
      data-status={status}
      style={{ padding: '8px 12px', borderTop: divider ? `1px solid ${token.colorBorderSecondary}` : undefined }}
    >
      <Flex gap={8} align="center" justify="space-between">
        <Flex gap={8} align="center" style={{ minWidth: 0 }}>
          <span style={{ color: token.colorTextTertiary }}>{icon}</span>
          <Typography.Text ellipsis={{ tooltip: file.name }} style={{ minWidth: 0 }}>
            {file.name}
          </Typography.Text>
          <Tag color={waitingForNetwork ? 'warning' : STATUS_COLORS[tagStatus]} style={{ marginInlineEnd: 0, flexShrink: 0 }}>
            {status === 'hashing' ? t('upload.hashing', { percent }) : waitingForNetwork ? t('upload.status.offline') : t(`upload.status.${tagStatus}`)}
          </Tag>
        </Flex>
        <Flex gap={0} style={{ flexShrink: 0 }}>
          {isActive(item) && status !== 'finishing' && action(t('upload.actions.pause'), <PauseOutlined />, () => queue.pause(item.key))}
          {status === 'paused' && action(t('upload.actions.resume'), <CaretRightOutlined />, () => queue.resume(item.key))}
          {canRetry(item) && action(t('upload.actions.retry'), <RedoOutlined />, () => queue.retry(item.key))}
          {item.material && (
            <Button size="small" type="link" onClick={() => onOpenMaterial(item.material!)}>
              {t('upload.actions.open')}
            </Button>
          )}
          {status === 'done' || status === 'duplicate' || isRefused(item)
            ? action(t('upload.actions.remove'), <CloseOutlined />, () => queue.cancel(item.key))
            : action(t('upload.actions.cancel'), <CloseOutlined />, () => queue.cancel(item.key), true)}
        </Flex>
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
        {meta.join(' · ')}
      </Typography.Text>
      {showBar && (
        <Flex align="center" gap={8}>
          <Progress
            percent={status === 'finishing' ? 100 : percent}
            size="small"
            showInfo={false}
            status={status === 'failed' && !waitingForNetwork ? 'exception' : status === 'uploading' || isHashPhase || status === 'finishing' ? 'active' : 'normal'}
            strokeColor={isHashPhase ? token.colorTextQuaternary : undefined}
            style={{ flex: 1, margin: 0 }}
            aria-label={file.name}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
            {[`${status === 'finishing' ? 100 : percent}%`, ...details].join(' · ')}
          </Typography.Text>
        </Flex>
      )}
      {status === 'duplicate' && (
        <Typography.Text type="warning" style={{ fontSize: 13 }} data-testid="upload-duplicate">
          {item.material && !item.sameAs
            ? t('upload.duplicate.existing', { name: item.material.file_name, uploader: item.material.uploader.name, date: formatDateTime(item.material.created_at) })
            : t('upload.duplicate.sameAs', { name: item.sameAs ?? '' })}
        </Typography.Text>
      )}
      {status === 'failed' && item.error && (
        <Typography.Text type={waitingForNetwork ? 'warning' : 'danger'} style={{ fontSize: 13 }} data-testid="upload-error">
          {item.error.kind === 'server'
            ? item.error.message
            : item.error.kind === 'result'
              ? t('upload.errors.result', { message: item.error.message ?? '' })
              : t(`upload.errors.${item.error.kind}`)}
        </Typography.Text>
      )}
      {status === 'done' && item.material && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {[formatResolution(item.material.width, item.material.height), formatDuration(item.material.duration_s)].filter(Boolean).join(' · ')}
        </Typography.Text>
      )}
    </Flex>
  );
});
