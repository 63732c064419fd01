import type { MaterialFacets, MaterialKind, Platform } from '@ads/contracts';
import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { AdAccountSelect } from '@/components/ad-account-select';
import { FilterBar, useRangePresets } from '@/components/list-kit';
import type { MaterialsQuery } from '../api/use-materials';
import { languageName } from './media-format';
import { CatalogPicker, TagsSelect } from './meta-inputs';

/** The filters of the library as they live in the URL. */
export type MaterialFilterValues = Pick<
  MaterialsQuery,
  'keyword' | 'platform' | 'kind' | 'drama_id' | 'product_id' | 'editor_id' | 'uploader_id' | 'language' | 'tags' | 'date_from' | 'date_to' | 'push' | 'ad_account_id'
>;
export const FILTER_KEYS = ['keyword', 'platform', 'kind', 'drama_id', 'product_id', 'editor_id', 'uploader_id', 'language', 'tags', 'date_from', 'date_to', 'push', 'ad_account_id'] as const;

interface FormValues extends Omit<MaterialFilterValues, 'date_from' | 'date_to' | 'drama_id' | 'product_id'> {
  catalog_id?: number | null;
  dates?: [Dayjs, Dayjs] | null;
}

const DAY = 'YYYY-MM-DD';
const PUSH_FILTERS = ['none', 'some', 'active', 'failed'] as const;
/** Everything but the keyword applies as soon as it is chosen. */
const APPLY_ON_CHANGE = new Set(['platform', 'kind', 'catalog_id', 'editor_id', 'uploader_id', 'language', 'tags', 'dates', 'push', 'ad_account_id']);

/** The form's fields for the filters in the URL. */
function toForm(v: MaterialFilterValues): Record<string, unknown> {
  return {
    keyword: v.keyword,
    platform: v.platform,
    kind: v.kind,
    catalog_id: v.drama_id ?? v.product_id ?? null,
    editor_id: v.editor_id,
    uploader_id: v.uploader_id,
    language: v.language,
    tags: v.tags ?? [],
    dates: v.date_from && v.date_to ? [dayjs(v.date_from), dayjs(v.date_to)] : null,
    push: v.push,
    ad_account_id: v.ad_account_id,
  };
}

function toValues(f: FormValues, platform: Platform | undefined): MaterialFilterValues {
  const p = platform ?? f.platform;
  const v: MaterialFilterValues = {
    keyword: f.keyword?.trim() || undefined,
    platform: f.platform ?? undefined,
    kind: f.kind ?? undefined,
    editor_id: f.editor_id ?? undefined,
    uploader_id: f.uploader_id ?? undefined,
    language: f.language ?? undefined,
    tags: f.tags?.length ? f.tags : undefined,
    push: f.push ?? undefined,
    // Only pushes to one account count when a push state is chosen.
    ad_account_id: f.push ? (f.ad_account_id ?? undefined) : undefined,
  };
  if (f.catalog_id != null) Object.assign(v, p === 'ec' ? { product_id: f.catalog_id } : { drama_id: f.catalog_id });
  if (f.dates) Object.assign(v, { date_from: f.dates[0].format(DAY), date_to: f.dates[1].format(DAY) });
  return v;
}

interface Props {
  value: MaterialFilterValues;
  onChange: (next: MaterialFilterValues) => void;
  onReset: () => void;
  /** Fixed by the screen: the filter is left out. */
  lockedPlatform?: Platform;
  lockedKind?: MaterialKind;
  facets: MaterialFacets | undefined;
  canPickCatalog: boolean;
  canPickAdAccount: boolean;
}

/** The filter bar of the library. */
export function MaterialFilters({ value, onChange, onReset, lockedPlatform, lockedKind, facets, canPickCatalog, canPickAdAccount }: Props) {
  const { t } = useTranslation('materials');
  const { t: ta } = useTranslation('assets');
  const [form] = Form.useForm<FormValues>();
  const watchedPlatform = Form.useWatch('platform', form);
  const platform = lockedPlatform ?? watchedPlatform ?? value.platform;
  const push = Form.useWatch('push', form) ?? value.push;

  // Presets (today, last 7 days…) are days in the reporting time zone, as the server files uploads.
  const presets = useRangePresets();
  const languages = [...new Set([...(facets?.languages ?? []), ...(value.language ? [value.language] : [])])];
  const people = (list: { id: number; name: string }[] | undefined, current: number | undefined) => {
    const opts = (list ?? []).map((u) => ({ value: u.id, label: u.name }));
    if (current !== undefined && !opts.some((o) => o.value === current)) opts.unshift({ value: current, label: `#${current}` });
    return opts;
  };

  return (
    <FilterBar<MaterialFilterValues>
      form={form}
      value={value}
      onChange={onChange}
      onReset={onReset}
      toForm={toForm}
      normalize={(v) => toValues(v as FormValues, lockedPlatform)}
      applyOnChange={[...APPLY_ON_CHANGE] as (keyof MaterialFilterValues)[]}
      onValuesChange={(changed, f) => {
        if ('platform' in changed) f.setFieldValue('catalog_id', null);
      }}
    >
      <Form.Item name="keyword" label={t('filters.keyword')}>
        <Input allowClear placeholder={t('filters.keywordPlaceholder')} style={{ width: 200 }} maxLength={100} />
      </Form.Item>
      {!lockedPlatform && (
        <Form.Item name="platform" label={t('filters.platform')}>
          <Select<Platform> allowClear placeholder={ta('common.all')} style={{ width: 110 }} options={(['dj', 'ec'] as const).map((p) => ({ value: p, label: ta(`platform.${p}`) }))} />
        </Form.Item>
      )}
      {!lockedKind && (
        <Form.Item name="kind" label={t('filters.kind')}>
          <Select<MaterialKind> allowClear placeholder={ta('common.all')} style={{ width: 100 }} options={(['video', 'image'] as const).map((k) => ({ value: k, label: t(`kind.${k}`) }))} />
        </Form.Item>
      )}
      <Form.Item name="catalog_id" label={t(platform === 'ec' ? 'filters.product' : 'filters.drama')}>
        <CatalogPicker platform={platform === 'ec' ? 'ec' : 'dj'} enabled={canPickCatalog} placeholder={ta('common.all')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="editor_id" label={t('filters.editor')}>
        <Select<number> allowClear showSearch={{ optionFilterProp: 'label' }} placeholder={ta('common.all')} style={{ width: 140 }} options={people(facets?.editors, value.editor_id)} />
      </Form.Item>
      <Form.Item name="uploader_id" label={t('filters.uploader')}>
        <Select<number> allowClear showSearch={{ optionFilterProp: 'label' }} placeholder={ta('common.all')} style={{ width: 140 }} options={people(facets?.uploaders, value.uploader_id)} />
      </Form.Item>
      <Form.Item name="language" label={t('filters.language')}>
        <Select<string>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={ta('common.all')}
          style={{ width: 140 }}
          popupMatchSelectWidth={false}
          options={languages.map((c) => ({ value: c, label: languageName(c) }))}
        />
      </Form.Item>
      <Form.Item name="tags" label={t('filters.tags')}>
        <TagsSelect chooseOnly maxCount={10} suggestions={facets?.tags} placeholder={ta('common.all')} style={{ minWidth: 160 }} />
      </Form.Item>
      <Form.Item name="dates" label={t('filters.date')}>
        <DatePicker.RangePicker presets={presets} allowClear style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="push" label={t('filters.push')}>
        <Select allowClear placeholder={ta('common.all')} style={{ width: 130 }} popupMatchSelectWidth={false} options={PUSH_FILTERS.map((p) => ({ value: p, label: t(`pushFilter.${p}`) }))} />
      </Form.Item>
      {push && canPickAdAccount && (
        <Form.Item name="ad_account_id" label={t('filters.adAccount')} tooltip={t('filters.adAccountHelp')}>
          <AdAccountSelect placeholder={ta('common.all')} style={{ width: 200 }} />
        </Form.Item>
      )}
    </FilterBar>
  );
}
