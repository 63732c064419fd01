import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ShownSecret {
  title: string;
  siteId: number;
  siteName: string;
  webhookUrl: string | null;
  secret: string;
}

/**
 * Shows a site's order-webhook secret once: the page drops it when this closes and the server
 * never answers it again (only a rotation makes a new one).
 */
export function SecretModal({ value, onClose }: { value: ShownSecret | null; onClose: () => void }) {
  const { t } = useTranslation('assets');
  return (
    <Modal
      open={value !== null}
      title={value?.title}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      width={620}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('sites.secret.done')}
        </Button>
      }
    >
      {value && (
        <>
          <Alert type="warning" showIcon title={t('sites.secret.warning')} style={{ margin: '12px 0 16px' }} />
          <Descriptions
            column={1}
            bordered
            size="small"
            items={[
              { key: 'site', label: t('sites.secret.site'), children: value.siteName },
              ...(value.webhookUrl
                ? [{ key: 'url', label: t('sites.secret.url'), children: <Typography.Text copyable={{ tooltips: [t('common.copy'), t('common.copied')] }}>{value.webhookUrl}</Typography.Text> }]
                : []),
              {
                key: 'secret',
                label: t('sites.secret.secret'),
                children: (
                  <Typography.Text
                    code
                    copyable={{ text: value.secret, tooltips: [t('sites.secret.copy'), t('common.copied')] }}
                    style={{ fontSize: 14, wordBreak: 'break-all' }}
                    data-testid="shown-secret"
                  >
                    {value.secret}
                  </Typography.Text>
                ),
              },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0', fontSize: 12 }}>
            {t('sites.secret.howTo')}
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
