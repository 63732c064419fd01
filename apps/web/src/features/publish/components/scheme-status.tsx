import type { PublishLaunch, SchemeCounts, SchemeItemStatus, SchemeStatus } from '@ads/contracts';
import { Flex, Progress, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';

const SCHEME_COLORS: Record<SchemeStatus, string | undefined> = {
  queued: 'default',
  running: 'processing',
  waiting: 'warning',
  done: 'success',
  partial: 'warning',
  failed: 'error',
  cancelling: 'warning',
  cancelled: undefined,
};

/** A scheme's status (preset colours follow the theme), with why it waits on hover. */
export function SchemeStatusTag({ status, message }: { status: SchemeStatus; message?: string | null }) {
  const { t } = useTranslation('publish');
  const tag = (
    <Tag color={SCHEME_COLORS[status]} style={{ marginInlineEnd: 0 }} data-testid="scheme-status">
      {t(`schemeStatus.${status}`)}
    </Tag>
  );
  return message ? <Tooltip title={message}>{tag}</Tooltip> : tag;
}

const ITEM_COLORS: Record<SchemeItemStatus, string | undefined> = { pending: 'default', creating: 'processing', created: 'success', failed: 'error', cancelled: undefined };

export function ItemStatusTag({ status }: { status: SchemeItemStatus }) {
  const { t } = useTranslation('publish');
  return (
    <Tag color={ITEM_COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {t(`itemStatus.${status}`)}
    </Tag>
  );
}

/** Items done of all (created; failed in red), as a bar. */
export function SchemeProgress({ counts, size = 'small' }: { counts: SchemeCounts; size?: 'small' | 'default' }) {
  const { t } = useTranslation('publish');
  const total = Math.max(1, counts.total);
  const created = Math.round((counts.created / total) * 100);
  const finished = Math.round(((counts.created + counts.failed + counts.cancelled) / total) * 100);
  return (
    <Flex vertical gap={0} style={{ minWidth: 140 }}>
      <Progress
        percent={finished}
        success={{ percent: created }}
        size={size}
        status={counts.failed ? 'exception' : undefined}
        showInfo={false}
        aria-label={t('detail.progressLabel', { created: counts.created, total: counts.total })}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('detail.progressText', { created: counts.created, total: counts.total })}
        {counts.failed > 0 && (
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            {' · '}
            {t('detail.failedCount', { count: counts.failed })}
          </Typography.Text>
        )}
      </Typography.Text>
    </Flex>
  );
}

/** Paused / on when done / on at a time. */
export function LaunchText({ launch }: { launch: PublishLaunch }) {
  const { t } = useTranslation('publish');
  return <span>{launch.mode === 'at' ? t('launch.at', { time: formatDateTime(launch.at) }) : t(`launch.${launch.mode}`)}</span>;
}
