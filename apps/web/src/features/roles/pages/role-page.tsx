import { PlusOutlined } from '@ant-design/icons';
import type { Role } from '@ads/contracts';
import { App, Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListQuery } from '@/components/list-kit';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { useViewer } from '@/lib/permissions';
import { useDeleteRole } from '../api/use-delete-role';
import { rolesQuerySchema, useRoles } from '../api/use-roles';
import { RoleFilters } from '../components/role-filters';
import { RoleFormDrawer } from '../components/role-form-drawer';
import { RoleTable } from '../components/role-table';

const FILTER_KEYS = ['name'] as const;

/** /sys/role 角色管理: roles and the pages each grants. */
export default function RolePage() {
  const { t } = useTranslation('sys');
  const { modal, message } = App.useApp();
  const title = useRouteTitle('/sys/role');
  const viewer = useViewer();
  const list = useListQuery(rolesQuerySchema, { filterKeys: FILTER_KEYS });
  const roles = useRoles(list.query);
  const deleteRole = useDeleteRole();
  const [target, setTarget] = useState<'create' | Role | null>(null);

  const handleDelete = (role: Role) =>
    confirmAction(modal, {
      title: t('roles.confirmDelete.title', { name: role.name }),
      content: role.member_count > 0 ? t('roles.confirmDelete.members', { count: role.member_count }) : t('roles.confirmDelete.noMembers'),
      okText: t('roles.confirmDelete.ok'),
      danger: true,
      action: async () => {
        await deleteRole.mutateAsync(role.id);
        message.success(t('roles.deleted'));
      },
    });

  const createButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('create')}>
      {t('roles.create')}
    </Button>
  );

  return (
    <PageShell title={title} extra={createButton}>
      <Card size="small">
        <RoleFilters value={list.filters} onChange={list.setFilters} onReset={list.reset} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <RoleTable
          list={list}
          result={roles}
          empty={{ text: t('roles.empty'), action: createButton }}
          onEdit={setTarget}
          onDelete={handleDelete}
        />
      </Card>
      <RoleFormDrawer target={target} viewer={viewer} onClose={() => setTarget(null)} />
    </PageShell>
  );
}
