import type { Drama, DramaTestStatus } from '@ads/contracts';
import { App, AutoComplete, Form, InputNumber, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '@/lib/form-errors';
import { trimmedLength } from '@/lib/form-rules';
import { useCreateDrama } from '../api/use-create-drama';
import { useEditDrama } from '../api/use-edit-drama';
import { CatalogCoverAndTagsFields, CatalogIdentityFields } from './catalog-form-fields';
import { cleanTags } from './catalog-form-rules';
import { COMMON_LANGUAGES } from './catalog-query';
import { DRAMA_TEST_STATUSES } from './drama-status-tag';

interface FormValues {
  external_id: string;
  name: string;
  language: string;
  episode_count: number;
  cover_url?: string;
  tags?: string[];
  test_status: DramaTestStatus;
}

interface Props {
  siteId: number;
  /** null: closed; 'create' or the drama being edited. */
  target: 'create' | Drama | null;
  onClose: () => void;
}

/** Create or edit a drama of a site's catalog. */
export function DramaFormModal({ siteId, target, onClose }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateDrama();
  const edit = useEditDrama();
  const editing = target !== null && target !== 'create' ? target : null;

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        external_id: editing.external_id,
        name: editing.name,
        language: editing.language,
        episode_count: editing.episode_count,
        cover_url: editing.cover_url ?? '',
        tags: editing.tags,
        test_status: editing.test_status,
      });
  }, [form, target, editing]);

  const handleFinish = async (v: FormValues) => {
    const body = {
      external_id: v.external_id.trim(),
      name: v.name.trim(),
      language: v.language.trim(),
      episode_count: v.episode_count,
      cover_url: v.cover_url?.trim() || null,
      tags: cleanTags(v.tags),
      test_status: v.test_status,
    };
    try {
      if (editing) await edit.mutateAsync({ id: editing.id, ...body });
      else await create.mutateAsync({ site_id: siteId, ...body });
      message.success(editing ? t('catalog.saved') : t('catalog.dramaCreated', { name: body.name }));
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={editing ? t('catalog.dramaForm.editTitle', { name: editing.name }) : t('catalog.dramaForm.createTitle')}
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
        initialValues={{ test_status: 'untested', tags: [], episode_count: 1 }}
        style={{ marginTop: 16 }}
        name="drama-form"
        autoComplete="off"
      >
        <CatalogIdentityFields externalIdHelp={t('catalog.dramaForm.externalIdHelp')} nameLabel={t('catalog.fields.name')} />
        <Form.Item
          name="language"
          label={t('catalog.fields.language')}
          validateFirst
          rules={[{ required: true, whitespace: true, message: t('catalog.fields.languageRequired') }, trimmedLength(2, 16, t('catalog.fields.languageLength'))]}
        >
          <AutoComplete options={COMMON_LANGUAGES.map((l) => ({ value: l }))} placeholder="en" />
        </Form.Item>
        <Form.Item name="episode_count" label={t('catalog.fields.episodes')} rules={[{ required: true, message: t('catalog.fields.episodesRequired') }]}>
          <InputNumber min={1} max={10_000} precision={0} style={{ width: 140 }} />
        </Form.Item>
        <CatalogCoverAndTagsFields />
        <Form.Item name="test_status" label={t('catalog.fields.testStatus')}>
          <Select<DramaTestStatus> options={DRAMA_TEST_STATUSES.map((s) => ({ value: s, label: t(`testStatus.${s}`) }))} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
