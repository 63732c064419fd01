import type { Material } from '@ads/contracts';
import { Checkbox, Flex, Spin, theme, Tooltip, Typography } from 'antd';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { formatBytes, formatResolution, shortDate } from './media-format';
import { MaterialThumb } from './material-thumb';
import { PushSummary } from './push-state';

interface Props {
  list: Material[] | undefined;
  loading: boolean;
  /** Shown instead of cards: loading failure, no results, first use. */
  empty: ReactNode;
  selectedIds: ReadonlySet<number>;
  onToggle: (m: Material, checked: boolean) => void;
  onOpen: (m: Material) => void;
}

/** The library as cards: thumbnail with duration, name, drama or product, editor, size and pushes. */
export function MaterialGrid({ list, loading, empty, selectedIds, onToggle, onOpen }: Props) {
  return (
    <Spin spinning={loading}>
      {list && list.length > 0 ? (
        <div
          data-testid="material-grid"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(176px, 1fr))', gap: 12, padding: 12, minHeight: 120 }}
        >
          {list.map((m) => (
            <MaterialCard key={m.id} material={m} selected={selectedIds.has(m.id)} onToggle={onToggle} onOpen={onOpen} />
          ))}
        </div>
      ) : (
        <div style={{ padding: 24 }}>{empty}</div>
      )}
    </Spin>
  );
}

const MaterialCard = memo(function MaterialCard({
  material: m,
  selected,
  onToggle,
  onOpen,
}: {
  material: Material;
  selected: boolean;
  onToggle: (m: Material, checked: boolean) => void;
  onOpen: (m: Material) => void;
}) {
  const { t } = useTranslation('materials');
  const { token } = theme.useToken();
  const catalog = m.drama?.name ?? m.product?.name;
  const line2 = [catalog, m.language?.toUpperCase()].filter(Boolean).join(' · ');
  const line3 = [m.editor?.name, formatBytes(m.size_bytes), formatResolution(m.width, m.height)].filter(Boolean).join(' · ');
  return (
    <div
      data-testid="material-card"
      aria-label={m.file_name}
      style={{
        position: 'relative',
        display: 'flex',
        flexDirection: 'column',
        borderRadius: token.borderRadiusLG,
        overflow: 'hidden',
        background: token.colorBgContainer,
        border: `1px solid ${selected ? token.colorPrimary : token.colorBorderSecondary}`,
        boxShadow: selected ? `0 0 0 1px ${token.colorPrimary}` : undefined,
      }}
    >
      <div
        role="button"
        tabIndex={0}
        aria-label={`${t('actions.detail')} ${m.file_name}`}
        style={{ cursor: 'pointer' }}
        onClick={() => onOpen(m)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onOpen(m);
          }
        }}
      >
        <MaterialThumb material={m} hoverPreview />
      </div>
      <Checkbox
        checked={selected}
        onChange={(e) => onToggle(m, e.target.checked)}
        aria-label={m.file_name}
        style={{ position: 'absolute', top: 6, left: 8, padding: 2, borderRadius: token.borderRadiusSM, background: token.colorBgContainer }}
      />
      {m.ads_using > 0 && (
        <Tooltip title={t('card.inUse', { count: m.ads_using })}>
          <span
            style={{
              position: 'absolute',
              top: 6,
              right: 6,
              padding: '0 6px',
              borderRadius: token.borderRadiusSM,
              background: token.colorBgMask,
              color: token.colorTextLightSolid,
              fontSize: 12,
              lineHeight: '18px',
            }}
          >
            {t('card.inUse', { count: m.ads_using })}
          </span>
        </Tooltip>
      )}
      <Flex vertical gap={2} style={{ padding: '8px 10px 10px' }}>
        <Typography.Text strong ellipsis={{ tooltip: m.file_name }}>
          {m.file_name}
        </Typography.Text>
        <Flex justify="space-between" gap={6}>
          <Typography.Text style={{ fontSize: 12, minWidth: 0 }} ellipsis={{ tooltip: line2 || undefined }}>
            {line2}
          </Typography.Text>
          <Tooltip title={formatDateTime(m.created_at)}>
            <Typography.Text type="secondary" style={{ fontSize: 12, flexShrink: 0 }}>
              {shortDate(m.created_at)}
            </Typography.Text>
          </Tooltip>
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
          {line3}
        </Typography.Text>
        <div style={{ marginTop: 4 }}>
          <PushSummary counts={m.push_counts} />
        </div>
      </Flex>
    </div>
  );
});
