import { REMARK_MAX, type AdAccount } from '@ads/contracts';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '@/lib/form-errors';
import { useEditAdAccount } from '../api/use-edit-ad-account';

/** Edits an ad account's remark (our note; nothing is sent to the platform). */
export function RemarkModal({ account, onClose }: { account: AdAccount | null; onClose: () => void }) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ remark: string }>();
  const edit = useEditAdAccount();

  useEffect(() => {
    if (account) form.setFieldsValue({ remark: account.remark });
  }, [form, account]);

  const handleFinish = async ({ remark }: { remark: string }) => {
    if (!account) return;
    try {
      await edit.mutateAsync({ id: account.id, remark: (remark ?? '').trim() });
      message.success(t('adAccounts.remarkModal.saved'));
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  return (
    <Modal
      open={account !== null}
      title={t('adAccounts.remarkModal.title', { name: account?.name ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={edit.isPending}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={handleFinish} name="ad-account-remark" style={{ marginTop: 12 }}>
        <Form.Item
          name="remark"
          label={t('adAccounts.remarkModal.remark')}
          extra={t('adAccounts.remarkModal.help')}
          rules={[{ validator: async (_, v?: string) => { if ((v ?? '').trim().length > REMARK_MAX) throw new Error(t('adAccounts.remarkModal.tooLong', { max: REMARK_MAX })); } }]}
        >
          <Input.TextArea rows={3} showCount maxLength={REMARK_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
