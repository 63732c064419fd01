import { AD_CONVERSION_EVENTS, type AdLevel, type AdOpsCopyBody, type AdReportRow } from '@ads/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Input, InputNumber, Modal, Radio, Select, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaskProgress } from '@/components/task-progress';
import { currencyDecimals } from '@/lib/format';
import { isTaskFinished, useTask } from '@/lib/lookups/use-tasks';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { adDataKeys } from '../api/keys';
import { useCopyAdObjects, useCopyPreview, type AdOpResult, type AdOpsResult } from '../api/use-ad-data-mutations';
import { useAdOperations, useCopyAccounts, useCopyTargets } from '../api/use-ad-queries';
import { OpResultsTable, type OpRow } from './op-results-table';
import { ParentSelect } from './parent-select';

export interface CopyRequest {
  level: AdLevel;
  rows: AdReportRow[];
}

interface FormValues {
  target_ad_account_id?: number;
  copies: number;
  status: 'ACTIVE' | 'PAUSED';
  rename_suffix?: string;
  name?: string;
  daily_budget?: number;
  parent_id?: number;
  pixel_id?: string;
  custom_event_type?: string;
}

/** A key per request object, so each opened request starts the dialog afresh. */
const keys = new WeakMap<object, number>();
let nextKey = 0;
const keyOf = (r: object) => {
  if (!keys.has(r)) keys.set(r, ++nextKey);
  return keys.get(r)!;
};

/**
 * Copy campaigns, ad sets or ads: how many, on or off, a name or suffix; into another campaign or
 * ad set; into another ad account of the viewer's scope (its currency shown; the objects are read
 * and created there anew, their videos and images pushed there first, budgets converted); with
 * another budget, pixel or conversion event (the target's pixels offered). The confirmation is
 * the server's dry run: every object to be created, with before → after, the conversions and what
 * is refused and why. A copy into another account then runs as a task whose log rows fill in here.
 */
export function CopyModal({ request, onClose, onDone }: { request: CopyRequest | null; onClose: () => void; onDone: (results: AdOpResult[]) => void }) {
  return request ? <CopyModalDialog key={keyOf(request)} request={request} onClose={onClose} onDone={onDone} /> : null;
}

function CopyModalDialog({ request, onClose, onDone }: { request: CopyRequest; onClose: () => void; onDone: (results: AdOpResult[]) => void }) {
  const { t } = useTranslation('adData');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const copy = useCopyAdObjects();
  const [step, setStep] = useState<'form' | 'confirm' | 'done'>('form');
  const [body, setBody] = useState<AdOpsCopyBody | null>(null);
  const [answer, setAnswer] = useState<AdOpsResult | null>(null);
  const [accountKeyword, setAccountKeyword] = useState('');
  const dryRun = useCopyPreview(body, step === 'confirm');
  const { rows, level } = request;
  const sourceAccounts = [...new Set(rows.map((r) => r.ad_account?.id).filter((id): id is number => id !== undefined))];
  const oneAccount = sourceAccounts.length === 1 ? sourceAccounts[0] : undefined;
  const targetId = Form.useWatch('target_ad_account_id', form);
  const crossAccount = targetId !== undefined && (oneAccount === undefined || targetId !== oneAccount);
  const pickerAccount = targetId ?? oneAccount;
  const accounts = useCopyAccounts(useDebouncedValue(accountKeyword.trim()));
  const targets = useCopyTargets(pickerAccount);
  const sourceCurrency = rows[0]?.currency ?? rows[0]?.ad_account?.currency ?? 'USD';
  const currency = crossAccount ? (targets.data?.ad_account.currency ?? sourceCurrency) : sourceCurrency;
  const parentLevel = level === 'adset' ? 'campaign' : 'adset';

  const accountOptions = useMemo(
    () =>
      (accounts.data?.list ?? []).map((a) => ({
        value: a.id,
        label: `${a.name} (${a.platform_id}) · ${a.currency}${a.reachable ? '' : ` · ${t('copy.noToken')}`}`,
        disabled: !a.reachable,
      })),
    [accounts.data, t],
  );

  const review = async () => {
    const v = await form.validateFields();
    setBody({
      level,
      ids: rows.map((r) => r.id),
      copies: v.copies,
      status: v.status,
      ...(v.target_ad_account_id !== undefined && { target_ad_account_id: v.target_ad_account_id }),
      ...(v.rename_suffix?.trim() && { rename_suffix: v.rename_suffix }),
      ...(v.name?.trim() && { name: v.name.trim() }),
      ...(v.daily_budget !== undefined && v.daily_budget !== null && { daily_budget: v.daily_budget }),
      ...(v.parent_id !== undefined && { parent_id: v.parent_id }),
      ...(v.pixel_id?.trim() && { pixel_id: v.pixel_id.trim() }),
      ...(v.custom_event_type && { custom_event_type: v.custom_event_type }),
    });
    setStep('confirm');
  };

  const preview = dryRun.data?.results ?? [];
  const willCreate = preview.filter((r) => r.result === 'preview').length;
  const confirm = async () => {
    if (!body) return;
    try {
      const done = await copy.mutateAsync(body);
      setAnswer(done);
      setStep('done');
      // The table keeps each source row's result (the rows of its level only).
      onDone(done.results.filter((r) => !r.level || r.level === level));
    } catch {
      // Said by the request layer; the confirmation stays.
    }
  };

  const results = answer?.results ?? [];
  const failed = results.filter((r) => r.result === 'failed').length;
  const footer =
    step === 'form' ? (
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" onClick={() => void review().catch(() => undefined)}>
          {t('ops.review')}
        </Button>
      </Flex>
    ) : step === 'confirm' ? (
      <Flex justify="end" gap={8}>
        <Button onClick={() => setStep('form')}>{t('ops.back')}</Button>
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" disabled={!dryRun.data || willCreate === 0} loading={copy.isPending} onClick={() => void confirm()}>
          {t('copy.confirm', { count: willCreate })}
        </Button>
      </Flex>
    ) : (
      <Button type="primary" onClick={onClose}>
        {t('ops.close')}
      </Button>
    );

  return (
    <Modal open title={t('copy.title', { count: rows.length, level: t(`levels.${level}`) })} onCancel={onClose} footer={footer} width={820} destroyOnHidden maskClosable={false}>
      <div style={{ display: step === 'form' ? 'block' : 'none' }}>
        <Form<FormValues>
          form={form}
          layout="vertical"
          initialValues={{ copies: 1, status: 'PAUSED' }}
          preserve
          onValuesChange={(changed: Partial<FormValues>) => {
            // Parents and pixels belong to one account: another account starts them afresh.
            if ('target_ad_account_id' in changed) form.setFieldsValue({ parent_id: undefined, pixel_id: undefined });
          }}
        >
          <Form.Item name="target_ad_account_id" label={t('copy.toAccount')} extra={crossAccount ? t('copy.crossNote') : t('copy.sameAccountNote')}>
            <Select<number>
              allowClear
              placeholder={t('copy.sameAccount')}
              showSearch={{ filterOption: false, onSearch: setAccountKeyword, searchValue: accountKeyword }}
              loading={accounts.isFetching}
              options={accountOptions}
              popupMatchSelectWidth={false}
            />
          </Form.Item>
          {crossAccount && targets.data && !targets.data.reachable && <Alert type="error" showIcon title={t('copy.noTokenLong', { account: targets.data.ad_account.name })} style={{ marginBottom: 12 }} />}
          <Flex gap={16} wrap>
            <Form.Item name="copies" label={t('copy.copies')} rules={[{ required: true }]}>
              <InputNumber min={1} max={20} precision={0} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="status" label={t('copy.status')}>
              <Radio.Group options={[{ value: 'PAUSED', label: t('status.PAUSED') }, { value: 'ACTIVE', label: t('status.ACTIVE') }]} />
            </Form.Item>
            <Form.Item name="rename_suffix" label={t('copy.suffix')}>
              <Input maxLength={100} placeholder={crossAccount ? t('copy.suffixNone') : t('copy.suffixPlaceholder')} style={{ width: 200 }} />
            </Form.Item>
          </Flex>
          {(level === 'adset' || level === 'ad') && (
            <Form.Item
              name="parent_id"
              label={t(level === 'adset' ? 'copy.toCampaign' : 'copy.toAdset')}
              rules={crossAccount ? [{ required: true, message: t('copy.parentRequired', { level: t(`levels.${parentLevel}`) }) }] : []}
              extra={crossAccount ? t('copy.parentInTarget') : oneAccount === undefined ? t('copy.parentOneAccount') : t('copy.parentSameAccount')}
            >
              {pickerAccount !== undefined ? (
                <ParentSelect key={pickerAccount} level={parentLevel} adAccountId={pickerAccount} placeholder={crossAccount ? t('copy.chooseParent', { level: t(`levels.${parentLevel}`) }) : t('copy.sameParent')} />
              ) : (
                <Select disabled placeholder={t('copy.sameParent')} />
              )}
            </Form.Item>
          )}
          <Flex gap={16} wrap>
            <Form.Item name="name" label={t('copy.name', { level: t(`levels.${level}`) })} extra={rows.length > 1 ? t('copy.nameNumbered') : undefined} style={{ flex: 1, minWidth: 240 }}>
              <Input maxLength={400} placeholder={t('copy.namePlaceholder')} />
            </Form.Item>
            {level !== 'ad' && (
              <Form.Item name="daily_budget" label={t('copy.budget', { currency })} extra={crossAccount ? t('copy.budgetConverted') : t('copy.budgetKept')}>
                <InputNumber min={currencyDecimals(currency) === 0 ? 1 : 0.01} max={1e9} precision={currencyDecimals(currency)} style={{ width: 200 }} suffix={currency} />
              </Form.Item>
            )}
          </Flex>
          {level !== 'ad' && (
            <>
              <Alert type="info" showIcon title={t('copy.pixelNote')} style={{ marginBottom: 12 }} />
              <Flex gap={16} wrap>
                <Form.Item name="pixel_id" label={crossAccount ? t('copy.pixelOf', { account: targets.data?.ad_account.name ?? '' }) : t('copy.pixel')} rules={[{ pattern: /^\d{1,30}$/, message: t('copy.pixelInvalid') }]} style={{ minWidth: 280 }}>
                  {pickerAccount !== undefined ? (
                    <Select
                      allowClear
                      showSearch={{ optionFilterProp: 'label' }}
                      loading={targets.isFetching}
                      placeholder={t('copy.keepPixel')}
                      options={(targets.data?.pixels ?? []).map((p) => ({ value: p.platform_id, label: `${p.name} (${p.platform_id})` }))}
                      popupMatchSelectWidth={false}
                    />
                  ) : (
                    <Input placeholder={t('copy.pixelIdPlaceholder')} />
                  )}
                </Form.Item>
                <Form.Item name="custom_event_type" label={t('copy.event')} style={{ minWidth: 220 }}>
                  <Select allowClear placeholder={t('copy.keepEvent')} options={(targets.data?.events ?? AD_CONVERSION_EVENTS).map((e) => ({ value: e, label: e }))} />
                </Form.Item>
              </Flex>
            </>
          )}
        </Form>
      </div>
      {step === 'confirm' && dryRun.isPending && <Skeleton active />}
      {step === 'confirm' && dryRun.isError && <Alert type="error" showIcon title={dryRun.error.message} />}
      {step === 'confirm' && dryRun.data && (
        <Flex vertical gap={12} data-testid="copy-preview">
          <Typography.Text strong>{t('copy.willCreate', { count: willCreate, refused: preview.length - willCreate })}</Typography.Text>
          {!!dryRun.data.notes?.length && (
            <Alert
              type="info"
              showIcon
              data-testid="copy-notes"
              title={
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {dryRun.data.notes.map((n) => (
                    <li key={n}>{n}</li>
                  ))}
                </ul>
              }
            />
          )}
          <OpResultsTable results={preview} mode="confirm" creates />
        </Flex>
      )}
      {step === 'done' && answer && answer.task_id != null && <CopyTask taskId={answer.task_id} batchId={answer.batch_id} notes={answer.notes ?? []} />}
      {step === 'done' && answer && answer.task_id == null && (
        <Flex vertical gap={12}>
          <Alert type={failed ? (failed === results.length ? 'error' : 'warning') : 'success'} showIcon title={t('ops.done', { ok: results.length - failed, failed })} />
          <OpResultsTable results={results} mode="done" />
        </Flex>
      )}
    </Modal>
  );
}

/** A copy into another account under way: its task, and its log rows as they are written. */
function CopyTask({ taskId, batchId, notes }: { taskId: number; batchId: string; notes: string[] }) {
  const { t } = useTranslation('adData');
  const queryClient = useQueryClient();
  const task = useTask(taskId);
  const running = !isTaskFinished(task.data);
  const log = useAdOperations({ page: 1, page_size: 200, log: 'all', batch_id: batchId, sort_order: 'ascend' }, { refetchInterval: running ? 2000 : false });
  const rows: OpRow[] = (log.data?.list ?? []).map((o) => ({
    level: o.level,
    id: o.object_id ?? 0,
    platform_id: o.object_platform_id,
    name: typeof (o.after as { name?: unknown } | null)?.name === 'string' ? (o.after as { name: string }).name : o.object_name,
    ad_account_id: o.ad_account.id,
    before: (o.before ?? {}) as Record<string, unknown>,
    after: (o.after ?? {}) as Record<string, unknown>,
    result: o.result,
    error: o.error,
    warnings: [],
    operation_id: o.id,
  }));
  return (
    <Flex vertical gap={12} data-testid="copy-task">
      {notes.length > 0 && <Typography.Text type="secondary">{notes.join(' ')}</Typography.Text>}
      <TaskProgress taskId={taskId} onClose={() => undefined} onFinished={() => void queryClient.invalidateQueries({ queryKey: adDataKeys.all })} />
      {rows.length > 0 ? <OpResultsTable results={rows} mode="done" /> : <Typography.Text type="secondary">{t('copy.waitingRows')}</Typography.Text>}
    </Flex>
  );
}
