import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { SYS_USER_EXPORT_COLUMNS, type SysUser } from '@ads/contracts';
import { App, Button, Card } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, ExportButton, exportBody, SelectionBar, shownColumnKeys, useColumnPrefs, useListQuery, useRowSelection } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { useDepartmentTree } from '@/lib/lookups/use-department-tree';
import { useRoleOptions } from '@/lib/lookups/use-role-options';
import { useViewer } from '@/lib/permissions';
import { useExportUsers } from '../api/use-export-users';
import { usersQuerySchema, useUsers } from '../api/use-users';
import { AssignRolesModal } from '../components/assign-roles-modal';
import { PasswordResultModal, type ShownPassword } from '../components/password-result-modal';
import { UserFilters } from '../components/user-filters';
import { UserFormModal } from '../components/user-form-modal';
import { DEFAULT_HIDDEN_USER_COLUMNS, UserTable, userColumnChoices } from '../components/user-table';
import { useUserActions } from '../components/use-user-actions';

const FILTER_KEYS = ['account', 'name', 'department_id', 'role_id', 'is_admin', 'status'] as const;
const userId = (u: SysUser) => u.id;

/** /sys/accounts 账号管理: users with their department, roles, level and status. */
export default function AccountsPage() {
  const { t } = useTranslation('sys');
  const { message } = App.useApp();
  const title = useRouteTitle('/sys/accounts');
  const viewer = useViewer();
  const list = useListQuery(usersQuerySchema, { filterKeys: FILTER_KEYS });
  const users = useUsers(list.query);
  const departments = useDepartmentTree();
  const roles = useRoleOptions();
  const exportUsers = useExportUsers();
  const columnPrefs = useColumnPrefs('/sys/accounts', DEFAULT_HIDDEN_USER_COLUMNS);
  const columnChoices = useMemo(() => userColumnChoices(t), [t]);

  const [formTarget, setFormTarget] = useState<'create' | SysUser | null>(null);
  const selection = useRowSelection<SysUser>(userId);
  const [assignOpen, setAssignOpen] = useState(false);
  // A generated password lives only here, and only until its dialog closes.
  const [shownPassword, setShownPassword] = useState<ShownPassword | null>(null);
  const actions = useUserActions({ onPassword: setShownPassword });

  const companyRoleIds = useMemo(() => new Set((roles.data ?? []).filter((r) => r.asset_scope === 'company').map((r) => r.id)), [roles.data]);

  return (
    <PageShell
      title={title}
      extra={
        <>
          <ColumnChooser columns={columnChoices} prefs={columnPrefs} />
          <ExportButton exporter={exportUsers} body={{ ...exportBody(list.query), columns: shownColumnKeys(columnChoices, columnPrefs.hidden, SYS_USER_EXPORT_COLUMNS) }}
            filename={t('accounts.exportFile')}>
            {t('accounts.export')}
          </ExportButton>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormTarget('create')}>
            {t('accounts.create')}
          </Button>
        </>
      }
    >
      <Card size="small">
        <UserFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} departments={departments.data ?? []} roles={roles.data ?? []} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <SelectionBar count={selection.count} onClear={selection.clear}>
          <Button size="small" type="primary" icon={<TeamOutlined />} onClick={() => setAssignOpen(true)}>
            {t('accounts.assignRoles')}
          </Button>
        </SelectionBar>
        <UserTable
          list={list}
          result={users}
          viewer={viewer}
          companyRoleIds={companyRoleIds}
          hidden={columnPrefs.hidden}
          empty={{
            text: t('accounts.empty'),
            action: (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormTarget('create')}>
                {t('accounts.create')}
              </Button>
            ),
          }}
          selection={selection}
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
        users={selection.rows}
        roles={roles.data ?? []}
        viewer={viewer}
        onClose={() => setAssignOpen(false)}
        onSaved={() => {
          setAssignOpen(false);
          selection.clear();
        }}
      />
      <PasswordResultModal value={shownPassword} onClose={() => setShownPassword(null)} />
    </PageShell>
  );
}
