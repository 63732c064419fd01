import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterBar } from '@/components/list-kit';

interface Values {
  name?: string;
}

/** The filter bar of /sys/role: a name keyword, applied on Enter or 查询. */
export function RoleFilters({ value, onChange, onReset }: { value: Values; onChange: (next: Values) => void; onReset: () => void }) {
  const { t } = useTranslation('sys');


  return (
    <FilterBar<Values> value={value} onChange={onChange} onReset={onReset}>
      <Form.Item name="name" label={t('roles.filters.name')}>
        <Input allowClear placeholder={t('roles.filters.namePlaceholder')} style={{ width: 200 }} maxLength={64} />
      </Form.Item>
    </FilterBar>
  );
}
