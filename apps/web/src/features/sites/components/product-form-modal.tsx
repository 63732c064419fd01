import type { Product } from '@ads/contracts';
import { App, AutoComplete, Form, Input, InputNumber, Modal, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '@/lib/form-errors';
import { currencyDecimals } from '@/lib/format';
import { useCreateProduct } from '../api/use-create-product';
import { useEditProduct } from '../api/use-edit-product';
import { CatalogCoverAndTagsFields, CatalogIdentityFields } from './catalog-form-fields';
import { cleanTags, urlRule } from './catalog-form-rules';

interface FormValues {
  external_id: string;
  name: string;
  url: string;
  price: number;
  currency: string;
  cover_url?: string;
  tags?: string[];
}

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'KRW', 'TWD', 'HKD', 'SGD', 'AUD', 'CAD', 'CNY', 'THB', 'MYR', 'PHP', 'IDR', 'VND', 'BRL', 'MXN'];

interface Props {
  siteId: number;
  target: 'create' | Product | null;
  onClose: () => void;
}

/** Create or edit a product of a shop site's catalog. */
export function ProductFormModal({ siteId, target, onClose }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateProduct();
  const edit = useEditProduct();
  const editing = target !== null && target !== 'create' ? target : null;
  const currency: string = Form.useWatch('currency', form) ?? 'USD';

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        external_id: editing.external_id,
        name: editing.name,
        url: editing.url,
        price: editing.price,
        currency: editing.currency,
        cover_url: editing.cover_url ?? '',
        tags: editing.tags,
      });
  }, [form, target, editing]);

  const handleFinish = async (v: FormValues) => {
    const body = {
      external_id: v.external_id.trim(),
      name: v.name.trim(),
      url: v.url.trim(),
      price: v.price,
      currency: v.currency.trim().toUpperCase(),
      cover_url: v.cover_url?.trim() || null,
      tags: cleanTags(v.tags),
    };
    try {
      if (editing) await edit.mutateAsync({ id: editing.id, ...body });
      else await create.mutateAsync({ site_id: siteId, ...body });
      message.success(editing ? t('catalog.saved') : t('catalog.productCreated', { name: body.name }));
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={editing ? t('catalog.productForm.editTitle', { name: editing.name }) : t('catalog.productForm.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={create.isPending || edit.isPending}
      width={600}
      forceRender
    >
      <Form<FormValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '100px' }}
        onFinish={handleFinish}
        initialValues={{ currency: 'USD', tags: [] }}
        style={{ marginTop: 16 }}
        name="product-form"
        autoComplete="off"
      >
        <CatalogIdentityFields externalIdHelp={t('catalog.productForm.externalIdHelp')} nameLabel={t('catalog.fields.productName')} />
        <Form.Item
          name="url"
          label={t('catalog.fields.url')}
          validateFirst
          rules={[{ required: true, whitespace: true, message: t('catalog.fields.urlRequired') }, urlRule(t('catalog.fields.urlInvalid'))]}
        >
          <Input placeholder="https://" maxLength={1000} />
        </Form.Item>
        <Form.Item label={t('catalog.fields.price')} required>
          <Space.Compact>
            <Form.Item name="price" noStyle rules={[{ required: true, message: t('catalog.fields.priceRequired') }]}>
              <InputNumber min={0} max={1_000_000} precision={currencyDecimals(currency)} style={{ width: 160 }} aria-label={t('catalog.fields.price')} />
            </Form.Item>
            <Form.Item
              name="currency"
              noStyle
              rules={[{ validator: async (_, v?: string) => { if (!/^[A-Za-z]{3}$/.test((v ?? '').trim())) throw new Error(t('catalog.fields.currencyInvalid')); } }]}
            >
              <AutoComplete options={CURRENCIES.map((c) => ({ value: c }))} style={{ width: 100 }} aria-label={t('catalog.fields.currency')} />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <CatalogCoverAndTagsFields />
      </Form>
    </Modal>
  );
}
