import type { AdAccount, AssignMode } from '@ads/contracts';
import { App, Form, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AssignModeField } from '@/components/assign-mode-field';
import { UsersPicker } from '@/components/users-picker';
import { assignableDepartmentId, type Viewer } from '@/lib/permissions';
import { useAssignUsers } from '../api/use-assign-users';
import { SelectedNames } from './selected-names';

interface FormValues {
  mode: AssignMode;
  user_ids: number[];
}

interface Props {
  /** The accounts to change; null: closed. */
  accounts: readonly AdAccount[] | null;
  viewer: Viewer;
  onClose: () => void;
  onSaved: () => void;
}

/** Bulk assignment of ad accounts to users: add, replace or remove, the mode spelled out. */
export function AssignUsersModal({ accounts, viewer, onClose, onSaved }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const assign = useAssignUsers();
  const mode = Form.useWatch('mode', form) ?? 'add';
  const count = accounts?.length ?? 0;

  useEffect(() => {
    if (accounts) form.resetFields();
  }, [form, accounts]);

  const handleFinish = async (v: FormValues) => {
    if (!accounts) return;
    try {
      const { updated } = await assign.mutateAsync({ ad_account_ids: accounts.map((a) => a.id), user_ids: v.user_ids, mode: v.mode });
      message.success(t('adAccounts.assign.saved', { count: updated }));
      onSaved();
    } catch {
      // The request layer has shown why; keep the dialog open.
    }
  };

  return (
    <Modal
      open={accounts !== null}
      title={t('adAccounts.assign.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      okButtonProps={{ danger: mode !== 'add' }}
      confirmLoading={assign.isPending}
      width={620}
      forceRender
    >
      <Typography.Paragraph style={{ margin: '12px 0 8px' }}>{t('adAccounts.assign.selected', { count })}</Typography.Paragraph>
      <SelectedNames names={accounts?.map((a) => a.name) ?? []} />
      <Form<FormValues> form={form} layout="vertical" onFinish={handleFinish} initialValues={{ mode: 'add', user_ids: [] }} name="assign-users">
        <Form.Item name="mode" label={t('adAccounts.assign.mode')}>
          <AssignModeField what={t('adAccounts.assign.what')} target={t('adAccounts.assign.target', { count })} />
        </Form.Item>
        <Form.Item
          name="user_ids"
          label={t('adAccounts.assign.users')}
          dependencies={['mode']}
          extra={mode === 'replace' ? t('adAccounts.assign.replaceEmptyHelp') : undefined}
          rules={[
            {
              validator: async (_, v?: number[]) => {
                if (form.getFieldValue('mode') !== 'replace' && !v?.length) throw new Error(t('adAccounts.assign.usersRequired'));
              },
            },
          ]}
        >
          <UsersPicker placeholder={t('adAccounts.assign.usersPlaceholder')} departmentId={assignableDepartmentId(viewer)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
