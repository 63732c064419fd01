import { z } from 'zod';
import { flagInput, idSchema, numberInput, pageBodySchema } from './envelope.ts';
import { metrics, METRIC_KEYS, type MetricKey } from './metrics.ts';
import { daySchema, httpUrl, instantSchema, text } from './text.ts';

// Hosting rules (托管规则, issue 10): automated rules on hosted ad accounts — conditions on the
// registry's metrics over a window, an action through the platform, a schedule, cooldowns, caps,
// stop-loss and revive — with dry runs, a history of every evaluation and firing, and
// notification channels (Feishu, DingTalk, WeCom, Slack webhooks, e-mail).
// (`rules.ts` beside this file holds the bounds of text fields; it has nothing to do with these.)

/** The screen that manages hosting, its rules, their history and the channels. */
export const HOSTING_RULE_PATHS = ['/operation/account'] as const;

export const RULE_NAME_MAX = 64;
/** Objects acted on in one run at most (a guard against a rule gone wrong). */
export const RULE_MAX_ACTIONS_CAP = 500;
/** Consecutive failed evaluations after which a rule is switched off and its owner told. */
export const RULE_MAX_FAILURES = 3;
/** The engine's tick: schedules are kept to this grain (minutes). */
export const RULE_TICK_MINUTES = 5;
export const RULE_INTERVALS = [15, 30, 60, 120, 180, 360, 720, 1440] as const;

// ---------------------------------------------------------------------------------------------
// Conditions

/** Figures of an object that are not report metrics: its age, time since its last change, share of today's budget spent. */
export const RULE_EXTRA_METRICS = ['object_age_hours', 'hours_since_change', 'budget_used_pct'] as const;
export type RuleExtraMetric = (typeof RULE_EXTRA_METRICS)[number];
export type RuleMetric = MetricKey | RuleExtraMetric;
export const RULE_METRICS = [...METRIC_KEYS, ...RULE_EXTRA_METRICS] as unknown as [RuleMetric, ...RuleMetric[]];

export const RULE_EXTRA_METRIC_TITLES: Record<RuleExtraMetric, { zh: string; en: string; unit: 'hours' | 'percent' }> = {
  object_age_hours: { zh: '创建时长（小时）', en: 'Age (hours)', unit: 'hours' },
  hours_since_change: { zh: '距上次修改（小时）', en: 'Hours since last change', unit: 'hours' },
  budget_used_pct: { zh: '今日预算消耗 %', en: 'Budget used today %', unit: 'percent' },
};

export const isExtraMetric = (m: string): m is RuleExtraMetric => (RULE_EXTRA_METRICS as readonly string[]).includes(m);

/** A metric's title in a language (registry metrics and the extra figures alike). */
export function ruleMetricTitle(metric: RuleMetric, lang: 'zh' | 'en'): string {
  return isExtraMetric(metric) ? RULE_EXTRA_METRIC_TITLES[metric][lang] : metrics[metric].title[lang];
}

export const ruleOperatorSchema = z.enum(['gt', 'gte', 'lt', 'lte', 'eq', 'neq']);
export type RuleOperator = z.infer<typeof ruleOperatorSchema>;
export const RULE_OPERATOR_SIGN: Record<RuleOperator, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', neq: '≠' };

/**
 * The days or hours a metric is summed over: report days (REPORT_TIMEZONE, as the reports show
 * them) for today, yesterday, the last N days (today included) and the object's lifetime; the
 * last N hours from the hourly figures (spend, impressions, clicks and their ratios only).
 */
export const ruleWindowSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('today') }),
  z.object({ type: z.literal('yesterday') }),
  z.object({ type: z.literal('last_hours'), n: numberInput(z.number().int().min(1).max(72)) }),
  z.object({ type: z.literal('last_days'), n: numberInput(z.number().int().min(2).max(90)) }),
  z.object({ type: z.literal('lifetime') }),
]);
export type RuleWindow = z.infer<typeof ruleWindowSchema>;

export const ruleConditionSchema = z.object({
  metric: z.enum(RULE_METRICS),
  operator: ruleOperatorSchema,
  /** In the metric's shown unit: dollars, a percentage as 30 for 30 %, a count, hours. */
  value: z.number().min(-1e9).max(1e9),
  window: ruleWindowSchema.default({ type: 'today' }),
});
export type RuleCondition = z.infer<typeof ruleConditionSchema>;

export const ruleMatchSchema = z.enum(['all', 'any']);

/** Groups of conditions: each group matches all or any of its conditions, and the groups combine by `match`. */
export const ruleConditionTreeSchema = z
  .object({
    match: ruleMatchSchema.default('all'),
    groups: z.array(z.object({ match: ruleMatchSchema.default('all'), conditions: z.array(ruleConditionSchema).min(1).max(10) })).min(1).max(5),
  })
  .superRefine((tree, ctx) => {
    tree.groups.forEach((g, gi) =>
      g.conditions.forEach((c, ci) => {
        if (c.window.type === 'last_hours' && !isExtraMetric(c.metric) && !metrics[c.metric].hourly) {
          ctx.addIssue({ code: 'custom', path: ['groups', gi, 'conditions', ci, 'window'], message: 'rule_hourly_metric' });
        }
      }),
    );
  });
export type RuleConditionTree = z.infer<typeof ruleConditionTreeSchema>;

// ---------------------------------------------------------------------------------------------
// Scope, action, schedule

export const ruleLevelSchema = z.enum(['campaign', 'adset', 'ad']);
export type RuleLevel = z.infer<typeof ruleLevelSchema>;

const ids = (max = 500) => z.array(idSchema).max(max);

/**
 * Which hosted ad accounts a rule watches, always within what its owner may act on: all of
 * them, those of a platform, those assigned to some optimizers or to the people of some
 * departments, or a list.
 */
export const ruleScopeSchema = z
  .object({
    type: z.enum(['all', 'platform', 'users', 'departments', 'accounts']),
    platform: z.enum(['dj', 'ec']).optional(),
    user_ids: ids(200).optional(),
    department_ids: ids(100).optional(),
    ad_account_ids: ids(2000).optional(),
  })
  .superRefine((s, ctx) => {
    const need = { platform: s.platform, users: s.user_ids?.length, departments: s.department_ids?.length, accounts: s.ad_account_ids?.length, all: true }[s.type];
    if (!need) ctx.addIssue({ code: 'custom', path: [{ platform: 'platform', users: 'user_ids', departments: 'department_ids', accounts: 'ad_account_ids', all: 'type' }[s.type]], message: 'rule_scope_empty' });
  });
export type RuleScope = z.infer<typeof ruleScopeSchema>;

export const ruleFiltersSchema = z.object({
  /** The object's name contains any of these (case-insensitive). */
  name_contains: z.array(text().trim().min(1).max(100)).max(10).default([]),
  name_excludes: z.array(text().trim().min(1).max(100)).max(10).default([]),
  drama_ids: ids(200).default([]),
  product_ids: ids(200).default([]),
});
export type RuleFilters = z.infer<typeof ruleFiltersSchema>;

/** Money of an action is in US dollars, converted to the ad account's currency at the day's rate. */
const usd = z.number().positive().max(1e7);

export const ruleActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pause') }),
  /** Switch on objects that are off; by default only those a rule switched off (never a person's pause). */
  z.object({ type: z.literal('activate'), only_paused_by_rules: z.boolean().default(true) }),
  z.object({ type: z.literal('set_budget'), amount_usd: usd }),
  z.object({ type: z.literal('raise_budget'), percent: z.number().positive().max(500), min_usd: usd.optional(), max_usd: usd.optional() }),
  z.object({ type: z.literal('lower_budget'), percent: z.number().positive().max(95), min_usd: usd.optional(), max_usd: usd.optional() }),
  z.object({ type: z.literal('notify') }),
]);
export type RuleAction = z.infer<typeof ruleActionSchema>;
export type RuleActionType = RuleAction['type'];
export const RULE_ACTION_TYPES = ['pause', 'activate', 'set_budget', 'raise_budget', 'lower_budget', 'notify'] as const;
export const isBudgetAction = (t: RuleActionType) => t === 'set_budget' || t === 'raise_budget' || t === 'lower_budget';

/**
 * Stop-loss (with pause): the object is paused for the rest of its day, once a report day per
 * object; with `revive`, it is switched back on at the start of the next day of its market (its
 * ad account's time zone) when the revive conditions hold (none: always).
 */
export const ruleStopLossSchema = z.object({
  enabled: z.boolean().default(false),
  revive: z.boolean().default(true),
  revive_conditions: ruleConditionTreeSchema.nullable().default(null),
});
export type RuleStopLoss = z.infer<typeof ruleStopLossSchema>;

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5][05]$/, 'rule_time');

function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const ruleScheduleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('interval'), minutes: z.union(RULE_INTERVALS.map((m) => z.literal(m)) as [z.ZodLiteral<15>, ...z.ZodLiteral<number>[]]) }),
  z.object({
    type: z.literal('times'),
    /** `HH:MM` on a 5-minute grain. */
    times: z.array(timeOfDay).min(1).max(24).refine((a) => new Set(a).size === a.length, { message: 'rule_time_twice' }),
    timezone: text().max(64).refine(validZone, { message: 'rule_timezone' }),
  }),
]);
export type RuleSchedule = z.infer<typeof ruleScheduleSchema>;

export const ruleNotifySchema = z.object({
  channel_ids: ids(20).default([]),
  /** A message when the rule acts (always for notify-only rules). */
  on_fire: z.boolean().default(true),
  /** A message when the rule fails or is switched off for failing. */
  on_failure: z.boolean().default(true),
});

export const RULE_TEMPLATE_KEYS = ['stop_loss', 'low_roi', 'scale_winners', 'revive'] as const;
export type RuleTemplateKey = (typeof RULE_TEMPLATE_KEYS)[number];

/** What a rule is, as the editor sends it (and dry runs evaluate unsaved). */
export const ruleDraftSchema = z
  .object({
    name: text().trim().min(1).max(RULE_NAME_MAX),
    enabled: flagInput.default(false),
    /** Whose rule it is (their scope bounds what it acts on); default the caller. */
    owner_user_id: idSchema.optional(),
    template: z.enum(RULE_TEMPLATE_KEYS).nullable().default(null),
    scope: ruleScopeSchema,
    level: ruleLevelSchema,
    filters: ruleFiltersSchema.default({ name_contains: [], name_excludes: [], drama_ids: [], product_ids: [] }),
    conditions: ruleConditionTreeSchema,
    action: ruleActionSchema,
    stop_loss: ruleStopLossSchema.default({ enabled: false, revive: true, revive_conditions: null }),
    schedule: ruleScheduleSchema,
    /** Minutes an object is left alone after this rule acted on it. */
    cooldown_minutes: numberInput(z.number().int().min(0).max(7 * 1440)).default(60),
    max_actions_per_run: numberInput(z.number().int().min(1).max(RULE_MAX_ACTIONS_CAP)).default(50),
    notify: ruleNotifySchema.default({ channel_ids: [], on_fire: true, on_failure: true }),
  })
  .superRefine((r, ctx) => {
    if (isBudgetAction(r.action.type) && r.level === 'ad') ctx.addIssue({ code: 'custom', path: ['action', 'type'], message: 'rule_budget_level' });
    if (r.stop_loss.enabled && r.action.type !== 'pause') ctx.addIssue({ code: 'custom', path: ['stop_loss', 'enabled'], message: 'rule_stop_loss_pause' });
    if ((r.action.type === 'raise_budget' || r.action.type === 'lower_budget') && r.action.min_usd !== undefined && r.action.max_usd !== undefined && r.action.min_usd > r.action.max_usd) {
      ctx.addIssue({ code: 'custom', path: ['action', 'max_usd'], message: 'rule_min_max' });
    }
  });
export type RuleDraft = z.infer<typeof ruleDraftSchema>;
export type RuleDraftIn = z.input<typeof ruleDraftSchema>;

export const saveRuleBodySchema = z.object({ id: idSchema.optional(), rule: ruleDraftSchema });

const person = z.object({ id: z.number().int(), name: z.string() });

export const ruleStatusSchema = z.enum(['on', 'off', 'failing']);

export const ruleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  /** on, off, or off because it kept failing (`paused_reason` says why). */
  status: ruleStatusSchema,
  owner: person,
  template: z.enum(RULE_TEMPLATE_KEYS).nullable(),
  scope: z.custom<RuleScope>(),
  level: ruleLevelSchema,
  filters: z.custom<RuleFilters>(),
  conditions: z.custom<RuleConditionTree>(),
  action: z.custom<RuleAction>(),
  stop_loss: z.custom<RuleStopLoss>(),
  schedule: z.custom<RuleSchedule>(),
  cooldown_minutes: z.number().int(),
  max_actions_per_run: z.number().int(),
  notify: z.custom<z.infer<typeof ruleNotifySchema>>(),
  consecutive_failures: z.number().int(),
  paused_reason: z.string().nullable(),
  last_evaluated_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
  /** Counts of the last evaluation. */
  last_result: z.object({ status: z.string(), checked: z.number().int(), acted: z.number().int(), failed: z.number().int() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type HostingRule = z.infer<typeof ruleSchema>;

export const listRulesBodySchema = pageBodySchema.extend({
  keyword: text().trim().max(100).optional(),
  status: ruleStatusSchema.optional(),
  owner_user_id: idSchema.optional(),
  action: z.enum(RULE_ACTION_TYPES).optional(),
});
export type ListRulesBody = z.infer<typeof listRulesBodySchema>;

export const toggleRuleBodySchema = z.object({ id: idSchema, enabled: flagInput });

/** A saved rule (`id`) or an unsaved one (`rule`), not both. */
export const dryRunBodySchema = z
  .object({ id: idSchema.optional(), rule: ruleDraftSchema.optional() })
  .refine((b) => (b.id === undefined) !== (b.rule === undefined), { message: 'rule_dry_run_one', path: ['id'] });

/** A condition's figure for one object: the threshold and what the object shows. */
export const ruleValueSchema = z.object({
  metric: z.enum(RULE_METRICS),
  window: ruleWindowSchema,
  operator: ruleOperatorSchema,
  threshold: z.number(),
  /** null: no figure (a ratio over zero, a cohort not matured yet). */
  actual: z.number().nullable(),
  met: z.boolean(),
});
export type RuleValue = z.infer<typeof ruleValueSchema>;

const objectRef = z.object({ id: z.number().int(), platform_id: z.string(), name: z.string() });
const accountRef = z.object({ id: z.number().int(), name: z.string(), platform_id: z.string(), timezone_name: z.string() });

/** What a rule would do, or did, to one object. */
export const RULE_OUTCOMES = ['acted', 'failed', 'notified', 'would_act', 'skipped_cooldown', 'skipped_cap', 'skipped_limit', 'skipped_budget', 'skipped_stopped', 'skipped_scope', 'revived', 'kept_off'] as const;
export const ruleOutcomeSchema = z.enum(RULE_OUTCOMES);
export type RuleOutcome = z.infer<typeof ruleOutcomeSchema>;

export const dryRunRowSchema = z.object({
  level: ruleLevelSchema,
  object: objectRef,
  ad_account: accountRef,
  status: z.string(),
  outcome: ruleOutcomeSchema,
  values: z.array(ruleValueSchema),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
  /** Why an object is skipped, in the caller's language. */
  reason: z.string().nullable(),
});
export type DryRunRow = z.infer<typeof dryRunRowSchema>;

export const dryRunResultSchema = z.object({
  evaluated_at: z.string(),
  /** The oldest last sync of the ad accounts it covers. */
  data_as_of: z.string().nullable(),
  report_day: z.string(),
  accounts: z.number().int(),
  objects_checked: z.number().int(),
  matched: z.number().int(),
  /** Matched objects first (at most 500). */
  rows: z.array(dryRunRowSchema),
});
export type DryRunResult = z.infer<typeof dryRunResultSchema>;

// ---------------------------------------------------------------------------------------------
// History

export const RULE_EVALUATION_STATUSES = ['running', 'ok', 'partial', 'failed', 'skipped'] as const;

export const ruleEvaluationSchema = z.object({
  id: z.number().int(),
  rule: z.object({ id: z.number().int(), name: z.string() }),
  /** The schedule slot this evaluation is for (one evaluation per rule and slot). */
  tick_at: z.string(),
  /** schedule, run now, or the revive pass of stop-loss. */
  trigger: z.enum(['schedule', 'manual', 'revive']),
  status: z.enum(RULE_EVALUATION_STATUSES),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  accounts: z.number().int(),
  objects_checked: z.number().int(),
  matched: z.number().int(),
  acted: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  revived: z.number().int(),
  error: z.string().nullable(),
  data_as_of: z.string().nullable(),
});
export type RuleEvaluation = z.infer<typeof ruleEvaluationSchema>;

const timeFilter = z.union([daySchema, instantSchema]);

export const listEvaluationsBodySchema = pageBodySchema.extend({
  rule_id: idSchema.optional(),
  status: z.enum(RULE_EVALUATION_STATUSES).optional(),
  trigger: z.enum(['schedule', 'manual', 'revive']).optional(),
  /** Only evaluations that acted, failed or revived something. */
  with_firings: flagInput.optional(),
  time_from: timeFilter.optional(),
  time_to: timeFilter.optional(),
});
export type ListEvaluationsBody = z.infer<typeof listEvaluationsBodySchema>;

export const ruleFiringSchema = z.object({
  id: z.number().int(),
  evaluation_id: z.number().int(),
  rule: z.object({ id: z.number().int(), name: z.string() }),
  created_at: z.string(),
  level: ruleLevelSchema,
  object: objectRef,
  ad_account: accountRef,
  action: z.enum([...RULE_ACTION_TYPES, 'revive']),
  outcome: ruleOutcomeSchema,
  values: z.array(ruleValueSchema),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  operation_id: z.number().int().nullable(),
});
export type RuleFiring = z.infer<typeof ruleFiringSchema>;

export const FIRING_EXPORT_COLUMNS = ['created_at', 'rule', 'level', 'object', 'object_id', 'ad_account', 'action', 'outcome', 'values', 'before', 'after', 'error'] as const;

export const listFiringsBodySchema = pageBodySchema.extend({
  rule_id: idSchema.optional(),
  evaluation_id: idSchema.optional(),
  outcome: ruleOutcomeSchema.optional(),
  level: ruleLevelSchema.optional(),
  ad_account_id: idSchema.optional(),
  /** Object name or platform id. */
  keyword: text().trim().max(100).optional(),
  time_from: timeFilter.optional(),
  time_to: timeFilter.optional(),
  columns: z.array(z.enum(FIRING_EXPORT_COLUMNS)).min(1).max(FIRING_EXPORT_COLUMNS.length).optional(),
});
export type ListFiringsBody = z.infer<typeof listFiringsBodySchema>;

export const ruleOptionsSchema = z.object({
  /** People whose rules the caller may own or scope (their data scope). */
  users: z.array(z.object({ id: z.number().int(), name: z.string(), account: z.string() })),
  departments: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** Hosted ad accounts the caller may act on. */
  ad_accounts: z.array(z.object({ id: z.number().int(), name: z.string(), platform_id: z.string(), platform: z.enum(['dj', 'ec']).nullable(), currency: z.string(), timezone_name: z.string() })),
  dramas: z.array(z.object({ id: z.number().int(), name: z.string() })),
  products: z.array(z.object({ id: z.number().int(), name: z.string() })),
  channels: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.string() })),
  report_timezone: z.string(),
});
export type RuleOptions = z.infer<typeof ruleOptionsSchema>;

// ---------------------------------------------------------------------------------------------
// Notification channels

export const CHANNEL_TYPES = ['feishu', 'dingtalk', 'wecom', 'slack', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const channelTypeSchema = z.enum(CHANNEL_TYPES);
/** Channels whose platform signs a webhook with a secret. */
export const SIGNED_CHANNELS: readonly ChannelType[] = ['feishu', 'dingtalk'];

const email = text().trim().max(254).pipe(z.email({ message: 'email' }));

export const channelEmailSchema = z.object({
  smtp_host: text().trim().min(1).max(253),
  smtp_port: numberInput(z.number().int().min(1).max(65535)).default(465),
  /** TLS from the start (465); otherwise STARTTLS when the server offers it. */
  smtp_secure: z.boolean().default(true),
  smtp_user: text().trim().max(254).default(''),
  /** Omitted: keep the stored password; '' clears it. */
  smtp_password: text().max(500).optional(),
  from: email,
  to: z.array(email).min(1).max(20),
});

export const saveChannelBodySchema = z
  .object({
    id: idSchema.optional(),
    name: text().trim().min(1).max(64),
    type: channelTypeSchema,
    enabled: z.boolean().default(true),
    /** Also receives the company's system alerts (tokens, disabled accounts, sync, failing rules); managers only. */
    system_alerts: z.boolean().default(false),
    lang: z.enum(['zh', 'en']).default('zh'),
    /** Messages per minute at most; more wait their turn (the platforms allow about 20). */
    rate_limit_per_minute: numberInput(z.number().int().min(1).max(120)).default(20),
    /** Webhook channels; omitted on edit keeps the stored one. */
    webhook_url: httpUrl(1000).optional(),
    /** Feishu / DingTalk signing secret: omitted keeps it, '' clears it. */
    secret: text().trim().max(200).optional(),
    email: channelEmailSchema.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.type === 'email' && !c.email) ctx.addIssue({ code: 'custom', path: ['email'], message: 'channel_email' });
    if (c.type !== 'email' && c.id === undefined && !c.webhook_url) ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: 'channel_webhook' });
  });
export type SaveChannelBody = z.infer<typeof saveChannelBodySchema>;

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES);

export const NOTIFICATION_KINDS = ['test', 'rule_fired', 'rule_failed', 'rule_paused', 'token_expiring', 'token_dead', 'account_disabled', 'sync_failing'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const channelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: channelTypeSchema,
  enabled: z.boolean(),
  system_alerts: z.boolean(),
  lang: z.enum(['zh', 'en']),
  rate_limit_per_minute: z.number().int(),
  owner: person,
  /** The webhook with its key hidden (`https://open.feishu.cn/…/hook/abcd…`). */
  webhook_url_masked: z.string().nullable(),
  has_secret: z.boolean(),
  email: z.object({ smtp_host: z.string(), smtp_port: z.number().int(), smtp_secure: z.boolean(), smtp_user: z.string(), has_password: z.boolean(), from: z.string(), to: z.array(z.string()) }).nullable(),
  last_delivery: z.object({ status: deliveryStatusSchema, at: z.string(), error: z.string().nullable() }).nullable(),
  /** Rules that send to it. */
  rules: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type NotificationChannel = z.infer<typeof channelSchema>;

export const listChannelsBodySchema = pageBodySchema.extend({ type: channelTypeSchema.optional(), keyword: text().trim().max(100).optional() });

export const deliverySchema = z.object({
  id: z.number().int(),
  channel: z.object({ id: z.number().int(), name: z.string(), type: channelTypeSchema }),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  status: deliveryStatusSchema,
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  http_status: z.number().int().nullable(),
  /** The platform's answer or the failure, in plain words. */
  error: z.string().nullable(),
  response: z.string().nullable(),
  rule_id: z.number().int().nullable(),
  /** Repeats of the same message (same key) that were not sent again. */
  duplicates: z.number().int(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type NotificationDelivery = z.infer<typeof deliverySchema>;

export const listDeliveriesBodySchema = pageBodySchema.extend({
  channel_id: idSchema.optional(),
  status: deliveryStatusSchema.optional(),
  kind: z.enum(NOTIFICATION_KINDS).optional(),
  rule_id: idSchema.optional(),
});

// ---------------------------------------------------------------------------------------------
// Ready-made rules: the editor starts from one of these, with the figures filled in.

export interface RuleTemplateParams {
  /** Stop-loss: spend threshold (USD). */
  spend?: number;
  /** Low ROI: ROI floor in percent, after this many hours. */
  roi?: number;
  hours?: number;
  /** Scale winners: ROI above (percent), raise by percent, up to a cap (USD). */
  percent?: number;
  cap?: number;
  timezone?: string;
}

/** A template's rule draft, in the language of its name. */
export function ruleTemplate(key: RuleTemplateKey, lang: 'zh' | 'en', p: RuleTemplateParams = {}): RuleDraftIn {
  const zh = lang === 'zh';
  const base = { enabled: false, template: key, scope: { type: 'all' as const }, cooldown_minutes: 60, max_actions_per_run: 50 };
  switch (key) {
    case 'stop_loss': {
      const spend = p.spend ?? 30;
      return {
        ...base,
        name: zh ? `止损：今日花费 ≥ $${spend} 且无购买` : `Stop-loss: spend ≥ $${spend} today, no purchase`,
        level: 'ad',
        conditions: {
          match: 'all',
          groups: [{ match: 'all', conditions: [
            { metric: 'spend', operator: 'gte', value: spend, window: { type: 'today' } },
            { metric: 'purchases', operator: 'eq', value: 0, window: { type: 'today' } },
            { metric: 'revenue', operator: 'eq', value: 0, window: { type: 'today' } },
          ] }],
        },
        action: { type: 'pause' },
        stop_loss: { enabled: true, revive: true, revive_conditions: null },
        schedule: { type: 'interval', minutes: 30 },
      };
    }
    case 'low_roi': {
      const roi = p.roi ?? 30;
      const hours = p.hours ?? 48;
      return {
        ...base,
        name: zh ? `低 ROI：投放 ${hours} 小时后 ROI < ${roi}%` : `Low ROI: ROI < ${roi}% after ${hours} hours`,
        level: 'ad',
        conditions: {
          match: 'all',
          groups: [{ match: 'all', conditions: [
            { metric: 'object_age_hours', operator: 'gte', value: hours, window: { type: 'lifetime' } },
            { metric: 'spend', operator: 'gte', value: 10, window: { type: 'lifetime' } },
            { metric: 'roi', operator: 'lt', value: roi, window: { type: 'lifetime' } },
          ] }],
        },
        action: { type: 'pause' },
        schedule: { type: 'interval', minutes: 60 },
        cooldown_minutes: 1440,
      };
    }
    case 'scale_winners': {
      const roi = p.roi ?? 150;
      const percent = p.percent ?? 20;
      const cap = p.cap ?? 500;
      return {
        ...base,
        name: zh ? `放量：ROI > ${roi}% 预算 +${percent}%（上限 $${cap}）` : `Scale winners: ROI > ${roi}%, budget +${percent}% (cap $${cap})`,
        level: 'adset',
        conditions: {
          match: 'all',
          groups: [{ match: 'all', conditions: [
            { metric: 'roi', operator: 'gt', value: roi, window: { type: 'today' } },
            { metric: 'spend', operator: 'gte', value: 20, window: { type: 'today' } },
          ] }],
        },
        action: { type: 'raise_budget', percent, max_usd: cap },
        schedule: { type: 'interval', minutes: 60 },
        cooldown_minutes: 240,
        max_actions_per_run: 20,
      };
    }
    case 'revive': {
      const roi = p.roi ?? 100;
      return {
        ...base,
        name: zh ? `复活：昨日 ROI ≥ ${roi}% 的规则关停对象` : `Revive: objects a rule paused with ROI ≥ ${roi}% yesterday`,
        level: 'ad',
        conditions: { match: 'all', groups: [{ match: 'all', conditions: [{ metric: 'roi', operator: 'gte', value: roi, window: { type: 'yesterday' } }] }] },
        action: { type: 'activate', only_paused_by_rules: true },
        schedule: { type: 'times', times: ['00:30'], timezone: p.timezone ?? 'Asia/Shanghai' },
        cooldown_minutes: 720,
      };
    }
  }
}
