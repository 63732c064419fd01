import type { PersonalAccount } from '@ads/contracts';
import { App, Form, Modal, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { UserPicker } from '@/components/user-picker';
import { assignableDepartmentId, seesCompanyAssets, type Viewer } from '@/lib/permissions';
import { useSetOwner } from '../api/use-set-owner';

const MAX_NAMES = 20;

interface Props {
  /** The accounts to change; null: closed. */
  accounts: readonly PersonalAccount[] | null;
  viewer: Viewer;
  onClose: () => void;
  onSaved: () => void;
}

/** Sets (or clears) the owner of one or several personal accounts. */
export function SetOwnerModal({ accounts, viewer, onClose, onSaved }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ owner_user_id: number | null }>();
  const setOwner = useSetOwner();
  const single = accounts?.length === 1 ? accounts[0] : undefined;

  useEffect(() => {
    if (accounts) form.setFieldsValue({ owner_user_id: single?.owner?.id ?? null });
  }, [form, accounts, single]);

  const handleFinish = async ({ owner_user_id }: { owner_user_id: number | null }) => {
    if (!accounts) return;
    try {
      const { updated } = await setOwner.mutateAsync({ ids: accounts.map((a) => a.id), owner_user_id: owner_user_id ?? null });
      message.success(owner_user_id ? t('personal.owner.saved', { count: updated }) : t('personal.owner.cleared', { count: updated }));
      onSaved();
    } catch {
      // The request layer has shown why; keep the dialog open.
    }
  };

  return (
    <Modal
      open={accounts !== null}
      title={t('personal.owner.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={setOwner.isPending}
      forceRender
    >
      <Typography.Paragraph style={{ margin: '12px 0 8px' }}>{t('personal.owner.selected', { count: accounts?.length ?? 0 })}</Typography.Paragraph>
      <div style={{ marginBottom: 16, maxHeight: 120, overflow: 'auto' }}>
        {accounts?.slice(0, MAX_NAMES).map((a) => (
          <Tag key={a.id} style={{ marginBottom: 4 }}>
            {a.name}
          </Tag>
        ))}
        {(accounts?.length ?? 0) > MAX_NAMES && <Typography.Text type="secondary">…</Typography.Text>}
      </div>
      <Form form={form} layout="vertical" onFinish={handleFinish} name="set-owner">
        <Form.Item
          name="owner_user_id"
          label={t('personal.owner.owner')}
          // Only managers (and a company asset scope) may leave an account without an owner (the server refuses others).
          extra={seesCompanyAssets(viewer) ? t('personal.owner.help') : undefined}
          rules={seesCompanyAssets(viewer) ? [] : [{ required: true, message: t('personal.owner.required') }]}
        >
          <UserPicker placeholder={t('personal.owner.placeholder')} currentLabel={single?.owner?.name ?? null} departmentId={assignableDepartmentId(viewer)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
