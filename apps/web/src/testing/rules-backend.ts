import {
  channelSchema,
  ruleDraftSchema,
  ruleSchema,
  type DryRunResult,
  type HostingRule,
  type NotificationChannel,
  type NotificationDelivery,
  type RuleDraftIn,
  type RuleEvaluation,
  type RuleFiring,
  type RuleOptions,
} from '@ads/contracts';
import { MockRefusal, type Handlers } from './mock-api';

const NOW = '2026-11-24T08:00:00.000Z';

/** A saved rule (contract-valid) from a draft. */
export function buildRule(id: number, draft: RuleDraftIn, extra: Partial<HostingRule> = {}): HostingRule {
  const d = ruleDraftSchema.parse(draft);
  return ruleSchema.parse({
    id,
    name: d.name,
    enabled: d.enabled,
    status: d.enabled ? 'on' : 'off',
    owner: { id: d.owner_user_id ?? 1, name: d.owner_user_id === 2 ? 'Olivia' : 'Manager' },
    template: d.template,
    scope: d.scope,
    level: d.level,
    filters: d.filters,
    conditions: d.conditions,
    action: d.action,
    stop_loss: d.stop_loss,
    schedule: d.schedule,
    cooldown_minutes: d.cooldown_minutes,
    max_actions_per_run: d.max_actions_per_run,
    notify: d.notify,
    consecutive_failures: 0,
    paused_reason: null,
    last_evaluated_at: null,
    next_run_at: null,
    last_result: null,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  });
}

export function buildChannel(c: Partial<NotificationChannel> & { id: number; name: string }): NotificationChannel {
  return channelSchema.parse({
    type: 'feishu',
    enabled: true,
    system_alerts: false,
    lang: 'zh',
    rate_limit_per_minute: 20,
    owner: { id: 1, name: 'Manager' },
    webhook_url_masked: 'https://open.feishu.cn/open-apis/bot/v2/hook/abcd…',
    has_secret: true,
    email: null,
    last_delivery: null,
    rules: 0,
    created_at: NOW,
    updated_at: NOW,
    ...c,
  });
}

export const options: RuleOptions = {
  users: [
    { id: 1, name: 'Manager', account: 'manager' },
    { id: 2, name: 'Olivia', account: 'olivia' },
  ],
  departments: [{ id: 1, name: 'Team A' }],
  ad_accounts: [{ id: 11, name: 'US Drama 01', platform_id: 'act_11', platform: 'dj', currency: 'USD', timezone_name: 'America/Los_Angeles' }],
  dramas: [{ id: 5, name: 'Moonlit Bride' }],
  products: [],
  channels: [{ id: 1, name: 'Ops Feishu', type: 'feishu' }],
  report_timezone: 'Asia/Shanghai',
};

interface Options {
  rules?: HostingRule[];
  firings?: RuleFiring[];
  evaluations?: RuleEvaluation[];
  channels?: NotificationChannel[];
  deliveries?: NotificationDelivery[];
  dryRun?: DryRunResult;
  /** What a channel test answers. */
  testDelivery?: (c: NotificationChannel) => NotificationDelivery;
}

const page = <T,>(rows: T[], b: { page: number; page_size: number }) => ({ list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size), total: rows.length });

/**
 * A small in-memory rules server for screen tests: rules saved, switched, deleted and listed by
 * status and name; dry runs answer the given result; history filtered by rule and outcome;
 * channels saved (secrets only as "has_secret") and tested.
 */
export function rulesBackend(o: Options = {}) {
  const db = { rules: [...(o.rules ?? [])], channels: [...(o.channels ?? [])], firings: o.firings ?? [], evaluations: o.evaluations ?? [], deliveries: [...(o.deliveries ?? [])], nextId: 100, taskPolls: 0 };
  const emptyDry: DryRunResult = { evaluated_at: NOW, data_as_of: NOW, report_day: '2026-11-24', accounts: 0, objects_checked: 0, matched: 0, rows: [] };
  const handlers: Handlers = {
    '/hosting-rules/list': (b) => {
      let rows = db.rules;
      if (b.status) rows = rows.filter((r) => r.status === b.status);
      if (b.keyword) rows = rows.filter((r) => r.name.includes(b.keyword!));
      return page(rows, b);
    },
    '/hosting-rules/get': (b) => db.rules.find((r) => r.id === b.id) ?? new MockRefusal('No such rule'),
    '/hosting-rules/save': (b) => {
      const id = b.id ?? db.nextId++;
      const rule = buildRule(id, b.rule);
      db.rules = b.id ? db.rules.map((r) => (r.id === id ? rule : r)) : [rule, ...db.rules];
      return rule;
    },
    '/hosting-rules/toggle': (b) => {
      const r = db.rules.find((x) => x.id === b.id);
      if (!r) return new MockRefusal('No such rule');
      Object.assign(r, { enabled: b.enabled, status: b.enabled ? 'on' : 'off' });
      return r;
    },
    '/hosting-rules/delete': (b) => {
      const before = db.rules.length;
      db.rules = db.rules.filter((r) => r.id !== b.id);
      return { deleted: before - db.rules.length };
    },
    '/hosting-rules/dry_run': () => o.dryRun ?? emptyDry,
    '/hosting-rules/run_now': () => ({ task_id: 77 }),
    '/hosting-rules/options': () => options,
    '/tasks/get': (b) => ({
      id: b.id,
      job_name: 'hosting-rules',
      title: 'Run rule',
      status: db.taskPolls++ > 0 ? 'success' : 'running',
      progress_done: 1,
      progress_total: 1,
      message: null,
      summary: { acted: 1 },
      error: null,
      created_by: 1,
      created_by_name: 'Manager',
      trigger: 'manual',
      queued_at: NOW,
      started_at: NOW,
      finished_at: null,
    }),
    '/rule-history/firings': (b) => {
      let rows = db.firings;
      if (b.rule_id) rows = rows.filter((f) => f.rule.id === b.rule_id);
      if (b.outcome) rows = rows.filter((f) => f.outcome === b.outcome);
      return page(rows, b);
    },
    '/rule-history/evaluations': (b) => page(b.rule_id ? db.evaluations.filter((e) => e.rule.id === b.rule_id) : db.evaluations, b),
    '/rule-history/export': () => 'xlsx',
    '/notification-channels/list': (b) => page(db.channels, b),
    '/notification-channels/save': (b) => {
      const prev = db.channels.find((c) => c.id === b.id);
      const c = buildChannel({
        id: b.id ?? db.nextId++,
        name: b.name,
        type: b.type,
        enabled: b.enabled,
        system_alerts: b.system_alerts,
        lang: b.lang,
        rate_limit_per_minute: b.rate_limit_per_minute,
        webhook_url_masked: b.webhook_url ? `${b.webhook_url.slice(0, 30)}…` : (prev?.webhook_url_masked ?? null),
        has_secret: b.secret === undefined ? (prev?.has_secret ?? false) : b.secret !== '',
        email: b.email ? { ...b.email, has_password: Boolean(b.email.smtp_password) } : null,
      });
      db.channels = prev ? db.channels.map((x) => (x.id === c.id ? c : x)) : [c, ...db.channels];
      return c;
    },
    '/notification-channels/delete': (b) => ({ deleted: db.channels.some((c) => c.id === b.id) ? ((db.channels = db.channels.filter((c) => c.id !== b.id)), 1) : 0 }),
    '/notification-channels/test': (b) => {
      const c = db.channels.find((x) => x.id === b.id);
      if (!c) return new MockRefusal('No such channel');
      const d = o.testDelivery?.(c) ?? { id: db.nextId++, channel: { id: c.id, name: c.name, type: c.type }, kind: 'test' as const, title: 'Test', status: 'sent' as const, attempts: 1, next_attempt_at: null, http_status: 200, error: null, response: '{"code":0}', rule_id: null, duplicates: 0, created_at: NOW, sent_at: NOW };
      db.deliveries.unshift(d);
      c.last_delivery = { status: d.status, at: d.created_at, error: d.error };
      return d;
    },
    '/notifications/list': (b) => page(db.deliveries, b),
  };
  return { db, handlers };
}
