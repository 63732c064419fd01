import { Select } from 'antd';
import { useMemo } from 'react';
import { useSimpleUsers } from '@/lib/lookups/use-simple-users';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';

export interface UsersPickerProps {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Search only this department and the ones below it (a leader assigns within their subtree). */
  departmentId?: number;
  placeholder?: string;
  id?: string;
}

/** Several enabled users, searched on the server by name or account (/sys-users/simple_list). */
export function UsersPicker({ value = [], onChange, departmentId, placeholder, id }: UsersPickerProps) {
  const search = useRemoteSearch();
  const users = useSimpleUsers({ ...(search.term && { keyword: search.term }), ...(departmentId !== undefined && { department_id: departmentId }) });
  const options = useMemo(() => (users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})` })), [users.data]);

  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      value={value}
      onChange={(ids) => onChange?.(ids)}
      allowClear
      placeholder={placeholder}
      labelRender={labelOr()}
      {...search.selectProps(users, options)}
    />
  );
}
