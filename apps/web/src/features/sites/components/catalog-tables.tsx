import { PictureOutlined } from '@ant-design/icons';
import type { Drama, Product } from '@ads/contracts';
import { Button, Flex, Image, theme, Typography } from 'antd';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { RefTags } from '@/components/ref-tags';
import { formatDateTime, formatMoney } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView } from '@/components/list-kit';
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
  list: ListView;
  result: ListResult<{ list: T[]; total: number }>;
  hidden: readonly string[];
  empty: EmptyConfig;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}

/** In the column chooser, not shown by default: the catalog sits beside the site list, ~840 px wide at 1440. */
export const DEFAULT_HIDDEN_CATALOG_COLUMNS: readonly string[] = ['created_at'];

function actionsColumn<T extends { name: string }>(tc: TFunction, onEdit: (r: T) => void, onDelete: (r: T) => void): ListColumn<T> {
  return {
    locked: true,
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

/** The columns of the drama catalog, keyed for the column chooser. */
export function dramaColumns(t: TFunction<'assets'>, tc: TFunction, onEdit: (r: Drama) => void, onDelete: (r: Drama) => void): ListColumn<Drama>[] {
  return [
    { key: 'cover', title: t('catalog.columns.cover'), width: 60, render: (_, d) => <Cover url={d.cover_url} width={36} height={48} /> },
    {
      key: 'name',
      title: t('catalog.columns.name'),
      dataIndex: 'name',
      sortable: true,
      width: 190,
      locked: true,
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
      sortable: true,
      align: 'right',
      width: 110,
    },
    { key: 'tags', title: t('catalog.columns.tags'), width: 140, render: (_, d) => <RefTags refs={tagRefs(d.tags)} /> },
    { key: 'test_status', title: t('catalog.columns.testStatus'), width: 110, render: (_, d) => <DramaStatusTag status={d.test_status} /> },
    {
      key: 'created_at',
      title: t('catalog.columns.createdAt'),
      dataIndex: 'created_at',
      sortable: true,
      width: 140,
      render: (v: string) => formatDateTime(v),
    },
    actionsColumn<Drama>(tc, onEdit, onDelete),
  ];
}

/** The drama catalog of a site. */
export function DramaTable({ list, result, hidden, empty, onEdit, onDelete }: TableCommon<Drama>) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  return <ListTable<Drama, { list: Drama[]; total: number }> list={list} result={result} rowKey="id" columns={dramaColumns(t, tc, onEdit, onDelete)} hidden={hidden} empty={empty} />;
}

/** The columns of the product catalog, keyed for the column chooser. */
export function productColumns(t: TFunction<'assets'>, tc: TFunction, onEdit: (r: Product) => void, onDelete: (r: Product) => void): ListColumn<Product>[] {
  return [
    { key: 'cover', title: t('catalog.columns.cover'), width: 60, render: (_, p) => <Cover url={p.cover_url} width={44} height={44} /> },
    {
      key: 'name',
      title: t('catalog.columns.name'),
      dataIndex: 'name',
      sortable: true,
      width: 190,
      locked: true,
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
      width: 170,
      render: (url: string) => (
        <Typography.Link href={url} target="_blank" rel="noreferrer" ellipsis style={{ maxWidth: 150 }}>
          {url}
        </Typography.Link>
      ),
    },
    {
      key: 'price',
      title: t('catalog.columns.price'),
      dataIndex: 'price',
      sortable: true,
      align: 'right',
      width: 110,
      render: (v: number, p) => formatMoney(v, p.currency),
    },
    { key: 'tags', title: t('catalog.columns.tags'), width: 130, render: (_, p) => <RefTags refs={tagRefs(p.tags)} /> },
    {
      key: 'created_at',
      title: t('catalog.columns.createdAt'),
      dataIndex: 'created_at',
      sortable: true,
      width: 140,
      render: (v: string) => formatDateTime(v),
    },
    actionsColumn<Product>(tc, onEdit, onDelete),
  ];
}

/** The product catalog of a shop site. */
export function ProductTable({ list, result, hidden, empty, onEdit, onDelete }: TableCommon<Product>) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  return <ListTable<Product, { list: Product[]; total: number }> list={list} result={result} rowKey="id" columns={productColumns(t, tc, onEdit, onDelete)} hidden={hidden} empty={empty} />;
}
