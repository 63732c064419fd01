import type { AdLevel, AdOpsCopyBody, AdReportRow } from '@ads/contracts';
import { Alert, Button, Flex, Form, Input, InputNumber, List, Modal, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyDecimals } from '@/lib/format';
import { usePixelOptions } from '@/lib/lookups/use-pixel-options';
import { hasPath, useViewer } from '@/lib/permissions';
import { useCopyAdObjects, type AdOpResult } from '../api/use-ad-data-mutations';
import { OpResultsTable } from './op-results-table';
import { ParentSelect } from './parent-select';

export interface CopyRequest {
  level: AdLevel;
  rows: AdReportRow[];
}

interface FormValues {
  copies: number;
  status: 'ACTIVE' | 'PAUSED';
  rename_suffix?: string;
  name?: string;
  daily_budget?: number;
  parent_id?: number;
  pixel_id?: string;
  custom_event_type?: string;
}

/** Conversion events an ad set can optimise for (the platform's custom_event_type values). */
const EVENTS = ['PURCHASE', 'COMPLETE_REGISTRATION', 'ADD_TO_CART', 'INITIATE_CHECKOUT', 'ADD_PAYMENT_INFO', 'LEAD', 'CONTENT_VIEW', 'SUBSCRIBE'];

/**
 * Copy campaigns, ad sets or ads: how many, on or off, a name suffix; a campaign with another
 * name or budget; an ad set into another campaign or with another pixel or conversion event (the
 * server then re-creates it, since a published ad set's pixel cannot change); an ad into another
 * ad set. A confirmation lists the copies to make, then each one's result.
 */
/** A key per request object, so each opened request starts the dialog afresh. */
const keys = new WeakMap<object, number>();
let nextKey = 0;
const keyOf = (r: object) => {
  if (!keys.has(r)) keys.set(r, ++nextKey);
  return keys.get(r)!;
};

export function CopyModal({ request, onClose, onDone }: { request: CopyRequest | null; onClose: () => void; onDone: (results: AdOpResult[]) => void }) {
  return request ? <CopyModalDialog key={keyOf(request)} request={request} onClose={onClose} onDone={onDone} /> : null;
}

function CopyModalDialog({ request, onClose, onDone }: { request: CopyRequest; onClose: () => void; onDone: (results: AdOpResult[]) => void }) {
  const { t } = useTranslation('adData');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const copy = useCopyAdObjects();
  const viewer = useViewer();
  const [step, setStep] = useState<'form' | 'confirm' | 'done'>('form');
  const [body, setBody] = useState<AdOpsCopyBody | null>(null);
  const [results, setResults] = useState<AdOpResult[]>([]);
  const [pixelKeyword, setPixelKeyword] = useState('');
  const canListPixels = hasPath(viewer, '/auth/pixel');
  const pixels = usePixelOptions(pixelKeyword, { enabled: canListPixels && request.level === 'adset' });
  const { rows, level } = request;
  const accounts = [...new Set(rows.map((r) => r.ad_account?.id))];
  const oneAccount = accounts.length === 1 ? accounts[0] : undefined;
  const currency = rows[0]?.currency ?? 'USD';


  const review = async () => {
    const v = await form.validateFields();
    setBody({
      level: request.level,
      ids: request.rows.map((r) => r.id),
      copies: v.copies,
      status: v.status,
      ...(v.rename_suffix?.trim() && { rename_suffix: v.rename_suffix }),
      ...(v.name?.trim() && { name: v.name.trim() }),
      ...(v.daily_budget !== undefined && v.daily_budget !== null && { daily_budget: v.daily_budget }),
      ...(v.parent_id !== undefined && { parent_id: v.parent_id }),
      ...(v.pixel_id?.trim() && { pixel_id: v.pixel_id.trim() }),
      ...(v.custom_event_type && { custom_event_type: v.custom_event_type }),
    });
    setStep('confirm');
  };

  const confirm = async () => {
    if (!body) return;
    try {
      const answer = await copy.mutateAsync(body);
      setResults(answer.results);
      setStep('done');
      onDone(answer.results);
    } catch {
      // Said by the request layer; the confirmation stays.
    }
  };

  const failed = results.filter((r) => r.result === 'failed').length;
  const summary = body
    ? [
        t('copy.summary.copies', { count: body.copies ?? 1 }),
        t(body.status === 'ACTIVE' ? 'copy.summary.active' : 'copy.summary.paused'),
        ...(body.parent_id !== undefined ? [t('copy.summary.parent', { level: t(`levels.${level === 'ad' ? 'adset' : 'campaign'}`), id: body.parent_id })] : [t('copy.summary.sameParent')]),
        ...(body.name ? [t('copy.summary.name', { name: body.name })] : []),
        ...(body.rename_suffix ? [t('copy.summary.suffix', { suffix: body.rename_suffix })] : []),
        ...(body.daily_budget !== undefined ? [t('copy.summary.budget', { budget: `${currency} ${body.daily_budget}` })] : []),
        ...(body.pixel_id ? [t('copy.summary.pixel', { pixel: body.pixel_id })] : []),
        ...(body.custom_event_type ? [t('copy.summary.event', { event: body.custom_event_type })] : []),
        ...(body.pixel_id || body.custom_event_type ? [t('copy.summary.recreate')] : []),
      ]
    : [];

  const footer =
    step === 'form' ? (
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" onClick={() => void review()}>
          {t('ops.review')}
        </Button>
      </Flex>
    ) : step === 'confirm' ? (
      <Flex justify="end" gap={8}>
        <Button onClick={() => setStep('form')}>{t('ops.back')}</Button>
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" loading={copy.isPending} onClick={() => void confirm()}>
          {t('copy.confirm', { count: rows.length * (body?.copies ?? 1) })}
        </Button>
      </Flex>
    ) : (
      <Button type="primary" onClick={onClose}>
        {t('ops.close')}
      </Button>
    );

  return (
    <Modal open title={t('copy.title', { count: rows.length, level: t(`levels.${level}`) })} onCancel={onClose} footer={footer} width={720} destroyOnHidden maskClosable={false}>
      <div style={{ display: step === 'form' ? 'block' : 'none' }}>
        <Form<FormValues> form={form} layout="vertical" initialValues={{ copies: 1, status: 'PAUSED' }} preserve>
          <Flex gap={16} wrap>
            <Form.Item name="copies" label={t('copy.copies')} rules={[{ required: true }]}>
              <InputNumber min={1} max={20} precision={0} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="status" label={t('copy.status')}>
              <Radio.Group options={[{ value: 'PAUSED', label: t('status.PAUSED') }, { value: 'ACTIVE', label: t('status.ACTIVE') }]} />
            </Form.Item>
            <Form.Item name="rename_suffix" label={t('copy.suffix')}>
              <Input maxLength={100} placeholder={t('copy.suffixPlaceholder')} style={{ width: 200 }} />
            </Form.Item>
          </Flex>
          {level === 'campaign' && (
            <Flex gap={16} wrap>
              <Form.Item name="name" label={t('copy.name')} style={{ flex: 1, minWidth: 240 }}>
                <Input maxLength={400} placeholder={t('copy.namePlaceholder')} />
              </Form.Item>
              <Form.Item name="daily_budget" label={t('copy.budget', { currency })}>
                <InputNumber min={currencyDecimals(currency) === 0 ? 1 : 0.01} max={1e9} precision={currencyDecimals(currency)} style={{ width: 180 }} suffix={currency} />
              </Form.Item>
            </Flex>
          )}
          {(level === 'adset' || level === 'ad') && (
            <Form.Item name="parent_id" label={t(level === 'adset' ? 'copy.toCampaign' : 'copy.toAdset')} extra={oneAccount === undefined ? t('copy.parentOneAccount') : t('copy.parentSameAccount')}>
              {oneAccount !== undefined ? <ParentSelect level={level === 'adset' ? 'campaign' : 'adset'} adAccountId={oneAccount} placeholder={t('copy.sameParent')} /> : <Select disabled placeholder={t('copy.sameParent')} />}
            </Form.Item>
          )}
          {level === 'adset' && (
            <>
              <Alert type="info" showIcon title={t('copy.pixelNote')} style={{ marginBottom: 12 }} />
              <Flex gap={16} wrap>
                <Form.Item name="pixel_id" label={t('copy.pixel')} rules={[{ pattern: /^\d{1,30}$/, message: t('copy.pixelInvalid') }]} style={{ minWidth: 260 }}>
                  {canListPixels ? (
                    <Select
                      allowClear
                      showSearch={{ filterOption: false, onSearch: setPixelKeyword, searchValue: pixelKeyword }}
                      placeholder={t('copy.keepPixel')}
                      options={(pixels.data ?? []).map((p) => ({ value: p.platform_id, label: `${p.name} (${p.platform_id})` }))}
                      popupMatchSelectWidth={false}
                    />
                  ) : (
                    <Input placeholder={t('copy.pixelIdPlaceholder')} />
                  )}
                </Form.Item>
                <Form.Item name="custom_event_type" label={t('copy.event')} style={{ minWidth: 220 }}>
                  <Select allowClear placeholder={t('copy.keepEvent')} options={EVENTS.map((e) => ({ value: e, label: e }))} />
                </Form.Item>
              </Flex>
            </>
          )}
        </Form>
      </div>
      {step === 'confirm' && (
        <Flex vertical gap={12} data-testid="copy-preview">
          <Typography.Text strong>{t('copy.willCopy', { count: rows.length })}</Typography.Text>
          <List size="small" bordered dataSource={rows} renderItem={(r) => <List.Item>{`${r.name} (${r.platform_id ?? r.id})`}</List.Item>} />
          <Typography.Text strong>{t('copy.with')}</Typography.Text>
          <ul style={{ margin: 0 }}>
            {summary.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </Flex>
      )}
      {step === 'done' && (
        <Flex vertical gap={12}>
          <Alert type={failed ? (failed === results.length ? 'error' : 'warning') : 'success'} showIcon title={t('ops.done', { ok: results.length - failed, failed })} />
          <OpResultsTable results={results} mode="done" />
        </Flex>
      )}
    </Modal>
  );
}
