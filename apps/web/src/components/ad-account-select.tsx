import { Select } from 'antd';
import { useMemo, useState, type CSSProperties } from 'react';
import { useAdAccountOptions } from '@/lib/lookups/use-ad-account-options';
import { useDebouncedValue } from '@/lib/use-debounced-value';

interface Option {
  value: number;
  label: string;
}

interface CommonProps {
  placeholder?: string;
  id?: string;
  style?: CSSProperties;
  /** False for viewers who may not call /ad-accounts/list: the picker stays empty and disabled. */
  enabled?: boolean;
}

type Props =
  | (CommonProps & { multiple: true; value?: number[]; onChange?: (ids: number[]) => void })
  | (CommonProps & { multiple?: false; value?: number; onChange?: (id: number | undefined) => void });

/** Ad accounts searched on the server by name, act_ id or number; one or several. */
export function AdAccountSelect(props: Props) {
  const { placeholder, id, style, enabled = true } = props;
  const [keyword, setKeyword] = useState('');
  // Labels of chosen accounts, so they keep their names when a search no longer lists them.
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const debounced = useDebouncedValue(keyword.trim());
  const accounts = useAdAccountOptions(debounced, { enabled });
  const valueKey = props.multiple ? (props.value ?? []).join(',') : String(props.value ?? '');
  const options = useMemo(() => {
    const list: Option[] = (accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.platform_id})` }));
    const values = valueKey ? valueKey.split(',').map(Number) : [];
    for (const v of values) if (!list.some((o) => o.value === v)) list.unshift({ value: v, label: chosen.get(v) ?? `#${v}` });
    return list;
  }, [accounts.data, valueKey, chosen]);

  const remember = (picked: Option | Option[] | undefined) => {
    const next = new Map(chosen);
    for (const o of [picked ?? []].flat()) next.set(o.value, o.label);
    setChosen(next);
  };

  const common = {
    id,
    style,
    allowClear: true,
    disabled: !enabled,
    showSearch: { filterOption: false, onSearch: setKeyword, searchValue: keyword },
    loading: accounts.isFetching,
    placeholder,
    options,
    popupMatchSelectWidth: false,
    onOpenChange: (open: boolean) => !open && setKeyword(''),
  } as const;

  return props.multiple ? (
    <Select<number[], Option>
      {...common}
      mode="multiple"
      value={props.value ?? []}
      onChange={(v, picked) => {
        remember(picked);
        props.onChange?.(v);
      }}
    />
  ) : (
    <Select<number, Option>
      {...common}
      value={props.value}
      onChange={(v, picked) => {
        remember(picked);
        props.onChange?.(v ?? undefined);
      }}
    />
  );
}
