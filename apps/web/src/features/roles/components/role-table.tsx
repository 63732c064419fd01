import { routeByPath, type Role } from '@ads/contracts';
import { Button, Flex, Table, Tag, Tooltip, Typography, type TableColumnsType, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { columnSortOrder, listPagination, nextListState } from '@/lib/list-table';
import { useSettings } from '@/stores/settings-store';
import type { RolesPage, RolesQuery } from '../api/use-roles';
import { routeTitle, toLeafPaths } from './route-paths';

interface Props {
  query: RolesQuery;
  data: RolesPage | undefined;
  loading: boolean;
  empty: ReactNode;
  onQueryChange: (next: RolesQuery) => void;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}

/** Roles with their page count and members; server-side paging and sorting. */
export function RoleTable({ query, data, loading, empty, onQueryChange, onEdit, onDelete }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const locale = useSettings((s) => s.locale);

  const columns: TableColumnsType<Role> = [
    {
      key: 'name',
      title: t('roles.columns.name'),
      dataIndex: 'name',
      sorter: true,
      sortOrder: columnSortOrder(query, 'name'),
      width: 220,
      ellipsis: true,
      render: (name: string, role) => (
        <Flex gap={6} align="center" wrap={false}>
          <span>{name}</span>
          {role.asset_scope === 'company' && <Tag color="gold">{t('scopeRules.companyTag')}</Tag>}
        </Flex>
      ),
    },
    {
      key: 'remark',
      title: t('roles.columns.remark'),
      dataIndex: 'remark',
      ellipsis: { showTitle: true },
      render: (v: string) => v || <Typography.Text type="secondary">{tc('dash')}</Typography.Text>,
    },
    {
      key: 'paths',
      title: t('roles.columns.paths'),
      dataIndex: 'paths',
      width: 140,
      render: (paths: string[]) => {
        const leaves = toLeafPaths(paths);
        if (!leaves.length) return <Typography.Text type="secondary">{t('roles.noPaths')}</Typography.Text>;
        const titles = leaves.map((p) => {
          const r = routeByPath.get(p);
          return r ? routeTitle(r, locale) : p;
        });
        return (
          <Tooltip title={titles.join('、')}>
            <Tag color="blue">{t('roles.pathCount', { count: leaves.length })}</Tag>
          </Tooltip>
        );
      },
    },
    { key: 'member_count', title: t('roles.columns.members'), dataIndex: 'member_count', sorter: true, sortOrder: columnSortOrder(query, 'member_count'), width: 110 },
    {
      key: 'created_at',
      title: t('roles.columns.createdAt'),
      dataIndex: 'created_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'created_at'),
      width: 160,
      render: (v: string) => formatDateTime(v),
    },
    {
      key: 'updated_at',
      title: t('roles.columns.updatedAt'),
      dataIndex: 'updated_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'updated_at'),
      width: 160,
      render: (v: string) => formatDateTime(v),
    },
    {
      key: 'actions',
      title: tc('table.actions'),
      width: 140,
      fixed: 'right',
      render: (_, role) =>
        // The server says whether the viewer may change it (what it grants, and who holds it).
        role.editable ? (
          <Flex wrap={false}>
            <Button type="link" size="small" onClick={() => onEdit(role)}>
              {tc('actions.edit')}
            </Button>
            <Button type="link" size="small" danger onClick={() => onDelete(role)}>
              {tc('actions.delete')}
            </Button>
          </Flex>
        ) : (
          <Tooltip title={t('scopeRules.roleNotEditable')}>
            <Typography.Text type="secondary">{tc('dash')}</Typography.Text>
          </Tooltip>
        ),
    },
  ];

  const handleChange: TableProps<Role>['onChange'] = (pagination, _filters, sorter) => onQueryChange(nextListState(query, pagination, sorter));

  return (
    <Table<Role>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.list}
      loading={loading}
      pagination={listPagination(query, data?.total)}
      onChange={handleChange}
      scroll={{ x: 1000 }}
      locale={{ emptyText: empty }}
    />
  );
}
