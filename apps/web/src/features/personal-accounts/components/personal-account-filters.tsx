import type { TokenStatus } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { BooleanSelect } from '@/components/boolean-select';
import { UserPicker } from '@/components/user-picker';
import { FilterBar } from '@/components/list-kit';

export interface PersonalAccountFilterValues {
  keyword?: string;
  status?: TokenStatus;
  owner_user_id?: number;
  hosted?: boolean;
}

/** Choices apply at once; the keyword on Enter or 查询. */
const APPLY_ON_CHANGE = new Set<keyof PersonalAccountFilterValues>(['status', 'owner_user_id', 'hosted']);

const clean = (v: PersonalAccountFilterValues): PersonalAccountFilterValues => ({
  keyword: v.keyword?.trim() || undefined,
  status: v.status ?? undefined,
  owner_user_id: v.owner_user_id ?? undefined,
  hosted: v.hosted ?? undefined,
});

/** The filter bar of the personal-account list. */
export function PersonalAccountFilters({ value, onChange, onReset }: { value: PersonalAccountFilterValues; onChange: (next: PersonalAccountFilterValues) => void; onReset: () => void }) {
  const { t } = useTranslation('assets');


  return (
    <FilterBar<PersonalAccountFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={[...APPLY_ON_CHANGE]}>
      <Form.Item name="keyword" label={t('personal.filters.keyword')}>
        <Input allowClear placeholder={t('personal.filters.keywordPlaceholder')} style={{ width: 200 }} maxLength={100} />
      </Form.Item>
      <Form.Item name="status" label={t('personal.filters.status')}>
        <Select<TokenStatus>
          allowClear
          placeholder={t('common.all')}
          style={{ width: 130 }}
          options={(['valid', 'expiring', 'invalid'] as const).map((s) => ({ value: s, label: t(`tokenStatus.${s}`) }))}
        />
      </Form.Item>
      <Form.Item name="owner_user_id" label={t('personal.filters.owner')}>
        <UserPicker placeholder={t('common.all')} style={{ width: 170 }} />
      </Form.Item>
      <Form.Item name="hosted" label={t('personal.filters.hosted')}>
        <BooleanSelect placeholder={t('common.all')} style={{ width: 110 }} trueLabel={t('common.hosted')} falseLabel={t('common.notHosted')} />
      </Form.Item>
    </FilterBar>
  );
}
