import { DownloadOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import type { SysUser } from '@ads/contracts';
import { Alert, App, Button, Card, Empty, Flex, Result } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser } from '@/components/column-chooser';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { useDepartmentTree } from '@/lib/lookups/use-department-tree';
import { useRoleOptions } from '@/lib/lookups/use-role-options';
import { useViewer } from '@/lib/permissions';
import { useColumnPrefs } from '@/lib/use-column-prefs';
import { useUrlQuery } from '@/lib/use-url-query';
import { useExportUsers } from '../api/use-export-users';
import { usersQuerySchema, useUsers, type UsersQuery } from '../api/use-users';
import { AssignRolesModal } from '../components/assign-roles-modal';
import { PasswordResultModal, type ShownPassword } from '../components/password-result-modal';
import { UserFilters, type UserFilterValues } from '../components/user-filters';
import { UserFormModal } from '../components/user-form-modal';
import { UserTable, userColumnChoices } from '../components/user-table';
import { useUserActions } from '../components/use-user-actions';

const FILTER_KEYS = ['account', 'name', 'department_id', 'role_id', 'is_admin', 'status'] as const;
/** Every column shows until the user hides it. */
const DEFAULT_HIDDEN_COLUMNS: readonly string[] = [];

/** /sys/accounts 账号管理: users with their department, roles, level and status. */
export default function AccountsPage() {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const title = useRouteTitle('/sys/accounts');
  const viewer = useViewer();
  const [query, setQuery] = useUrlQuery(usersQuerySchema);
  const users = useUsers(query);
  const departments = useDepartmentTree();
  const roles = useRoleOptions();
  const exportUsers = useExportUsers();
  const columnPrefs = useColumnPrefs('/sys/accounts', DEFAULT_HIDDEN_COLUMNS);
  const columnChoices = useMemo(() => userColumnChoices(t), [t]);

  const [formTarget, setFormTarget] = useState<'create' | SysUser | null>(null);
  const [selected, setSelected] = useState<Map<number, SysUser>>(new Map());
  const [assignOpen, setAssignOpen] = useState(false);
  // A generated password lives only here, and only until its dialog closes.
  const [shownPassword, setShownPassword] = useState<ShownPassword | null>(null);
  const actions = useUserActions({ onPassword: setShownPassword });

  const filters = useMemo(() => {
    const f: UserFilterValues = {};
    for (const k of FILTER_KEYS) if (query[k] !== undefined) Object.assign(f, { [k]: query[k] });
    return f;
  }, [query]);
  const hasFilters = Object.keys(filters).length > 0;

  // After deleting the last row of the last page, step back to a page that has rows.
  const total = users.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!users.isPlaceholderData && query.page > lastPage) setQuery({ ...query, page: lastPage }, { replace: true });
  }, [users.isPlaceholderData, query, lastPage, setQuery]);

  const handleFilters = (next: UserFilterValues) =>
    setQuery({ ...next, page: 1, page_size: query.page_size, sort_field: query.sort_field, sort_order: query.sort_order } satisfies UsersQuery);

  const handleExport = () => {
    const { page: _page, page_size: _size, ...body } = query;
    exportUsers.mutate({ body, filename: t('accounts.exportFile') });
  };

  const empty = users.isError && !users.data ? (
    <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void users.refetch()}>{tc('states.retry')}</Button>} />
  ) : hasFilters ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tc('states.noResults')} />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('accounts.empty')}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormTarget('create')}>
        {t('accounts.create')}
      </Button>
    </Empty>
  );

  const selectedUsers = [...selected.values()];
  const companyRoleIds = useMemo(() => new Set((roles.data ?? []).filter((r) => r.asset_scope === 'company').map((r) => r.id)), [roles.data]);

  return (
    <PageShell
      title={title}
      extra={
        <>
          <ColumnChooser columns={columnChoices} hidden={columnPrefs.hidden} onChange={columnPrefs.setHidden} onReset={columnPrefs.reset} />
          <Button icon={<DownloadOutlined />} loading={exportUsers.isPending} onClick={handleExport}>
            {t('accounts.export')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormTarget('create')}>
            {t('accounts.create')}
          </Button>
        </>
      }
    >
      <Card size="small">
        <UserFilters value={filters} onChange={handleFilters} departments={departments.data ?? []} roles={roles.data ?? []} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        {selected.size > 0 && (
          <Alert
            type="info"
            banner
            showIcon={false}
            title={
              <Flex align="center" gap={12} wrap>
                <span>{tc('table.selected', { count: selected.size })}</span>
                <Button size="small" type="primary" icon={<TeamOutlined />} onClick={() => setAssignOpen(true)}>
                  {t('accounts.assignRoles')}
                </Button>
                <Button size="small" type="link" onClick={() => setSelected(new Map())}>
                  {t('accounts.clearSelection')}
                </Button>
              </Flex>
            }
          />
        )}
        <UserTable
          query={query}
          data={users.data}
          loading={users.isFetching}
          viewer={viewer}
          companyRoleIds={companyRoleIds}
          hidden={columnPrefs.hidden}
          // While a new query loads over the previous page, say nothing rather than "no results".
          empty={users.isPending || users.isPlaceholderData ? <div style={{ height: 120 }} /> : empty}
          selectedIds={[...selected.keys()]}
          onSelect={(ids, rows) => setSelected((prev) => new Map(ids.map((id) => [id, rows.find((r) => r?.id === id) ?? prev.get(id)!] as const).filter(([, u]) => u)))}
          onQueryChange={setQuery}
          onEdit={setFormTarget}
          onToggleStatus={actions.confirmToggleStatus}
          onResetPassword={actions.confirmResetPassword}
          onDelete={actions.confirmDelete}
        />
      </Card>

      <UserFormModal
        target={formTarget}
        viewer={viewer}
        departments={departments.data ?? []}
        roles={roles.data ?? []}
        onClose={() => setFormTarget(null)}
        onCreated={(account, result) => {
          if (result.new_passwd) {
            setShownPassword({ title: t('accounts.passwordResult.createdTitle', { account }), account, password: result.new_passwd });
          } else {
            message.success(t('accounts.created', { account }));
          }
        }}
      />
      <AssignRolesModal
        open={assignOpen}
        users={selectedUsers}
        roles={roles.data ?? []}
        viewer={viewer}
        onClose={() => setAssignOpen(false)}
        onSaved={() => {
          setAssignOpen(false);
          setSelected(new Map());
        }}
      />
      <PasswordResultModal value={shownPassword} onClose={() => setShownPassword(null)} />
    </PageShell>
  );
}
