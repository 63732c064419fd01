import type { Platform } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AD_ACCOUNT_STATUS_CODES, useAdAccountStatusLabel } from '@/components/ad-account-status';
import { FilterActions } from '@/components/filter-actions';

export interface HostingFilterValues {
  keyword?: string;
  platform?: Platform;
  account_status?: number;
}

const clean = (v: HostingFilterValues): HostingFilterValues => ({
  keyword: v.keyword?.trim() || undefined,
  platform: v.platform ?? undefined,
  account_status: v.account_status ?? undefined,
});

/** Filters of the hosting screen's ad-account lists. */
export function HostingFilters({ value, onChange }: { value: HostingFilterValues; onChange: (next: HostingFilterValues) => void }) {
  const { t } = useTranslation('assets');
  const statusLabel = useAdAccountStatusLabel();
  const [form] = Form.useForm<HostingFilterValues>();
  const { keyword, platform, account_status } = value;

  useEffect(() => {
    form.setFieldsValue({ keyword, platform, account_status });
  }, [form, keyword, platform, account_status]);

  return (
    <Form<HostingFilterValues>
      form={form}
      layout="inline"
      onFinish={(v) => onChange(clean(v))}
      onValuesChange={(changed: HostingFilterValues) => {
        if ('platform' in changed || 'account_status' in changed) form.submit();
      }}
      style={{ rowGap: 12 }}
      aria-label="filters"
    >
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
      <FilterActions onReset={() => onChange({})} />
    </Form>
  );
}
