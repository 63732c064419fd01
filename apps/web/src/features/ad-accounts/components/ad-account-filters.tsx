import type { Platform } from '@ads/contracts';
import { Checkbox, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AdAccountFilterItems } from '@/components/ad-account-filter-items';
import { BooleanSelect } from '@/components/boolean-select';
import { FilterBar } from '@/components/list-kit';
import { UserPicker } from '@/components/user-picker';
import type { PersonalAccountOption } from '@/lib/lookups/use-personal-account-options';

export interface AdAccountFilterValues {
  keyword?: string;
  account_status?: number;
  platform?: Platform;
  currency?: string;
  user_id?: number;
  unassigned?: boolean;
  personal_account_id?: number;
  hosted?: boolean;
}

/** Currencies offered first; any other 3-letter code can be typed. */
const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'KRW', 'TWD', 'HKD', 'SGD', 'AUD', 'CAD', 'CNY', 'THB', 'VND', 'IDR', 'PHP', 'MYR', 'BRL', 'MXN'];

const APPLY_ON_CHANGE = new Set<keyof AdAccountFilterValues>(['account_status', 'platform', 'currency', 'user_id', 'unassigned', 'personal_account_id', 'hosted']);

const BLANK: AdAccountFilterValues = { unassigned: false };

const clean = (v: AdAccountFilterValues): AdAccountFilterValues => ({
  keyword: v.keyword?.trim() || undefined,
  account_status: v.account_status ?? undefined,
  platform: v.platform ?? undefined,
  currency: v.currency ?? undefined,
  user_id: v.unassigned ? undefined : (v.user_id ?? undefined),
  unassigned: v.unassigned || undefined,
  personal_account_id: v.personal_account_id ?? undefined,
  hosted: v.hosted ?? undefined,
});

interface Props {
  value: AdAccountFilterValues;
  onChange: (next: AdAccountFilterValues) => void;
  onReset: () => void;
  /** null when the viewer may not list personal accounts: that filter is left out. */
  personalAccounts: readonly PersonalAccountOption[] | null;
}

/** The filter bar of /auth/account. */
export function AdAccountFilters({ value, onChange, onReset, personalAccounts }: Props) {
  const { t } = useTranslation('assets');
  const { currency } = value;
  const currencyOptions = [...new Set([...(currency ? [currency] : []), ...COMMON_CURRENCIES])].map((c) => ({ value: c, label: c }));

  return (
    <FilterBar<AdAccountFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={[...APPLY_ON_CHANGE]} blank={BLANK}>
      <AdAccountFilterItems />
      <Form.Item name="currency" label={t('adAccounts.filters.currency')}>
        <Select<string> allowClear showSearch={{ optionFilterProp: 'label' }} placeholder={t('common.all')} style={{ width: 100 }} options={currencyOptions} />
      </Form.Item>
      <Form.Item name="user_id" label={t('adAccounts.filters.user')}>
        <UserPicker placeholder={t('common.all')} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="unassigned" valuePropName="checked">
        <Checkbox>{t('adAccounts.filters.unassigned')}</Checkbox>
      </Form.Item>
      {personalAccounts && (
        <Form.Item name="personal_account_id" label={t('adAccounts.filters.personalAccount')}>
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('common.all')}
            style={{ width: 170 }}
            popupMatchSelectWidth={false}
            options={personalAccounts.map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
      )}
      <Form.Item name="hosted" label={t('adAccounts.filters.hosted')}>
        <BooleanSelect placeholder={t('common.all')} style={{ width: 110 }} trueLabel={t('common.hosted')} falseLabel={t('common.notHosted')} />
      </Form.Item>
    </FilterBar>
  );
}
