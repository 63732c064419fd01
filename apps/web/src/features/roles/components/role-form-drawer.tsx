import { NAME_MAX, REMARK_MAX, type AssetScope, type Role } from '@ads/contracts';
import { App, Button, Drawer, Flex, Form, Input, Switch } from 'antd';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { trimmedLength } from '@/lib/form-rules';
import { applyFieldErrors } from '@/lib/form-errors';
import { canGrantPaths, isManager, type Viewer } from '@/lib/permissions';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useCreateRole } from '../api/use-create-role';
import { useEditRole } from '../api/use-edit-role';
import { PathTree } from './path-tree';
import { toLeafPaths, toStoredPaths } from './route-paths';

interface FormValues {
  name: string;
  remark?: string;
  /** The checked pages; saved with their groups (toStoredPaths). */
  paths: string[];
  asset_scope: AssetScope;
}


interface Props {
  /** null: closed; 'create' or the role being edited. */
  target: 'create' | Role | null;
  viewer: Viewer;
  onClose: () => void;
}

/** Create or edit a role: name, remark, the pages it grants (saved with their groups) and its authorization asset scope. */
export function RoleFormDrawer({ target, viewer, onClose }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const createRole = useCreateRole();
  const editRole = useEditRole();
  const editing = target !== null && target !== 'create' ? target : null;
  const canGrant = useCallback((path: string) => canGrantPaths(viewer, [path]), [viewer]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (editing) form.setFieldsValue({ name: editing.name, remark: editing.remark, paths: toLeafPaths(editing.paths), asset_scope: editing.asset_scope });
  }, [form, target, editing]);

  const handleFinish = async (v: FormValues) => {
    const body = { name: v.name.trim(), remark: v.remark?.trim() ?? '', paths: toStoredPaths(v.paths), asset_scope: v.asset_scope };
    try {
      if (editing) {
        await editRole.mutateAsync({ id: editing.id, ...body });
        message.success(t('roles.saved'));
      } else {
        await createRole.mutateAsync(body);
        message.success(t('roles.created'));
      }
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  const focusReturn = useDrawerFocusReturn(target !== null);
  return (
    <Drawer
      open={target !== null}
      title={editing ? t('roles.form.editTitle', { name: editing.name }) : t('roles.form.createTitle')}
      size={640}
      onClose={onClose}
      // Kept mounted so the form instance stays connected; fields are reset on every open.
      forceRender
      {...focusReturn}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{tc('actions.cancel')}</Button>
          <Button type="primary" loading={createRole.isPending || editRole.isPending} onClick={() => form.submit()}>
            {tc('actions.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues> form={form} layout="vertical" onFinish={handleFinish} initialValues={{ paths: [], asset_scope: 'own' }} name="role-form" autoComplete="off">
        <Form.Item
          name="name"
          label={t('roles.form.name')}
          validateFirst
          rules={[{ required: true, whitespace: true, message: t('roles.form.nameRequired') }, trimmedLength(0, NAME_MAX, t('roles.form.nameLength'))]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="remark" label={t('roles.form.remark')} rules={[trimmedLength(0, REMARK_MAX, t('roles.form.remarkLength'))]}>
          <Input.TextArea rows={2} showCount maxLength={REMARK_MAX} />
        </Form.Item>
        <Form.Item name="paths" label={t('roles.form.paths')} extra={t('roles.form.pathsHelp')}>
          <PathTree canGrant={canGrant} />
        </Form.Item>
        <Form.Item
          name="asset_scope"
          label={t('scopeRules.assetScope')}
          extra={isManager(viewer) ? t('scopeRules.assetScopeHelp') : `${t('scopeRules.assetScopeHelp')} ${t('scopeRules.assetScopeManagerOnly')}`}
          valuePropName="checked"
          getValueProps={(v: AssetScope) => ({ checked: v === 'company' })}
          normalize={(checked: boolean): AssetScope => (checked ? 'company' : 'own')}
        >
          <Switch disabled={!isManager(viewer)} checkedChildren={t('scopeRules.assetScopeCompany')} unCheckedChildren={t('scopeRules.assetScopeOwn')} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
