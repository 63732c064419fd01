import { ArrowLeftOutlined, ArrowRightOutlined, RedoOutlined, SendOutlined } from '@ant-design/icons';
import type { Platform, PublishCatalogItem, PublishDraft, PublishIssue, PublishMaterial, PublishTemplate } from '@ads/contracts';
import { Alert, App, Button, Card, Flex, Form, Steps, Typography } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { confirmAction } from '@/lib/confirm';
import { formatCount, formatMoney } from '@/lib/format';
import { useLinkPreview, usePublishAccounts, usePublishCatalog } from '../api/use-publish-lookups';
import { usePublishPreview, useSubmitScheme } from '../api/use-publish-preview';
import { applyTemplate, defaultValues, marketZone, templateSettings, toDraft, wallToInstant, WIZARD_STEPS, type WizardValues } from './draft';
import { StepCreatives } from './step-creatives';
import { StepPreview } from './step-preview';
import { StepSettings } from './step-settings';
import { StepSubmit } from './step-submit';
import { StepWhat } from './step-what';
import { StepWhere } from './step-where';
import { SaveTemplateModal, TemplateBar } from './templates';
import { WizardContext, type WizardShared } from './wizard-context';

const PREVIEW_STEP = 4;
const SUBMIT_STEP = 5;

/** Where an unfinished wizard waits across a refresh or a visit to the scheme list (this tab only). */
const storageKey = (platform: Platform) => `publish-wizard:${platform}`;
interface Stored {
  values: WizardValues;
  step: number;
  templateId: number | null;
  /** The past scheme the draft came from (`initial.origin`), so a remount keeps the edits made since. */
  origin?: string | null;
}
function readStored(platform: Platform): Stored | null {
  try {
    const raw = sessionStorage.getItem(storageKey(platform));
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}
export function clearStoredWizard(platform: Platform) {
  sessionStorage.removeItem(storageKey(platform));
}

interface Props {
  platform: Platform;
  /**
   * A past scheme's draft ("new from this scheme"): replaces whatever the wizard held, once per
   * `origin` (mounted again with the same origin, the wizard keeps the edits made since).
   */
  initial?: { values: WizardValues; origin: string } | null;
  onSubmitted: (schemeId: number) => void;
}

/** The batch publish wizard of both platforms: what → creatives → where → settings → preview → submit. */
export function PublishWizard({ platform, initial, onSubmitted }: Props) {
  const { t } = useTranslation('publish');
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<WizardValues>();
  // The wizard is keyed by the past scheme it starts from, so these are read once per mount.
  const [stored] = useState(() => {
    const kept = readStored(platform);
    return initial && kept?.origin !== initial.origin ? null : kept;
  });
  const origin = initial?.origin ?? stored?.origin ?? null;
  const [step, setStepState] = useState(stored?.step && stored.step < PREVIEW_STEP ? stored.step : 0);
  const [picked, setTitle] = useState<PublishCatalogItem | null>(null);
  const [materials, setMaterials] = useState<Map<number, PublishMaterial>>(() => new Map());
  const [loadedTemplate, setLoadedTemplate] = useState<PublishTemplate | null>(null);
  const [templateId, setTemplateId] = useState<number | null>(stored?.templateId ?? null);
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [previewDraft, setPreviewDraft] = useState<PublishDraft | null>(null);
  const [refused, setRefused] = useState<PublishIssue[]>([]);
  const [stepError, setStepError] = useState(false);
  const headingRef = useRef<HTMLDivElement>(null);
  const setStep = useCallback((n: number | ((s: number) => number)) => {
    setStepState(n);
    setStepError(false);
  }, []);

  const accountsQuery = usePublishAccounts(platform);
  const what = Form.useWatch('what', { form, preserve: true }) as WizardValues['what'] | undefined;
  const link = useLinkPreview(what ?? {});
  const preview = usePublishPreview(step >= PREVIEW_STEP ? previewDraft : null);
  const submit = useSubmitScheme();

  // The drama/product: the row picked in step 1, else (a restored or loaded draft) found in the catalog's first page.
  const catalog = usePublishCatalog(platform, '');
  const titleId = platform === 'dj' ? what?.drama_id : what?.product_id;
  const title = picked && picked.id === titleId ? picked : (catalog.data?.list.find((i) => i.id === titleId) ?? null);

  const accounts = useMemo(() => new Map((accountsQuery.data?.list ?? []).map((a) => [a.id, a])), [accountsQuery.data]);
  const rememberMaterials = useCallback((list: readonly PublishMaterial[]) => {
    setMaterials((prev) => {
      if (list.every((m) => prev.get(m.id) === m)) return prev;
      const next = new Map(prev);
      for (const m of list) next.set(m.id, m);
      return next;
    });
  }, []);
  const goTo = useCallback((n: number) => setStep(n), [setStep]);
  const shared: WizardShared = useMemo(
    () => ({ platform, title, setTitle, materials, rememberMaterials, accounts, fx: accountsQuery.data?.fx ?? {}, goTo }),
    [platform, title, materials, rememberMaterials, accounts, accountsQuery.data, goTo],
  );

  // A past scheme's draft, or what this tab left unfinished, or a blank wizard.
  const [startValues] = useState(() => stored?.values ?? initial?.values ?? defaultValues(platform));

  // Keyboard and screen-reader users land on the new step's title (not on the first render).
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) firstStep.current = false;
    else headingRef.current?.focus();
  }, [step]);

  // Kept when the step changes, the page is left or the tab reloads (not on every key).
  const submitted = useRef(false);
  const persistRef = useRef(() => {});
  useLayoutEffect(() => {
    persistRef.current = () => {
      if (submitted.current) return;
      const current = form.getFieldsValue(true) as WizardValues;
      if (current.what) sessionStorage.setItem(storageKey(platform), JSON.stringify({ values: current, step, templateId, origin } satisfies Stored));
    };
  });
  useEffect(() => {
    const save = () => persistRef.current();
    save();
    window.addEventListener('beforeunload', save);
    return () => {
      window.removeEventListener('beforeunload', save);
      save();
    };
  }, [step]);

  const values = () => form.getFieldsValue(true) as WizardValues;

  const validateStep = async () => {
    try {
      await form.validateFields();
      setStepError(false);
      return true;
    } catch (err) {
      setStepError(true);
      const first = (err as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name, { block: 'center', focus: true });
      return false;
    }
  };

  const next = async () => {
    if (!(await validateStep())) return;
    if (step === PREVIEW_STEP - 1) {
      setPreviewDraft(toDraft(platform, values()));
      setRefused([]);
    }
    setStep((s) => Math.min(SUBMIT_STEP, s + 1));
  };

  const handleLoadTemplate = (tpl: PublishTemplate) => {
    const usable = tpl.settings.where.accounts.filter((a) => {
      const acc = accounts.get(a.ad_account_id);
      return acc && !acc.blocked;
    });
    const dropped = tpl.settings.where.accounts.length - usable.length;
    // A template's links were made for its drama: the current one's link replaces them.
    const withLinks = usable.map((a) => (link.data ? { ...a, link: link.data.link, url_tags: link.data.url_tags } : a));
    form.setFieldsValue(applyTemplate(values(), { ...tpl.settings, where: { accounts: withLinks } }));
    setLoadedTemplate(tpl);
    setTemplateId(tpl.id);
    message.success(t('templates.loaded', { name: tpl.name }));
    if (dropped > 0) message.warning(t('templates.dropped', { count: dropped }));
    if (step >= PREVIEW_STEP) setStep(2);
  };

  const startOver = () =>
    confirmAction(modal, {
      title: t('wizard.startOverTitle'),
      content: t('wizard.startOverBody'),
      danger: true,
      action: async () => {
        clearStoredWizard(platform);
        form.resetFields();
        form.setFieldsValue(defaultValues(platform));
        setTitle(null);
        setLoadedTemplate(null);
        setTemplateId(null);
        setPreviewDraft(null);
        setStep(0);
      },
    });

  const handleSubmit = async () => {
    if (!(await validateStep())) return;
    const v = values();
    const draft = toDraft(platform, v);
    const totals = preview.data?.totals;
    const zone = v.launch.zone || marketZone(v.adset.countries);
    const when =
      v.launch.mode === 'at' && v.launch.local
        ? t('submit.confirmAt', { time: v.launch.local.replace('T', ' '), zone, local: new Date(wallToInstant(v.launch.local, zone) ?? '').toLocaleString() })
        : t(`submit.confirmMode.${v.launch.mode as 'paused' | 'now'}`);
    confirmAction(modal, {
      title: t('submit.confirmTitle'),
      content: (
        <Flex vertical gap={4} data-testid="submit-confirm">
          {totals && (
            <Typography.Text>
              {t('submit.confirmBody', { accounts: totals.accounts, campaigns: formatCount(totals.campaigns), adsets: formatCount(totals.adsets), ads: formatCount(totals.ads) })}
            </Typography.Text>
          )}
          {totals && <Typography.Text>{t('submit.confirmBudget', { usd: formatMoney(totals.daily_budget_usd, 'USD') })}</Typography.Text>}
          <Typography.Text strong>{when}</Typography.Text>
        </Flex>
      ),
      okText: t('submit.confirmOk'),
      action: async () => {
        try {
          const result = await submit.mutateAsync({ draft, template_id: templateId });
          submitted.current = true;
          clearStoredWizard(platform);
          message.success(t('submit.done'));
          onSubmitted(result.scheme_id);
        } catch (err) {
          const issues = err instanceof ApiError ? ((err.data as { issues?: PublishIssue[] } | null)?.issues ?? []) : [];
          setRefused(issues);
          throw err;
        }
      },
    });
  };

  const blocked = step === PREVIEW_STEP && (!preview.data || !preview.data.ok);
  const stepItems = WIZARD_STEPS.map((s, i) => ({ title: t(`steps.${s}`), disabled: i > step }));

  return (
    <WizardContext.Provider value={shared}>
      <Flex vertical gap={16}>
        <Flex justify="space-between" gap={8} wrap align="center">
          <Flex gap={8} wrap align="center">
            <TemplateBar platform={platform} loaded={loadedTemplate} onLoad={handleLoadTemplate} onSave={() => setSavingTemplate(true)} />
          </Flex>
          <Button icon={<RedoOutlined />} onClick={startOver}>
            {t('wizard.startOver')}
          </Button>
        </Flex>
        <Card size="small">
          <Steps current={step} size="small" items={stepItems} onChange={(n) => n < step && setStep(n)} aria-label={t('wizard.steps')} />
        </Card>
        <Form<WizardValues> form={form} layout="vertical" name={`publish-${platform}`} autoComplete="off" initialValues={startValues} onValuesChange={() => setStepError(false)}>
          <Flex vertical gap={12}>
            <Typography.Title level={5} style={{ margin: 0 }} tabIndex={-1} ref={headingRef as never} data-testid="step-title">
              {t('wizard.stepTitle', { n: step + 1, title: t(`steps.${WIZARD_STEPS[step]!}`) })}
            </Typography.Title>
            {step === 0 && <StepWhat />}
            {step === 1 && <StepCreatives />}
            {step === 2 && <StepWhere />}
            {step === 3 && <StepSettings />}
            {step === PREVIEW_STEP && <StepPreview preview={preview} onGo={goTo} />}
            {step === SUBMIT_STEP && <StepSubmit preview={preview.data} refused={refused} />}
          </Flex>
        </Form>
        {stepError && <Alert type="error" showIcon title={t('wizard.fixErrors')} data-testid="step-error" />}
        <Card size="small" style={{ position: 'sticky', bottom: 0, zIndex: 10 }}>
          <Flex justify="space-between" align="center" gap={8}>
            <Button icon={<ArrowLeftOutlined />} disabled={step === 0} onClick={() => setStep((s) => s - 1)}>
              {t('wizard.back')}
            </Button>
            <Typography.Text type="secondary">{t('wizard.progress', { n: step + 1, total: WIZARD_STEPS.length })}</Typography.Text>
            {step < SUBMIT_STEP ? (
              <Button type="primary" icon={<ArrowRightOutlined />} iconPlacement="end" disabled={blocked} onClick={() => void next()}>
                {step === PREVIEW_STEP - 1 ? t('wizard.toPreview') : t('wizard.next')}
              </Button>
            ) : (
              <Button type="primary" icon={<SendOutlined />} loading={submit.isPending} disabled={!preview.data?.ok} onClick={() => void handleSubmit()}>
                {t('wizard.submit')}
              </Button>
            )}
          </Flex>
        </Card>
      </Flex>
      <SaveTemplateModal
        open={savingTemplate}
        platform={platform}
        loaded={loadedTemplate}
        settings={() => templateSettings(platform, values())}
        onClose={() => setSavingTemplate(false)}
        onSaved={(tpl) => {
          setLoadedTemplate(tpl);
          setTemplateId(tpl.id);
        }}
      />
    </WizardContext.Provider>
  );
}
