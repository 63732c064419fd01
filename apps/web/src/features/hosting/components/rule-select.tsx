import { endpoints } from '@ads/contracts';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';
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
 * The history's rule filter: rules are searched by name on the server (the pickers' remote search)
 * and paged in as the list scrolls (a company may have hundreds of rules). A rule from a shared
 * link that no loaded page holds is looked up by its id.
 */
export function RuleSelect({ value, onChange, id, width = 220 }: Props) {
  const { t } = useTranslation('rules');
  const [open, setOpen] = useState(false);
  const search = useRemoteSearch();
  const pages = useInfiniteQuery({
    queryKey: [...ruleKeys.all, 'select', search.term],
    queryFn: ({ pageParam }) => api.call(endpoints.hostingRules.list, { page: pageParam, page_size: PAGE_SIZE, ...(search.term && { keyword: search.term }) }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * PAGE_SIZE < last.total ? all.length + 1 : undefined),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const list: Option[] = (pages.data?.pages ?? []).flatMap((p) => p.list.map((r) => ({ value: r.id, label: r.name })));
  // A rule from the URL that no loaded page holds: its name by id (a rule out of scope or deleted shows its id).
  const single = useQuery({
    queryKey: [...ruleKeys.all, 'select-one', value],
    queryFn: () => api.call(endpoints.hostingRules.get, { id: value! }),
    enabled: value !== undefined && !list.some((o) => o.value === value),
    retry: false,
    staleTime: 60_000,
  });
  const name = single.data?.id === value ? single.data?.name : undefined;
  if (value !== undefined && name !== undefined && !list.some((o) => o.value === value)) list.unshift({ value, label: name });
  const props = search.selectProps(pages, list);
  return (
    <Select<number, Option>
      id={id}
      allowClear
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      {...props}
      onOpenChange={(isOpen) => {
        setOpen(isOpen);
        props.onOpenChange?.(isOpen);
      }}
      onPopupScroll={(e) => {
        const el = e.currentTarget;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 24 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
      }}
      labelRender={labelOr(() => name)}
      placeholder={t('all')}
      style={{ width }}
      popupMatchSelectWidth={false}
    />
  );
}
