import type { AdLevel, AdOpsApplyBody, AdReportRow } from '@ads/contracts';
import { Alert, Button, Flex, Form, Input, InputNumber, Modal, Radio, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyDecimals, formatDateTime } from '@/lib/format';
import { useAdOpPreview, useApplyAdOp, type AdOpResult } from '../api/use-ad-data-mutations';
import { useBudgetChanges } from '../api/use-ad-queries';
import { budgetHolder, budgetText, minorMoney } from './op-format';
import { OpResultsTable } from './op-results-table';

export type ApplyAction = AdOpsApplyBody['action'];

export interface OpRequest {
  action: ApplyAction;
  level: AdLevel;
  rows: AdReportRow[];
}

interface FormValues {
  kind?: 'daily' | 'lifetime';
  amount?: number;
  name?: string;
}

const NEEDS_FORM: readonly ApplyAction[] = ['budget', 'bid', 'rename'];

/** The form's start: the current name, or the current budget / bid of a single row in major units. */
function initialValues({ action, rows }: OpRequest): FormValues {
  const r = rows[0];
  if (!r) return {};
  if (action === 'rename') return { name: r.name };
  const major = (minor: number | null) => (rows.length === 1 && minor !== null && r.currency ? minor / 10 ** currencyDecimals(r.currency) : undefined);
  if (action === 'budget') {
    const kind = r.lifetime_budget_minor !== null && r.daily_budget_minor === null ? 'lifetime' : 'daily';
    return { kind, amount: major(kind === 'daily' ? r.daily_budget_minor : r.lifetime_budget_minor) };
  }
  if (action === 'bid') return { amount: major(r.bid_amount_minor) };
  return {};
}

/**
 * One operation on one or many rows: the values (budget, bid, name) in major units of each
 * account's currency, then a confirmation that lists what will change (the server's dry run,
 * with its warnings and refusals such as an ad set's four budget changes of the hour), then each
 * row's result with the platform's reason on failure.
 */
/** A key per request object, so each opened request starts the dialog afresh. */
const keys = new WeakMap<object, number>();
let nextKey = 0;
const keyOf = (r: object) => {
  if (!keys.has(r)) keys.set(r, ++nextKey);
  return keys.get(r)!;
};

export function OpModal({ request, onClose, onDone }: { request: OpRequest | null; onClose: () => void; onDone: (results: AdOpResult[]) => void }) {
  return request ? <OpModalDialog key={keyOf(request)} request={request} onClose={onClose} onDone={onDone} /> : null;
}

function OpModalDialog({ request, onClose, onDone }: { request: OpRequest; onClose: () => void; onDone: (results: AdOpResult[]) => void }) {
  const { t } = useTranslation('adData');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const initial = initialValues(request);
  const apply = useApplyAdOp();
  const needsForm = NEEDS_FORM.includes(request.action);
  // Status changes and deletes have nothing to fill in: they open at the confirmation.
  const [step, setStep] = useState<'form' | 'confirm' | 'done'>(needsForm ? 'form' : 'confirm');
  const [results, setResults] = useState<AdOpResult[]>([]);
  const [body, setBody] = useState<AdOpsApplyBody | null>(needsForm ? null : { level: request.level, ids: request.rows.map((x) => x.id), action: request.action });
  const dryRun = useAdOpPreview(body, step === 'confirm');
  const preview = dryRun.data?.results ?? [];
  const { action, rows } = request;
  const currencies = [...new Set(rows.map((r) => r.currency ?? 'USD'))];
  const currency = currencies.length === 1 ? currencies[0]! : null;
  const first = rows[0];
  // Ad sets holding their budget: the platform allows each 4 changes an hour, said before sending.
  const hourly = action === 'budget' && request.level === 'adset' ? rows.filter((r) => budgetHolder(request.level, r) === 'self') : [];
  const changes = useBudgetChanges(
    hourly.map((r) => r.id),
    { enabled: step === 'form' },
  );
  const changeOf = new Map((changes.data?.list ?? []).map((c) => [c.id, c]));
  const blocked = hourly.filter((r) => changeOf.get(r.id)?.next_change_at);
  const lastOnes = hourly.filter((r) => {
    const c = changeOf.get(r.id);
    return c && !c.next_change_at && c.used === c.limit - 1;
  });
  const allBlocked = hourly.length > 0 && blocked.length === rows.length;

  const submitForm = async () => {
    const v = await form.validateFields();
    const ids = request.rows.map((r) => r.id);
    const b: AdOpsApplyBody =
      request.action === 'budget'
        ? { level: request.level, ids, action: 'budget', ...(v.kind === 'lifetime' ? { lifetime_budget: v.amount } : { daily_budget: v.amount }) }
        : request.action === 'bid'
          ? { level: request.level, ids, action: 'bid', bid_amount: v.amount }
          : { level: request.level, ids, action: 'rename', name: v.name?.trim() };
    setBody(b);
    setStep('confirm');
  };

  const willAct = preview.filter((p) => p.result === 'preview');
  const confirm = async () => {
    if (!body) return;
    try {
      const answer = await apply.mutateAsync({ ...body, ids: willAct.map((p) => p.id) });
      setResults(answer.results);
      setStep('done');
      onDone(answer.results);
    } catch {
      // The request layer has said why; the confirmation stays open.
    }
  };

  const title = t(`ops.title.${action}`, { count: rows.length, level: t(`levels.${request.level}`) });
  const failed = results.filter((r) => r.result === 'failed').length;

  const footer =
    step === 'form' ? (
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" disabled={allBlocked} onClick={() => void submitForm().catch(() => undefined)}>
          {t('ops.review')}
        </Button>
      </Flex>
    ) : step === 'confirm' ? (
      <Flex justify="end" gap={8}>
        {needsForm && <Button onClick={() => setStep('form')}>{t('ops.back')}</Button>}
        <Button onClick={onClose}>{tc('actions.cancel')}</Button>
        <Button type="primary" danger={action === 'delete'} disabled={willAct.length === 0 || !dryRun.data} loading={apply.isPending} onClick={() => void confirm()}>
          {t('ops.confirm', { count: willAct.length })}
        </Button>
      </Flex>
    ) : (
      <Button type="primary" onClick={onClose}>
        {t('ops.close')}
      </Button>
    );

  return (
    <Modal open title={title} onCancel={onClose} footer={footer} width={760} destroyOnHidden maskClosable={false}>
      {step === 'form' && action === 'budget' && first && (
        <Flex vertical gap={12}>
          {rows.length === 1 && (
            <Typography.Text>
              {t('budget.current', { name: first.name, budget: budgetText(first, t) })}
            </Typography.Text>
          )}
          {rows.some((r) => budgetHolder(request.level, r) !== 'self') && (
            <Alert type="info" showIcon title={t('budget.heldElsewhere', { names: rows.filter((r) => budgetHolder(request.level, r) !== 'self').map((r) => r.name).join('、'), holder: t(`levels.${request.level === 'campaign' ? 'adset' : 'campaign'}`) })} />
          )}
          {request.level === 'adset' && <Typography.Text type="secondary">{t('budget.hourLimit')}</Typography.Text>}
          {hourly.length > 0 && (
            <Flex vertical gap={8} data-testid="budget-hour">
              {changes.isPending && <Typography.Text type="secondary">{t('budget.hourLoading')}</Typography.Text>}
              {changes.isError && <Alert type="warning" showIcon title={t('budget.hourFailed')} />}
              {rows.length === 1 && changeOf.get(first.id) && <Typography.Text>{t('budget.hourUsed', { used: changeOf.get(first.id)!.used, limit: changeOf.get(first.id)!.limit })}</Typography.Text>}
              {blocked.length > 0 && (
                <Alert
                  type="error"
                  showIcon
                  title={allBlocked ? t('budget.allBlocked') : undefined}
                  description={t('budget.hourBlocked', { limit: changeOf.get(blocked[0]!.id)!.limit, list: blocked.map((r) => t('budget.hourBlockedItem', { name: r.name, time: formatDateTime(changeOf.get(r.id)!.next_change_at) })).join('；') })}
                />
              )}
              {lastOnes.length > 0 && <Alert type="warning" showIcon title={t('budget.hourLast', { list: lastOnes.map((r) => t('budget.hourLastItem', { name: r.name, time: formatDateTime(changeOf.get(r.id)!.frees_at) })).join('；') })} />}
            </Flex>
          )}
          {!currency && <Alert type="warning" showIcon title={t('budget.mixedCurrencies', { currencies: currencies.join(', ') })} />}
          <Form form={form} layout="vertical" initialValues={initial}>
            <Form.Item name="kind" label={t('budget.kind')}>
              <Radio.Group options={[{ value: 'daily', label: t('fields.dailyBudget') }, { value: 'lifetime', label: t('fields.lifetimeBudget') }]} />
            </Form.Item>
            <Form.Item name="amount" label={t('budget.amount', { currency: currency ?? t('budget.eachCurrency') })} rules={[{ required: true, message: t('budget.required') }]} extra={currency ? t('budget.majorUnits', { example: minorMoney(currencyDecimals(currency) === 0 ? 3000 : 2000, currency) }) : undefined}>
              <InputNumber min={currency && currencyDecimals(currency) === 0 ? 1 : 0.01} max={1e9} precision={currency ? currencyDecimals(currency) : 2} style={{ width: 220 }} suffix={currency ?? undefined} />
            </Form.Item>
          </Form>
        </Flex>
      )}
      {step === 'form' && action === 'bid' && first && (
        <Form form={form} layout="vertical" initialValues={initial}>
          {!currency && <Alert type="warning" showIcon title={t('budget.mixedCurrencies', { currencies: currencies.join(', ') })} />}
          {rows.length === 1 && <Typography.Paragraph>{t('bid.current', { bid: minorMoney(first.bid_amount_minor, first.currency) })}</Typography.Paragraph>}
          <Form.Item name="amount" label={t('bid.amount', { currency: currency ?? t('budget.eachCurrency') })} rules={[{ required: true, message: t('bid.required') }]}>
            <InputNumber min={currency && currencyDecimals(currency) === 0 ? 1 : 0.01} max={1e7} precision={currency ? currencyDecimals(currency) : 2} style={{ width: 220 }} suffix={currency ?? undefined} />
          </Form.Item>
        </Form>
      )}
      {step === 'form' && action === 'rename' && (
        <Form form={form} layout="vertical" initialValues={initial}>
          {rows.length > 1 && <Alert type="info" showIcon title={t('rename.bulk', { count: rows.length })} style={{ marginBottom: 12 }} />}
          <Form.Item name="name" label={t('fields.newName')} rules={[{ required: true, whitespace: true, message: t('rename.required') }, { max: 400 }]}>
            <Input maxLength={400} showCount />
          </Form.Item>
        </Form>
      )}
      {step === 'confirm' && dryRun.isPending && <Skeleton active />}
      {step === 'confirm' && dryRun.isError && <Alert type="error" showIcon title={dryRun.error.message} />}
      {step === 'confirm' && dryRun.data && (
        <Flex vertical gap={12}>
          <Typography.Text>{t('ops.willChange', { count: willAct.length, refused: preview.length - willAct.length })}</Typography.Text>
          <OpResultsTable results={preview} mode="confirm" />
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
