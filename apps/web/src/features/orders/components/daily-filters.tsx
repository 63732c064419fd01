import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterBar } from '@/components/list-kit';
import type { OrderDailyQuery } from '../api/use-order-daily-query';
import { OptionSelect } from './option-select';

type Filters = Partial<Pick<OrderDailyQuery, 'site_id' | 'drama_id' | 'product_id' | 'country' | 'attributed'>>;
type FormValues = Omit<Filters, 'attributed'> & { attributed?: 'true' | 'false' };

const APPLY_ON_CHANGE = ['site_id', 'drama_id', 'product_id', 'country', 'attributed'] as const;

interface Props {
  value: Filters;
  onChange: (next: Filters) => void;
  onReset: () => void;
  /** ROI counts buyers acquired through ads only: the attribution filter is fixed then. */
  attributionFixed: boolean;
}

/** 订单分析's filters: site, drama, product, country, attribution (they apply to the figures, the chart and the cohorts). */
export function DailyFilters({ value, onChange, onReset, attributionFixed }: Props) {
  const { t } = useTranslation('orders');
  const flag = value.attributed === undefined ? undefined : value.attributed ? ('true' as const) : ('false' as const);
  return (
    <FilterBar<FormValues>
      value={{ ...value, attributed: attributionFixed ? 'true' : flag }}
      onChange={(v) => onChange({ ...v, attributed: v.attributed === undefined ? undefined : v.attributed === 'true' } as Filters)}
      onReset={onReset}
      applyOnChange={APPLY_ON_CHANGE}
    >
      <Form.Item name="site_id" label={t('filters.site')}>
        <OptionSelect kind="site" toValue={Number} width={150} />
      </Form.Item>
      <Form.Item name="drama_id" label={t('filters.drama')}>
        <OptionSelect kind="drama" toValue={Number} width={160} />
      </Form.Item>
      <Form.Item name="product_id" label={t('filters.product')}>
        <OptionSelect kind="product" toValue={Number} width={150} />
      </Form.Item>
      <Form.Item name="country" label={t('filters.country')}>
        <OptionSelect kind="country" toValue={String} width={150} />
      </Form.Item>
      <Form.Item name="attributed" label={t('filters.attributed')}>
        <Select
          allowClear
          disabled={attributionFixed}
          placeholder={t('filters.all')}
          style={{ width: 150 }}
          options={(['true', 'false'] as const).map((s) => ({ value: s, label: t(`filters.attributedOptions.${s}`) }))}
        />
      </Form.Item>
    </FilterBar>
  );
}
