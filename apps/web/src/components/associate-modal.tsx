import type { AssignMode } from '@ads/contracts';
import { Alert, App, Checkbox, Form, Modal, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@/locales/assets-namespace';
import { AdAccountSelect } from './ad-account-select';
import { AssignModeField } from './assign-mode-field';
import { UsersPicker } from './users-picker';

export interface AssociateValues {
  mode: AssignMode;
  ad_account_ids?: number[];
  user_ids?: number[];
}

interface FormValues {
  mode: AssignMode;
  targets: ('ad_accounts' | 'users')[];
  ad_account_ids: number[];
  user_ids: number[];
}

const MAX_NAMES = 20;

interface Props {
  /** The names of the rows to change; null: closed. */
  names: readonly string[] | null;
  title: string;
  /** What the rows are ("pages", "pixels"), for the sentences. */
  noun: string;
  /** Whether users can be associated too (pages, for managers and leaders). */
  withUsers: boolean;
  /** False when the viewer may not list ad accounts: only users can be chosen. */
  canPickAdAccounts: boolean;
  /** A leader picks users within their department subtree. */
  userDepartmentId?: number;
  /** A sentence on what the edit does not touch (pixels: the platform's own sharing). */
  note?: string;
  /** Sends the change; resolves with how many rows changed. */
  onSubmit: (values: AssociateValues) => Promise<number>;
  onClose: () => void;
}

/**
 * Bulk association of pages or pixels with ad accounts (and users): the mode is spelled out,
 * and only the associations ticked are sent, so the others stay as they are.
 */
export function AssociateModal({ names, title, noun, withUsers, canPickAdAccounts, userDepartmentId, note, onSubmit, onClose }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const mode = Form.useWatch('mode', form) ?? 'add';
  const watchedTargets = Form.useWatch('targets', form);
  // Without users there is nothing to choose: the ad accounts are what changes.
  const targets: FormValues['targets'] = withUsers ? (watchedTargets ?? []) : ['ad_accounts'];
  const [saving, setSaving] = useState(false);
  const count = names?.length ?? 0;
  const initialTargets: FormValues['targets'] = canPickAdAccounts ? ['ad_accounts'] : withUsers ? ['users'] : [];

  useEffect(() => {
    if (names) form.resetFields();
  }, [form, names]);

  const handleFinish = async (v: FormValues) => {
    setSaving(true);
    try {
      const chosen = withUsers ? v.targets : ['ad_accounts'];
      const updated = await onSubmit({
        mode: v.mode,
        ...(chosen.includes('ad_accounts') && { ad_account_ids: v.ad_account_ids }),
        ...(chosen.includes('users') && { user_ids: v.user_ids }),
      });
      message.success(t('associate.saved', { count: updated }));
      onClose();
    } catch {
      // The request layer has shown why; keep the dialog open.
    } finally {
      setSaving(false);
    }
  };

  const listRule = (field: 'ad_account_ids' | 'user_ids', target: 'ad_accounts' | 'users', text: string) => ({
    validator: async (_: unknown, v?: number[]) => {
      const ticked: string[] = withUsers ? (form.getFieldValue('targets') ?? []) : ['ad_accounts'];
      if (form.getFieldValue('mode') !== 'replace' && ticked.includes(target) && !v?.length) throw new Error(text);
    },
  });

  const whatParts = [targets.includes('ad_accounts') ? t('associate.adAccounts') : null, targets.includes('users') ? t('associate.users') : null].filter(Boolean);

  return (
    <Modal
      open={names !== null}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      okButtonProps={{ danger: mode !== 'add' }}
      confirmLoading={saving}
      width={640}
      forceRender
    >
      <Typography.Paragraph style={{ margin: '12px 0 8px' }}>{t('associate.selected', { count, noun })}</Typography.Paragraph>
      <div style={{ marginBottom: 16, maxHeight: 96, overflow: 'auto' }}>
        {names?.slice(0, MAX_NAMES).map((n, i) => (
          <Tag key={`${n}-${i}`} style={{ marginBottom: 4 }}>
            {n}
          </Tag>
        ))}
        {count > MAX_NAMES && <Typography.Text type="secondary">…</Typography.Text>}
      </div>
      <Form<FormValues>
        form={form}
        layout="vertical"
        onFinish={handleFinish}
        initialValues={{ mode: 'add', targets: initialTargets, ad_account_ids: [], user_ids: [] }}
        name="associate"
      >
        {withUsers && (
          <Form.Item
            name="targets"
            label={t('associate.targets')}
            rules={[{ validator: async (_, v?: string[]) => { if (!v?.length) throw new Error(t('associate.targetsRequired')); } }]}
          >
            <Checkbox.Group
              options={[
                { value: 'ad_accounts', label: t('associate.adAccountsLabel'), disabled: !canPickAdAccounts },
                { value: 'users', label: t('associate.usersLabel') },
              ]}
            />
          </Form.Item>
        )}
        <Form.Item name="mode" label={t('associate.mode')}>
          <AssignModeField what={whatParts.join(t('associate.and')) || t('associate.adAccounts')} target={t('associate.target', { count, noun })} />
        </Form.Item>
        {!canPickAdAccounts && !withUsers && <Alert type="warning" showIcon title={t('associate.noAdAccountAccess')} />}
        {note && (
          <Typography.Paragraph type="secondary" style={{ marginTop: -8, fontSize: 12 }}>
            {note}
          </Typography.Paragraph>
        )}
        {targets.includes('ad_accounts') && (
          <Form.Item
            name="ad_account_ids"
            label={t('associate.adAccountsLabel')}
            dependencies={['mode', 'targets']}
            rules={[listRule('ad_account_ids', 'ad_accounts', t('associate.adAccountsRequired'))]}
            extra={mode === 'replace' ? t('associate.replaceEmptyHelp') : undefined}
          >
            <AdAccountSelect multiple placeholder={t('associate.adAccountsPlaceholder')} enabled={canPickAdAccounts} />
          </Form.Item>
        )}
        {withUsers && targets.includes('users') && (
          <Form.Item
            name="user_ids"
            label={t('associate.usersLabel')}
            dependencies={['mode', 'targets']}
            rules={[listRule('user_ids', 'users', t('associate.usersRequired'))]}
            extra={mode === 'replace' ? t('associate.replaceEmptyHelp') : undefined}
          >
            <UsersPicker placeholder={t('associate.usersPlaceholder')} departmentId={userDepartmentId} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
