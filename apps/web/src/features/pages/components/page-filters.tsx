import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AdAccountSelect } from '@/components/ad-account-select';
import { UserPicker } from '@/components/user-picker';
import type { PersonalAccountOption } from '@/lib/lookups/use-personal-account-options';
import { FilterBar } from '@/components/list-kit';

export interface PageFilterValues {
  keyword?: string;
  ad_account_id?: number;
  user_id?: number;
  personal_account_id?: number;
}

const APPLY_ON_CHANGE = new Set<keyof PageFilterValues>(['ad_account_id', 'user_id', 'personal_account_id']);

const clean = (v: PageFilterValues): PageFilterValues => ({
  keyword: v.keyword?.trim() || undefined,
  ad_account_id: v.ad_account_id ?? undefined,
  user_id: v.user_id ?? undefined,
  personal_account_id: v.personal_account_id ?? undefined,
});

interface Props {
  value: PageFilterValues;
  onChange: (next: PageFilterValues) => void;
  onReset: () => void;
  /** False when the viewer may not list ad accounts: that filter is left out. */
  canPickAdAccounts: boolean;
  /** null when the viewer may not list personal accounts. */
  personalAccounts: readonly PersonalAccountOption[] | null;
}

/** The filter bar of /auth/homepage. */
export function PageFilters({ value, onChange, onReset, canPickAdAccounts, personalAccounts }: Props) {
  const { t } = useTranslation('assets');


  return (
    <FilterBar<PageFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={[...APPLY_ON_CHANGE]}>
      <Form.Item name="keyword" label={t('pages.filters.keyword')}>
        <Input allowClear placeholder={t('pages.filters.keywordPlaceholder')} style={{ width: 200 }} maxLength={100} />
      </Form.Item>
      {canPickAdAccounts && (
        <Form.Item name="ad_account_id" label={t('pages.filters.adAccount')}>
          <AdAccountSelect placeholder={t('common.all')} style={{ width: 200 }} />
        </Form.Item>
      )}
      <Form.Item name="user_id" label={t('pages.filters.user')}>
        <UserPicker placeholder={t('common.all')} style={{ width: 160 }} />
      </Form.Item>
      {personalAccounts && (
        <Form.Item name="personal_account_id" label={t('pages.filters.personalAccount')}>
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
    </FilterBar>
  );
}
