import { ACCOUNT_MAX, ACCOUNT_MIN, ACCOUNT_PATTERN, IS_ADMIN_MANAGER, IS_ADMIN_STAFF, NAME_MAX, REMARK_MAX, type CreateUserBody, type DepartmentNode, type EditUserBody, type Platform, type SysUser } from '@ads/contracts';
import { App, Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { trimmedLength } from '@/lib/form-rules';
import { DepartmentTreeSelect } from '@/components/department-tree-select';
import { applyFieldErrors } from '@/lib/form-errors';
import { md5Hex } from '@/lib/md5';
import type { RoleOption } from '@/lib/lookups/use-role-options';
import { canGrantRole, isManager, managedDepartmentIds, type Viewer } from '@/lib/permissions';
import { useCreateUser, type CreateUserResult } from '../api/use-create-user';
import { useEditUser } from '../api/use-edit-user';

interface FormValues {
  account: string;
  name: string;
  password?: string;
  is_admin: 0 | 1;
  is_leader: boolean;
  platform: Platform;
  department_id?: number | null;
  role_ids: number[];
  remark?: string;
}

/** Initial passwords: a product rule, the API only sees the MD5. */
const PASSWORD_MIN = 6;
const PASSWORD_MAX = 64;

interface Props {
  /** null: closed; 'create' or the user being edited. */
  target: 'create' | SysUser | null;
  viewer: Viewer;
  departments: readonly DepartmentNode[];
  roles: readonly RoleOption[];
  onClose: () => void;
  /** After creating: the new account and, when the server generated it, its password. */
  onCreated: (account: string, result: CreateUserResult) => void;
}

/** Create or edit an account; the initial password leaves the browser only as its MD5 hex. */
export function UserFormModal({ target, viewer, departments, roles, onClose, onCreated }: Props) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const createUser = useCreateUser();
  const editUser = useEditUser();
  const editing = target !== null && target !== 'create' ? target : null;
  const isSelf = editing?.id === viewer.id;
  const manager = isManager(viewer);
  const managed = useMemo(() => managedDepartmentIds(viewer, departments), [viewer, departments]);
  const isSelectable = useMemo(() => (managed ? (id: number) => managed.has(id) : undefined), [managed]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        account: editing.account,
        name: editing.name,
        is_admin: editing.is_admin === IS_ADMIN_MANAGER ? 1 : 0,
        is_leader: editing.is_leader === 1,
        platform: editing.platform === 'ec' ? 'ec' : 'dj',
        department_id: editing.department_id,
        role_ids: editing.roles.map((r) => r.id),
        remark: editing.remark,
      });
    }
  }, [form, target, editing]);

  const handleFinish = async (v: FormValues) => {
    const common = {
      account: v.account.trim(),
      name: v.name.trim(),
      remark: v.remark?.trim() ?? '',
      is_admin: v.is_admin,
      is_leader: v.is_leader ? 1 : 0,
      platform: v.platform,
      role_ids: v.role_ids,
    } as const;
    try {
      if (editing) {
        const body: EditUserBody = { id: editing.id, ...common, department_id: v.department_id ?? null };
        // Your own level cannot change (the server refuses); leave it out rather than resend it.
        if (isSelf) delete body.is_admin;
        await editUser.mutateAsync(body);
        message.success(t('accounts.saved'));
        onClose();
      } else {
        const body: CreateUserBody = {
          ...common,
          ...(v.department_id != null && { department_id: v.department_id }),
          ...(v.password && { pwd: md5Hex(v.password) }),
        };
        const result = await createUser.mutateAsync(body);
        onClose();
        onCreated(body.account, result);
      }
    } catch (err) {
      applyFieldErrors(form, err, { pwd: 'password' });
    }
  };

  return (
    <Modal
      open={target !== null}
      title={editing ? t('accounts.form.editTitle', { account: editing.account }) : t('accounts.form.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={createUser.isPending || editUser.isPending}
      width={620}
      // Kept mounted so the form instance stays connected; fields are reset on every open.
      forceRender
    >
      <Form<FormValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '110px' }}
        onFinish={handleFinish}
        initialValues={{ is_admin: IS_ADMIN_STAFF, is_leader: false, platform: 'dj', role_ids: [] }}
        style={{ marginTop: 16 }}
        name="user-form"
        autoComplete="off"
      >
        <Form.Item
          name="account"
          label={t('accounts.form.account')}
          extra={t('accounts.form.accountHelp')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('accounts.form.accountRequired') },
            trimmedLength(ACCOUNT_MIN, ACCOUNT_MAX, t('accounts.form.accountLength')),
            { validator: async (_, v?: string) => { if (v?.trim() && !ACCOUNT_PATTERN.test(v.trim())) throw new Error(t('accounts.form.accountChars')); } },
          ]}
        >
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('accounts.form.name')}
          validateFirst
          rules={[{ required: true, whitespace: true, message: t('accounts.form.nameRequired') }, trimmedLength(1, NAME_MAX, t('accounts.form.nameLength'))]}
        >
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        {!editing && (
          <Form.Item
            name="password"
            label={t('accounts.form.password')}
            extra={t('accounts.form.passwordHelp')}
            validateFirst
            rules={[
              { min: PASSWORD_MIN, max: PASSWORD_MAX, message: t('accounts.form.passwordLength') },
              { validator: async (_, v?: string) => { if (v && v.trim() !== v) throw new Error(t('accounts.form.passwordSpaces')); } },
            ]}
          >
            <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX} />
          </Form.Item>
        )}
        <Form.Item
          name="is_admin"
          label={t('accounts.form.level')}
          extra={isSelf ? t('accounts.form.levelSelfLocked') : manager ? t('accounts.form.levelHelp') : t('accounts.form.levelManagerOnly')}
        >
          <Radio.Group
            disabled={isSelf || !manager}
            options={[
              { value: IS_ADMIN_STAFF, label: t('levels.staff') },
              { value: IS_ADMIN_MANAGER, label: t('levels.manager') },
            ]}
          />
        </Form.Item>
        <Form.Item name="department_id" label={t('accounts.form.department')} rules={manager ? [] : [{ required: true, message: t('accounts.form.departmentRequired') }]}>
          <DepartmentTreeSelect tree={departments} isSelectable={isSelectable} placeholder={t('accounts.form.departmentPlaceholder')} />
        </Form.Item>
        <Form.Item name="is_leader" label={t('accounts.form.leader')} extra={manager ? t('accounts.form.leaderHelp') : t('scopeRules.leaderManagerOnly')} valuePropName="checked">
          {/* Leadership widens a data scope: only managers grant it (the server refuses others). */}
          <Switch disabled={!manager} />
        </Form.Item>
        <Form.Item name="platform" label={t('accounts.form.platform')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'dj', label: t('platforms.dj') },
              { value: 'ec', label: t('platforms.ec') },
            ]}
          />
        </Form.Item>
        <Form.Item name="role_ids" label={t('accounts.form.roles')}>
          <Select<number[]>
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('accounts.form.rolesPlaceholder')}
            // Roles granting pages (or a company asset scope) the viewer lacks cannot be added (the server refuses), only kept.
            options={roles.map((r) => ({ value: r.id, label: r.name, disabled: !canGrantRole(viewer, r) && !editing?.roles.some((own) => own.id === r.id) }))}
          />
        </Form.Item>
        <Form.Item name="remark" label={t('accounts.form.remark')} rules={[trimmedLength(0, REMARK_MAX, t('accounts.form.remarkLength'))]}>
          <Input.TextArea rows={2} showCount maxLength={REMARK_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
