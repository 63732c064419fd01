import type { SysUser } from '@ads/contracts';
import { Alert, App, Form, Modal, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RoleOption } from '@/lib/lookups/use-role-options';
import { canGrantRole, type Viewer } from '@/lib/permissions';
import { useBatchSaveUserRole } from '../api/use-batch-save-user-role';

interface Props {
  open: boolean;
  users: readonly SysUser[];
  roles: readonly RoleOption[];
  viewer: Viewer;
  onClose: () => void;
  onSaved: () => void;
}

/** How many selected names to list before "…". */
const MAX_NAMES = 20;

/** Bulk role assignment: the selected users' roles are REPLACED by the chosen ones. */
export function AssignRolesModal({ open, users, roles, viewer, onClose, onSaved }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  // The form is destroyed with the dialog, so every opening starts with no roles chosen.
  const [form] = Form.useForm<{ role_ids: number[] }>();
  const save = useBatchSaveUserRole();

  const handleFinish = async ({ role_ids }: { role_ids: number[] }) => {
    try {
      const { updated } = await save.mutateAsync({ user_ids: users.map((u) => u.id), role_ids });
      message.success(t('accounts.assign.saved', { count: updated }));
      onSaved();
    } catch {
      // The request layer has shown why; keep the dialog open to adjust.
    }
  };

  return (
    <Modal
      open={open}
      title={t('accounts.assign.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('accounts.assign.replaceWarning')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph style={{ marginBottom: 8 }}>{t('accounts.assign.selected', { count: users.length })}</Typography.Paragraph>
      <div style={{ marginBottom: 16, maxHeight: 120, overflow: 'auto' }}>
        {users.slice(0, MAX_NAMES).map((u) => (
          <Tag key={u.id} style={{ marginBottom: 4 }}>
            {u.name} ({u.account})
          </Tag>
        ))}
        {users.length > MAX_NAMES && <Typography.Text type="secondary">…</Typography.Text>}
      </div>
      <Form form={form} layout="vertical" onFinish={handleFinish} initialValues={{ role_ids: [] }} name="assign-roles">
        <Form.Item name="role_ids" label={t('accounts.assign.roles')}>
          <Select<number[]>
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('accounts.form.rolesPlaceholder')}
            options={roles.map((r) => ({ value: r.id, label: r.name, disabled: !canGrantRole(viewer, r) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
