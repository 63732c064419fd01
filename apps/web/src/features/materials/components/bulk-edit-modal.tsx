import type { AssignMode, BatchEditMaterialsBody, Material, MaterialFacets } from '@ads/contracts';
import { Alert, App, Checkbox, Flex, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AssignModeField } from '@/components/assign-mode-field';
import { useBatchEditMaterials } from '../api/use-batch-edit-materials';
import { CatalogPicker, EditorPicker, LanguageSelect, TagsSelect } from './meta-inputs';
import { SelectedNames } from './selected-names';

type Field = 'drama_id' | 'product_id' | 'language' | 'editor_id' | 'tags' | 'remark';

interface FormValues {
  change: Partial<Record<Field, boolean>>;
  drama_id?: number | null;
  product_id?: number | null;
  language?: string | null;
  editor_id?: number | null;
  tags?: string[];
  tags_mode: AssignMode;
  remark?: string;
}

/** The batch_edit body: only the ticked fields; a ticked empty field clears it. */
export function batchEditBody(ids: number[], v: FormValues): BatchEditMaterialsBody | null {
  const c = v.change ?? {};
  const body: BatchEditMaterialsBody = { ids };
  if (c.drama_id) body.drama_id = v.drama_id ?? null;
  if (c.product_id) body.product_id = v.product_id ?? null;
  if (c.language) body.language = v.language ?? null;
  if (c.editor_id) body.editor_id = v.editor_id ?? null;
  if (c.tags) Object.assign(body, { tags: v.tags ?? [], tags_mode: v.tags_mode });
  if (c.remark) body.remark = v.remark?.trim() ?? '';
  return Object.keys(body).length > 1 ? body : null;
}

interface Props {
  /** The materials to change; null: closed. */
  materials: readonly Material[] | null;
  facets: MaterialFacets | undefined;
  canPickCatalog: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** 批量修改: drama or product, language, editor, tags (add / replace / remove) and remark of many materials. */
export function BulkEditModal({ materials, facets, canPickCatalog, onClose, onSaved }: Props) {
  const { t } = useTranslation('materials');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const batchEdit = useBatchEditMaterials();
  const [nothing, setNothing] = useState(false);
  const change = Form.useWatch('change', form) ?? {};
  const count = materials?.length ?? 0;
  const hasDrama = materials?.some((m) => m.platform === 'dj') ?? false;
  const hasProduct = materials?.some((m) => m.platform === 'ec') ?? false;

  useEffect(() => {
    if (materials) form.resetFields();
  }, [form, materials]);

  const close = () => {
    setNothing(false);
    onClose();
  };

  const handleFinish = async (v: FormValues) => {
    if (!materials) return;
    const body = batchEditBody(
      materials.map((m) => m.id),
      v,
    );
    if (!body) {
      setNothing(true);
      return;
    }
    try {
      const { updated } = await batchEdit.mutateAsync(body);
      message.success(t('bulkEdit.saved', { count: updated }));
      setNothing(false);
      onSaved();
    } catch {
      // The request layer has shown why; keep the dialog open.
    }
  };

  /** A field with its "change" tick; choosing a value ticks it, a ticked empty value clears. */
  const row = (field: Field, label: string, input: ReactNode, extra?: ReactNode) => (
    <Form.Item label={label} required={false} style={{ marginBottom: 12 }}>
      <Flex vertical gap={4}>
        <Flex gap={8} align="center">
          <Form.Item name={['change', field]} valuePropName="checked" noStyle>
            <Checkbox aria-label={`${t('bulkEdit.change')}: ${label}`} />
          </Form.Item>
          <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
        </Flex>
        {extra}
        {change[field] && field !== 'tags' && (
          <Typography.Text type="secondary" style={{ fontSize: 12, paddingInlineStart: 24 }}>
            {t('bulkEdit.clearHint')}
          </Typography.Text>
        )}
      </Flex>
    </Form.Item>
  );

  return (
    <Modal
      open={materials !== null}
      title={t('bulkEdit.title')}
      onCancel={close}
      onOk={() => form.submit()}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={batchEdit.isPending}
      width={640}
      forceRender
    >
      <Typography.Paragraph style={{ margin: '12px 0 8px' }}>{t('bulkEdit.selected', { count })}</Typography.Paragraph>
      <SelectedNames names={materials?.map((m) => m.file_name) ?? []} />
      <Form<FormValues>
        form={form}
        layout="vertical"
        name="bulk-edit-materials"
        initialValues={{ change: {}, tags: [], tags_mode: 'add' }}
        onFinish={handleFinish}
        onValuesChange={(changed: Partial<FormValues>) => {
          const touched = (Object.keys(changed) as (keyof FormValues)[]).filter((k): k is Field => k !== 'change' && k !== 'tags_mode');
          // Each tick by its own path: setting the parent object would not re-render the boxes.
          for (const k of touched) form.setFieldValue(['change', k], true);
          if ('tags_mode' in changed) form.setFieldValue(['change', 'tags'], true);
          setNothing(false);
        }}
        style={{ marginTop: 16 }}
      >
        {hasDrama &&
          row(
            'drama_id',
            t('fields.drama'),
            <Form.Item name="drama_id" noStyle>
              <CatalogPicker platform="dj" enabled={canPickCatalog} style={{ width: '100%' }} />
            </Form.Item>,
          )}
        {hasProduct &&
          row(
            'product_id',
            t('fields.product'),
            <Form.Item name="product_id" noStyle>
              <CatalogPicker platform="ec" enabled={canPickCatalog} style={{ width: '100%' }} />
            </Form.Item>,
          )}
        {row(
          'language',
          t('fields.language'),
          <Form.Item name="language" noStyle>
            <LanguageSelect extra={facets?.languages} placeholder={t('placeholders.language')} style={{ width: '100%' }} />
          </Form.Item>,
        )}
        {row(
          'editor_id',
          t('fields.editor'),
          <Form.Item name="editor_id" noStyle>
            <EditorPicker placeholder={t('placeholders.editor')} style={{ width: '100%' }} />
          </Form.Item>,
        )}
        {row(
          'tags',
          t('fields.tags'),
          <Form.Item name="tags" noStyle>
            <TagsSelect suggestions={facets?.tags} placeholder={t('placeholders.tags')} style={{ width: '100%' }} />
          </Form.Item>,
          change.tags && (
            <div style={{ paddingInlineStart: 24 }}>
              <Form.Item name="tags_mode" noStyle>
                <AssignModeField what={t('bulkEdit.tagsWhat')} target={t('bulkEdit.tagsTarget', { count })} />
              </Form.Item>
            </div>
          ),
        )}
        {row(
          'remark',
          t('fields.remark'),
          <Form.Item name="remark" noStyle>
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={500} placeholder={t('placeholders.remark')} />
          </Form.Item>,
        )}
        {nothing && <Alert type="warning" showIcon title={t('bulkEdit.nothing')} />}
      </Form>
    </Modal>
  );
}
