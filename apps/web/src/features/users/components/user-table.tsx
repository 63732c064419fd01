import { DeleteOutlined, DownOutlined, KeyOutlined, LockOutlined } from '@ant-design/icons';
import { IS_ADMIN_STAFF, IS_ADMIN_SUPER, type SysUser } from '@ads/contracts';
import { Button, Dropdown, Flex, Table, Tag, Tooltip, Typography, type TableColumnsType, type TableProps } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChoosableColumn } from '@/components/column-chooser';
import { formatDateTime } from '@/lib/format';
import { columnSortOrder, listPagination, nextListState, tableScrollX } from '@/lib/list-table';
import { canManageUser, type Viewer } from '@/lib/permissions';
import type { UsersPage, UsersQuery } from '../api/use-users';
import { LevelTag, StatusTag } from './user-tags';

/** Role tags shown before "+N". */
const MAX_ROLE_TAGS = 3;

/** The columns of the table by key, with their titles (keys of `sys`), in table order. */
const COLUMN_TITLES = {
  account: 'accounts.columns.account',
  name: 'accounts.columns.name',
  department: 'accounts.columns.department',
  roles: 'accounts.columns.roles',
  level: 'accounts.columns.level',
  leader: 'accounts.columns.leader',
  platform: 'accounts.columns.platform',
  status: 'accounts.columns.status',
  login_at: 'accounts.columns.loginAt',
  created_at: 'accounts.columns.createdAt',
} as const;
type ColumnKey = keyof typeof COLUMN_TITLES;

/** Always shown: the account names the row, the actions act on it. */
const LOCKED_COLUMNS: ReadonlySet<string> = new Set(['account', 'actions']);

/** The columns the column chooser offers (列设置), keyed as the table's. */
export function userColumnChoices(t: TFunction<'sys'>): ChoosableColumn[] {
  return (Object.keys(COLUMN_TITLES) as ColumnKey[]).map((key) => ({ key, title: t(COLUMN_TITLES[key]), locked: LOCKED_COLUMNS.has(key) }));
}

interface Props {
  query: UsersQuery;
  data: UsersPage | undefined;
  loading: boolean;
  viewer: Viewer;
  /** Roles giving the company's authorization assets: their holders are a wider scope than a viewer without it. */
  companyRoleIds?: ReadonlySet<number>;
  /** Column keys the user chose to hide (useColumnPrefs); locked columns stay. */
  hidden?: readonly string[];
  empty: ReactNode;
  selectedIds: number[];
  onSelect: (ids: number[], rows: SysUser[]) => void;
  onQueryChange: (next: UsersQuery) => void;
  onEdit: (user: SysUser) => void;
  onToggleStatus: (user: SysUser) => void;
  onResetPassword: (user: SysUser) => void;
  onDelete: (user: SysUser) => void;
}

/** The accounts table: server-side paging and sorting, row actions the viewer may use. */
export function UserTable({ query, data, loading, viewer, companyRoleIds, hidden = [], empty, selectedIds, onSelect, onQueryChange, ...actions }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const dash = <Typography.Text type="secondary">{tc('dash')}</Typography.Text>;

  const hiddenSet = new Set(hidden);
  const allColumns: TableColumnsType<SysUser> = [
    {
      key: 'account',
      title: t(COLUMN_TITLES.account),
      dataIndex: 'account',
      sorter: true,
      sortOrder: columnSortOrder(query, 'account'),
      fixed: 'left',
      width: 150,
      render: (account: string, u) => (
        <Flex gap={4} align="center" wrap={false}>
          <Typography.Text ellipsis={{ tooltip: account }} style={{ maxWidth: 110 }}>
            {account}
          </Typography.Text>
          {u.id === viewer.id && <Tag color="processing">{t('accounts.you')}</Tag>}
        </Flex>
      ),
    },
    { key: 'name', title: t(COLUMN_TITLES.name), dataIndex: 'name', sorter: true, sortOrder: columnSortOrder(query, 'name'), width: 120, ellipsis: true },
    {
      key: 'department',
      title: t(COLUMN_TITLES.department),
      dataIndex: 'department_name',
      width: 120,
      ellipsis: true,
      render: (name: string | null) => name ?? <Typography.Text type="secondary">{t('accounts.noDepartment')}</Typography.Text>,
    },
    {
      key: 'roles',
      title: t(COLUMN_TITLES.roles),
      dataIndex: 'roles',
      width: 180,
      render: (roles: SysUser['roles']) => {
        if (!roles.length) return <Typography.Text type="secondary">{t('accounts.noRoles')}</Typography.Text>;
        const rest = roles.slice(MAX_ROLE_TAGS);
        return (
          <Flex gap={4} wrap>
            {roles.slice(0, MAX_ROLE_TAGS).map((r) => (
              <Tag key={r.id} style={{ marginInlineEnd: 0 }}>
                {r.name}
              </Tag>
            ))}
            {rest.length > 0 && (
              <Tooltip title={rest.map((r) => r.name).join('、')}>
                <Tag style={{ marginInlineEnd: 0 }}>+{rest.length}</Tag>
              </Tooltip>
            )}
          </Flex>
        );
      },
    },
    { key: 'level', title: t(COLUMN_TITLES.level), dataIndex: 'is_admin', width: 110, render: (v: number) => <LevelTag isAdmin={v} /> },
    {
      key: 'leader',
      title: t(COLUMN_TITLES.leader),
      dataIndex: 'is_leader',
      width: 90,
      render: (v: number) => (v ? <Tag color="purple">{t('accounts.leaderYes')}</Tag> : dash),
    },
    {
      key: 'platform',
      title: t(COLUMN_TITLES.platform),
      dataIndex: 'platform',
      width: 100,
      render: (p: string) => (p === 'dj' || p === 'ec' ? t(`platforms.${p}`) : p),
    },
    { key: 'status', title: t(COLUMN_TITLES.status), dataIndex: 'status', width: 100, render: (s: SysUser['status']) => <StatusTag status={s} /> },
    {
      key: 'login_at',
      title: t(COLUMN_TITLES.login_at),
      dataIndex: 'login_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'login_at'),
      width: 150,
      render: (v: string | null) => (v ? formatDateTime(v) : <Typography.Text type="secondary">{t('accounts.neverLoggedIn')}</Typography.Text>),
    },
    {
      key: 'created_at',
      title: t(COLUMN_TITLES.created_at),
      dataIndex: 'created_at',
      sorter: true,
      sortOrder: columnSortOrder(query, 'created_at'),
      width: 150,
      render: (v: string) => formatDateTime(v),
    },
    {
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 190,
      render: (_, u) => <RowActions user={u} viewer={viewer} companyRoleIds={companyRoleIds} {...actions} />,
    },
  ];
  const columns = allColumns.filter((c) => LOCKED_COLUMNS.has(String(c.key)) || !hiddenSet.has(String(c.key)));
  const width = tableScrollX(columns);

  const handleChange: TableProps<SysUser>['onChange'] = (pagination, _filters, sorter) => onQueryChange(nextListState(query, pagination, sorter));

  return (
    <Table<SysUser>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={data?.list}
      loading={loading}
      pagination={listPagination(query, data?.total)}
      onChange={handleChange}
      scroll={{ x: width }}
      locale={{ emptyText: empty }}
      rowSelection={{
        selectedRowKeys: selectedIds,
        preserveSelectedRowKeys: true,
        onChange: (keys, rows) => onSelect(keys as number[], rows),
        getCheckboxProps: (u) => ({ disabled: !canManageUser(viewer, u, companyRoleIds) || u.id === viewer.id, 'aria-label': u.account }),
      }}
    />
  );
}

function RowActions({
  user,
  viewer,
  companyRoleIds,
  onEdit,
  onToggleStatus,
  onResetPassword,
  onDelete,
}: { user: SysUser; viewer: Viewer } & Pick<Props, 'companyRoleIds' | 'onEdit' | 'onToggleStatus' | 'onResetPassword' | 'onDelete'>) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  if (!canManageUser(viewer, user, companyRoleIds)) {
    const why =
      user.is_admin === IS_ADMIN_SUPER
        ? t('accounts.superAdminLocked')
        : user.is_admin === IS_ADMIN_STAFF && canManageUser(viewer, { ...user, is_leader: 0, roles: [] })
          ? t('scopeRules.cannotManageWider')
          : t('accounts.cannotManage');
    return (
      <Tooltip title={why}>
        <Typography.Text type="secondary" aria-label={why}>
          <LockOutlined />
        </Typography.Text>
      </Tooltip>
    );
  }
  const isSelf = user.id === viewer.id;
  const disabling = user.status === 'enabled';
  return (
    <Flex gap={0} wrap={false} align="center">
      <Button type="link" size="small" onClick={() => onEdit(user)}>
        {tc('actions.edit')}
      </Button>
      <Tooltip title={isSelf && disabling ? t('accounts.cannotDisableSelf') : undefined}>
        <Button type="link" size="small" disabled={isSelf && disabling} onClick={() => onToggleStatus(user)}>
          {disabling ? tc('actions.disable') : tc('actions.enable')}
        </Button>
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'reset', icon: <KeyOutlined />, label: t('accounts.resetPassword') },
            {
              key: 'delete',
              icon: <DeleteOutlined />,
              danger: true,
              disabled: isSelf,
              label: isSelf ? <Tooltip title={t('accounts.cannotDeleteSelf')}>{tc('actions.delete')}</Tooltip> : tc('actions.delete'),
            },
          ],
          onClick: ({ key }) => (key === 'reset' ? onResetPassword(user) : onDelete(user)),
        }}
      >
        <Button type="link" size="small" aria-label={`${tc('actions.more')} ${user.account}`}>
          {tc('actions.more')}
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
    </Flex>
  );
}
