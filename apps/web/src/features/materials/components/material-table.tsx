import type { Material } from '@ads/contracts';
import { Button, Flex, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PlatformTag } from '@/components/platform-tag';
import { formatDateTime } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import type { MaterialsPage } from '../api/use-materials';
import { formatBytes, formatDuration, formatResolution, languageName } from './media-format';
import { MaterialThumb } from './material-thumb';
import { PushSummary } from './push-state';

/** Hidden until chosen in the column chooser. */
export const DEFAULT_HIDDEN_COLUMNS = ['md5', 'department', 'remark'] as const;

const dash = (v: ReactNode, tc: TFunction) => (v === null || v === undefined || v === '' ? <Typography.Text type="secondary">{tc('dash')}</Typography.Text> : v);

/** Every column of the list view, keyed for the column chooser and the server's sort fields. */
export function materialColumns({ t, tc }: { t: TFunction<'materials'>; tc: TFunction }): ListColumn<Material>[] {
  const num = { fontVariantNumeric: 'tabular-nums' } as const;
  return [
    {
      key: 'file_name',
      title: t('fields.fileName'),
      sortable: true,
      fixed: 'left',
      locked: true,
      width: 300,
      render: (_, m) => (
        <Flex gap={10} align="center">
          <MaterialThumb material={m} width={48} height={60} />
          <Flex vertical gap={2} style={{ minWidth: 0 }}>
            <Typography.Text strong ellipsis={{ tooltip: m.file_name }}>
              {m.file_name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
              {[m.drama?.name ?? m.product?.name, t(`kind.${m.kind}`)].filter(Boolean).join(' · ')}
            </Typography.Text>
          </Flex>
        </Flex>
      ),
    },
    { key: 'platform', title: t('fields.platform'), width: 90, render: (_, m) => <PlatformTag platform={m.platform} /> },
    { key: 'language', title: t('fields.language'), width: 120, render: (_, m) => dash(languageName(m.language), tc) },
    { key: 'editor', title: t('fields.editor'), width: 110, render: (_, m) => dash(m.editor?.name, tc) },
    {
      key: 'tags',
      title: t('fields.tags'),
      width: 160,
      render: (_, m) => (m.tags.length ? <Typography.Text ellipsis={{ tooltip: m.tags.join('、') }}>{m.tags.map((x) => `#${x}`).join(' ')}</Typography.Text> : dash(null, tc)),
    },
    {
      key: 'duration_s',
      title: t('fields.duration'),
      align: 'right',
      sortable: true,
      width: 100,
      render: (_, m) => <span style={num}>{dash(formatDuration(m.duration_s), tc)}</span>,
    },
    { key: 'resolution', title: t('fields.resolution'), width: 110, render: (_, m) => <span style={num}>{dash(formatResolution(m.width, m.height), tc)}</span> },
    {
      key: 'size_bytes',
      title: t('fields.size'),
      align: 'right',
      sortable: true,
      width: 100,
      render: (_, m) => <span style={num}>{formatBytes(m.size_bytes)}</span>,
    },
    { key: 'push', title: t('fields.push'), width: 200, render: (_, m) => <PushSummary counts={m.push_counts} /> },
    {
      key: 'ads_using',
      title: t('fields.adsUsing'),
      align: 'right',
      width: 110,
      render: (_, m) => <span style={num}>{m.ads_using}</span>,
    },
    { key: 'uploader', title: t('fields.uploader'), width: 110, render: (_, m) => m.uploader.name },
    { key: 'department', title: t('fields.department'), width: 120, render: (_, m) => dash(m.department?.name, tc) },
    {
      key: 'md5',
      title: t('fields.md5'),
      width: 140,
      render: (_, m) => (
        <Typography.Text code copyable={{ text: m.md5, tooltips: [t('detail.copyMd5'), t('detail.copied')] }} style={{ fontSize: 12 }}>
          {m.md5.slice(0, 8)}
        </Typography.Text>
      ),
    },
    { key: 'remark', title: t('fields.remark'), width: 160, ellipsis: true, render: (_, m) => dash(m.remark, tc) },
    {
      key: 'created_at',
      title: t('fields.createdAt'),
      sortable: true,
      width: 150,
      render: (_, m) => formatDateTime(m.created_at),
    },
  ];
}

interface Props {
  list: ListView;
  result: ListResult<MaterialsPage>;
  hidden: readonly string[];
  empty: EmptyConfig;
  selection: RowSelection<Material>;
  onOpen: (m: Material) => void;
  onPush: (m: Material) => void;
  onDelete: (m: Material) => void;
}

/** The library as a table: server paging and sort, the chosen columns, row actions. */
export function MaterialTable({ list, result, hidden, empty, selection, onOpen, onPush, onDelete }: Props) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const columns: ListColumn<Material>[] = [
    ...materialColumns({ t, tc }),
    {
      key: 'actions',
      title: tc('table.actions'),
      locked: true,
      fixed: 'right',
      width: 180,
      render: (_, m) => (
        <Flex gap={0}>
          <Button type="link" size="small" onClick={() => onOpen(m)} aria-label={`${t('actions.detail')} ${m.file_name}`}>
            {t('actions.detail')}
          </Button>
          <Button type="link" size="small" onClick={() => onPush(m)} aria-label={`${t('actions.push')} ${m.file_name}`}>
            {t('actions.pushShort')}
          </Button>
          <Tooltip title={m.ads_using > 0 ? t('card.inUse', { count: m.ads_using }) : undefined}>
            <Button type="link" size="small" danger disabled={m.ads_using > 0} onClick={() => onDelete(m)} aria-label={`${tc('actions.delete')} ${m.file_name}`}>
              {tc('actions.delete')}
            </Button>
          </Tooltip>
        </Flex>
      ),
    },
  ];
  return (
    <ListTable<Material, MaterialsPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      hidden={hidden}
      empty={empty}
      selection={{ ...selection.tableSelection, label: (m) => m.file_name }}
    />
  );
}
