import { routeByPath, type Role } from '@ads/contracts';
import { Button, Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView } from '@/components/list-kit';
import { useSettings } from '@/stores/settings-store';
import type { RolesPage } from '../api/use-roles';
import { routeTitle, toLeafPaths } from './route-paths';

interface Props {
  list: ListView;
  result: ListResult<RolesPage>;
  empty: EmptyConfig;
  onEdit: (role: Role) => void;
  onDelete: (role: Role) => void;
}

/** Roles with their page count and members; server-side paging and sorting. */
export function RoleTable({ list, result, empty, onEdit, onDelete }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const locale = useSettings((s) => s.locale);

  const columns: ListColumn<Role>[] = [
    {
      key: 'name',
      title: t('roles.columns.name'),
      dataIndex: 'name',
      sortable: true,
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
    { key: 'member_count', title: t('roles.columns.members'), dataIndex: 'member_count', sortable: true, width: 110 },
    {
      key: 'created_at',
      title: t('roles.columns.createdAt'),
      dataIndex: 'created_at',
      sortable: true,
      width: 160,
      render: (v: string) => formatDateTime(v),
    },
    {
      key: 'updated_at',
      title: t('roles.columns.updatedAt'),
      dataIndex: 'updated_at',
      sortable: true,
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

  return (
    <ListTable<Role, RolesPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      empty={empty}
    />
  );
}
