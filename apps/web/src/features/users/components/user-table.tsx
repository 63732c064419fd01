import { DeleteOutlined, DownOutlined, KeyOutlined, LockOutlined } from '@ant-design/icons';
import { IS_ADMIN_STAFF, IS_ADMIN_SUPER, type SysUser } from '@ads/contracts';
import { Button, Dropdown, Flex, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import { formatDateTime } from '@/lib/format';
import { canManageUser, type Viewer } from '@/lib/permissions';
import type { UsersPage } from '../api/use-users';
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
/** In the chooser, not shown by default: the rest fill a 1440 px screen without scrolling sideways. */
export const DEFAULT_HIDDEN_USER_COLUMNS: readonly string[] = ['platform', 'created_at'];

/** The columns the column chooser offers (列设置), keyed as the table's. */
export function userColumnChoices(t: TFunction<'sys'>): ListColumn<SysUser>[] {
  return (Object.keys(COLUMN_TITLES) as ColumnKey[]).map((key) => ({ key, title: t(COLUMN_TITLES[key]), locked: LOCKED_COLUMNS.has(key) }));
}

interface Props {
  list: ListView;
  result: ListResult<UsersPage>;
  viewer: Viewer;
  /** Roles giving the company's authorization assets: their holders are a wider scope than a viewer without it. */
  companyRoleIds?: ReadonlySet<number>;
  /** Column keys the user chose to hide (useColumnPrefs); locked columns stay. */
  hidden?: readonly string[];
  empty: EmptyConfig;
  selection: RowSelection<SysUser>;
  onEdit: (user: SysUser) => void;
  onToggleStatus: (user: SysUser) => void;
  onResetPassword: (user: SysUser) => void;
  onDelete: (user: SysUser) => void;
}

/** The accounts table: server-side paging and sorting, row actions the viewer may use. */
export function UserTable({ list, result, viewer, companyRoleIds, hidden = [], empty, selection, ...actions }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const dash = <Typography.Text type="secondary">{tc('dash')}</Typography.Text>;

  const columns: ListColumn<SysUser>[] = [
    {
      key: 'account',
      title: t(COLUMN_TITLES.account),
      dataIndex: 'account',
      sortable: true,
      fixed: 'left',
      locked: true,
      width: 138,
      render: (account: string, u) => (
        <Flex gap={4} align="center" wrap={false}>
          <Typography.Text ellipsis={{ tooltip: account }} style={{ maxWidth: 110 }}>
            {account}
          </Typography.Text>
          {u.id === viewer.id && <Tag color="processing">{t('accounts.you')}</Tag>}
        </Flex>
      ),
    },
    { key: 'name', title: t(COLUMN_TITLES.name), dataIndex: 'name', sortable: true, width: 100, ellipsis: true },
    {
      key: 'department',
      title: t(COLUMN_TITLES.department),
      dataIndex: 'department_name',
      width: 112,
      ellipsis: true,
      render: (name: string | null) => name ?? <Typography.Text type="secondary">{t('accounts.noDepartment')}</Typography.Text>,
    },
    {
      key: 'roles',
      title: t(COLUMN_TITLES.roles),
      dataIndex: 'roles',
      width: 132,
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
    { key: 'level', title: t(COLUMN_TITLES.level), dataIndex: 'is_admin', width: 100, render: (v: number) => <LevelTag isAdmin={v} /> },
    {
      key: 'leader',
      title: t(COLUMN_TITLES.leader),
      dataIndex: 'is_leader',
      width: 80,
      render: (v: number) => (v ? <Tag color="purple">{t('accounts.leaderYes')}</Tag> : dash),
    },
    {
      key: 'platform',
      title: t(COLUMN_TITLES.platform),
      dataIndex: 'platform',
      width: 100,
      render: (p: string) => (p === 'dj' || p === 'ec' ? t(`platforms.${p}`) : p),
    },
    { key: 'status', title: t(COLUMN_TITLES.status), dataIndex: 'status', width: 90, render: (s: SysUser['status']) => <StatusTag status={s} /> },
    {
      key: 'login_at',
      title: t(COLUMN_TITLES.login_at),
      dataIndex: 'login_at',
      sortable: true,
      width: 150,
      render: (v: string | null) => (v ? formatDateTime(v) : <Typography.Text type="secondary">{t('accounts.neverLoggedIn')}</Typography.Text>),
    },
    {
      key: 'created_at',
      title: t(COLUMN_TITLES.created_at),
      dataIndex: 'created_at',
      sortable: true,
      width: 150,
      render: (v: string) => formatDateTime(v),
    },
    {
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      locked: true,
      // Edit, Disable and More in English.
      width: 196,
      render: (_, u) => <RowActions user={u} viewer={viewer} companyRoleIds={companyRoleIds} {...actions} />,
    },
  ];
  return (
    <ListTable<SysUser, UsersPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      hidden={hidden}
      empty={empty}
      selection={{
        ...selection.tableSelection,
        label: (u) => u.account,
        disabled: (u) => !canManageUser(viewer, u, companyRoleIds) || u.id === viewer.id,
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
