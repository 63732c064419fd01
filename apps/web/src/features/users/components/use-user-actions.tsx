import type { SysUser } from '@ads/contracts';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '@/lib/confirm';
import { useDeleteUser } from '../api/use-delete-user';
import { useEditUser } from '../api/use-edit-user';
import { useResetUserPassword } from '../api/use-reset-user-password';
import type { ShownPassword } from './password-result-modal';

/** Row actions of /sys/accounts that need a confirm: delete, enable/disable, reset password. */
export function useUserActions({ onPassword }: { onPassword: (shown: ShownPassword) => void }) {
  const { t } = useTranslation('sys');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const deleteUser = useDeleteUser();
  const editUser = useEditUser();
  const resetPassword = useResetUserPassword();

  return {
    confirmDelete: (user: SysUser) =>
      confirmAction(modal, {
        title: t('accounts.confirmDelete.title', { name: user.name, account: user.account }),
        content: t('accounts.confirmDelete.body'),
        okText: t('accounts.confirmDelete.ok'),
        danger: true,
        action: async () => {
          await deleteUser.mutateAsync(user.id);
          message.success(t('accounts.deleted'));
        },
      }),

    confirmToggleStatus: (user: SysUser) => {
      const disabling = user.status === 'enabled';
      const texts = disabling ? 'confirmDisable' : 'confirmEnable';
      return confirmAction(modal, {
        title: t(`accounts.${texts}.title`, { name: user.name }),
        content: t(`accounts.${texts}.body`),
        okText: tc(disabling ? 'actions.disable' : 'actions.enable'),
        danger: disabling,
        action: async () => {
          await editUser.mutateAsync({ id: user.id, status: disabling ? 'disabled' : 'enabled' });
          message.success(t(disabling ? 'accounts.disabledDone' : 'accounts.enabledDone'));
        },
      });
    },

    confirmResetPassword: (user: SysUser) =>
      confirmAction(modal, {
        title: t('accounts.confirmReset.title', { name: user.name }),
        content: t('accounts.confirmReset.body'),
        okText: t('accounts.confirmReset.ok'),
        action: async () => {
          const { new_passwd } = await resetPassword.mutateAsync(user.id);
          onPassword({ title: t('accounts.passwordResult.resetTitle', { account: user.account }), account: user.account, password: new_passwd });
        },
      }),
  };
}
