import type { Platform } from '@ads/contracts';
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
  /** Accounts of this platform are offered first (a drama clip goes to drama accounts), then the rest. */
  preferPlatform?: Platform;
}

type Props =
  | (CommonProps & { multiple: true; value?: number[]; onChange?: (ids: number[]) => void })
  | (CommonProps & { multiple?: false; value?: number; onChange?: (id: number | undefined) => void });

/** Ad accounts searched on the server by name, act_ id or number; one or several. */
export function AdAccountSelect(props: Props) {
  const { placeholder, id, style, enabled = true, preferPlatform } = props;
  const [keyword, setKeyword] = useState('');
  // Labels of chosen accounts, so they keep their names when a search no longer lists them.
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const debounced = useDebouncedValue(keyword.trim());
  const accounts = useAdAccountOptions(debounced, { enabled });
  // Asked separately, so the preferred accounts lead even when the first page of all accounts holds none of them.
  const preferred = useAdAccountOptions(debounced, { enabled: enabled && Boolean(preferPlatform), ...(preferPlatform && { platform: preferPlatform }) });
  const valueKey = props.multiple ? (props.value ?? []).join(',') : String(props.value ?? '');
  const options = useMemo(() => {
    const first = preferPlatform ? (preferred.data ?? []) : [];
    const rest = (accounts.data ?? []).filter((a) => !first.some((f) => f.id === a.id));
    const list: Option[] = [...first, ...rest].map((a) => ({ value: a.id, label: `${a.name} (${a.platform_id})` }));
    const values = valueKey ? valueKey.split(',').map(Number) : [];
    for (const v of values) if (!list.some((o) => o.value === v)) list.unshift({ value: v, label: chosen.get(v) ?? `#${v}` });
    return list;
  }, [accounts.data, preferred.data, preferPlatform, valueKey, chosen]);

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
    loading: accounts.isFetching || (Boolean(preferPlatform) && preferred.isFetching),
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
