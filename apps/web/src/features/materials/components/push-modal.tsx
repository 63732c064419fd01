import type { Material, PushMaterialsResult } from '@ads/contracts';
import { Alert, App, Form, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AdAccountSelect } from '@/components/ad-account-select';
import { usePushMaterials } from '../api/use-push-materials';
import { SelectedNames } from './selected-names';

interface FormValues {
  ad_account_ids: number[];
}

interface Props {
  /** The materials to push; null: closed. */
  materials: readonly Material[] | null;
  /** False for viewers who may not list ad accounts: nothing can be chosen. */
  canPickAdAccount: boolean;
  onClose: () => void;
  /** The push started (or everything was already there). */
  onPushed: (result: PushMaterialsResult) => void;
}

/** 推送到广告账户: every chosen material to every chosen account, as one background task. */
export function PushModal({ materials, canPickAdAccount, onClose, onPushed }: Props) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const push = usePushMaterials();
  const accounts = Form.useWatch('ad_account_ids', form) ?? [];
  const count = materials?.length ?? 0;
  // Drama clips go to drama accounts, products to e-commerce ones: offer those first when all agree.
  const platforms = new Set(materials?.map((m) => m.platform));
  const platform = platforms.size === 1 ? [...platforms][0] : undefined;

  useEffect(() => {
    if (materials) form.resetFields();
  }, [form, materials]);

  const handleFinish = async (v: FormValues) => {
    if (!materials) return;
    try {
      const result = await push.mutateAsync({ material_ids: materials.map((m) => m.id), ad_account_ids: v.ad_account_ids });
      if (result.queued === 0) message.info(t('push.allSkipped'));
      else if (result.skipped > 0) message.success(t('push.queuedSkipped', { queued: result.queued, skipped: result.skipped }));
      else message.success(t('push.queued', { count: result.queued }));
      onPushed(result);
    } catch {
      // The request layer has shown why; keep the dialog open.
    }
  };

  return (
    <Modal
      open={materials !== null}
      title={t('push.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('push.submit')}
      cancelText={tc('actions.cancel')}
      okButtonProps={{ disabled: !canPickAdAccount }}
      confirmLoading={push.isPending}
      width={620}
      // Opened from the material drawer too: stay above it (both sit at antd's base z-index).
      zIndex={1010}
      forceRender
    >
      <Typography.Paragraph style={{ margin: '12px 0 8px' }}>{t('push.selected', { count })}</Typography.Paragraph>
      <SelectedNames names={materials?.map((m) => m.file_name) ?? []} />
      {!canPickAdAccount && <Alert type="warning" showIcon title={t('push.noAccess')} style={{ marginBottom: 12 }} />}
      <Form<FormValues> form={form} layout="vertical" name="push-materials" initialValues={{ ad_account_ids: [] }} onFinish={handleFinish}>
        <Form.Item
          name="ad_account_ids"
          label={t('push.accounts')}
          rules={[{ required: true, type: 'array', min: 1, message: t('push.accountsRequired') }]}
          extra={accounts.length > 0 ? t('push.pairs', { count: accounts.length * count }) : undefined}
        >
          <AdAccountSelect multiple enabled={canPickAdAccount} {...(platform && { preferPlatform: platform })} placeholder={t('push.accountsPlaceholder')} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0, fontSize: 13 }}>
        {t('push.help')}
      </Typography.Paragraph>
    </Modal>
  );
}
