import type { Platform } from '@ads/contracts';
import { AdAccountFilterItems } from '@/components/ad-account-filter-items';
import { FilterBar } from '@/components/list-kit';

export interface HostingFilterValues {
  keyword?: string;
  platform?: Platform;
  account_status?: number;
}

const clean = (v: HostingFilterValues): HostingFilterValues => ({
  keyword: v.keyword?.trim() || undefined,
  platform: v.platform ?? undefined,
  account_status: v.account_status ?? undefined,
});

/** Filters of the hosting screen's ad-account lists. */
export function HostingFilters({ value, onChange, onReset }: { value: HostingFilterValues; onChange: (next: HostingFilterValues) => void; onReset: () => void }) {
  return (
    <FilterBar<HostingFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={['platform', 'account_status']}>
      <AdAccountFilterItems />
    </FilterBar>
  );
}
