import { endpoints } from '@ads/contracts';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { ruleKeys } from '../api/use-rules';

const PAGE_SIZE = 20;
type Option = { value: number; label: string };

interface Props {
  value?: number;
  onChange?: (v: number | undefined) => void;
  id?: string;
  width?: number;
}

/**
 * The history's rule filter: rules are searched by name on the server and paged in as the list
 * scrolls (a company may have hundreds of rules). A chosen rule keeps its name when a later search
 * no longer lists it, and a rule from a shared link is looked up by its id.
 */
export function RuleSelect({ value, onChange, id, width = 220 }: Props) {
  const { t } = useTranslation('rules');
  const [keyword, setKeyword] = useState('');
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(new Map());
  const search = useDebouncedValue(keyword.trim());
  const pages = useInfiniteQuery({
    queryKey: [...ruleKeys.all, 'select', search],
    queryFn: ({ pageParam }) => api.call(endpoints.hostingRules.list, { page: pageParam, page_size: PAGE_SIZE, ...(search && { keyword: search }) }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * PAGE_SIZE < last.total ? all.length + 1 : undefined),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const list: Option[] = (pages.data?.pages ?? []).flatMap((p) => p.list.map((r) => ({ value: r.id, label: r.name })));
  // A rule from the URL that no loaded page holds: its name by id (a rule out of scope or deleted shows its id).
  const missing = value !== undefined && !chosen.has(value) && !list.some((o) => o.value === value);
  const single = useQuery({
    queryKey: [...ruleKeys.all, 'select-one', value],
    queryFn: () => api.call(endpoints.hostingRules.get, { id: value! }),
    enabled: missing,
    retry: false,
    staleTime: 60_000,
  });
  if (value !== undefined && !list.some((o) => o.value === value)) {
    list.unshift({ value, label: chosen.get(value) ?? (single.data?.id === value ? single.data.name : `#${value}`) });
  }
  return (
    <Select<number, Option>
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
      onPopupScroll={(e) => {
        const el = e.currentTarget;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 24 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
      }}
      placeholder={t('all')}
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      loading={pages.isFetching}
      options={list}
      style={{ width }}
      popupMatchSelectWidth={false}
    />
  );
}
