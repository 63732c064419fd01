import { PlusOutlined } from '@ant-design/icons';
import type { Role } from '@ads/contracts';
import { App, Button, Card, Empty, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageShell } from '@/components/page-shell';
import { useRouteTitle } from '@/components/use-route-title';
import { confirmAction } from '@/lib/confirm';
import { useViewer } from '@/lib/permissions';
import { useUrlQuery } from '@/lib/use-url-query';
import { useDeleteRole } from '../api/use-delete-role';
import { rolesQuerySchema, useRoles } from '../api/use-roles';
import { RoleFilters } from '../components/role-filters';
import { RoleFormDrawer } from '../components/role-form-drawer';
import { RoleTable } from '../components/role-table';

/** /sys/role 角色管理: roles and the pages each grants. */
export default function RolePage() {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const title = useRouteTitle('/sys/role');
  const viewer = useViewer();
  const [query, setQuery] = useUrlQuery(rolesQuerySchema);
  const roles = useRoles(query);
  const deleteRole = useDeleteRole();
  const [target, setTarget] = useState<'create' | Role | null>(null);

  // After deleting the last row of the last page, step back to a page that has rows.
  const total = roles.data?.total;
  const lastPage = total === undefined ? query.page : Math.max(1, Math.ceil(total / query.page_size));
  useEffect(() => {
    if (!roles.isPlaceholderData && query.page > lastPage) setQuery({ ...query, page: lastPage }, { replace: true });
  }, [roles.isPlaceholderData, query, lastPage, setQuery]);

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

  const empty = roles.isError && !roles.data ? (
    <Result status="warning" title={tc('states.loadFailed')} extra={<Button onClick={() => void roles.refetch()}>{tc('states.retry')}</Button>} />
  ) : roles.isPending || roles.isPlaceholderData ? (
    <div style={{ height: 120 }} />
  ) : query.name ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tc('states.noResults')} />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('roles.empty')}>
      {createButton}
    </Empty>
  );

  return (
    <PageShell title={title} extra={createButton}>
      <Card size="small">
        <RoleFilters value={{ name: query.name }} onChange={(next) => setQuery({ ...query, ...next, name: next.name, page: 1 })} />
      </Card>
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <RoleTable
          query={query}
          data={roles.data}
          loading={roles.isFetching}
          empty={empty}
          onQueryChange={setQuery}
          onEdit={setTarget}
          onDelete={handleDelete}
        />
      </Card>
      <RoleFormDrawer target={target} viewer={viewer} onClose={() => setTarget(null)} />
    </PageShell>
  );
}
