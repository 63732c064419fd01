import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ShownPassword {
  title: string;
  account: string;
  password: string;
}

/**
 * Shows a password the server generated, once: the caller drops it when this closes, and the
 * server never returns it again.
 */
export function PasswordResultModal({ value, onClose }: { value: ShownPassword | null; onClose: () => void }) {
  const { t } = useTranslation('sys');
  return (
    <Modal
      open={value !== null}
      title={value?.title}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {t('accounts.passwordResult.done')}
        </Button>
      }
    >
      {value && (
        <>
          <Alert type="warning" showIcon title={t('accounts.passwordResult.warning')} style={{ marginBottom: 16 }} />
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              { key: 'account', label: t('accounts.passwordResult.account'), children: value.account },
              {
                key: 'password',
                label: t('accounts.passwordResult.password'),
                children: (
                  <Typography.Text
                    code
                    copyable={{ text: value.password, tooltips: [t('accounts.passwordResult.copy'), t('accounts.passwordResult.copied')] }}
                    style={{ fontSize: 16 }}
                    data-testid="shown-password"
                  >
                    {value.password}
                  </Typography.Text>
                ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
