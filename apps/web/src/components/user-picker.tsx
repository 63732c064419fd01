import { Select } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import { useSimpleUsers } from '@/lib/lookups/use-simple-users';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';

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
  const search = useRemoteSearch();
  const users = useSimpleUsers({ ...(search.term && { keyword: search.term }), ...(departmentId !== undefined && { department_id: departmentId }) });
  const options = useMemo(() => (users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})` })), [users.data]);

  return (
    <Select<number>
      id={id}
      style={style}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      allowClear
      placeholder={placeholder}
      labelRender={labelOr(() => currentLabel)}
      {...search.selectProps(users, options)}
    />
  );
}
