import { endpoints, type PlatformPost } from '@ads/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import '@/locales/launch-namespace';

// A page's existing posts as the platform has them (made here or elsewhere; published,
// unpublished or scheduled), paged with the platform's cursors: 帖子管理's "on the page" tab and
// the publish wizards' post picker (shared by both features). Mount it with `key={pageId}` so
// a new page starts on its first page.

const PAGE_SIZE = 10;

export function PlatformPosts({ pageId, onPick }: { pageId: number; onPick?: (postId: string) => void }) {
  const { t } = useTranslation('launch');
  // The cursors of the pages walked so far: the last one is the page on screen (none: the first).
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const body = { page_id: pageId, limit: PAGE_SIZE, ...(after && { after }) };
  const posts = useQuery({ queryKey: ['page-posts', 'platform', body], queryFn: () => api.call(endpoints.pagePosts.platform, body), placeholderData: keepPreviousData });
  const visibility = (p: PlatformPost) =>
    p.scheduled_publish_time ? (
      <Tag color="gold">{t('post.platform.scheduledAt', { at: formatDateTime(p.scheduled_publish_time) })}</Tag>
    ) : (
      <Tag color={p.is_published ? 'green' : 'default'}>{t(`post.published.${p.is_published}`)}</Tag>
    );
  const columns = [
    { key: 'id', title: t('post.columns.postId'), width: 200, render: (_: unknown, p: PlatformPost) => <Typography.Text copyable>{p.id}</Typography.Text> },
    { key: 'kind', title: t('post.columns.kind'), width: 80, render: (_: unknown, p: PlatformPost) => (p.media_type ? t(`post.kind.${p.media_type}`) : '-') },
    { key: 'message', title: t('post.columns.message'), render: (_: unknown, p: PlatformPost) => <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>{p.message ?? '-'}</Typography.Paragraph> },
    { key: 'published', title: t('post.columns.published'), width: 170, render: (_: unknown, p: PlatformPost) => visibility(p) },
    { key: 'created', title: t('post.columns.createdAt'), width: 150, render: (_: unknown, p: PlatformPost) => (p.created_time ? formatDateTime(p.created_time) : '-') },
    { key: 'origin', title: t('post.platform.origin'), width: 110, render: (_: unknown, p: PlatformPost) => <Tag color={p.local_id ? 'blue' : 'default'}>{t(p.local_id ? 'post.platform.here' : 'post.platform.elsewhere')}</Tag> },
    ...(onPick
      ? [{ key: 'pick', title: '', width: 80, render: (_: unknown, p: PlatformPost) => <Button size="small" type="link" onClick={() => onPick(p.id)} aria-label={t('post.platform.pickOf', { id: p.id })}>{t('post.platform.pick')}</Button> }]
      : []),
  ];
  return (
    <Flex vertical gap={12}>
      {posts.isError && <Alert type="error" showIcon title={posts.error.message} />}
      <Table<PlatformPost>
        size="small"
        rowKey="id"
        loading={posts.isFetching}
        columns={columns}
        dataSource={posts.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: t('post.platform.empty') }}
        scroll={{ x: 900 }}
      />
      <Flex gap={8} align="center" justify="flex-end">
        <Typography.Text type="secondary">{t('post.platform.pageNo', { n: cursors.length + 1 })}</Typography.Text>
        <Button size="small" disabled={!cursors.length || posts.isFetching} onClick={() => setCursors((c) => c.slice(0, -1))}>
          {t('post.platform.prev')}
        </Button>
        <Button size="small" disabled={!posts.data?.after || posts.isFetching} onClick={() => setCursors((c) => [...c, posts.data!.after!])}>
          {t('post.platform.next')}
        </Button>
      </Flex>
    </Flex>
  );
}
