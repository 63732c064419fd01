import type { Platform } from '@ads/contracts';
import { Select } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import { useAdAccountOptions } from '@/lib/lookups/use-ad-account-options';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';

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
  const search = useRemoteSearch();
  const accounts = useAdAccountOptions(search.term, { enabled });
  // Asked separately, so the preferred accounts lead even when the first page of all accounts holds none of them.
  const preferred = useAdAccountOptions(search.term, { enabled: enabled && Boolean(preferPlatform), ...(preferPlatform && { platform: preferPlatform }) });
  const options = useMemo(() => {
    const first = preferPlatform ? (preferred.data ?? []) : [];
    const rest = (accounts.data ?? []).filter((a) => !first.some((f) => f.id === a.id));
    return [...first, ...rest].map((a): Option => ({ value: a.id, label: `${a.name} (${a.platform_id})` }));
  }, [accounts.data, preferred.data, preferPlatform]);

  const common = {
    id,
    style,
    allowClear: true,
    disabled: !enabled,
    placeholder,
    popupMatchSelectWidth: false,
    labelRender: labelOr(),
    ...search.selectProps(preferPlatform ? [accounts, preferred] : accounts, options),
  } as const;

  return props.multiple ? (
    <Select<number[], Option> {...common} mode="multiple" value={props.value ?? []} onChange={(v) => props.onChange?.(v)} />
  ) : (
    <Select<number, Option> {...common} value={props.value} onChange={(v) => props.onChange?.(v ?? undefined)} />
  );
}
