import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSimpleUsers } from '@/lib/lookups/use-simple-users';

export interface UsersPickerProps {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Search only this department and the ones below it (a leader assigns within their subtree). */
  departmentId?: number;
  placeholder?: string;
  id?: string;
}

interface Option {
  value: number;
  label: string;
}

/** Several enabled users, searched on the server by name or account (/sys-users/simple_list). */
export function UsersPicker({ value = [], onChange, departmentId, placeholder, id }: UsersPickerProps) {
  const [keyword, setKeyword] = useState('');
  // Labels of the chosen users, so they keep their names when a search no longer lists them.
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const debounced = useDebouncedValue(keyword.trim());
  const users = useSimpleUsers({ ...(debounced && { keyword: debounced }), ...(departmentId !== undefined && { department_id: departmentId }) });
  const options = useMemo(() => {
    const list: Option[] = (users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})` }));
    for (const v of value) if (!list.some((o) => o.value === v)) list.unshift({ value: v, label: chosen.get(v) ?? `#${v}` });
    return list;
  }, [users.data, value, chosen]);

  return (
    <Select<number[], Option>
      id={id}
      mode="multiple"
      value={value}
      onChange={(ids, picked) => {
        const next = new Map(chosen);
        for (const o of [picked].flat()) if (o) next.set(o.value, o.label);
        setChosen(next);
        onChange?.(ids);
      }}
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      loading={users.isFetching}
      placeholder={placeholder}
      options={options}
      onOpenChange={(open) => !open && setKeyword('')}
    />
  );
}
