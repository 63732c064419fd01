import { CheckCircleOutlined, CloseCircleOutlined, SyncOutlined } from '@ant-design/icons';
import type { PushCounts, PushState } from '@ads/contracts';
import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const STATE_COLORS: Record<PushState, string> = {
  pending: 'default',
  uploading: 'processing',
  processing: 'processing',
  ready: 'success',
  failed: 'error',
};

/** One push's state. */
export function PushStateTag({ state }: { state: PushState }) {
  const { t } = useTranslation('materials');
  return (
    <Tag color={STATE_COLORS[state]} icon={state === 'uploading' || state === 'processing' ? <SyncOutlined spin /> : undefined} style={{ marginInlineEnd: 0 }}>
      {t(`pushState.${state}`)}
    </Tag>
  );
}

/** A material's pushes in short: ready, on their way, failed (or "not pushed"). */
export function PushSummary({ counts }: { counts: PushCounts }) {
  const { t } = useTranslation('materials');
  const active = counts.pending + counts.uploading + counts.processing;
  if (!active && !counts.ready && !counts.failed)
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('card.none')}
      </Typography.Text>
    );
  return (
    <Flex gap={4} wrap data-testid="push-summary">
      {counts.ready > 0 && (
        <Tag color="success" icon={<CheckCircleOutlined />} style={{ marginInlineEnd: 0 }}>
          {t('card.ready', { count: counts.ready })}
        </Tag>
      )}
      {active > 0 && (
        <Tag color="processing" icon={<SyncOutlined spin />} style={{ marginInlineEnd: 0 }}>
          {t('card.active', { count: active })}
        </Tag>
      )}
      {counts.failed > 0 && (
        <Tag color="error" icon={<CloseCircleOutlined />} style={{ marginInlineEnd: 0 }}>
          {t('card.failed', { count: counts.failed })}
        </Tag>
      )}
    </Flex>
  );
}
