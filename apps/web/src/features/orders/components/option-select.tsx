import type { OrderOptionKind } from '@ads/contracts';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOrderOptions } from '../api/use-order-options';
import { countryName } from './format';

type Option<V> = { value: V; label: string };

interface Props<V extends string | number> {
  kind: OrderOptionKind;
  value?: V;
  onChange?: (v: V | undefined) => void;
  id?: string;
  placeholder?: string;
  width?: number;
  /** Ids (site, drama, product) are numbers in the list state; platform ids and country codes stay strings. */
  toValue: (raw: string) => V;
}

/**
 * A filter picker over /orders/options: type to search by name or id. A chosen value keeps its
 * name when a later search no longer lists it, and a value from a shared link shows its id.
 */
export function OptionSelect<V extends string | number>({ kind, value, onChange, id, placeholder, width = 170, toValue }: Props<V>) {
  const { t } = useTranslation('orders');
  const [keyword, setKeyword] = useState('');
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<ReadonlyMap<V, string>>(new Map());
  const debounced = useDebouncedValue(keyword.trim());
  // Choices load once the picker opens, or when a value from the URL needs its name.
  const options = useOrderOptions(kind, debounced, { enabled: open || (value !== undefined && !chosen.has(value)) });
  const list: Option<V>[] = (options.data ?? []).map((o) => {
    const label = kind === 'country' ? countryName(o.value) : o.hint && o.hint !== o.label ? `${o.label} · ${o.hint}` : o.label;
    return { value: toValue(o.value), label };
  });
  if (value !== undefined && !list.some((o) => o.value === value)) {
    list.unshift({ value, label: chosen.get(value) ?? (kind === 'country' ? countryName(String(value)) : typeof value === 'number' ? `#${value}` : String(value)) });
  }
  return (
    <Select<V, Option<V>>
      id={id}
      allowClear
      value={value}
      onChange={(v, picked) => {
        if (picked && !Array.isArray(picked)) setChosen(new Map(chosen).set(picked.value, picked.label));
        onChange?.(v ?? undefined);
      }}
      onOpenChange={(isOpen) => {
        setOpen(isOpen);
        if (!isOpen) setKeyword('');
      }}
      placeholder={placeholder ?? t('filters.all')}
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      loading={options.isFetching}
      options={list}
      style={{ width }}
      popupMatchSelectWidth={false}
    />
  );
}
