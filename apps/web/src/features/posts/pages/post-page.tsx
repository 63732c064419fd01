import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { CALLS_TO_ACTION, endpoints, POST_SCHEDULE, postKindSchema, postStatusSchema, type PagePost } from '@ads/contracts';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Flex, Form, Input, Radio, Select, Tabs, Tag, Typography } from 'antd';
import type dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FilterBar, ListTable, SelectionBar, urlBoolean, urlInt, useListQuery, useRowSelection, type ListColumn } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { api } from '@/lib/api-client';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime } from '@/lib/format';
import '@/locales/launch-namespace';
import { PlatformPosts } from '@/components/platform-posts';
import { isScheduledAhead, scheduleProblem, useScheduledPostActions } from '../components/scheduled-post-actions';

// 帖子管理 (/advertising/post): the posts made here per page with their status, material and link
// (filters and paging in the URL), scheduled ones rescheduled or cancelled one by one or in bulk,
// and a bulk form: posts from library materials (or link posts) with text, call to action and
// link, on chosen pages, published, not, or at a time.

const querySchema = z.object({
  tab: z.enum(['list', 'platform', 'create']).default('list'),
  page: urlInt.pipe(z.number().min(1)).default(1),
  page_size: urlInt.pipe(z.number().min(1).max(100)).default(20),
  page_id: urlInt.pipe(z.number().int().positive()).optional(),
  status: postStatusSchema.optional(),
  kind: postKindSchema.optional(),
  published: urlBoolean.optional(),
  keyword: z.string().max(100).optional(),
  /** One batch's posts: where "retry failed" leads, to watch each post's result. */
  batch_id: z.string().max(64).optional(),
});
const useScreenQuery = () => useListQuery(querySchema, { filterKeys: ['page_id', 'status', 'kind', 'published', 'keyword'] });
const keys = { all: ['page-posts'] as const };
const STATUS_COLOR = { pending: 'default', creating: 'processing', created: 'success', failed: 'error', cancelled: 'default' } as const;
const postKey = (p: PagePost) => p.id;

function usePages() {
  return useQuery({ queryKey: [...keys.all, 'pages'], queryFn: () => api.call(endpoints.pagePosts.pages) });
}

/** Runs a batch's failed posts again, then shows that batch so each post's result can be watched. */
function useRetryFailed(list: ReturnType<typeof useScreenQuery>) {
  const { t } = useTranslation('launch');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const retry = useMutation({ mutationFn: (batchId: string) => api.call(endpoints.pagePosts.retry_failed, { batch_id: batchId }) });
  const run = (batchId: string) =>
    confirmAction(modal, {
      title: t('post.retry.confirmTitle'),
      content: t('post.retry.confirmBody'),
      action: async () => {
        const res = await retry.mutateAsync(batchId);
        message.success(t('post.retry.queued', { count: res.items }));
        list.patch({ batch_id: batchId, page: 1 });
        await queryClient.invalidateQueries({ queryKey: keys.all });
      },
    });
  return { run, pending: retry.isPending };
}

/** A batch's counts per result (the whole batch, not one page of it); polled while posts are under way. */
function useBatchCounts(batchId: string | undefined) {
  const statuses = ['created', 'failed', 'pending', 'creating', 'cancelled'] as const;
  // Polled while the batch is on screen (not in a background tab): a retry can start any time.
  const results = useQueries({
    queries: statuses.map((status) => ({
      queryKey: [...keys.all, 'list', { batch_id: batchId, status, page: 1, page_size: 1 }],
      queryFn: () => api.call(endpoints.pagePosts.list, { batch_id: batchId!, status, page: 1, page_size: 1 }),
      enabled: Boolean(batchId),
      refetchInterval: 3000,
    })),
  });
  const n = (i: number) => results[i]?.data?.total ?? 0;
  return { created: n(0), failed: n(1), running: n(2) + n(3), cancelled: n(4), total: n(0) + n(1) + n(2) + n(3) + n(4) };
}

function PostList({ list }: { list: ReturnType<typeof useScreenQuery> }) {
  const { t } = useTranslation('launch');
  const { query } = list;
  const pages = usePages();
  const retry = useRetryFailed(list);
  const selection = useRowSelection<PagePost>(postKey);
  const acts = useScheduledPostActions(selection.drop);
  const body = {
    ...(query.batch_id && { batch_id: query.batch_id }),
    page: query.page,
    page_size: query.page_size,
    ...(query.page_id && { page_id: query.page_id }),
    ...(query.status && { status: query.status }),
    ...(query.kind && { kind: query.kind }),
    ...(query.published !== undefined && { published: query.published }),
    ...(query.keyword && { keyword: query.keyword }),
  };
  const posts = useQuery({
    queryKey: [...keys.all, 'list', body],
    queryFn: () => api.call(endpoints.pagePosts.list, body),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((p) => p.status === 'pending' || p.status === 'creating') ? 2000 : false),
  });
  const columns: ListColumn<PagePost>[] = [
    { key: 'page', title: t('post.columns.page'), width: 150, locked: true, render: (_, p) => p.page.name },
    { key: 'kind', title: t('post.columns.kind'), width: 80, render: (_, p) => t(`post.kind.${p.kind}`) },
    { key: 'material', title: t('post.columns.material'), width: 160, render: (_, p) => p.material?.name ?? '-' },
    { key: 'message', title: t('post.columns.message'), width: 240, render: (_, p) => <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>{p.message}</Typography.Paragraph> },
    { key: 'link', title: t('post.columns.link'), width: 200, render: (_, p) => (p.link ? <Typography.Text ellipsis style={{ maxWidth: 190 }}>{p.link}</Typography.Text> : '-') },
    {
      key: 'published',
      title: t('post.columns.published'),
      width: 150,
      render: (_, p) => {
        // A cancelled post keeps its time, but it never goes live.
        const waiting = p.scheduled_at !== null && !p.published && p.status !== 'cancelled';
        return (
          <Flex vertical>
            <Tag color={p.published ? 'green' : waiting ? 'gold' : 'default'} style={{ width: 'fit-content' }}>
              {waiting ? t('post.scheduled') : t(`post.published.${p.published}`)}
            </Tag>
            {p.scheduled_at && p.status !== 'cancelled' && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('post.scheduledAt', { at: formatDateTime(p.scheduled_at) })}</Typography.Text>}
          </Flex>
        );
      },
    },
    {
      key: 'status',
      title: t('post.columns.status'),
      width: 200,
      render: (_, p) => (
        <Flex vertical>
          <Tag color={STATUS_COLOR[p.status]} style={{ width: 'fit-content' }}>{t(`post.status.${p.status}`)}</Tag>
          {p.error && <Typography.Text type="danger" style={{ fontSize: 12 }}>{p.error}</Typography.Text>}
          {p.status === 'failed' && (
            <Button type="link" size="small" style={{ padding: 0, width: 'fit-content' }} disabled={retry.pending} onClick={() => retry.run(p.batch_id)}>
              {t('post.retry.action')}
            </Button>
          )}
        </Flex>
      ),
    },
    { key: 'post_id', title: t('post.columns.postId'), width: 200, render: (_, p) => (p.platform_post_id ? <Typography.Text copyable>{p.platform_post_id}</Typography.Text> : '-') },
    { key: 'created_at', title: t('post.columns.createdAt'), width: 150, render: (_, p) => <Flex vertical><span>{formatDateTime(p.created_at)}</span><Typography.Text type="secondary" style={{ fontSize: 12 }}>{p.created_by.name}</Typography.Text></Flex> },
    {
      key: 'actions',
      title: t('post.columns.actions'),
      width: 170,
      render: (_, p) =>
        isScheduledAhead(p) ? (
          <Flex gap={4} wrap>
            <Button type="link" size="small" style={{ padding: 0 }} disabled={acts.pending} onClick={() => acts.reschedule([p])}>
              {t('post.reschedule.action')}
            </Button>
            <Button type="link" size="small" danger style={{ padding: 0 }} disabled={acts.pending} onClick={() => acts.cancel([p])}>
              {t('post.cancel.action')}
            </Button>
          </Flex>
        ) : (
          '-'
        ),
    },
  ];
  const counts = useBatchCounts(query.batch_id);
  return (
    <Flex vertical gap={16}>
      {query.batch_id && (
        <Alert
          type="info"
          showIcon
          data-testid="post-batch"
          title={t('post.batch.title', { id: query.batch_id.slice(0, 8) })}
          description={t('post.batch.counts', counts) + (counts.cancelled ? t('post.batch.cancelled', { count: counts.cancelled }) : '')}
          action={
            <Flex gap={8}>
              {counts.failed > 0 && counts.running === 0 && (
                <Button size="small" type="primary" loading={retry.pending} onClick={() => retry.run(query.batch_id!)}>
                  {t('post.retry.action')}
                </Button>
              )}
              <Button size="small" onClick={() => list.patch({ batch_id: undefined, page: 1 })}>
                {t('post.batch.all')}
              </Button>
            </Flex>
          }
        />
      )}
      <FilterBar value={list.filters} onChange={list.setFilters} onReset={list.reset} applyOnChange={['page_id', 'status', 'kind', 'published']} label={t('post.filters')}>
        <Form.Item name="page_id" label={t('post.columns.page')}>
          <Select allowClear placeholder={t('all')} style={{ width: 180 }} loading={pages.isPending} options={(pages.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))} />
        </Form.Item>
        <Form.Item name="status" label={t('post.columns.status')}>
          <Select allowClear placeholder={t('all')} style={{ width: 120 }} options={postStatusSchema.options.map((s) => ({ value: s, label: t(`post.status.${s}`) }))} />
        </Form.Item>
        <Form.Item name="kind" label={t('post.columns.kind')}>
          <Select allowClear placeholder={t('all')} style={{ width: 110 }} options={postKindSchema.options.map((k) => ({ value: k, label: t(`post.kind.${k}`) }))} />
        </Form.Item>
        <Form.Item name="published" label={t('post.columns.published')}>
          <Select allowClear placeholder={t('all')} style={{ width: 120 }} options={[true, false].map((b) => ({ value: b, label: t(`post.published.${b}`) }))} />
        </Form.Item>
        <Form.Item name="keyword" label={t('post.keyword')}>
          <Input allowClear style={{ width: 180 }} />
        </Form.Item>
      </FilterBar>
      <SelectionBar count={selection.count} onClear={selection.clear}>
        <Button size="small" type="primary" disabled={acts.pending} onClick={() => acts.reschedule(selection.rows)}>
          {t('post.reschedule.bulk')}
        </Button>
        <Button size="small" danger disabled={acts.pending} onClick={() => acts.cancel(selection.rows)}>
          {t('post.cancel.bulk')}
        </Button>
      </SelectionBar>
      <ListTable<PagePost, NonNullable<typeof posts.data>>
        list={list}
        result={posts}
        columns={columns}
        rowKey="id"
        empty={{ text: t('post.empty') }}
        selection={{ ...selection.tableSelection, disabled: (p) => !isScheduledAhead(p), label: (p) => t('post.selectOne', { message: p.message.slice(0, 60) }) }}
      />
      {acts.dialogs}
    </Flex>
  );
}

/** The chosen page's posts as the platform has them (made here or elsewhere). */
function PagePosts({ list }: { list: ReturnType<typeof useScreenQuery> }) {
  const { t } = useTranslation('launch');
  const pages = usePages();
  const pageId = list.query.page_id;
  return (
    <Flex vertical gap={16}>
      <Flex gap={8} align="center">
        <Typography.Text>{t('post.platform.page')}</Typography.Text>
        <Select
          style={{ width: 260 }}
          value={pageId ?? null}
          placeholder={t('post.platform.pickPage')}
          aria-label={t('post.platform.page')}
          loading={pages.isPending}
          onChange={(v: number) => list.patch({ page_id: v })}
          options={(pages.data?.list ?? []).map((p) => ({ value: p.id, label: p.has_token ? p.name : `${p.name} ${t('post.form.noToken')}`, disabled: !p.has_token }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Flex>
      {pageId ? <PlatformPosts key={pageId} pageId={pageId} /> : <Typography.Text type="secondary">{t('post.platform.pickPage')}</Typography.Text>}
    </Flex>
  );
}

interface Draft {
  material_id?: number | null;
  message?: string;
  link?: string;
  call_to_action?: string | null;
}
interface FormValues {
  page_ids: number[];
  visibility: 'published' | 'unpublished' | 'scheduled';
  scheduled_at?: dayjs.Dayjs;
  posts: Draft[];
}

function MaterialSelect({ value, onChange, label }: { value?: number | null; onChange?: (v: number | null) => void; label: string }) {
  const { t } = useTranslation('launch');
  const [keyword, setKeyword] = useState('');
  const body = { page: 1, page_size: 20, ...(keyword && { keyword }) };
  const materials = useQuery({ queryKey: [...keys.all, 'materials', body], queryFn: () => api.call(endpoints.pagePosts.materials, body), placeholderData: keepPreviousData });
  return (
    <Select
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value ?? null}
      onChange={(v) => onChange?.(v ?? null)}
      placeholder={t('post.form.materialSearch')}
      loading={materials.isFetching}
      aria-label={label}
      style={{ width: 260 }}
      options={(materials.data?.list ?? []).map((m) => ({ value: m.id, label: `${m.file_name} (${t(`post.kind.${m.kind === 'video' ? 'video' : 'photo'}`)})` }))}
    />
  );
}

function CreatePosts({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('launch');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const pages = usePages();
  const pageIds = Form.useWatch('page_ids', form) ?? [];
  const drafts = Form.useWatch('posts', form) ?? [];
  const visibility = Form.useWatch('visibility', form);
  const count = pageIds.length * drafts.length;
  const create = useMutation({ mutationFn: (body: Parameters<typeof api.call<typeof endpoints.pagePosts.create>>[1]) => api.call(endpoints.pagePosts.create, body) });
  const submit = (v: FormValues) =>
    confirmAction(modal, {
      title: t('post.form.confirmTitle', { count: v.page_ids.length * v.posts.length }),
      content: t('post.form.confirmBody'),
      action: async () => {
        await create.mutateAsync({
          page_ids: v.page_ids,
          published: v.visibility === 'published',
          ...(v.visibility === 'scheduled' && v.scheduled_at && { scheduled_at: v.scheduled_at.second(0).millisecond(0).toISOString() }),
          posts: v.posts.map((p) => ({ material_id: p.material_id ?? null, message: p.message ?? '', link: p.link?.trim() || null, call_to_action: (p.call_to_action as 'WATCH_MORE' | null) ?? null })),
        });
        message.success(t('post.form.queued'));
        form.resetFields();
        await queryClient.invalidateQueries({ queryKey: keys.all });
        onDone();
      },
    });
  return (
    <Form<FormValues> form={form} layout="vertical" initialValues={{ page_ids: [], visibility: 'published', posts: [{ material_id: null, message: '', link: '', call_to_action: null }] }} onFinish={submit} style={{ maxWidth: 900 }}>
      <Form.Item name="page_ids" label={t('post.form.pages')} rules={[{ required: true, type: 'array', min: 1, message: t('post.form.pagesRequired') }]}>
        <Select
          mode="multiple"
          loading={pages.isPending}
          aria-label={t('post.form.pages')}
          options={(pages.data?.list ?? []).map((p) => ({ value: p.id, label: p.has_token ? p.name : `${p.name} ${t('post.form.noToken')}`, disabled: !p.has_token }))}
          optionFilterProp="label"
        />
      </Form.Item>
      <Form.Item name="visibility" label={t('post.form.published')}>
        <Radio.Group
          options={[
            { value: 'published', label: t('post.form.publishedYes') },
            { value: 'unpublished', label: t('post.form.publishedNo') },
            { value: 'scheduled', label: t('post.form.scheduled') },
          ]}
        />
      </Form.Item>
      {visibility === 'scheduled' && (
        <Form.Item
          name="scheduled_at"
          label={t('post.form.scheduledAt')}
          extra={t('post.form.scheduleHelp', { min: POST_SCHEDULE.minMinutes, max: POST_SCHEDULE.maxDays })}
          rules={[
            { required: true, message: t('post.form.scheduleRequired') },
            {
              validator: (_, v: dayjs.Dayjs | undefined) => {
                const problem = v ? scheduleProblem(v) : null;
                return problem ? Promise.reject(new Error(t(`post.form.${problem}`, { min: POST_SCHEDULE.minMinutes, max: POST_SCHEDULE.maxDays }))) : Promise.resolve();
              },
            },
          ]}
        >
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} aria-label={t('post.form.scheduledAt')} />
        </Form.Item>
      )}
      <Form.List name="posts">
        {(fields, { add, remove }) => (
          <Flex vertical gap={12}>
            {fields.map((f, i) => (
              <Card
                key={f.key}
                size="small"
                title={`${t('post.form.posts')} ${i + 1}`}
                extra={fields.length > 1 && <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label={`${t('post.form.remove')} ${i + 1}`} />}
              >
                <Flex gap={12} wrap>
                  <Form.Item name={[f.name, 'material_id']} label={t('post.form.material')}>
                    <MaterialSelect label={`${t('post.form.material')} ${i + 1}`} />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'link']}
                    label={t('post.form.link')}
                    rules={[
                      { type: 'url', message: t('post.form.linkInvalid') },
                      ({ getFieldValue }) => ({
                        validator: (_, v: string | undefined) => {
                          const post = getFieldValue(['posts', f.name]) as Draft | undefined;
                          if (!v?.trim() && !post?.material_id) return Promise.reject(new Error(t('post.form.linkRequired')));
                          if (!v?.trim() && post?.call_to_action) return Promise.reject(new Error(t('post.form.ctaNeedsLink')));
                          return Promise.resolve();
                        },
                      }),
                    ]}
                  >
                    <Input style={{ width: 300 }} placeholder="https://" aria-label={`${t('post.form.link')} ${i + 1}`} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'call_to_action']} label={t('post.form.cta')}>
                    <Select allowClear style={{ width: 180 }} options={CALLS_TO_ACTION.map((c) => ({ value: c, label: c }))} aria-label={`${t('post.form.cta')} ${i + 1}`} />
                  </Form.Item>
                </Flex>
                <Form.Item name={[f.name, 'message']} label={t('post.form.message')} rules={[{ required: true, whitespace: true, message: t('post.form.messageRequired') }]} style={{ marginBottom: 0 }}>
                  <Input.TextArea rows={2} maxLength={5000} aria-label={`${t('post.form.message')} ${i + 1}`} />
                </Form.Item>
              </Card>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ material_id: null, message: '', link: '', call_to_action: null })} disabled={fields.length >= 50} style={{ alignSelf: 'flex-start' }}>
              {t('post.form.add')}
            </Button>
          </Flex>
        )}
      </Form.List>
      <Flex gap={12} align="center" style={{ marginTop: 16 }}>
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {t('post.form.submit')}
        </Button>
        <Typography.Text type="secondary" data-testid="post-count">
          {t('post.form.count', { count, posts: drafts.length, pages: pageIds.length })}
        </Typography.Text>
      </Flex>
    </Form>
  );
}

/** /advertising/post 帖子管理. */
export default function PostPage() {
  const { t } = useTranslation('launch');
  const title = useRouteTitle('/advertising/post');
  const list = useScreenQuery();
  const tab = list.query.tab;
  return (
    <PageShell title={title}>
      <Tabs
        activeKey={tab}
        onChange={(k) => list.patch({ tab: k as 'list' })}
        items={[
          { key: 'list', label: t('post.tabs.list'), children: tab === 'list' ? <PostList list={list} /> : null },
          { key: 'platform', label: t('post.platform.tab'), children: tab === 'platform' ? <PagePosts list={list} /> : null },
          { key: 'create', label: t('post.tabs.create'), children: tab === 'create' ? <CreatePosts onDone={() => list.patch({ tab: 'list', page: 1 })} /> : null },
        ]}
      />
    </PageShell>
  );
}
