import { DeleteOutlined, EditOutlined, FolderOpenOutlined, SaveOutlined, SettingOutlined } from '@ant-design/icons';
import type { Platform, PublishTemplate, PublishTemplateSettings } from '@ads/contracts';
import { App, Button, Drawer, Empty, Flex, Form, Input, Modal, Radio, Select, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '@/lib/confirm';
import { applyFieldErrors } from '@/lib/form-errors';
import { formatDateTime } from '@/lib/format';
import { useDeleteTemplate, usePublishTemplates, useSaveTemplate } from '../api/use-templates';

interface SaveValues {
  mode: 'new' | 'update';
  name: string;
  visibility: 'personal' | 'department';
}

interface SaveProps {
  open: boolean;
  platform: Platform;
  /** The template the wizard loaded, offered to update when the caller may edit it. */
  loaded: PublishTemplate | null;
  /** Steps 3–4 as they stand (null when they do not validate). */
  settings: () => PublishTemplateSettings | null;
  onClose: () => void;
  onSaved: (t: PublishTemplate) => void;
}

/** Saves steps 3–4 as a new template, or over the loaded one. */
export function SaveTemplateModal({ open, platform, loaded, settings, onClose, onSaved }: SaveProps) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SaveValues>();
  const save = useSaveTemplate();
  const canUpdate = Boolean(loaded?.editable);
  const mode = Form.useWatch('mode', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(canUpdate && loaded ? { mode: 'update', name: loaded.name, visibility: loaded.visibility } : { mode: 'new', name: '', visibility: 'personal' });
  }, [open, canUpdate, loaded, form]);

  const handleFinish = async (v: SaveValues) => {
    const s = settings();
    if (!s) return;
    try {
      const saved = await save.mutateAsync({ ...(v.mode === 'update' && loaded ? { id: loaded.id } : {}), name: v.name.trim(), platform, visibility: v.visibility, settings: s });
      message.success(t('templates.saved', { name: saved.name }));
      onSaved(saved);
      onClose();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  return (
    <Modal open={open} title={t('templates.saveTitle')} onCancel={onClose} onOk={() => form.submit()} okText={tc('actions.save')} cancelText={tc('actions.cancel')} confirmLoading={save.isPending} forceRender>
      <Form<SaveValues> form={form} layout="vertical" onFinish={handleFinish} name="save-template">
        <Typography.Paragraph type="secondary">{t('templates.saveHelp')}</Typography.Paragraph>
        {canUpdate && loaded && (
          <Form.Item name="mode">
            <Radio.Group
              onChange={(e) => form.setFieldValue('name', e.target.value === 'update' ? loaded.name : '')}
              options={[
                { value: 'update', label: t('templates.update', { name: loaded.name }) },
                { value: 'new', label: t('templates.asNew') },
              ]}
            />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('templates.name')} rules={[{ required: true, whitespace: true, message: t('templates.nameRequired') }, { max: 64, message: t('templates.nameMax', { max: 64 }) }]}>
          <Input maxLength={64} autoFocus={mode !== 'update'} />
        </Form.Item>
        <Form.Item name="visibility" label={t('templates.visibility')}>
          <Radio.Group
            options={[
              { value: 'personal', label: t('templates.personal') },
              { value: 'department', label: t('templates.department') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Renames a template or changes who sees it (its settings stay). */
function RenameModal({ template, onClose }: { template: PublishTemplate | null; onClose: () => void }) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<{ name: string; visibility: 'personal' | 'department' }>();
  const save = useSaveTemplate();
  useEffect(() => {
    if (template) form.setFieldsValue({ name: template.name, visibility: template.visibility });
  }, [template, form]);
  return (
    <Modal open={template !== null} title={t('templates.renameTitle')} onCancel={onClose} onOk={() => form.submit()} okText={tc('actions.save')} cancelText={tc('actions.cancel')} confirmLoading={save.isPending} forceRender>
      <Form
        form={form}
        layout="vertical"
        name="rename-template"
        onFinish={async (v) => {
          if (!template) return;
          try {
            await save.mutateAsync({ id: template.id, name: v.name.trim(), platform: template.platform, visibility: v.visibility, settings: template.settings });
            onClose();
          } catch (err) {
            applyFieldErrors(form, err);
          }
        }}
      >
        <Form.Item name="name" label={t('templates.name')} rules={[{ required: true, whitespace: true, message: t('templates.nameRequired') }, { max: 64, message: t('templates.nameMax', { max: 64 }) }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="visibility" label={t('templates.visibility')}>
          <Radio.Group
            options={[
              { value: 'personal', label: t('templates.personal') },
              { value: 'department', label: t('templates.department') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface BarProps {
  platform: Platform;
  loaded: PublishTemplate | null;
  onLoad: (t: PublishTemplate) => void;
  onSave: () => void;
}

/** The template actions of the wizard: load one, save steps 3–4, and manage (rename, share, delete). */
export function TemplateBar({ platform, loaded, onLoad, onSave }: BarProps) {
  const { t } = useTranslation('publish');
  const { t: tc } = useTranslation();
  const { modal, message } = App.useApp();
  const templates = usePublishTemplates(platform);
  const remove = useDeleteTemplate(platform);
  const [managing, setManaging] = useState(false);
  const [renaming, setRenaming] = useState<PublishTemplate | null>(null);
  const list = templates.data?.list ?? [];

  const handleDelete = (tpl: PublishTemplate) =>
    confirmAction(modal, {
      title: t('templates.deleteTitle', { name: tpl.name }),
      content: tpl.visibility === 'department' ? t('templates.deleteShared') : undefined,
      okText: tc('actions.delete'),
      danger: true,
      action: async () => {
        await remove.mutateAsync(tpl.id);
        message.success(t('templates.deleted', { name: tpl.name }));
      },
    });

  return (
    <>
      <Select<number>
        style={{ width: 220 }}
        placeholder={
          <span>
            <FolderOpenOutlined /> {t('templates.load')}
          </span>
        }
        aria-label={t('templates.load')}
        value={loaded?.id}
        loading={templates.isPending}
        notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('templates.none')} />}
        options={[
          { label: t('templates.personal'), options: list.filter((x) => x.visibility === 'personal').map((x) => ({ value: x.id, label: x.name })) },
          { label: t('templates.department'), options: list.filter((x) => x.visibility === 'department').map((x) => ({ value: x.id, label: `${x.name} · ${x.owner.name}` })) },
        ].filter((g) => g.options.length)}
        onChange={(id) => {
          const tpl = list.find((x) => x.id === id);
          if (tpl) onLoad(tpl);
        }}
      />
      <Button icon={<SaveOutlined />} onClick={onSave}>
        {t('templates.save')}
      </Button>
      <Button icon={<SettingOutlined />} onClick={() => setManaging(true)} aria-label={t('templates.manage')}>
        {t('templates.manage')}
      </Button>
      <Drawer open={managing} title={t('templates.manage')} size={720} onClose={() => setManaging(false)}>
        <Table<PublishTemplate>
          size="small"
          rowKey="id"
          loading={templates.isPending}
          dataSource={list}
          pagination={false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('templates.none')} /> }}
          columns={[
            { key: 'name', title: t('templates.name'), render: (_, x) => <Typography.Text strong>{x.name}</Typography.Text> },
            { key: 'visibility', title: t('templates.visibility'), width: 100, render: (_, x) => <Tag color={x.visibility === 'department' ? 'blue' : undefined}>{t(`templates.${x.visibility}`)}</Tag> },
            { key: 'owner', title: t('templates.owner'), width: 100, render: (_, x) => x.owner.name },
            { key: 'summary', title: t('templates.summary'), width: 150, render: (_, x) => t('templates.summaryText', { accounts: x.settings.where.accounts.length, countries: x.settings.adset.countries.join(',') }) },
            { key: 'updated', title: t('templates.updated'), width: 140, render: (_, x) => formatDateTime(x.updated_at) },
            {
              key: 'actions',
              title: tc('table.actions'),
              width: 150,
              render: (_, x) => (
                <Flex gap={4}>
                  <Button
                    size="small"
                    type="link"
                    onClick={() => {
                      onLoad(x);
                      setManaging(false);
                    }}
                  >
                    {t('templates.loadOne')}
                  </Button>
                  <Button size="small" type="text" icon={<EditOutlined />} disabled={!x.editable} aria-label={t('templates.rename', { name: x.name })} onClick={() => setRenaming(x)} />
                  <Button size="small" type="text" danger icon={<DeleteOutlined />} disabled={!x.editable} aria-label={t('templates.delete', { name: x.name })} onClick={() => handleDelete(x)} />
                </Flex>
              ),
            },
          ]}
        />
      </Drawer>
      <RenameModal template={renaming} onClose={() => setRenaming(null)} />
    </>
  );
}
