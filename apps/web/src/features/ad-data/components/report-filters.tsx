import { endpoints, type ReportLevel } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AdAccountSelect } from '@/components/ad-account-select';
import { FilterBar } from '@/components/list-kit';
import { useDramaOptions, useProductOptions } from '@/lib/lookups/use-catalog-options';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';
import { canCall, useViewer } from '@/lib/permissions';

export interface ReportFilterValues {
  platform?: 'dj' | 'ec';
  ad_account_ids?: number[];
  status?: 'active' | 'paused' | 'deleted' | 'all';
  keyword?: string;
  drama_id?: number;
  product_id?: number;
}

const APPLY_ON_CHANGE = ['platform', 'ad_account_ids', 'status', 'drama_id', 'product_id'] as const;

function CatalogSelect({ kind, value, onChange, id, placeholder }: { kind: 'drama' | 'product'; value?: number; onChange?: (v: number | undefined) => void; id?: string; placeholder?: string }) {
  const search = useRemoteSearch();
  const dramas = useDramaOptions(search.term, { enabled: kind === 'drama' });
  const products = useProductOptions(search.term, { enabled: kind === 'product' });
  const source = kind === 'drama' ? dramas : products;
  const options = useMemo(() => (source.data ?? []).map((o) => ({ value: o.id, label: `${o.name} · ${o.site}` })), [source.data]);
  return (
    <Select<number>
      id={id}
      allowClear
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      placeholder={placeholder}
      labelRender={labelOr()}
      style={{ width: 180 }}
      popupMatchSelectWidth={false}
      {...search.selectProps(source, options)}
    />
  );
}

interface Props {
  level: ReportLevel;
  value: ReportFilterValues;
  onChange: (next: ReportFilterValues) => void;
  onReset: () => void;
  /** The viewer may read the drama / product catalog (the pickers' lists). */
  canPickCatalog: boolean;
  /** An ad-account parent comes from the drill-down: the account filter is then fixed by it. */
  accountFromParent: boolean;
}

/** The filters of every report level: platform, ad account, status, name or id, drama or product. */
export function ReportFilters({ level, value, onChange, onReset, canPickCatalog, accountFromParent }: Props) {
  const { t } = useTranslation('adData');
  const [form] = Form.useForm<ReportFilterValues>();
  const platform = Form.useWatch('platform', form);
  const viewer = useViewer();
  const canListAccounts = canCall(viewer, endpoints.adAccounts.list);
  return (
    <FilterBar<ReportFilterValues> form={form} value={value} onChange={onChange} onReset={onReset} applyOnChange={APPLY_ON_CHANGE}>
      <Form.Item name="keyword" label={t('filters.keyword')}>
        <Input allowClear placeholder={t(`filters.keywordPlaceholder.${level}`)} style={{ width: 200 }} maxLength={100} />
      </Form.Item>
      <Form.Item name="platform" label={t('filters.platform')}>
        <Select allowClear placeholder={t('filters.all')} style={{ width: 110 }} options={(['dj', 'ec'] as const).map((p) => ({ value: p, label: t(`platform.${p}`) }))} />
      </Form.Item>
      {!accountFromParent && canListAccounts && (
        <Form.Item name="ad_account_ids" label={t('filters.adAccount')}>
          <AdAccountSelect multiple placeholder={t('filters.all')} style={{ minWidth: 200, maxWidth: 320 }} />
        </Form.Item>
      )}
      <Form.Item name="status" label={t('filters.status')}>
        <Select allowClear placeholder={t('filters.statusDefault')} style={{ width: 130 }} options={(['active', 'paused', 'deleted', 'all'] as const).map((s) => ({ value: s, label: t(`filters.statuses.${s}`) }))} />
      </Form.Item>
      {canPickCatalog && platform !== 'ec' && (
        <Form.Item name="drama_id" label={t('filters.drama')}>
          <CatalogSelect kind="drama" placeholder={t('filters.all')} />
        </Form.Item>
      )}
      {canPickCatalog && platform !== 'dj' && (
        <Form.Item name="product_id" label={t('filters.product')}>
          <CatalogSelect kind="product" placeholder={t('filters.all')} />
        </Form.Item>
      )}
    </FilterBar>
  );
}
