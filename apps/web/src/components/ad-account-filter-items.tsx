import type { Platform } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AD_ACCOUNT_STATUS_CODES, useAdAccountStatusLabel } from '@/components/ad-account-status';
import '@/locales/assets-namespace';

/**
 * The filter fields every ad-account list starts with (广告账户, 广告托管): keyword, account
 * status and business line, named as the list bodies name them. Put inside a FilterBar.
 */
export function AdAccountFilterItems() {
  const { t } = useTranslation('assets');
  const statusLabel = useAdAccountStatusLabel();
  return (
    <>
      <Form.Item name="keyword" label={t('adAccounts.filters.keyword')}>
        <Input allowClear placeholder={t('adAccounts.filters.keywordPlaceholder')} style={{ width: 200 }} maxLength={100} />
      </Form.Item>
      <Form.Item name="account_status" label={t('adAccounts.filters.status')}>
        <Select<number>
          allowClear
          placeholder={t('common.all')}
          style={{ width: 150 }}
          popupMatchSelectWidth={false}
          options={AD_ACCOUNT_STATUS_CODES.map((code) => ({ value: code, label: statusLabel(code) }))}
        />
      </Form.Item>
      <Form.Item name="platform" label={t('adAccounts.filters.platform')}>
        <Select<Platform>
          allowClear
          placeholder={t('common.all')}
          style={{ width: 110 }}
          options={(['dj', 'ec'] as const).map((p) => ({ value: p, label: t(`platform.${p}`) }))}
        />
      </Form.Item>
    </>
  );
}
