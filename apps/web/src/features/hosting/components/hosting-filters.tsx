import type { Platform } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AD_ACCOUNT_STATUS_CODES, useAdAccountStatusLabel } from '@/components/ad-account-status';
import { FilterBar } from '@/components/list-kit';

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
export function HostingFilters({ value, onChange, onReset }: { value: HostingFilterValues; onChange: (next: HostingFilterValues) => void; onReset: () => void }) {
  const { t } = useTranslation('assets');
  const statusLabel = useAdAccountStatusLabel();
  return (
    <FilterBar<HostingFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={['platform', 'account_status']}>
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
    </FilterBar>
  );
}
