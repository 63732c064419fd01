import type { PublishCatalogItem } from '@ads/contracts';
import { Alert, Button, Empty, Flex, Form, Input, InputNumber, Result, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePublishCatalog } from '../api/use-publish-lookups';
import { Thumb } from './thumb';
import { useWizard } from './wizard-context';

interface PickerProps {
  value?: number | null;
  onChange?: (id: number | null) => void;
}

/** The catalog of step 1: search, and one row picked (radio), keyboard-reachable. */
function CatalogPicker({ value, onChange }: PickerProps) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const { platform, setTitle } = useWizard();
  const [keyword, setKeyword] = useState('');
  const catalog = usePublishCatalog(platform, useDebouncedValue(keyword.trim()));
  const list = catalog.data?.list ?? [];

  const kind = platform === 'dj' ? 'drama' : 'product';
  if (catalog.isError && !catalog.data)
    return <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void catalog.refetch()}>{tc('states.retry')}</Button>} />;
  return (
    <Flex vertical gap={8}>
      <Input.Search
        allowClear
        placeholder={t(`what.search.${kind}`)}
        aria-label={t(`what.search.${kind}`)}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        style={{ maxWidth: 360 }}
      />
      <Table<PublishCatalogItem>
        size="small"
        rowKey="id"
        loading={catalog.isPending || catalog.isPlaceholderData}
        dataSource={list}
        pagination={false}
        scroll={{ y: 360, x: 760 }}
        onRow={(item) => ({ onClick: () => { onChange?.(item.id); setTitle(item); }, style: { cursor: 'pointer' } })}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: value ? [value] : [],
          columnWidth: 40,
          onChange: (_keys, rows) => {
            const item = rows[0];
            if (item) {
              onChange?.(item.id);
              setTitle(item);
            }
          },
          getCheckboxProps: (item) => ({ 'aria-label': item.name }),
        }}
        locale={{
          emptyText: catalog.isPending ? ' ' : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={keyword.trim() ? tc('states.noResults') : t(`what.empty.${kind}`)} />,
        }}
        columns={[
          {
            key: 'name',
            title: t(`what.columns.${kind}`),
            render: (_, item) => (
              <Flex gap={8} align="center">
                <Thumb src={item.cover_url} kind="image" size={36} />
                <Flex vertical>
                  <Typography.Text strong>{item.name}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {item.external_id}
                  </Typography.Text>
                </Flex>
              </Flex>
            ),
          },
          { key: 'site', title: t('what.columns.site'), width: 200, render: (_, item) => `${item.site.name} (${item.site.domain})` },
          { key: 'language', title: t('what.columns.language'), width: 90, render: (_, item) => (item.language ? <Tag>{item.language}</Tag> : '-') },
          ...(platform === 'dj' ? [{ key: 'episodes', title: t('what.columns.episodes'), width: 80, render: (_: unknown, item: PublishCatalogItem) => item.episode_count ?? '-' }] : []),
          { key: 'materials', title: t('what.columns.materials'), width: 150, render: (_, item) => t('what.materialCount', { videos: item.videos, images: item.images }) },
        ]}
      />
    </Flex>
  );
}

/** Step 1: the drama (with the episode its link opens) or the product, and the scheme's name. */
export function StepWhat() {
  const { t } = useTranslation('publish');
  const { platform, title } = useWizard();
  const kind = platform === 'dj' ? 'drama' : 'product';
  return (
    <Flex vertical gap={16}>
      <Form.Item
        name={['what', platform === 'dj' ? 'drama_id' : 'product_id']}
        label={t(`what.pick.${kind}`)}
        rules={[{ required: true, message: t(`what.required.${kind}`) }]}
        style={{ marginBottom: 0 }}
      >
        <CatalogPicker />
      </Form.Item>
      {title && title.videos + title.images === 0 && <Alert type="warning" showIcon title={t('what.noMaterials', { name: title.name })} />}
      <Flex gap={16} wrap>
        {platform === 'dj' && (
          <Form.Item
            name={['what', 'episode']}
            label={t('what.episode')}
            extra={t('what.episodeHelp')}
            rules={[
              { required: true, message: t('what.episodeRequired') },
              {
                validator: async (_, v?: number | null) => {
                  if (v && title?.episode_count && v > title.episode_count) throw new Error(t('what.episodeMax', { max: title.episode_count }));
                },
              },
            ]}
          >
            <InputNumber min={1} max={10_000} precision={0} style={{ width: 160 }} />
          </Form.Item>
        )}
        <Form.Item name="scheme_name" label={t('what.schemeName')} extra={t('what.schemeNameHelp')} rules={[{ max: 100, message: t('what.schemeNameMax') }]} style={{ flex: '1 1 320px', maxWidth: 480 }}>
          <Input maxLength={100} allowClear />
        </Form.Item>
      </Flex>
    </Flex>
  );
}
