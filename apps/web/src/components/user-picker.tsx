import { Select } from 'antd';
import { useMemo, useState, type CSSProperties } from 'react';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSimpleUsers } from '@/lib/lookups/use-simple-users';

export interface UserPickerProps {
  value?: number | null;
  onChange?: (id: number | null) => void;
  /** Label of the current value, shown before the list has loaded or when a search hides it. */
  currentLabel?: string | null;
  placeholder?: string;
  id?: string;
  /** Search only this department and the ones below it (a leader acts within their subtree). */
  departmentId?: number;
  style?: CSSProperties;
}

/** One enabled user, searched on the server by name or account (/sys-users/simple_list). */
export function UserPicker({ value, onChange, currentLabel, placeholder, id, departmentId, style }: UserPickerProps) {
  const [keyword, setKeyword] = useState('');
  const debounced = useDebouncedValue(keyword.trim());
  const users = useSimpleUsers({ ...(debounced && { keyword: debounced }), ...(departmentId !== undefined && { department_id: departmentId }) });
  const options = useMemo(() => {
    const list = (users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})` }));
    if (value != null && currentLabel && !list.some((o) => o.value === value)) list.unshift({ value, label: currentLabel });
    return list;
  }, [users.data, value, currentLabel]);

  return (
    <Select<number>
      id={id}
      style={style}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      loading={users.isFetching}
      placeholder={placeholder}
      options={options}
      onOpenChange={(open) => !open && setKeyword('')}
    />
  );
}
