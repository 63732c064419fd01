import { GlobalOutlined, PlusOutlined } from '@ant-design/icons';
import type { Platform, Site } from '@ads/contracts';
import { Button, Card, Empty, Flex, Input, Segmented, Skeleton, Tag, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  sites: readonly Site[];
  loading: boolean;
  selectedId: number | undefined;
  onSelect: (id: number) => void;
  keyword: string;
  onKeyword: (keyword: string) => void;
  platform: Platform | 'all';
  onPlatform: (platform: Platform | 'all') => void;
  onCreate: () => void;
  /** Whether any site exists at all (before the local search). */
  hasAny: boolean;
}

/** The sites, searchable, each with its domain, business line and catalog size; one is chosen. */
export function SiteList({ sites, loading, selectedId, onSelect, keyword, onKeyword, platform, onPlatform, onCreate, hasAny }: Props) {
  const { t } = useTranslation('assets');
  const { token } = theme.useToken();
  return (
    <Card
      size="small"
      title={t('sites.list.title')}
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={onCreate}>
          {t('sites.create')}
        </Button>
      }
      styles={{ body: { padding: 8 } }}
    >
      <Flex vertical gap={8}>
        <Input.Search allowClear placeholder={t('sites.list.search')} value={keyword} onChange={(e) => onKeyword(e.target.value)} aria-label={t('sites.list.search')} />
        <Segmented<Platform | 'all'>
          block
          size="small"
          value={platform}
          onChange={onPlatform}
          options={[
            { value: 'all', label: t('common.all') },
            { value: 'dj', label: t('platform.djShort') },
            { value: 'ec', label: t('platform.ecShort') },
          ]}
        />
        {loading ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : sites.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={hasAny ? t('sites.list.noMatch') : t('sites.list.empty')} />
        ) : (
          <Flex vertical gap={4} role="listbox" aria-label={t('sites.list.title')} style={{ maxHeight: 'calc(100vh - 260px)', overflow: 'auto' }}>
            {sites.map((s) => {
              const active = s.id === selectedId;
              return (
                <div
                  key={s.id}
                  role="option"
                  aria-selected={active}
                  tabIndex={0}
                  onClick={() => onSelect(s.id)}
                  onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onSelect(s.id)}
                  style={{
                    cursor: 'pointer',
                    padding: '8px 10px',
                    borderRadius: token.borderRadius,
                    background: active ? token.controlItemBgActive : undefined,
                    border: `1px solid ${active ? token.colorPrimaryBorder : 'transparent'}`,
                  }}
                >
                  <Flex justify="space-between" align="center" gap={8}>
                    <Typography.Text strong ellipsis style={{ maxWidth: 170 }}>
                      {s.name}
                    </Typography.Text>
                    <Tag color={s.platform === 'dj' ? 'magenta' : 'cyan'} style={{ marginInlineEnd: 0 }}>
                      {t(`platform.${s.platform}`)}
                    </Tag>
                  </Flex>
                  <Flex justify="space-between" align="center" gap={8}>
                    <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 170 }}>
                      <GlobalOutlined /> {s.domain}
                    </Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t(s.platform === 'dj' ? 'sites.list.dramas' : 'sites.list.products', { count: s.catalog_count })}
                    </Typography.Text>
                  </Flex>
                </div>
              );
            })}
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
