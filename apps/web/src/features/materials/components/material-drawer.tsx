import { CloudUploadOutlined, DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import type { EditMaterialBody, Material, MaterialFacets } from '@ads/contracts';
import { Alert, App, Button, Descriptions, Drawer, Flex, Form, Image, Input, Result, Skeleton, Tabs, theme, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlatformTag } from '@/components/platform-tag';
import { formatDateTime } from '@/lib/format';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useEditMaterial } from '../api/use-edit-material';
import { useMaterial } from '../api/use-material';
import { formatBytes, formatDuration, formatResolution } from './media-format';
import { MaterialPushes } from './material-pushes';
import { CatalogPicker, EditorPicker, LanguageSelect, TagsSelect } from './meta-inputs';

interface EditValues {
  file_name: string;
  catalog_id?: number | null;
  language?: string | null;
  editor_id?: number | null;
  tags: string[];
  remark?: string;
}

const valuesOf = (m: Material): EditValues => ({
  file_name: m.file_name,
  catalog_id: (m.platform === 'dj' ? m.drama?.id : m.product?.id) ?? null,
  language: m.language,
  editor_id: m.editor?.id ?? null,
  tags: m.tags,
  remark: m.remark,
});

/** The /materials/edit body: only what changed (null clears); null when nothing did. */
export function editBody(m: Material, v: EditValues): EditMaterialBody | null {
  const before = valuesOf(m);
  const body: EditMaterialBody = { id: m.id };
  const name = v.file_name.trim();
  if (name !== before.file_name) body.file_name = name;
  if ((v.catalog_id ?? null) !== before.catalog_id) Object.assign(body, m.platform === 'dj' ? { drama_id: v.catalog_id ?? null } : { product_id: v.catalog_id ?? null });
  if ((v.language ?? null) !== before.language) body.language = v.language ?? null;
  if ((v.editor_id ?? null) !== before.editor_id) body.editor_id = v.editor_id ?? null;
  if (v.tags.join('\u0000') !== before.tags.join('\u0000')) body.tags = v.tags;
  const remark = (v.remark ?? '').trim();
  if (remark !== before.remark) body.remark = remark;
  return Object.keys(body).length > 1 ? body : null;
}

interface Props {
  /** The material shown; undefined: closed. */
  id: number | undefined;
  /** The row the list already has, shown while the fresh copy loads. */
  initial?: Material;
  facets: MaterialFacets | undefined;
  canPickCatalog: boolean;
  onClose: () => void;
  onPush: (m: Material) => void;
  onDelete: (m: Material) => void;
  onTask: (taskId: number) => void;
}

/** A material: player, facts, details to edit, and its pushes to ad accounts. */
export function MaterialDrawer({ id, initial, facets, canPickCatalog, onClose, onPush, onDelete, onTask }: Props) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const material = useMaterial(id, initial);
  const m = material.data;
  const focusReturn = useDrawerFocusReturn(id !== undefined);

  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      {...focusReturn}
      size={760}
      destroyOnHidden
      title={m ? <Typography.Text ellipsis={{ tooltip: m.file_name }}>{m.file_name}</Typography.Text> : (initial?.file_name ?? ' ')}
      extra={
        m && (
          <Flex gap={8}>
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => onPush(m)}>
              {t('actions.push')}
            </Button>
            <Tooltip title={m.ads_using > 0 ? t('card.inUse', { count: m.ads_using }) : undefined}>
              <Button danger icon={<DeleteOutlined />} disabled={m.ads_using > 0} onClick={() => onDelete(m)}>
                {tc('actions.delete')}
              </Button>
            </Tooltip>
          </Flex>
        )
      }
    >
      {material.isError && !m ? (
        <Result status="404" title={t('detail.notFound')} extra={<Button onClick={onClose}>{tc('actions.close')}</Button>} />
      ) : !m ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={16}>
          <Player material={m} />
          <Tabs
            key={m.id}
            defaultActiveKey="info"
            items={[
              { key: 'info', label: t('detail.tabs.info'), children: <MaterialInfo material={m} facets={facets} canPickCatalog={canPickCatalog} /> },
              {
                key: 'pushes',
                label: t('detail.tabs.pushes', { count: Object.values(m.push_counts).reduce((a, b) => a + b, 0) }),
                children: <MaterialPushes material={m} onPushMore={() => onPush(m)} onTask={onTask} />,
              },
            ]}
          />
        </Flex>
      )}
    </Drawer>
  );
}

function Player({ material: m }: { material: Material }) {
  const { t } = useTranslation('materials');
  const { token } = theme.useToken();
  const [failed, setFailed] = useState(false);
  const frame = { width: '100%', maxHeight: 420, background: token.colorBgSpotlight, borderRadius: token.borderRadiusLG, display: 'block' } as const;
  if (m.kind === 'image')
    return (
      <Flex justify="center" style={{ background: token.colorFillTertiary, borderRadius: token.borderRadiusLG }}>
        <Image src={m.file_url} alt={m.file_name} style={{ maxHeight: 420, objectFit: 'contain' }} />
      </Flex>
    );
  return (
    <Flex vertical gap={8}>
      <video key={m.file_url} src={m.file_url} poster={m.thumbnail_url ?? undefined} controls preload="metadata" playsInline style={frame} onError={() => setFailed(true)} data-testid="material-player" />
      {failed && (
        <Alert
          type="warning"
          showIcon
          title={t('detail.playFailed')}
          action={
            <Button size="small" icon={<DownloadOutlined />} href={m.file_url} download={m.file_name}>
              {t('detail.download')}
            </Button>
          }
        />
      )}
    </Flex>
  );
}

function MaterialInfo({ material: m, facets, canPickCatalog }: { material: Material; facets: MaterialFacets | undefined; canPickCatalog: boolean }) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditValues>();
  const edit = useEditMaterial();
  const key = `${m.id}:${m.updated_at}`;

  useEffect(() => {
    form.setFieldsValue(valuesOf(m));
    // Reset when another material or a newer copy arrives, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, key]);

  const handleFinish = async (v: EditValues) => {
    const body = editBody(m, v);
    if (!body) {
      message.info(t('detail.noChanges'));
      return;
    }
    try {
      await edit.mutateAsync(body);
      message.success(t('detail.saved'));
    } catch {
      // Shown by the request layer.
    }
  };

  const dash = tc('dash');
  return (
    <Flex vertical gap={16}>
      <Descriptions
        size="small"
        column={2}
        bordered
        items={[
          { key: 'platform', label: t('fields.platform'), children: <PlatformTag platform={m.platform} /> },
          { key: 'kind', label: t('fields.kind'), children: `${t(`kind.${m.kind}`)} · ${m.mime_type}` },
          { key: 'duration', label: t('fields.duration'), children: formatDuration(m.duration_s) || dash },
          { key: 'resolution', label: t('fields.resolution'), children: formatResolution(m.width, m.height) || dash },
          { key: 'size', label: t('fields.size'), children: `${formatBytes(m.size_bytes)} (${m.size_bytes.toLocaleString()} B)` },
          { key: 'ads', label: t('fields.adsUsing'), children: m.ads_using },
          {
            key: 'md5',
            label: t('fields.md5'),
            span: 2,
            children: (
              <Typography.Text code copyable={{ text: m.md5, tooltips: [t('detail.copyMd5'), t('detail.copied')] }} style={{ fontSize: 12 }}>
                {m.md5}
              </Typography.Text>
            ),
          },
          { key: 'uploader', label: t('fields.uploader'), children: [m.uploader.name, m.department?.name].filter(Boolean).join(' · ') },
          { key: 'created', label: t('fields.createdAt'), children: formatDateTime(m.created_at) },
        ]}
      />
      <Form<EditValues> form={form} layout="vertical" name="edit-material" initialValues={valuesOf(m)} onFinish={handleFinish} aria-label={t('actions.edit')}>
        <Form.Item name="file_name" label={t('fields.fileName')} rules={[{ required: true, whitespace: true, max: 255 }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Flex gap={12} wrap>
          <Form.Item name="catalog_id" label={t(m.platform === 'dj' ? 'fields.drama' : 'fields.product')} style={{ flex: '1 1 200px' }}>
            <CatalogPicker platform={m.platform} enabled={canPickCatalog} currentLabel={m.platform === 'dj' ? m.drama?.name : m.product?.name} />
          </Form.Item>
          <Form.Item name="language" label={t('fields.language')} style={{ flex: '1 1 160px' }}>
            <LanguageSelect extra={facets?.languages} placeholder={t('placeholders.language')} />
          </Form.Item>
          <Form.Item name="editor_id" label={t('fields.editor')} style={{ flex: '1 1 160px' }}>
            <EditorPicker currentLabel={m.editor?.name} placeholder={t('placeholders.editor')} />
          </Form.Item>
        </Flex>
        <Form.Item name="tags" label={t('fields.tags')}>
          <TagsSelect suggestions={facets?.tags} placeholder={t('placeholders.tags')} />
        </Form.Item>
        <Form.Item name="remark" label={t('fields.remark')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} showCount />
        </Form.Item>
        <Flex justify="flex-end" gap={8}>
          <Button onClick={() => form.setFieldsValue(valuesOf(m))}>{tc('actions.reset')}</Button>
          <Button type="primary" htmlType="submit" loading={edit.isPending}>
            {tc('actions.save')}
          </Button>
        </Flex>
      </Form>
    </Flex>
  );
}
