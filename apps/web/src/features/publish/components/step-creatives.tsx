import { DeleteOutlined, PictureOutlined, PlusOutlined, VideoCameraAddOutlined } from '@ant-design/icons';
import { combinationCount, endpoints, PUBLISH_LIMITS, type PublishMaterial } from '@ads/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, AutoComplete, Button, Card, Flex, Form, Input, Modal, Radio, Select, Statistic, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { PlatformPosts } from '@/components/platform-posts';
import { usePublishAccounts, usePublishMaterials } from '../api/use-publish-lookups';
import { countable, type WizardValues } from './draft';
import { MaterialPicker } from './material-picker';
import { formatSeconds, materialSrc, Thumb } from './thumb';
import { useWizard } from './wizard-context';

const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'ja', 'ko', 'zh', 'th', 'vi', 'id', 'ar', 'ru', 'tr'];

type Creatives = WizardValues['creatives'];

/** Names and thumbnails of picked materials the wizard has not seen yet (a loaded template or past scheme). */
function useResolveMaterials(ids: number[]) {
  const { platform, materials, rememberMaterials } = useWizard();
  const missing = ids.filter((id) => !materials.has(id)).slice(0, PUBLISH_LIMITS.videos + PUBLISH_LIMITS.images);
  const q = usePublishMaterials({ platform, ids: missing, page: 1, page_size: Math.max(1, missing.length) }, { enabled: missing.length > 0 });
  useEffect(() => {
    if (q.data) rememberMaterials(q.data.list);
  }, [q.data, rememberMaterials]);
}

/** The live count of step 2: how many ads the combination makes, and how it got there. */
export function CombinationCount({ creatives }: { creatives: Creatives | undefined }) {
  const { t } = useTranslation('publish');
  if (!creatives) return null;
  const texts = creatives.texts.primary_texts.filter((s) => s?.trim()).length;
  const media = creatives.videos.length + creatives.images.length;
  const count = combinationCount(countable(creatives));
  const how =
    creatives.source === 'posts'
      ? t('creatives.count.posts', { count: creatives.posts.length })
      : creatives.combination === 'cartesian'
        ? t('creatives.count.cartesian', { media, texts: Math.max(1, texts) })
        : creatives.combination === 'per_video'
          ? t('creatives.count.perVideo', { media, texts })
          : t('creatives.count.dynamic', { media, texts });
  return (
    <Flex gap={16} align="center" wrap data-testid="ad-count">
      <Statistic title={t('creatives.count.title')} value={count} />
      <Typography.Text type="secondary" style={{ maxWidth: 520 }}>
        {how}
      </Typography.Text>
    </Flex>
  );
}

/** The picked videos (each with its cover) or images, in a small table with remove buttons. */
function MediaList({ kind }: { kind: 'video' | 'image' }) {
  const { t } = useTranslation('publish');
  const form = Form.useFormInstance<WizardValues>();
  const { platform, title, materials, rememberMaterials } = useWizard();
  const [picking, setPicking] = useState(false);
  const videos: WizardValues['creatives']['videos'] = Form.useWatch(['creatives', 'videos'], { form, preserve: true }) ?? [];
  const images: number[] = Form.useWatch(['creatives', 'images'], { form, preserve: true }) ?? [];
  const ids = kind === 'video' ? videos.map((v) => v.material_id) : images;
  const max = kind === 'video' ? PUBLISH_LIMITS.videos : PUBLISH_LIMITS.images;
  // Covers: images of the same drama/product.
  const coverQuery = usePublishMaterials(
    { platform, kind: 'image', page: 1, page_size: 100, ...(title ? (platform === 'dj' ? { drama_id: title.id } : { product_id: title.id }) : {}) },
    { enabled: kind === 'video' && videos.length > 0 },
  );
  useEffect(() => {
    if (coverQuery.data) rememberMaterials(coverQuery.data.list);
  }, [coverQuery.data, rememberMaterials]);
  const coverOptions = useMemo(
    () => [
      { value: 0, label: t('creatives.ownThumbnail') },
      ...(coverQuery.data?.list ?? []).map((m) => ({
        value: m.id,
        label: (
          <Flex gap={6} align="center">
            <Thumb src={materialSrc(m)} kind="image" size={20} />
            <span>{m.file_name}</span>
          </Flex>
        ),
        search: m.file_name,
      })),
    ],
    [coverQuery.data, t],
  );

  const handlePicked = (picked: number[]) => {
    if (kind === 'video') {
      const kept = new Map(videos.map((v) => [v.material_id, v]));
      form.setFieldValue(['creatives', 'videos'], picked.map((id) => kept.get(id) ?? { material_id: id, cover_material_id: null }));
    } else form.setFieldValue(['creatives', 'images'], picked);
    void form.validateFields([['creatives', 'videos']]).catch(() => undefined);
    setPicking(false);
  };
  const remove = (id: number) => {
    if (kind === 'video') form.setFieldValue(['creatives', 'videos'], videos.filter((v) => v.material_id !== id));
    else form.setFieldValue(['creatives', 'images'], images.filter((x) => x !== id));
  };

  const rows = ids.map((id) => ({ id, material: materials.get(id) as PublishMaterial | undefined }));
  return (
    <Card
      size="small"
      title={t(`creatives.${kind}s.title`, { count: ids.length })}
      extra={
        <Button size="small" icon={kind === 'video' ? <VideoCameraAddOutlined /> : <PictureOutlined />} onClick={() => setPicking(true)}>
          {t(`creatives.${kind}s.pick`)}
        </Button>
      }
    >
      {rows.length === 0 ? (
        <Typography.Text type="secondary">{t(`creatives.${kind}s.none`)}</Typography.Text>
      ) : (
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={rows}
          scroll={{ x: 560 }}
          columns={[
            {
              key: 'material',
              title: t('creatives.columns.material'),
              render: (_, r) => (
                <Flex gap={8} align="center">
                  <Thumb src={materialSrc(r.material)} kind={kind} size={40} />
                  <Flex vertical>
                    <Typography.Text>{r.material?.file_name ?? `#${r.id}`}</Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {[r.material?.duration_s != null ? formatSeconds(r.material.duration_s) : null, r.material?.editor?.name, r.material?.language].filter(Boolean).join(' · ')}
                    </Typography.Text>
                  </Flex>
                </Flex>
              ),
            },
            ...(kind === 'video'
              ? [
                  {
                    key: 'cover',
                    title: t('creatives.columns.cover'),
                    width: 240,
                    render: (_: unknown, r: { id: number }) => {
                      const index = videos.findIndex((v) => v.material_id === r.id);
                      return (
                        <Form.Item name={['creatives', 'videos', index, 'cover_material_id']} noStyle getValueProps={(v: number | null) => ({ value: v ?? 0 })} normalize={(v: number) => (v ? v : null)}>
                          <Select
                            size="small"
                            style={{ width: 220 }}
                            options={coverOptions}
                            showSearch={{ filterOption: (input, o) => String((o as { search?: string })?.search ?? '').toLowerCase().includes(input.toLowerCase()) }}
                            aria-label={t('creatives.coverOf', { name: materials.get(r.id)?.file_name ?? `#${r.id}` })}
                          />
                        </Form.Item>
                      );
                    },
                  },
                ]
              : []),
            {
              key: 'remove',
              width: 56,
              render: (_, r) => (
                <Button
                  type="text"
                  size="small"
                  icon={<DeleteOutlined />}
                  aria-label={t('creatives.remove', { name: r.material?.file_name ?? `#${r.id}` })}
                  onClick={() => remove(r.id)}
                />
              ),
            },
          ]}
        />
      )}
      {picking && <MaterialPicker kind={kind} open picked={ids} max={max} onClose={() => setPicking(false)} onOk={handlePicked} />}
    </Card>
  );
}

/** A list of text slots (primary texts, headlines or descriptions) with add and remove. */
function TextList({ field, max, min, multiline }: { field: 'primary_texts' | 'headlines' | 'descriptions'; max: number; min: number; multiline?: boolean }) {
  const { t } = useTranslation('publish');
  const combination = Form.useWatch(['creatives', 'combination'], { preserve: true }) as string | undefined;
  const limit = combination === 'dynamic' ? PUBLISH_LIMITS.dynamicTexts : PUBLISH_LIMITS.texts;
  return (
    <Form.List
      name={['creatives', 'texts', field]}
      rules={[
        {
          validator: async (_, list?: string[]) => {
            const n = (list ?? []).length;
            if (n < min) throw new Error(t('creatives.texts.required'));
            if (n > limit) throw new Error(combination === 'dynamic' ? t('creatives.texts.dynamicMax', { max: limit }) : t('creatives.texts.max', { max: limit }));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={multiline ? 24 : 8}>
          {fields.map((f, i) => (
            <Flex key={f.key} gap={8} align="flex-start">
              <Form.Item
                name={f.name}
                style={{ flex: 1, marginBottom: 0 }}
                rules={[
                  { required: true, whitespace: true, message: t('creatives.texts.empty') },
                  { max, message: t('creatives.texts.tooLong', { max }) },
                ]}
              >
                {multiline ? (
                  <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={max} showCount aria-label={t(`creatives.texts.${field}Item`, { n: i + 1 })} />
                ) : (
                  <Input maxLength={max} aria-label={t(`creatives.texts.${field}Item`, { n: i + 1 })} />
                )}
              </Form.Item>
              <Button
                type="text"
                icon={<DeleteOutlined />}
                disabled={fields.length <= min}
                aria-label={t('creatives.texts.removeItem', { n: i + 1 })}
                onClick={() => remove(f.name)}
              />
            </Flex>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= limit} onClick={() => add('')} style={{ alignSelf: 'flex-start' }}>
            {t(`creatives.texts.add.${field}`)}
          </Button>
          <Form.ErrorList errors={errors} />
        </Flex>
      )}
    </Form.List>
  );
}

/**
 * A post id: typed, picked from the posts made under 帖子管理 on the row's page (created ones,
 * published or not, newest first), or browsed among every post the page has on the platform.
 */
function PostIdField({ index, label, value, onChange }: { index: number; label: string; value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation('publish');
  const pageId = Form.useWatch<number | undefined>(['creatives', 'posts', index, 'page_id']);
  const [browsing, setBrowsing] = useState(false);
  const body = { page: 1, page_size: 50, status: 'created' as const, ...(pageId && { page_id: pageId }) };
  const posts = useQuery({ queryKey: ['page-posts', 'list', body], queryFn: () => api.call(endpoints.pagePosts.list, body), enabled: Boolean(pageId) });
  const options = (posts.data?.list ?? [])
    .filter((p) => p.platform_post_id)
    .map((p) => ({ value: p.platform_post_id!, label: `${p.platform_post_id} · ${p.material?.name ?? p.link ?? ''} · ${p.message.slice(0, 40)}` }));
  return (
    <Flex gap={8}>
      <AutoComplete value={value} onChange={onChange} options={options} placeholder="1234567890_9876543210" aria-label={label} style={{ flex: 1 }} />
      <Button disabled={!pageId} onClick={() => setBrowsing(true)} aria-label={t('creatives.posts.browseOf', { n: index + 1 })}>
        {t('creatives.posts.browse')}
      </Button>
      <Modal open={browsing} title={t('creatives.posts.browseTitle')} footer={null} width={1000} onCancel={() => setBrowsing(false)} destroyOnHidden>
        {pageId && (
          <PlatformPosts
            key={pageId}
            pageId={pageId}
            onPick={(id) => {
              onChange?.(id);
              setBrowsing(false);
            }}
          />
        )}
      </Modal>
    </Flex>
  );
}

/** Existing page posts as creatives: the page and the post id (`<page id>_<post id>`). */
function PostList() {
  const { t } = useTranslation('publish');
  const { platform } = useWizard();
  const accounts = usePublishAccounts(platform);
  const pages = useMemo(() => {
    const seen = new Map<number, { value: number; label: string }>();
    for (const a of accounts.data?.list ?? []) for (const p of a.pages) seen.set(p.id, { value: p.id, label: `${p.name} (${p.platform_id})` });
    return [...seen.values()];
  }, [accounts.data]);
  return (
    <Form.List
      name={['creatives', 'posts']}
      rules={[
        {
          validator: async (_, list?: unknown[]) => {
            if (!list?.length) throw new Error(t('creatives.posts.required'));
            if (list.length > PUBLISH_LIMITS.posts) throw new Error(t('creatives.posts.max', { max: PUBLISH_LIMITS.posts }));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={8}>
          {fields.map((f, i) => (
            <Flex key={f.key} gap={8} align="flex-start" wrap>
              <Form.Item name={[f.name, 'page_id']} rules={[{ required: true, message: t('creatives.posts.pageRequired') }]} style={{ marginBottom: 0, width: 280 }}>
                <Select options={pages} placeholder={t('creatives.posts.page')} aria-label={t('creatives.posts.pageOf', { n: i + 1 })} showSearch={{ optionFilterProp: 'label' }} loading={accounts.isPending} />
              </Form.Item>
              <Form.Item
                name={[f.name, 'post_id']}
                rules={[
                  { required: true, whitespace: true, message: t('creatives.posts.idRequired') },
                  { pattern: /^\s*\d+_\d+\s*$/, message: t('creatives.posts.idFormat') },
                ]}
                style={{ marginBottom: 0, flex: '1 1 260px' }}
              >
                <PostIdField index={f.name} label={t('creatives.posts.idOf', { n: i + 1 })} />
              </Form.Item>
              <Button type="text" icon={<DeleteOutlined />} aria-label={t('creatives.texts.removeItem', { n: i + 1 })} onClick={() => remove(f.name)} />
            </Flex>
          ))}
          <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} disabled={fields.length >= PUBLISH_LIMITS.posts} style={{ alignSelf: 'flex-start' }}>
            {t('creatives.posts.add')}
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('creatives.posts.help')}
          </Typography.Text>
          <Form.ErrorList errors={errors} />
        </Flex>
      )}
    </Form.List>
  );
}

/** Step 2: materials (videos with covers, images) and texts with a combination mode, or existing page posts; the ad count live. */
export function StepCreatives() {
  const { t } = useTranslation('publish');
  const form = Form.useFormInstance<WizardValues>();
  const creatives = Form.useWatch('creatives', { form, preserve: true }) as Creatives | undefined;
  const source = creatives?.source ?? 'materials';
  const combination = creatives?.combination ?? 'cartesian';
  const media = (creatives?.videos.length ?? 0) + (creatives?.images.length ?? 0);
  useResolveMaterials([...(creatives?.videos ?? []).flatMap((v) => [v.material_id, ...(v.cover_material_id ? [v.cover_material_id] : [])]), ...(creatives?.images ?? [])]);

  return (
    <Flex vertical gap={16}>
      <Form.Item name={['creatives', 'source']} label={t('creatives.source.label')} style={{ marginBottom: 0 }}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'materials', label: t('creatives.source.materials') },
            { value: 'posts', label: t('creatives.source.posts') },
          ]}
        />
      </Form.Item>
      {source === 'materials' ? (
        <>
          <Flex gap={16} wrap align="flex-start">
            <div style={{ flex: '1 1 520px', minWidth: 0 }}>
              <MediaList kind="video" />
            </div>
            <div style={{ flex: '1 1 360px', minWidth: 0 }}>
              <MediaList kind="image" />
            </div>
          </Flex>
          <Form.Item
            name={['creatives', 'videos']}
            style={{ marginBottom: 0 }}
            rules={[
              {
                validator: async (_, videos?: unknown[]) => {
                  const images = (form.getFieldValue(['creatives', 'images']) as number[] | undefined) ?? [];
                  const n = (videos?.length ?? 0) + images.length;
                  if (n === 0) throw new Error(t('creatives.mediaRequired'));
                  if (form.getFieldValue(['creatives', 'combination']) === 'dynamic' && n > PUBLISH_LIMITS.dynamicVideos) throw new Error(t('creatives.dynamicMediaMax', { max: PUBLISH_LIMITS.dynamicVideos }));
                },
              },
            ]}
          >
            <MediaError />
          </Form.Item>
          <Card size="small" title={t('creatives.texts.title')}>
            <Flex gap={24} wrap>
              <div style={{ flex: '2 1 420px', minWidth: 0 }}>
                <Typography.Text strong>{t('creatives.texts.primary')}</Typography.Text>
                <div style={{ marginTop: 8 }}>
                  <TextList field="primary_texts" min={1} max={PUBLISH_LIMITS.textMax} multiline />
                </div>
              </div>
              <Flex vertical gap={16} style={{ flex: '1 1 300px', minWidth: 0 }}>
                <div>
                  <Typography.Text strong>{t('creatives.texts.headlines')}</Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    <TextList field="headlines" min={0} max={PUBLISH_LIMITS.headlineMax} />
                  </div>
                </div>
                <div>
                  <Typography.Text strong>{t('creatives.texts.descriptions')}</Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    <TextList field="descriptions" min={0} max={PUBLISH_LIMITS.descriptionMax} />
                  </div>
                </div>
                <Form.Item name={['creatives', 'texts', 'language']} label={t('creatives.texts.language')} style={{ marginBottom: 0 }}>
                  <Select allowClear style={{ width: 200 }} options={LANGUAGES.map((l) => ({ value: l, label: l }))} placeholder={t('creatives.texts.languageHint')} />
                </Form.Item>
              </Flex>
            </Flex>
          </Card>
          <Card size="small" title={t('creatives.combination.title')}>
            <Flex vertical gap={12}>
              <Form.Item name={['creatives', 'combination']} style={{ marginBottom: 0 }}>
                <Radio.Group
                  onChange={() => void form.validateFields([['creatives', 'videos'], ['creatives', 'texts', 'primary_texts']]).catch(() => undefined)}
                  options={(['cartesian', 'per_video', 'dynamic'] as const).map((m) => ({
                    value: m,
                    label: (
                      <span>
                        <Typography.Text strong>{t(`creatives.combination.${m}`)}</Typography.Text>
                        <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                          {t(`creatives.combination.${m}Help`)}
                        </Typography.Text>
                      </span>
                    ),
                  }))}
                  style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
                />
              </Form.Item>
              {combination === 'dynamic' && media > PUBLISH_LIMITS.dynamicVideos && <Alert type="error" showIcon title={t('creatives.dynamicMediaMax', { max: PUBLISH_LIMITS.dynamicVideos })} />}
              <CombinationCount creatives={creatives} />
            </Flex>
          </Card>
        </>
      ) : (
        <Card size="small" title={t('creatives.posts.title')}>
          <Flex vertical gap={12}>
            <PostList />
            <CombinationCount creatives={creatives} />
          </Flex>
        </Card>
      )}
    </Flex>
  );
}

/** Holds the media rule's message (the lists themselves are shown by MediaList). */
function MediaError(_props: { value?: unknown }) {
  return null;
}
