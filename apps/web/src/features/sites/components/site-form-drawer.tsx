import { DOMAIN_PATTERN, LINK_TEMPLATE_MAX, LINK_TEMPLATE_MIN, LINK_TEMPLATE_PATTERN, REMARK_MAX, SITE_NAME_MAX, type CreateSiteBody, type Platform, type Site } from '@ads/contracts';
import { Alert, App, Button, Drawer, Flex, Form, Input, Radio, Select } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { usePixelOptions } from '@/lib/lookups/use-pixel-options';
import { applyFieldErrors } from '@/lib/form-errors';
import { labelOr, useRemoteSearch } from '@/lib/use-remote-search';
import { useCreateSite } from '../api/use-create-site';
import { useEditSite } from '../api/use-edit-site';
import { analyzeTemplate, linkHost } from './link-template';
import { LinkPreview, PlaceholderChips } from './link-preview';

interface FormValues {
  name: string;
  domain: string;
  platform: Platform;
  link_template: string;
  pixel_id?: number | null;
  remark?: string;
}


interface Props {
  /** null: closed; 'create' or the site being edited. */
  target: 'create' | Site | null;
  /** False when the viewer may not list pixels (/auth/pixel): the picker is disabled. */
  canPickPixel: boolean;
  onClose: () => void;
  /** After creating: the new site and its webhook secret, to be shown once. */
  onCreated: (site: { id: number; name: string }, secret: string) => void;
}

/** Create or edit a site, with a live preview of the landing link its template expands to. */
export function SiteFormDrawer({ target, canPickPixel, onClose, onCreated }: Props) {
  const { t } = useTranslation('assets');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const createSite = useCreateSite();
  const editSite = useEditSite();
  const editing = target !== null && target !== 'create' ? target : null;
  const template = Form.useWatch('link_template', form) ?? '';
  const domain = Form.useWatch('domain', form) ?? '';
  const templateRef = useRef<TextAreaRef>(null);
  const pixelSearch = useRemoteSearch();
  const pixels = usePixelOptions(pixelSearch.term, { enabled: canPickPixel && target !== null });

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        name: editing.name,
        domain: editing.domain,
        platform: editing.platform,
        link_template: editing.link_template,
        pixel_id: editing.pixel?.id ?? null,
        remark: editing.remark,
      });
  }, [form, target, editing]);

  const pixelOptions = useMemo(() => (pixels.data ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.platform_id})` })), [pixels.data]);

  const host = linkHost(template.trim());
  const cleanDomain = domain.trim().toLowerCase();
  const hostMismatch = host !== '' && DOMAIN_PATTERN.test(cleanDomain) && host !== cleanDomain && !host.endsWith(`.${cleanDomain}`);

  const insertPlaceholder = (placeholder: string) => {
    const el = templateRef.current?.resizableTextArea?.textArea;
    const current: string = form.getFieldValue('link_template') ?? '';
    const start = el?.selectionStart ?? current.length;
    const end = el?.selectionEnd ?? current.length;
    const next = current.slice(0, start) + placeholder + current.slice(end);
    form.setFieldsValue({ link_template: next });
    void form.validateFields(['link_template']);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  };

  const handleFinish = async (v: FormValues) => {
    const body: CreateSiteBody = {
      name: v.name.trim(),
      domain: v.domain.trim().toLowerCase(),
      platform: v.platform,
      link_template: v.link_template.trim(),
      pixel_id: v.pixel_id ?? null,
      remark: v.remark?.trim() ?? '',
    };
    try {
      if (editing) {
        await editSite.mutateAsync({ id: editing.id, ...body });
        message.success(t('sites.saved'));
        onClose();
      } else {
        const created = await createSite.mutateAsync(body);
        onClose();
        onCreated({ id: created.id, name: body.name }, created.webhook_secret);
      }
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  const focusReturn = useDrawerFocusReturn(target !== null);
  return (
    <Drawer
      open={target !== null}
      title={editing ? t('sites.form.editTitle', { name: editing.name }) : t('sites.form.createTitle')}
      size={640}
      onClose={onClose}
      forceRender
      {...focusReturn}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{tc('actions.cancel')}</Button>
          <Button type="primary" loading={createSite.isPending || editSite.isPending} onClick={() => form.submit()}>
            {tc('actions.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues> form={form} layout="vertical" onFinish={handleFinish} initialValues={{ platform: 'dj', link_template: '', pixel_id: null }} name="site-form" autoComplete="off">
        <Form.Item
          name="name"
          label={t('sites.form.name')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('sites.form.nameRequired') },
            { validator: async (_, v?: string) => { if ((v ?? '').trim().length > SITE_NAME_MAX) throw new Error(t('sites.form.nameLength', { max: SITE_NAME_MAX })); } },
          ]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="domain"
          label={t('sites.form.domain')}
          extra={t('sites.form.domainHelp')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('sites.form.domainRequired') },
            { validator: async (_, v?: string) => { if (v?.trim() && !DOMAIN_PATTERN.test(v.trim().toLowerCase())) throw new Error(t('sites.form.domainInvalid')); } },
          ]}
        >
          <Input placeholder="drama.example.com" maxLength={253} />
        </Form.Item>
        <Form.Item
          name="platform"
          label={t('sites.form.platform')}
          // The server locks the business of a site whose catalog has items.
          extra={editing && editing.catalog_count > 0 ? t('sites.form.platformLocked', { count: editing.catalog_count }) : t('sites.form.platformHelp')}
        >
          <Radio.Group
            disabled={!!editing && editing.catalog_count > 0}
            optionType="button"
            options={[
              { value: 'dj', label: t('platform.dj') },
              { value: 'ec', label: t('platform.ec') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="link_template"
          label={t('sites.form.linkTemplate')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('sites.form.linkRequired') },
            {
              validator: async (_, v?: string) => {
                const s = (v ?? '').trim();
                if (!LINK_TEMPLATE_PATTERN.test(s)) throw new Error(t('sites.form.linkHttps'));
                if (s.length < LINK_TEMPLATE_MIN || s.length > LINK_TEMPLATE_MAX) throw new Error(t('sites.form.linkLength', { min: LINK_TEMPLATE_MIN, max: LINK_TEMPLATE_MAX }));
                const { unknown } = analyzeTemplate(s);
                if (unknown.length) throw new Error(t('sites.form.linkUnknown', { list: unknown.join(' '), count: unknown.length }));
              },
            },
          ]}
        >
          <Input.TextArea
            ref={templateRef}
            rows={3}
            spellCheck={false}
            placeholder="https://drama.example.com/play?id={drama_id}&ep={episode}&cid={campaign_id}"
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
        <Flex vertical gap={8} style={{ marginTop: -12, marginBottom: 24 }}>
          <PlaceholderChips onInsert={insertPlaceholder} />
          <div>
            <div style={{ marginBottom: 4, fontSize: 12 }}>{t('sites.preview.title')}</div>
            <LinkPreview template={template} />
          </div>
          {hostMismatch && <Alert type="warning" showIcon title={t('sites.form.hostMismatch', { host, domain: cleanDomain })} />}
        </Flex>
        <Form.Item name="pixel_id" label={t('sites.form.pixel')} extra={canPickPixel ? t('sites.form.pixelHelp') : t('sites.form.pixelNoAccess')}>
          <Select<number>
            allowClear
            disabled={!canPickPixel}
            placeholder={t('sites.form.pixelPlaceholder')}
            labelRender={labelOr((id) => (id === editing?.pixel?.id ? editing.pixel.name : null))}
            {...pixelSearch.selectProps(pixels, pixelOptions)}
          />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('sites.form.remark')}
          rules={[{ validator: async (_, v?: string) => { if ((v ?? '').trim().length > REMARK_MAX) throw new Error(t('sites.form.remarkLength', { max: REMARK_MAX })); } }]}
        >
          <Input.TextArea rows={2} showCount maxLength={REMARK_MAX} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
