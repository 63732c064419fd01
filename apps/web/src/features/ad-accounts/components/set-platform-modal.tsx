import type { AdAccount, Platform } from '@ads/contracts';
import { App, Form, Modal, Radio, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetPlatform } from '../api/use-set-platform';
import { SelectedNames } from './selected-names';

type Choice = Platform | 'none';

interface Props {
  accounts: readonly AdAccount[] | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Sets the business line (短剧 / 电商) of the selected ad accounts, or clears it. */
export function SetPlatformModal({ accounts, onClose, onSaved }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ platform: Choice }>();
  const setPlatform = useSetPlatform();
  const count = accounts?.length ?? 0;

  useEffect(() => {
    if (accounts) form.setFieldsValue({ platform: accounts.length === 1 ? (accounts[0]?.platform ?? 'none') : 'dj' });
  }, [form, accounts]);

  const handleFinish = async ({ platform }: { platform: Choice }) => {
    if (!accounts) return;
    try {
      const { updated } = await setPlatform.mutateAsync({ ad_account_ids: accounts.map((a) => a.id), platform: platform === 'none' ? null : platform });
      message.success(t('adAccounts.platformModal.saved', { count: updated }));
      onSaved();
    } catch {
      // Shown by the request layer.
    }
  };

  return (
    <Modal
      open={accounts !== null}
      title={t('adAccounts.platformModal.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={setPlatform.isPending}
      forceRender
    >
      <Typography.Paragraph style={{ margin: '12px 0 8px' }}>{t('adAccounts.platformModal.selected', { count })}</Typography.Paragraph>
      <SelectedNames names={accounts?.map((a) => a.name) ?? []} />
      <Form form={form} layout="vertical" onFinish={handleFinish} name="set-platform">
        <Form.Item name="platform" label={t('adAccounts.platformModal.platform')} extra={t('adAccounts.platformModal.help')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'dj', label: t('platform.dj') },
              { value: 'ec', label: t('platform.ec') },
              { value: 'none', label: t('platform.none') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
