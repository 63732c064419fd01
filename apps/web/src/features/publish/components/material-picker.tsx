import type { PublishMaterial } from '@ads/contracts';
import { Button, Card, Checkbox, Empty, Flex, Input, Modal, Pagination, Result, Switch, Tag, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { usePublishMaterials } from '../api/use-publish-lookups';
import { formatSeconds, materialSrc, Thumb } from './thumb';
import { useWizard } from './wizard-context';

const PAGE_SIZE = 24;

interface Props {
  kind: 'video' | 'image';
  open: boolean;
  /** Ids picked before the dialog opened (kept, and shown checked). */
  picked: readonly number[];
  /** At most this many in all. */
  max: number;
  onClose: () => void;
  onOk: (ids: number[]) => void;
}

/**
 * The library for step 2: materials preset to the drama/product first (a switch widens to the
 * whole library), searched by name, picked with checkboxes across pages. Mount it to open it.
 */
export function MaterialPicker({ kind, open, picked, max, onClose, onOk }: Props) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const { token } = theme.useToken();
  const { platform, title, rememberMaterials } = useWizard();
  const [keyword, setKeyword] = useState('');
  const [onlyTitle, setOnlyTitle] = useState(true);
  const [page, setPage] = useState(1);
  // The parent mounts the picker when it opens, so it starts from what was picked.
  const [selected, setSelected] = useState<number[]>(() => [...picked]);

  const search = useDebouncedValue(keyword.trim());
  const titleFilter = onlyTitle && title ? (platform === 'dj' ? { drama_id: title.id } : { product_id: title.id }) : {};
  const materials = usePublishMaterials({ platform, kind, page, page_size: PAGE_SIZE, ...(search && { keyword: search }), ...titleFilter }, { enabled: open });
  const list = materials.data?.list ?? [];
  useEffect(() => {
    if (materials.data) rememberMaterials(materials.data.list);
  }, [materials.data, rememberMaterials]);

  const toggle = (m: PublishMaterial, on: boolean) => setSelected((s) => (on ? (s.length < max ? [...s, m.id] : s) : s.filter((id) => id !== m.id)));
  const full = selected.length >= max;

  let body;
  if (materials.isError && !materials.data)
    body = <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void materials.refetch()}>{tc('states.retry')}</Button>} />;
  else if (!materials.isPending && list.length === 0)
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={search || !onlyTitle ? tc('states.noResults') : t(`creatives.picker.empty.${kind}`)} />;
  else
    body = (
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(132px, 1fr))', gap: 12, opacity: materials.isPlaceholderData ? 0.6 : 1 }} aria-busy={materials.isFetching}>
        {(materials.isPending ? [] : list).map((m) => {
          const checked = selected.includes(m.id);
          return (
            <Card
              key={m.id}
              size="small"
              hoverable
              styles={{ body: { padding: 8 } }}
              style={{ borderColor: checked ? token.colorPrimary : undefined }}
              onClick={() => toggle(m, !checked)}
            >
              <Flex vertical gap={6}>
                <Thumb src={materialSrc(m)} kind={m.kind} width={114} height={kind === 'video' ? 140 : 100} />
                {/* The card toggles on click; the checkbox's own clicks (and its label's) stay with it. */}
                <span onClick={(e) => e.stopPropagation()}>
                  <Checkbox checked={checked} disabled={!checked && full} onChange={(e) => toggle(m, e.target.checked)}>
                    <Typography.Text ellipsis={{ tooltip: m.file_name }} style={{ maxWidth: 84, fontSize: 12 }}>
                      {m.file_name}
                    </Typography.Text>
                  </Checkbox>
                </span>
                <Flex gap={4} wrap>
                  {m.duration_s !== null && <Tag style={{ marginInlineEnd: 0 }}>{formatSeconds(m.duration_s)}</Tag>}
                  {m.language && <Tag style={{ marginInlineEnd: 0 }}>{m.language}</Tag>}
                  {m.editor && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {m.editor.name}
                    </Typography.Text>
                  )}
                </Flex>
              </Flex>
            </Card>
          );
        })}
      </div>
    );

  return (
    <Modal
      open={open}
      title={t(`creatives.picker.title.${kind}`)}
      width={880}
      onCancel={onClose}
      onOk={() => onOk(selected)}
      okText={t('creatives.picker.ok', { count: selected.length })}
      cancelText={tc('actions.cancel')}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Flex gap={12} wrap align="center">
          <Input.Search
            allowClear
            placeholder={t('creatives.picker.search')}
            aria-label={t('creatives.picker.search')}
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value);
              setPage(1);
            }}
            style={{ width: 260 }}
          />
          {title && (
            <Flex gap={6} align="center">
              <Switch
                size="small"
                checked={onlyTitle}
                onChange={(v) => {
                  setOnlyTitle(v);
                  setPage(1);
                }}
                aria-label={t('creatives.picker.onlyTitle', { name: title.name })}
              />
              <Typography.Text>{t('creatives.picker.onlyTitle', { name: title.name })}</Typography.Text>
            </Flex>
          )}
          <Typography.Text type={full ? 'warning' : 'secondary'}>{t('creatives.picker.selected', { count: selected.length, max })}</Typography.Text>
        </Flex>
        <div style={{ maxHeight: 460, overflowY: 'auto', paddingRight: 4 }}>{materials.isPending ? <Card loading /> : body}</div>
        {(materials.data?.total ?? 0) > PAGE_SIZE && (
          <Pagination size="small" current={page} pageSize={PAGE_SIZE} total={materials.data?.total ?? 0} onChange={setPage} showSizeChanger={false} style={{ alignSelf: 'flex-end' }} />
        )}
      </Flex>
    </Modal>
  );
}
