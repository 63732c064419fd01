import { IS_ADMIN_MANAGER, IS_ADMIN_STAFF, IS_ADMIN_SUPER, type DepartmentNode, type UserStatus } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DepartmentTreeSelect } from '@/components/department-tree-select';
import { FilterBar } from '@/components/list-kit';

export interface UserFilterValues {
  account?: string;
  name?: string;
  department_id?: number;
  role_id?: number;
  is_admin?: 0 | 1 | 9;
  status?: UserStatus;
}

interface Props {
  value: UserFilterValues;
  onChange: (next: UserFilterValues) => void;
  onReset: () => void;
  departments: readonly DepartmentNode[];
  roles: readonly { id: number; name: string }[];
}

/** Choices apply at once; typed keywords apply on Enter or 查询. */
const APPLY_ON_CHANGE = new Set<keyof UserFilterValues>(['department_id', 'role_id', 'is_admin', 'status']);

const clean = (v: UserFilterValues): UserFilterValues => ({
  account: v.account?.trim() || undefined,
  name: v.name?.trim() || undefined,
  department_id: v.department_id ?? undefined,
  role_id: v.role_id ?? undefined,
  is_admin: v.is_admin ?? undefined,
  status: v.status ?? undefined,
});

/** The filter bar of /sys/accounts. */
export function UserFilters({ value, onChange, onReset, departments, roles }: Props) {
  const { t } = useTranslation('sys');
  return (
    <FilterBar<UserFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={[...APPLY_ON_CHANGE]}>
      <Form.Item name="account" label={t('accounts.filters.account')}>
        <Input allowClear placeholder={t('accounts.filters.accountPlaceholder')} style={{ width: 150 }} maxLength={64} />
      </Form.Item>
      <Form.Item name="name" label={t('accounts.filters.name')}>
        <Input allowClear placeholder={t('accounts.filters.namePlaceholder')} style={{ width: 150 }} maxLength={64} />
      </Form.Item>
      <Form.Item name="department_id" label={t('accounts.filters.department')}>
        <DepartmentTreeSelect tree={departments} placeholder={t('accounts.filters.all')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="role_id" label={t('accounts.filters.role')}>
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('accounts.filters.all')}
          style={{ width: 160 }}
          options={roles.map((r) => ({ value: r.id, label: r.name }))}
        />
      </Form.Item>
      <Form.Item name="is_admin" label={t('accounts.filters.level')}>
        <Select
          allowClear
          placeholder={t('accounts.filters.all')}
          style={{ width: 130 }}
          options={[
            { value: IS_ADMIN_SUPER, label: t('levels.super') },
            { value: IS_ADMIN_MANAGER, label: t('levels.manager') },
            { value: IS_ADMIN_STAFF, label: t('levels.staff') },
          ]}
        />
      </Form.Item>
      <Form.Item name="status" label={t('accounts.filters.status')}>
        <Select<UserStatus>
          allowClear
          placeholder={t('accounts.filters.all')}
          style={{ width: 110 }}
          options={[
            { value: 'enabled', label: t('userStatus.enabled') },
            { value: 'disabled', label: t('userStatus.disabled') },
          ]}
        />
      </Form.Item>
    </FilterBar>
  );
}
