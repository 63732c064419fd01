import { Form, Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterBar } from '@/components/list-kit';
import type { OrderListQuery } from '../api/use-orders';
import { OptionSelect } from './option-select';

type Filters = Partial<Pick<OrderListQuery, 'site_id' | 'drama_id' | 'product_id' | 'campaign_id' | 'ad_id' | 'country' | 'new_payer' | 'status' | 'attributed' | 'amount_min' | 'amount_max' | 'order_no' | 'app_user_id'>>;
/** Yes/no filters are 'true' / 'false' in the form (select values are strings). */
type FormValues = Omit<Filters, 'new_payer' | 'attributed'> & { new_payer?: 'true' | 'false'; attributed?: 'true' | 'false' };

const APPLY_ON_CHANGE = ['site_id', 'drama_id', 'product_id', 'campaign_id', 'ad_id', 'country', 'new_payer', 'status', 'attributed'] as const;
const asFlag = (v: boolean | undefined) => (v === undefined ? undefined : v ? ('true' as const) : ('false' as const));
const fromFlag = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
const num = String;

function normalize(v: Partial<FormValues>): Partial<FormValues> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const value = typeof x === 'string' ? x.trim() : x;
    if (value !== undefined && value !== null && value !== '') out[k] = value;
  }
  return out as Partial<FormValues>;
}

interface Props {
  value: Filters;
  onChange: (next: Filters) => void;
  onReset: () => void;
}

/** The order list's filters: site, drama or product, campaign or ad, country, new or returning, status, attribution, amount, order number and user. */
export function OrderFilters({ value, onChange, onReset }: Props) {
  const { t } = useTranslation('orders');
  return (
    <FilterBar<FormValues>
      value={{ ...value, new_payer: asFlag(value.new_payer), attributed: asFlag(value.attributed) }}
      onChange={(v) => onChange({ ...v, new_payer: fromFlag(v.new_payer), attributed: fromFlag(v.attributed) } as Filters)}
      onReset={onReset}
      normalize={normalize}
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
      <Form.Item name="campaign_id" label={t('filters.campaign')}>
        <OptionSelect kind="campaign" toValue={num} width={170} />
      </Form.Item>
      <Form.Item name="ad_id" label={t('filters.ad')}>
        <OptionSelect kind="ad" toValue={num} width={160} />
      </Form.Item>
      <Form.Item name="country" label={t('filters.country')}>
        <OptionSelect kind="country" toValue={num} width={150} />
      </Form.Item>
      <Form.Item name="new_payer" label={t('filters.payer')}>
        <Select allowClear placeholder={t('filters.all')} style={{ width: 110 }} options={[{ value: 'true', label: t('payer.new') }, { value: 'false', label: t('payer.returning') }]} />
      </Form.Item>
      <Form.Item name="status" label={t('filters.status')}>
        <Select allowClear placeholder={t('filters.all')} style={{ width: 130 }} options={(['paid', 'partially_refunded', 'refunded'] as const).map((s) => ({ value: s, label: t(`status.${s}`) }))} />
      </Form.Item>
      <Form.Item name="attributed" label={t('filters.attributed')}>
        <Select allowClear placeholder={t('filters.all')} style={{ width: 130 }} options={(['true', 'false'] as const).map((s) => ({ value: s, label: t(`filters.attributedOptions.${s}`) }))} />
      </Form.Item>
      <Form.Item label={t('filters.amount')}>
        <Space.Compact>
          <Form.Item name="amount_min" noStyle>
            <InputNumber min={0} max={1e9} precision={2} placeholder={t('filters.amountMin')} aria-label={`${t('filters.amount')} ${t('filters.amountMin')}`} style={{ width: 90 }} />
          </Form.Item>
          <Form.Item name="amount_max" noStyle>
            <InputNumber min={0} max={1e9} precision={2} placeholder={t('filters.amountMax')} aria-label={`${t('filters.amount')} ${t('filters.amountMax')}`} style={{ width: 90 }} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item name="order_no" label={t('filters.orderNo')}>
        <Input allowClear maxLength={64} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="app_user_id" label={t('filters.appUserId')}>
        <Input allowClear maxLength={64} style={{ width: 140 }} />
      </Form.Item>
    </FilterBar>
  );
}
