import { Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '@/components/filter-actions';

interface Values {
  name?: string;
}

/** The filter bar of /sys/role: a name keyword, applied on Enter or 查询. */
export function RoleFilters({ value, onChange }: { value: Values; onChange: (next: Values) => void }) {
  const { t } = useTranslation('sys');
  const [form] = Form.useForm<Values>();
  const { name } = value;

  useEffect(() => {
    form.setFieldsValue({ name });
  }, [form, name]);

  return (
    <Form<Values> form={form} layout="inline" onFinish={(v) => onChange({ name: v.name?.trim() || undefined })} style={{ rowGap: 12 }} aria-label="filters">
      <Form.Item name="name" label={t('roles.filters.name')}>
        <Input allowClear placeholder={t('roles.filters.namePlaceholder')} style={{ width: 200 }} maxLength={64} />
      </Form.Item>
      <FilterActions onReset={() => onChange({})} />
    </Form>
  );
}
