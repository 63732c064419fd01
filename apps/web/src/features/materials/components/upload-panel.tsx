import { CloudUploadOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { MATERIAL_MAX_BYTES_DEFAULT, type Material, type MaterialFacets, type Platform } from '@ads/contracts';
import { Alert, App, Button, Col, Flex, Form, Input, Row, Segmented, Tooltip, Typography, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { forgetInterruptedUpload, listInterruptedUploads, type PreviousUpload } from '../upload/tus-transfer';
import { isFinished, type UploadMeta } from '../upload/upload-queue';
import { useUploadQueue } from '../upload/upload-store';
import { formatBytes } from './media-format';
import { CatalogPicker, EditorPicker, LanguageSelect, TagsSelect } from './meta-inputs';
import { UploadQueueList } from './upload-queue-list';

interface DefaultsValues {
  platform: Platform;
  catalog_id?: number | null;
  language?: string | null;
  editor_id?: number | null;
  tags?: string[];
  remark?: string;
}

interface Props {
  /** Set on the drama / e-commerce screens: every upload is of that business. */
  lockedPlatform?: Platform;
  /** The viewer's own business, the default elsewhere. */
  defaultPlatform: Platform;
  canPickCatalog: boolean;
  facets: MaterialFacets | undefined;
  onOpenMaterial: (m: Material) => void;
  onSelectMaterials: (materials: Material[]) => void;
}

/**
 * 上传素材: the drop zone, the details given to the next files, unfinished uploads from earlier
 * visits, and the queue.
 */
export function UploadPanel({ lockedPlatform, defaultPlatform, canPickCatalog, facets, onOpenMaterial, onSelectMaterials }: Props) {
  const { t } = useTranslation('materials');
  const { t: ta } = useTranslation('assets');
  const { message } = App.useApp();
  const { queue, items } = useUploadQueue();
  const [form] = Form.useForm<DefaultsValues>();
  const platform = Form.useWatch('platform', form) ?? lockedPlatform ?? defaultPlatform;
  const [labels, setLabels] = useState<{ catalog?: string; editor?: string }>({});
  const [interrupted, setInterrupted] = useState<PreviousUpload[]>([]);

  const refreshInterrupted = useCallback(() => void listInterruptedUploads().then(setInterrupted), []);
  const queued = items.length;
  const finished = items.filter(isFinished).length;
  // A finished upload leaves the browser's list; a new one joins it.
  useEffect(() => refreshInterrupted(), [refreshInterrupted, queued, finished]);
  // Files in the queue right now are not "unfinished from earlier".
  const earlier = interrupted.filter((u) => !items.some((i) => i.file.name === u.metadata.filename && i.file.size === u.size));

  const handleFiles = (files: File[]) => {
    const v = form.getFieldsValue();
    const p = lockedPlatform ?? v.platform ?? defaultPlatform;
    const meta: UploadMeta = {
      platform: p,
      ...(v.catalog_id != null && (p === 'dj' ? { drama_id: v.catalog_id } : { product_id: v.catalog_id })),
      ...(v.language && { language: v.language }),
      ...(v.editor_id != null && { editor_id: v.editor_id }),
      ...(v.tags?.length && { tags: v.tags }),
      ...(v.remark?.trim() && { remark: v.remark.trim() }),
      labels: { catalog: v.catalog_id != null ? labels.catalog : undefined, editor: v.editor_id != null ? labels.editor : undefined },
    };
    const before = new Set(queue.getSnapshot().map((i) => i.key));
    const keys = queue.add(files, meta);
    keys.forEach((key, i) => {
      if (before.has(key)) message.info(t('upload.alreadyQueued', { name: files[i]?.name ?? '' }));
    });
  };

  return (
    <Flex vertical gap={16} data-testid="upload-panel">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Upload.Dragger
            multiple
            accept="video/*,image/*"
            showUploadList={false}
            // antd calls this once per file with the whole drop: take the drop in one go.
            beforeUpload={(file, fileList) => {
              if (file === fileList[0]) handleFiles(fileList);
              return false;
            }}
            style={{ padding: '12px 0' }}
            data-testid="material-drop"
          >
            <p className="ant-upload-drag-icon">
              <CloudUploadOutlined />
            </p>
            <p className="ant-upload-text">{t('upload.drop')}</p>
            <p className="ant-upload-hint" style={{ paddingInline: 16 }}>
              {t('upload.hint', { max: formatBytes(MATERIAL_MAX_BYTES_DEFAULT) })}
            </p>
          </Upload.Dragger>
        </Col>
        <Col xs={24} lg={14}>
          <Form<DefaultsValues>
            form={form}
            layout="vertical"
            size="small"
            initialValues={{ platform: lockedPlatform ?? defaultPlatform, tags: [] }}
            onValuesChange={(changed: Partial<DefaultsValues>) => {
              if (changed.platform) {
                form.setFieldValue('catalog_id', null);
                setLabels((l) => ({ ...l, catalog: undefined }));
              }
            }}
            name="upload-defaults"
            aria-label={t('upload.defaults')}
          >
            <Flex align="center" gap={6} style={{ marginBottom: 8 }}>
              <Typography.Text strong>{t('upload.defaults')}</Typography.Text>
              <Tooltip title={t('upload.defaultsHelp')}>
                <InfoCircleOutlined style={{ opacity: 0.6 }} />
              </Tooltip>
            </Flex>
            <Row gutter={12}>
              {!lockedPlatform && (
                <Col xs={24} sm={12} xl={8}>
                  <Form.Item name="platform" label={t('fields.platform')}>
                    <Segmented<Platform> block options={(['dj', 'ec'] as const).map((p) => ({ value: p, label: ta(`platform.${p}`) }))} />
                  </Form.Item>
                </Col>
              )}
              <Col xs={24} sm={12} xl={8}>
                <Form.Item name="catalog_id" label={t(platform === 'dj' ? 'fields.drama' : 'fields.product')}>
                  <CatalogPicker platform={platform} enabled={canPickCatalog} onPicked={(name) => setLabels((l) => ({ ...l, catalog: name ?? undefined }))} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12} xl={8}>
                <Form.Item name="language" label={t('fields.language')}>
                  <LanguageSelect extra={facets?.languages} placeholder={t('placeholders.language')} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12} xl={8}>
                <Form.Item name="editor_id" label={t('fields.editor')}>
                  <EditorPicker placeholder={t('placeholders.editor')} onPicked={(name) => setLabels((l) => ({ ...l, editor: name ?? undefined }))} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12} xl={8}>
                <Form.Item name="tags" label={t('fields.tags')}>
                  <TagsSelect suggestions={facets?.tags} placeholder={t('placeholders.tags')} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12} xl={lockedPlatform ? 16 : 8}>
                <Form.Item name="remark" label={t('fields.remark')}>
                  <Input maxLength={500} placeholder={t('placeholders.remark')} allowClear />
                </Form.Item>
              </Col>
            </Row>
          </Form>
        </Col>
      </Row>

      {earlier.length > 0 && (
        <Alert
          type="info"
          showIcon
          data-testid="interrupted-uploads"
          title={t('upload.interrupted.title', { count: earlier.length })}
          description={
            <Flex vertical gap={4}>
              <Typography.Text type="secondary">{t('upload.interrupted.body')}</Typography.Text>
              {earlier.slice(0, 8).map((u) => (
                <Flex key={u.urlStorageKey} gap={8} align="center">
                  <Typography.Text>{u.metadata.filename ?? '?'}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[u.size !== null ? formatBytes(u.size) : null, formatDateTime(u.creationTime)].filter(Boolean).join(' · ')}
                  </Typography.Text>
                  <Button size="small" type="link" onClick={() => void forgetInterruptedUpload(u).finally(refreshInterrupted)}>
                    {t('upload.interrupted.forget')}
                  </Button>
                </Flex>
              ))}
              {earlier.length > 1 && (
                <Button size="small" style={{ alignSelf: 'flex-start' }} onClick={() => void Promise.all(earlier.map(forgetInterruptedUpload)).finally(refreshInterrupted)}>
                  {t('upload.interrupted.forgetAll')}
                </Button>
              )}
            </Flex>
          }
        />
      )}

      <UploadQueueList queue={queue} items={items} onOpenMaterial={onOpenMaterial} onSelectMaterials={onSelectMaterials} />
    </Flex>
  );
}
