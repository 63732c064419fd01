import { ExperimentOutlined } from '@ant-design/icons';
import { isBudgetAction, RULE_ACTION_TYPES, RULE_INTERVALS, ruleDraftSchema, ruleLevelSchema, type HostingRule, type RuleActionType, type RuleDraftIn, type DryRunResult } from '@ads/contracts';
import { Alert, App, Button, Checkbox, Divider, Drawer, Flex, Form, Input, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '@/lib/form-errors';
import { useDrawerFocusReturn } from '@/lib/use-drawer-focus-return';
import { useDryRun, useRuleOptions, useSaveRule } from '../api/use-rules';
import { blankTree, ConditionsBuilder } from './conditions-builder';
import { DryRunModal } from './dry-run-modal';
import { cleanValues, showIssues } from './form-issues';
import type { Lang } from './rule-format';

/** A blank rule: one condition to fill in, pause, hourly. */
export function blankRule(): RuleDraftIn {
  return {
    name: '',
    enabled: false,
    template: null,
    scope: { type: 'all' },
    level: 'ad',
    conditions: blankTree() as RuleDraftIn['conditions'],
    action: { type: 'pause' },
    schedule: { type: 'interval', minutes: 60 },
    cooldown_minutes: 60,
    max_actions_per_run: 50,
  };
}

/** A saved rule as the editor's draft. */
export function ruleToDraft(r: HostingRule): RuleDraftIn {
  return {
    name: r.name,
    enabled: r.enabled,
    owner_user_id: r.owner.id,
    template: r.template,
    scope: r.scope,
    level: r.level,
    filters: r.filters,
    conditions: r.conditions,
    action: r.action,
    stop_loss: r.stop_loss,
    schedule: r.schedule,
    cooldown_minutes: r.cooldown_minutes,
    max_actions_per_run: r.max_actions_per_run,
    notify: r.notify,
  };
}

const ZONES = ['Asia/Shanghai', 'America/Los_Angeles', 'America/New_York', 'Asia/Tokyo', 'Europe/London', 'UTC'];

interface Props {
  open: boolean;
  /** The rule edited (undefined: a new one). */
  id?: number;
  initial: RuleDraftIn;
  lang: Lang;
  onClose: () => void;
}

/**
 * The rule editor: name, scope, level and filters, the conditions builder, the action, stop-loss
 * and revive, schedule, cooldown, cap and channels. Checks the draft against the contract before
 * saving or a dry run, putting each message beside its field; a dry run acts on nothing.
 */
export function RuleEditor({ open, id, initial, lang, onClose }: Props) {
  const { t } = useTranslation('rules');
  const { t: tc } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const options = useRuleOptions(open);
  const save = useSaveRule();
  const dryRun = useDryRun();
  const [issues, setIssues] = useState<string[]>([]);
  const [dry, setDry] = useState<DryRunResult | null>(null);
  const errorPaths = useRef<(string | number)[][]>([]);
  const focusReturn = useDrawerFocusReturn(open);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ stop_loss: { enabled: false, revive: true, revive_conditions: null }, notify: { channel_ids: [], on_fire: true, on_failure: true }, filters: { name_contains: [], name_excludes: [], drama_ids: [], product_ids: [] }, ...initial });
    errorPaths.current = [];
  }, [open, initial, form]);

  // The messages of a previous opening go with it.
  const close = () => {
    setIssues([]);
    onClose();
  };

  const scopeType = Form.useWatch(['scope', 'type'], form) as string | undefined;
  const actionType = Form.useWatch(['action', 'type'], form) as RuleActionType | undefined;
  const scheduleType = Form.useWatch(['schedule', 'type'], form) as string | undefined;
  const stopLoss = Form.useWatch(['stop_loss', 'enabled'], form) as boolean | undefined;
  const revive = Form.useWatch(['stop_loss', 'revive'], form) as boolean | undefined;
  const reviveConditions = Form.useWatch(['stop_loss', 'revive_conditions'], form) as unknown;
  const name = Form.useWatch('name', form) as string | undefined;

  /** The draft if it passes the contract; otherwise the messages go beside their fields. */
  const validated = (): RuleDraftIn | null => {
    const draft = cleanValues(form.getFieldsValue(true));
    const parsed = ruleDraftSchema.safeParse(draft);
    const shown = showIssues(form, parsed.success ? [] : parsed.error.issues, lang, errorPaths.current);
    errorPaths.current = shown.paths;
    setIssues(shown.messages);
    if (parsed.success) return draft as RuleDraftIn;
    message.error(t('editor.invalid'));
    return null;
  };

  const onSave = async () => {
    const draft = validated();
    if (!draft) return;
    try {
      await save.mutateAsync({ id, rule: draft });
      message.success(t('editor.saved'));
      close();
    } catch (err) {
      applyFieldErrors(form, err);
    }
  };

  const onDryRun = async () => {
    const draft = validated();
    if (!draft) return;
    setDry(await dryRun.mutateAsync({ rule: draft }));
  };

  const o = options.data;
  const budget = actionType !== undefined && isBudgetAction(actionType);
  const zones = [...new Set([o?.report_timezone, ...ZONES, ...(o?.ad_accounts.map((a) => a.timezone_name) ?? [])].filter((z): z is string => Boolean(z)))];
  const section = (key: 'basic' | 'scope' | 'conditions' | 'action' | 'stopLoss' | 'schedule' | 'notify') => (
    <Divider titlePlacement="start" style={{ marginTop: 8 }}>
      {t(`editor.sections.${key}`)}
    </Divider>
  );

  return (
    <Drawer
      open={open}
      onClose={close}
      size={820}
      title={id ? t('editor.editTitle') : t('editor.createTitle')}
      destroyOnHidden
      {...focusReturn}
      footer={
        <Flex justify="end" gap={8}>
          <Button onClick={close}>{tc('actions.cancel')}</Button>
          <Button icon={<ExperimentOutlined />} loading={dryRun.isPending} onClick={() => void onDryRun()}>
            {t('editor.dryRun')}
          </Button>
          <Button type="primary" loading={save.isPending} onClick={() => void onSave()}>
            {t('editor.save')}
          </Button>
        </Flex>
      }
    >
      {options.isError && <Alert type="error" showIcon title={t('editor.loadFailed')} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" aria-label="rule-editor" requiredMark={false}>
        {section('basic')}
        <Form.Item label={t('editor.name')} name="name">
          <Input maxLength={64} showCount />
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item label={t('editor.owner')} name="owner_user_id" tooltip={t('editor.ownerHelp')} style={{ minWidth: 240 }}>
            <Select allowClear showSearch optionFilterProp="label" loading={options.isLoading} options={o?.users.map((u) => ({ value: u.id, label: `${u.name} (${u.account})` }))} />
          </Form.Item>
          <Form.Item label={t('editor.enabled')} name="enabled" valuePropName="checked" tooltip={t('editor.enabledHelp')}>
            <Switch />
          </Form.Item>
        </Flex>

        {section('scope')}
        <Form.Item label={t('editor.scopeType')} name={['scope', 'type']}>
          <Radio.Group options={(['all', 'platform', 'users', 'departments', 'accounts'] as const).map((k) => ({ value: k, label: t(`scopeType.${k}`) }))} />
        </Form.Item>
        {scopeType === 'platform' && (
          <Form.Item label={t('editor.platform')} name={['scope', 'platform']}>
            <Select style={{ width: 200 }} options={[{ value: 'dj', label: 'DJ' }, { value: 'ec', label: 'EC' }]} />
          </Form.Item>
        )}
        {scopeType === 'users' && (
          <Form.Item label={t('editor.users')} name={['scope', 'user_ids']}>
            <Select mode="multiple" showSearch optionFilterProp="label" options={o?.users.map((u) => ({ value: u.id, label: u.name }))} />
          </Form.Item>
        )}
        {scopeType === 'departments' && (
          <Form.Item label={t('editor.departments')} name={['scope', 'department_ids']}>
            <Select mode="multiple" showSearch optionFilterProp="label" options={o?.departments.map((d) => ({ value: d.id, label: d.name }))} />
          </Form.Item>
        )}
        {scopeType === 'accounts' && (
          <Form.Item label={t('editor.adAccounts')} name={['scope', 'ad_account_ids']}>
            <Select mode="multiple" showSearch optionFilterProp="label" options={o?.ad_accounts.map((a) => ({ value: a.id, label: `${a.name} (${a.platform_id})` }))} />
          </Form.Item>
        )}
        <Form.Item label={t('editor.level')} name="level">
          <Radio.Group optionType="button" options={ruleLevelSchema.options.map((l) => ({ value: l, label: t(`level.${l}`) }))} />
        </Form.Item>
        <Flex gap={12} wrap>
          <Form.Item label={t('editor.nameContains')} name={['filters', 'name_contains']} style={{ flex: 1, minWidth: 220 }} extra={t('editor.filtersHelp')}>
            <Select mode="tags" open={false} suffixIcon={null} />
          </Form.Item>
          <Form.Item label={t('editor.nameExcludes')} name={['filters', 'name_excludes']} style={{ flex: 1, minWidth: 220 }}>
            <Select mode="tags" open={false} suffixIcon={null} />
          </Form.Item>
        </Flex>
        <Flex gap={12} wrap>
          <Form.Item label={t('editor.dramas')} name={['filters', 'drama_ids']} style={{ flex: 1, minWidth: 220 }}>
            <Select mode="multiple" allowClear showSearch optionFilterProp="label" options={o?.dramas.map((d) => ({ value: d.id, label: d.name }))} />
          </Form.Item>
          <Form.Item label={t('editor.products')} name={['filters', 'product_ids']} style={{ flex: 1, minWidth: 220 }}>
            <Select mode="multiple" allowClear showSearch optionFilterProp="label" options={o?.products.map((d) => ({ value: d.id, label: d.name }))} />
          </Form.Item>
        </Flex>

        {section('conditions')}
        <ConditionsBuilder path={['conditions']} lang={lang} />

        {section('action')}
        <Form.Item label={t('editor.actionType')} name={['action', 'type']}>
          <Select style={{ width: 220 }} options={RULE_ACTION_TYPES.map((a) => ({ value: a, label: t(`action.${a}`) }))} />
        </Form.Item>
        {actionType === 'activate' && (
          <Form.Item name={['action', 'only_paused_by_rules']} valuePropName="checked" initialValue={true}>
            <Checkbox>{t('editor.onlyPausedByRules')}</Checkbox>
          </Form.Item>
        )}
        {actionType === 'set_budget' && (
          <Form.Item label={t('editor.amount')} name={['action', 'amount_usd']}>
            <InputNumber min={0.01} precision={2} style={{ width: 200 }} prefix="$" />
          </Form.Item>
        )}
        {(actionType === 'raise_budget' || actionType === 'lower_budget') && (
          <Flex gap={12} wrap>
            <Form.Item label={t('editor.percent')} name={['action', 'percent']}>
              <InputNumber min={1} max={actionType === 'raise_budget' ? 500 : 95} style={{ width: 120 }} suffix="%" />
            </Form.Item>
            <Form.Item label={t('editor.minUsd')} name={['action', 'min_usd']}>
              <InputNumber min={0.01} precision={2} style={{ width: 180 }} prefix="$" />
            </Form.Item>
            <Form.Item label={t('editor.maxUsd')} name={['action', 'max_usd']}>
              <InputNumber min={0.01} precision={2} style={{ width: 180 }} prefix="$" />
            </Form.Item>
          </Flex>
        )}
        {budget && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('editor.budgetHelp')}
          </Typography.Paragraph>
        )}

        {section('stopLoss')}
        <Flex gap={24} wrap>
          <Form.Item label={t('editor.stopLoss')} name={['stop_loss', 'enabled']} valuePropName="checked" extra={t('editor.stopLossHelp')}>
            <Switch disabled={actionType !== 'pause' && !stopLoss} />
          </Form.Item>
          {stopLoss && (
            <Form.Item label={t('editor.revive')} name={['stop_loss', 'revive']} valuePropName="checked" extra={t('editor.reviveHelp')}>
              <Switch />
            </Form.Item>
          )}
        </Flex>
        {stopLoss && revive && (
          <Flex vertical gap={8} style={{ marginBottom: 16 }}>
            <Typography.Text strong>{t('editor.reviveConditions')}</Typography.Text>
            {reviveConditions ? (
              <>
                <ConditionsBuilder path={['stop_loss', 'revive_conditions']} lang={lang} />
                <Button size="small" onClick={() => form.setFieldValue(['stop_loss', 'revive_conditions'], null)} style={{ alignSelf: 'flex-start' }}>
                  {t('editor.removeReviveConditions')}
                </Button>
              </>
            ) : (
              <Flex gap={8} align="center">
                <Typography.Text type="secondary">{t('editor.reviveConditionsHelp')}</Typography.Text>
                <Button size="small" onClick={() => form.setFieldValue(['stop_loss', 'revive_conditions'], blankTree())}>
                  {t('editor.addReviveConditions')}
                </Button>
              </Flex>
            )}
          </Flex>
        )}

        {section('schedule')}
        <Form.Item label={t('editor.scheduleType')} name={['schedule', 'type']}>
          <Radio.Group
            options={[
              { value: 'interval', label: t('editor.scheduleInterval') },
              { value: 'times', label: t('editor.scheduleTimes') },
            ]}
          />
        </Form.Item>
        {scheduleType === 'interval' ? (
          <Form.Item label={t('editor.scheduleInterval')} name={['schedule', 'minutes']}>
            <Select style={{ width: 160 }} options={RULE_INTERVALS.map((m) => ({ value: m, label: m < 60 ? t('editor.minutes', { n: m }) : t('editor.hours', { n: m / 60 }) }))} />
          </Form.Item>
        ) : (
          <Flex gap={12} wrap>
            <Form.Item label={t('editor.times')} name={['schedule', 'times']} extra={t('editor.timesHelp')} style={{ minWidth: 260 }}>
              <Select mode="tags" open={false} suffixIcon={null} />
            </Form.Item>
            <Form.Item label={t('editor.timezone')} name={['schedule', 'timezone']} style={{ minWidth: 220 }}>
              <Select showSearch options={zones.map((z) => ({ value: z, label: z }))} />
            </Form.Item>
          </Flex>
        )}
        <Flex gap={12} wrap>
          <Form.Item label={t('editor.cooldown')} name="cooldown_minutes" extra={t('editor.cooldownHelp')}>
            <InputNumber min={0} max={7 * 1440} precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label={t('editor.cap')} name="max_actions_per_run">
            <InputNumber min={1} max={500} precision={0} style={{ width: 160 }} />
          </Form.Item>
        </Flex>

        {section('notify')}
        <Form.Item label={t('editor.channels')} name={['notify', 'channel_ids']} extra={o && o.channels.length === 0 ? t('editor.noChannels') : undefined}>
          <Select mode="multiple" allowClear options={o?.channels.map((c) => ({ value: c.id, label: `${c.name} · ${c.type}` }))} />
        </Form.Item>
        <Flex gap={24}>
          <Form.Item name={['notify', 'on_fire']} valuePropName="checked">
            <Checkbox>{t('editor.onFire')}</Checkbox>
          </Form.Item>
          <Form.Item name={['notify', 'on_failure']} valuePropName="checked">
            <Checkbox>{t('editor.onFailure')}</Checkbox>
          </Form.Item>
        </Flex>
        {issues.length > 0 && (
          <Alert
            type="error"
            showIcon
            data-testid="rule-issues"
            title={t('editor.invalid')}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {issues.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            }
          />
        )}
      </Form>
      <DryRunModal result={dry} name={name ?? ''} lang={lang} onClose={() => setDry(null)} />
    </Drawer>
  );
}
