import type { DramaTestStatus } from '@ads/contracts';
import { AutoComplete, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { COMMON_LANGUAGES } from './catalog-query';
import { DRAMA_TEST_STATUSES } from './drama-status-tag';
import { FilterBar } from '@/components/list-kit';

export interface CatalogFilterValues {
  keyword?: string;
  language?: string;
  test_status?: DramaTestStatus;
  tag?: string;
}

const clean = (v: CatalogFilterValues): CatalogFilterValues => ({
  keyword: v.keyword?.trim() || undefined,
  language: v.language?.trim() || undefined,
  test_status: v.test_status ?? undefined,
  tag: v.tag?.trim() || undefined,
});

/** Catalog filters: keyword and tag for both kinds; language and test status for dramas. */
export function CatalogFilters({ kind, value, onChange, onReset }: { kind: 'dramas' | 'products'; value: CatalogFilterValues; onChange: (next: CatalogFilterValues) => void; onReset: () => void }) {
  const { t } = useTranslation('assets');


  return (
    <FilterBar<CatalogFilterValues> value={value} onChange={onChange} onReset={onReset} normalize={clean} applyOnChange={['test_status']} label="catalog filters">
      <Form.Item name="keyword" label={t('catalog.filters.keyword')}>
        <Input allowClear placeholder={t('catalog.filters.keywordPlaceholder')} style={{ width: 180 }} maxLength={100} />
      </Form.Item>
      {kind === 'dramas' && (
        <Form.Item name="language" label={t('catalog.filters.language')}>
          <AutoComplete allowClear style={{ width: 110 }} options={COMMON_LANGUAGES.map((l) => ({ value: l }))} placeholder={t('common.all')} />
        </Form.Item>
      )}
      {kind === 'dramas' && (
        <Form.Item name="test_status" label={t('catalog.filters.testStatus')}>
          <Select<DramaTestStatus>
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={DRAMA_TEST_STATUSES.map((s) => ({ value: s, label: t(`testStatus.${s}`) }))}
          />
        </Form.Item>
      )}
      <Form.Item name="tag" label={t('catalog.filters.tag')}>
        <Input allowClear style={{ width: 120 }} maxLength={32} />
      </Form.Item>
    </FilterBar>
  );
}
