import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AdAccountSelect } from '@/components/ad-account-select';
import { FilterBar } from '@/components/list-kit';

export interface PixelFilterValues {
  keyword?: string;
  ad_account_id?: number;
}

const clean = (v: PixelFilterValues): PixelFilterValues => ({ keyword: v.keyword?.trim() || undefined, ad_account_id: v.ad_account_id ?? undefined });

/** The filter bar of /auth/pixel. */
export function PixelFilters({ value, onChange, onReset, canPickAdAccounts }: { value: PixelFilterValues; onChange: (next: PixelFilterValues) => void; onReset: () => void; canPickAdAccounts: boolean }) {
  const { t } = useTranslation('assets');


  return (
    <FilterBar<PixelFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={['ad_account_id']}>
      <Form.Item name="keyword" label={t('pixels.filters.keyword')}>
        <Input allowClear placeholder={t('pixels.filters.keywordPlaceholder')} style={{ width: 220 }} maxLength={100} />
      </Form.Item>
      {canPickAdAccounts && (
        <Form.Item name="ad_account_id" label={t('pixels.filters.adAccount')}>
          <AdAccountSelect placeholder={t('common.all')} style={{ width: 220 }} />
        </Form.Item>
      )}
    </FilterBar>
  );
}
