import type { PersonalAccount } from '@ads/contracts';
import { Alert, App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { UserPicker } from '@/components/user-picker';
import { applyFieldErrors } from '@/lib/form-errors';
import { assignableDepartmentId, canAssignToUsers, type Viewer } from '@/lib/permissions';
import { useConnectToken } from '../api/use-connect-token';

interface FormValues {
  access_token: string;
  owner_user_id?: number | null;
}

/** The bounds of connectTokenBodySchema, on trimmed text. */
export const TOKEN_MIN = 20;
export const TOKEN_MAX = 1000;

interface Props {
  open: boolean;
  viewer: Viewer;
  onClose: () => void;
  onConnected?: (account: PersonalAccount) => void;
}

/** Connect by pasting a user or system-user access token; the server checks it before keeping it. */
export function ConnectTokenModal({ open, viewer, onClose, onConnected }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const connect = useConnectToken();
  const canChooseOwner = canAssignToUsers(viewer);

  useEffect(() => {
    if (open) form.resetFields();
  }, [form, open]);

  const handleFinish = async (v: FormValues) => {
    try {
      const account = await connect.mutateAsync({
        access_token: v.access_token.trim(),
        ...(canChooseOwner && v.owner_user_id != null && { owner_user_id: v.owner_user_id }),
      });
      message.success(t('personal.connectToken.done', { name: account.name }));
      onConnected?.(account);
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  return (
    <Modal
      open={open}
      title={t('personal.connectToken.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('personal.connectToken.ok')}
      cancelText={tc('actions.cancel')}
      confirmLoading={connect.isPending}
      width={600}
      forceRender
    >
      <Alert type="info" showIcon title={t('personal.connectToken.help')} style={{ margin: '12px 0 16px' }} />
      <Form<FormValues> form={form} layout="vertical" onFinish={handleFinish} name="connect-token" autoComplete="off">
        <Form.Item
          name="access_token"
          label={t('personal.connectToken.token')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('personal.connectToken.required') },
            {
              validator: async (_, v?: string) => {
                const s = (v ?? '').trim();
                if (/\s/.test(s)) throw new Error(t('personal.connectToken.spaces'));
                if (s.length < TOKEN_MIN || s.length > TOKEN_MAX) throw new Error(t('personal.connectToken.length', { min: TOKEN_MIN, max: TOKEN_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea rows={4} placeholder={t('personal.connectToken.placeholder')} spellCheck={false} style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        {canChooseOwner && (
          <Form.Item name="owner_user_id" label={t('personal.connectToken.owner')} extra={t('personal.connectToken.ownerHelp')}>
            <UserPicker placeholder={t('personal.connectToken.ownerPlaceholder')} departmentId={assignableDepartmentId(viewer)} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
