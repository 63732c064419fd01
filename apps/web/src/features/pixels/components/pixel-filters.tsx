import { Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AdAccountSelect } from '@/components/ad-account-select';
import { FilterActions } from '@/components/filter-actions';

export interface PixelFilterValues {
  keyword?: string;
  ad_account_id?: number;
}

const clean = (v: PixelFilterValues): PixelFilterValues => ({ keyword: v.keyword?.trim() || undefined, ad_account_id: v.ad_account_id ?? undefined });

/** The filter bar of /auth/pixel. */
export function PixelFilters({ value, onChange, canPickAdAccounts }: { value: PixelFilterValues; onChange: (next: PixelFilterValues) => void; canPickAdAccounts: boolean }) {
  const { t } = useTranslation('assets');
  const [form] = Form.useForm<PixelFilterValues>();
  const { keyword, ad_account_id } = value;

  useEffect(() => {
    form.setFieldsValue({ keyword, ad_account_id });
  }, [form, keyword, ad_account_id]);

  return (
    <Form<PixelFilterValues>
      form={form}
      layout="inline"
      onFinish={(v) => onChange(clean(v))}
      onValuesChange={(changed: PixelFilterValues) => {
        if ('ad_account_id' in changed) form.submit();
      }}
      style={{ rowGap: 12 }}
      aria-label="filters"
    >
      <Form.Item name="keyword" label={t('pixels.filters.keyword')}>
        <Input allowClear placeholder={t('pixels.filters.keywordPlaceholder')} style={{ width: 220 }} maxLength={100} />
      </Form.Item>
      {canPickAdAccounts && (
        <Form.Item name="ad_account_id" label={t('pixels.filters.adAccount')}>
          <AdAccountSelect placeholder={t('common.all')} style={{ width: 220 }} />
        </Form.Item>
      )}
      <FilterActions onReset={() => onChange({})} />
    </Form>
  );
}
