import { DeleteOutlined, DownOutlined, UserSwitchOutlined } from '@ant-design/icons';
import type { PersonalAccount } from '@ads/contracts';
import { Button, Dropdown, Flex, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TaskStatusTag } from '@/components/task-status-tag';
import { formatDateTime, formatRelative } from '@/lib/format';
import { ListTable, type EmptyConfig, type ListColumn, type ListResult, type ListView, type RowSelection } from '@/components/list-kit';
import { canAssignToUsers, hasPath, type Viewer } from '@/lib/permissions';
import type { PersonalAccountsPage } from '../api/use-personal-accounts';
import { ScopesCell, TokenHealth } from './token-health';

export interface PersonalAccountActions {
  onCheck: (a: PersonalAccount) => void;
  onSync: (a: PersonalAccount) => void;
  onReconnect: () => void;
  onSetOwner: (a: PersonalAccount) => void;
  onSetHosted: (a: PersonalAccount, hosted: boolean) => void;
  onDisconnect: (a: PersonalAccount) => void;
}

interface Props extends PersonalAccountActions {
  list: ListView;
  result: ListResult<PersonalAccountsPage>;
  viewer: Viewer;
  empty: EmptyConfig;
  selection?: RowSelection<PersonalAccount>;
  /** Ids whose check or sync is on its way (their buttons spin). */
  checkingId: number | null;
  syncingIds: ReadonlySet<number>;
  hostedPendingId: number | null;
}

/** The personal-account table: token health, scopes, owner, hosting, what it reaches, last sync. */
export function PersonalAccountTable({ list, result, viewer, empty, selection, checkingId, syncingIds, hostedPendingId, ...actions }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const canSeeAccounts = hasPath(viewer, '/auth/account');
  const canSeePages = hasPath(viewer, '/auth/homepage');

  const count = (n: number, label: string, to: string | null) => (
    <Flex gap={4} align="baseline">
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      {to && n > 0 ? <Link to={to}>{n}</Link> : <Typography.Text>{n}</Typography.Text>}
    </Flex>
  );

  const columns: ListColumn<PersonalAccount>[] = [
    {
      key: 'name',
      title: t('personal.columns.name'),
      dataIndex: 'name',
      sortable: true,
      fixed: 'left',
      width: 180,
      render: (name: string, a) => (
        <Flex vertical gap={2}>
          <Typography.Text strong ellipsis={{ tooltip: name }}>
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable={{ text: a.fb_user_id, tooltips: [t('common.copyId'), tc('resetPassword.copied')] }}>
            {t('personal.fbUserId', { id: a.fb_user_id })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'token_expires_at',
      title: t('personal.columns.token'),
      sortable: true,
      width: 180,
      render: (_, a) => (
        <Flex vertical gap={4} align="flex-start">
          <TokenHealth account={a} />
          {a.status === 'invalid' && (
            <Button size="small" type="link" style={{ padding: 0, height: 'auto' }} onClick={actions.onReconnect}>
              {t('personal.reconnect')}
            </Button>
          )}
        </Flex>
      ),
    },
    { key: 'scopes', title: t('personal.columns.scopes'), width: 170, render: (_, a) => <ScopesCell account={a} /> },
    {
      key: 'owner',
      title: t('personal.columns.owner'),
      width: 100,
      render: (_, a) => a.owner?.name ?? <Typography.Text type="secondary">{t('personal.noOwner')}</Typography.Text>,
    },
    {
      key: 'hosted',
      title: t('personal.columns.hosted'),
      width: 70,
      render: (_, a) => (
        <Switch
          size="small"
          checked={a.hosted}
          loading={hostedPendingId === a.id}
          onChange={(on) => actions.onSetHosted(a, on)}
          aria-label={t('personal.hostedSwitch', { name: a.name })}
        />
      ),
    },
    {
      key: 'assets',
      title: t('personal.columns.assets'),
      width: 130,
      render: (_, a) => (
        <Flex vertical gap={0}>
          {count(a.ad_account_count, t('personal.assets.adAccounts'), canSeeAccounts ? `/auth/account?personal_account_id=${a.id}` : null)}
          {count(a.page_count, t('personal.assets.pages'), canSeePages ? `/auth/homepage?personal_account_id=${a.id}` : null)}
          {count(a.pixel_count, t('personal.assets.pixels'), null)}
        </Flex>
      ),
    },
    {
      key: 'last_synced_at',
      title: t('personal.columns.lastSync'),
      sortable: true,
      width: 170,
      render: (_, a) => (
        <Flex vertical gap={2} align="flex-start">
          {a.last_synced_at ? (
            <Tooltip title={formatDateTime(a.last_synced_at)}>
              <Typography.Text>{formatRelative(a.last_synced_at)}</Typography.Text>
            </Tooltip>
          ) : (
            <Typography.Text type="secondary">{t('personal.neverSynced')}</Typography.Text>
          )}
          {a.last_sync_status && <TaskStatusTag status={a.last_sync_status} />}
          {a.last_sync_error && (
            // A sync paused by the platform's rate limit is queued with a message: a warning, not an error.
            <Typography.Text type={a.last_sync_status === 'queued' ? 'warning' : 'danger'} style={{ fontSize: 12, maxWidth: 146 }} ellipsis={{ tooltip: a.last_sync_error }}>
              {a.last_sync_error}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'actions',
      title: tc('table.actions'),
      fixed: 'right',
      width: 170,
      render: (_, a) => (
        <Flex gap={0} wrap={false} align="center">
          <Button type="link" size="small" loading={checkingId === a.id} onClick={() => actions.onCheck(a)}>
            {t('personal.checkShort')}
          </Button>
          <Button type="link" size="small" loading={syncingIds.has(a.id)} disabled={a.status === 'invalid'} onClick={() => actions.onSync(a)}>
            {t('personal.syncShort')}
          </Button>
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                ...(canAssignToUsers(viewer) ? [{ key: 'owner', icon: <UserSwitchOutlined />, label: t('personal.setOwner') }] : []),
                { key: 'disconnect', icon: <DeleteOutlined />, danger: true, label: t('personal.disconnect') },
              ],
              onClick: ({ key }) => (key === 'owner' ? actions.onSetOwner(a) : actions.onDisconnect(a)),
            }}
          >
            <Button type="link" size="small" aria-label={`${tc('actions.more')} ${a.name}`}>
              {tc('actions.more')}
              <DownOutlined style={{ fontSize: 10 }} />
            </Button>
          </Dropdown>
        </Flex>
      ),
    },
  ];

  return (
    <ListTable<PersonalAccount, PersonalAccountsPage>
      list={list}
      result={result}
      rowKey="id"
      columns={columns}
      empty={empty}
      selection={selection && { ...selection.tableSelection, label: (a) => a.name }}
    />
  );
}
