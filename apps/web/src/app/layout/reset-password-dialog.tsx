import { Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { feedback } from '@/lib/feedback';
import { useSession } from '@/stores/session-store';

/** SPEC.md §4/§8: shows the new password for 10 s on success; on failure says so and stays open. */
export const RESET_NOTIFY_SECONDS = 10;

export function ResetPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  const user = useSession((s) => s.userInfo);

  const handleOk = async () => {
    if (!user) return;
    setLoading(true);
    try {
      const data = await api.session.reset_passwd({ currentUserId: user.id });
      onClose();
      feedback.notification.success({
        title: t('resetPassword.success'),
        duration: RESET_NOTIFY_SECONDS,
        description: (
          <div data-testid="reset-result">
            <div>{t('resetPassword.account', { account: user.account })}</div>
            <div>
              {t('resetPassword.newPassword', { password: '' })}
              <Typography.Text copyable={{ text: data.new_passwd, tooltips: [t('resetPassword.copy'), t('resetPassword.copied')] }} code>
                {data.new_passwd}
              </Typography.Text>
            </div>
          </div>
        ),
      });
    } catch {
      feedback.message.error(t('resetPassword.failure'));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('resetPassword.title')}
      onOk={handleOk}
      onCancel={onClose}
      confirmLoading={loading}
      okText={t('actions.confirm')}
      cancelText={t('actions.cancel')}
      destroyOnHidden
    >
      <p>{t('resetPassword.body')}</p>
    </Modal>
  );
}
