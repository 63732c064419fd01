import { PictureOutlined } from '@ant-design/icons';
import type { Drama, Product } from '@ads/contracts';
import { Button, Flex, Image, Table, theme, Typography, type TableColumnsType, type TableProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RefTags } from '@/components/ref-tags';
import { formatDateTime, formatMoney } from '@/lib/format';
import { columnSortOrder, listPagination, nextListState } from '@/lib/list-table';
import type { SitesScreenQuery } from './catalog-query';
import { DramaStatusTag } from './drama-status-tag';

/** A cover thumbnail (portrait for dramas, square for products) that opens large on click. */
function Cover({ url, width, height }: { url: string | null; width: number; height: number }) {
  const { token } = theme.useToken();
  // A cover that does not load (moved, offline) shows the same placeholder as none.
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url)
    return (
      <Flex align="center" justify="center" style={{ width, height, borderRadius: 4, background: token.colorFillTertiary, color: token.colorTextQuaternary }}>
        <PictureOutlined />
      </Flex>
    );
  return <Image src={url} width={width} height={height} style={{ objectFit: 'cover', borderRadius: 4 }} alt="" onError={() => setFailed(url)} />;
}

const tagRefs = (tags: readonly string[]) => tags.map((name, i) => ({ id: i, name }));

interface TableCommon<T> {
  query: SitesScreenQuery;
  data: { list: T[]; total: number } | undefined;
  loading: boolean;
  empty: ReactNode;
  onQueryChange: (next: SitesScreenQuery) => void;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}

function actionsColumn<T extends { name: string }>(tc: (k: 'table.actions' | 'actions.edit' | 'actions.delete') => string, onEdit: (r: T) => void, onDelete: (r: T) => void) {
  return {
    key: 'actions',
    title: tc('table.actions'),
    fixed: 'right' as const,
    width: 120,
    render: (_: unknown, r: T) => (
      <Flex gap={0}>
        <Button type="link" size="small" onClick={() => onEdit(r)} aria-label={`${tc('actions.edit')} ${r.name}`}>
          {tc('actions.edit')}
        </Button>
        <Button type="link" size="small" danger onClick={() => onDelete(r)} aria-label={`${tc('actions.delete')} ${r.name}`}>
          {tc('actions.delete')}
        </Button>
      </Flex>
    ),
  };
}

/** The drama catalog of a site. */
export function DramaTable({ query, data, loading, empty, onQueryChange, onEdit, onDelete }: TableCommon<Drama>) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const columns: TableColumnsType<Drama> = [
    { key: 'cover', title: t('catalog.columns.cover'), width: 70, render: (_, d) => <Cover url={d.cover_url} width={36} height={48} /> },
    {
      key: 'name',
      title: t('catalog.columns.name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: columnSortOrder(query, 'name'),
      width: 220,
      render: (name: string, d) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('catalog.externalId', { id: d.external_id })}
          </Typography.Text>
        </Flex>
      ),
    },
    { key: 'language', title: t('catalog.columns.language'), dataIndex: 'language', width: 90 },
    {
      key: 'episode_count',
      title: t('catalog.columns.episodes'),
      dataIndex: 'episode_count',
      sorter: true,
      sortOrder: columnSortOrder(query, 'episode_count'),
      align: 'right',
      width: 110,
    },
    { key: 'tags', title: t('catalog.columns.tags'), width: 200, render: (_, d) => <RefTags refs={tagRefs(d.tags)} /> },
    { key: 'test_status', title: t('catalog.columns.testStatus'), width: 100, render: (_, d) => <DramaStatusTag status={d.test_status} /> },
    {
      key: 'created_at',
      title: t('catalog.columns.createdAt'),
      dataIndex: 'created_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'created_at'),
      width: 140,
      render: (v: string) => formatDateTime(v),
    },
    actionsColumn<Drama>(tc, onEdit, onDelete),
  ];
  const handleChange: TableProps<Drama>['onChange'] = (pagination, _f, sorter) => onQueryChange(nextListState(query, pagination, sorter));
  return (
    <Table<Drama>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.list}
      loading={loading}
      pagination={listPagination(query, data?.total)}
      onChange={handleChange}
      scroll={{ x: 1030 }}
      locale={{ emptyText: empty }}
    />
  );
}

/** The product catalog of a shop site. */
export function ProductTable({ query, data, loading, empty, onQueryChange, onEdit, onDelete }: TableCommon<Product>) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const columns: TableColumnsType<Product> = [
    { key: 'cover', title: t('catalog.columns.cover'), width: 70, render: (_, p) => <Cover url={p.cover_url} width={44} height={44} /> },
    {
      key: 'name',
      title: t('catalog.columns.name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: columnSortOrder(query, 'name'),
      width: 220,
      render: (name: string, p) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('catalog.externalId', { id: p.external_id })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'url',
      title: t('catalog.columns.url'),
      dataIndex: 'url',
      width: 220,
      render: (url: string) => (
        <Typography.Link href={url} target="_blank" rel="noreferrer" ellipsis style={{ maxWidth: 200 }}>
          {url}
        </Typography.Link>
      ),
    },
    {
      key: 'price',
      title: t('catalog.columns.price'),
      dataIndex: 'price',
      sorter: true,
      sortOrder: columnSortOrder(query, 'price'),
      align: 'right',
      width: 130,
      render: (v: number, p) => formatMoney(v, p.currency),
    },
    { key: 'tags', title: t('catalog.columns.tags'), width: 180, render: (_, p) => <RefTags refs={tagRefs(p.tags)} /> },
    {
      key: 'created_at',
      title: t('catalog.columns.createdAt'),
      dataIndex: 'created_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'created_at'),
      width: 140,
      render: (v: string) => formatDateTime(v),
    },
    actionsColumn<Product>(tc, onEdit, onDelete),
  ];
  const handleChange: TableProps<Product>['onChange'] = (pagination, _f, sorter) => onQueryChange(nextListState(query, pagination, sorter));
  return (
    <Table<Product>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.list}
      loading={loading}
      pagination={listPagination(query, data?.total)}
      onChange={handleChange}
      scroll={{ x: 1080 }}
      locale={{ emptyText: empty }}
    />
  );
}
