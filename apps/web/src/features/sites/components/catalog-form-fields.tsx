import { CATALOG_EXTERNAL_ID_MAX, CATALOG_NAME_MAX } from '@ads/contracts';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { trimmedLength } from '@/lib/form-rules';
import { tagsRule, urlRule } from './catalog-form-rules';

/**
 * The site's own id and the name: the first fields of the drama and product forms. Inputs take a
 * little more than the limit, so a pasted value with spaces around it is trimmed rather than cut.
 */
export function CatalogIdentityFields({ externalIdHelp, nameLabel }: { externalIdHelp: string; nameLabel: string }) {
  const { t } = useTranslation('assets');
  return (
    <>
      <Form.Item
        name="external_id"
        label={t('catalog.fields.externalId')}
        extra={externalIdHelp}
        validateFirst
        rules={[{ required: true, whitespace: true, message: t('catalog.fields.externalIdRequired') }, trimmedLength(1, CATALOG_EXTERNAL_ID_MAX, t('catalog.fields.maxLength', { max: CATALOG_EXTERNAL_ID_MAX }))]}
      >
        <Input maxLength={80} />
      </Form.Item>
      <Form.Item
        name="name"
        label={nameLabel}
        validateFirst
        rules={[{ required: true, whitespace: true, message: t('catalog.fields.nameRequired') }, trimmedLength(1, CATALOG_NAME_MAX, t('catalog.fields.maxLength', { max: CATALOG_NAME_MAX }))]}
      >
        <Input maxLength={150} />
      </Form.Item>
    </>
  );
}

/** Cover link and tags, shared by the drama and product forms. */
export function CatalogCoverAndTagsFields() {
  const { t } = useTranslation('assets');
  return (
    <>
      <Form.Item name="cover_url" label={t('catalog.fields.cover')} rules={[urlRule(t('catalog.fields.urlInvalid'))]}>
        <Input placeholder="https://" maxLength={1000} />
      </Form.Item>
      <Form.Item name="tags" label={t('catalog.fields.tags')} extra={t('catalog.fields.tagsHelp')} rules={[tagsRule(t('catalog.fields.tagsInvalid'))]}>
        <Select mode="tags" tokenSeparators={[',', '，', ';', '、']} open={false} suffixIcon={null} />
      </Form.Item>
    </>
  );
}
