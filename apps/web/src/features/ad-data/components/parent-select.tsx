import { Select } from 'antd';
import { useMemo } from 'react';
import { todayIn, useReportTimezone } from '@/components/list-kit';
import { useRemoteSearch } from '@/lib/use-remote-search';
import { useAdReport } from '../api/use-ad-report';

interface Props {
  /** Campaigns (for ad sets) or ad sets (for ads) of this ad account. */
  level: 'campaign' | 'adset';
  adAccountId: number;
  value?: number;
  onChange?: (id: number | undefined) => void;
  id?: string;
  placeholder?: string;
}

/** A campaign or ad set of one ad account, searched by name or id, as the target of a copy. */
export function ParentSelect({ level, adAccountId, value, onChange, id, placeholder }: Props) {
  const search = useRemoteSearch();
  const today = todayIn(useReportTimezone());
  const report = useAdReport({ level, page: 1, page_size: 50, date_from: today, date_to: today, ad_account_ids: [adAccountId], status: 'all', sort_field: 'name', sort_order: 'ascend', columns: ['spend'], ...(search.term && { keyword: search.term }) });
  const options = useMemo(() => (report.data?.list ?? []).filter((r) => !r.deleted).map((r) => ({ value: r.id, label: `${r.name} (${r.platform_id ?? r.id})` })), [report.data]);
  return (
    <Select<number>
      id={id}
      allowClear
      placeholder={placeholder}
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
      {...search.selectProps(report, options)}
    />
  );
}
