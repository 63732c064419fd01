import { describe, expect, it } from 'vitest';
import { issueMessage } from './messages.ts';
import { RULE_TEMPLATE_KEYS, ruleDraftSchema, ruleTemplate, saveChannelBodySchema } from './hosting-rules.ts';

describe('hosting rule contracts', () => {
  it('every template is a valid rule in both languages', () => {
    for (const key of RULE_TEMPLATE_KEYS) {
      for (const lang of ['zh', 'en'] as const) {
        const parsed = ruleDraftSchema.safeParse(ruleTemplate(key, lang));
        expect(parsed.success, `${key} ${lang}: ${parsed.error?.message}`).toBe(true);
        expect(parsed.data!.template).toBe(key);
      }
    }
    const stop = ruleDraftSchema.parse(ruleTemplate('stop_loss', 'en', { spend: 12 }));
    expect(stop.stop_loss.enabled).toBe(true);
    expect(stop.conditions.groups[0]!.conditions[0]).toMatchObject({ metric: 'spend', operator: 'gte', value: 12 });
  });

  it('refuses what cannot run, with messages people can act on', () => {
    const base = ruleTemplate('stop_loss', 'en');
    const cases: [unknown, string, RegExp][] = [
      [{ ...base, conditions: { groups: [{ conditions: [{ metric: 'purchases', operator: 'gt', value: 0, window: { type: 'last_hours', n: 3 } }] }] } }, 'conditions.groups.0.conditions.0.window', /hourly/],
      [{ ...base, level: 'ad', action: { type: 'raise_budget', percent: 20 }, stop_loss: { enabled: false } }, 'action.type', /campaigns or ad sets/],
      [{ ...base, action: { type: 'notify' } }, 'stop_loss.enabled', /pause/],
      [{ ...base, scope: { type: 'users', user_ids: [] } }, 'scope.user_ids', /scope/],
      [{ ...base, schedule: { type: 'times', times: ['09:07'], timezone: 'Asia/Shanghai' } }, 'schedule.times.0', /steps of 5/],
      [{ ...base, schedule: { type: 'times', times: ['09:00'], timezone: 'Mars/Base' } }, 'schedule.timezone', /IANA/],
      [{ ...base, schedule: { type: 'interval', minutes: 7 } }, 'schedule.minutes', /allowed/],
    ];
    for (const [input, path, message] of cases) {
      const parsed = ruleDraftSchema.safeParse(input);
      expect(parsed.success, path).toBe(false);
      const issue = parsed.error!.issues.find((i) => i.path.join('.') === path);
      expect(issue, `${path}: ${JSON.stringify(parsed.error!.issues.map((i) => i.path.join('.')))}`).toBeDefined();
      expect(issueMessage(issue as never, 'en')).toMatch(message);
    }
  });

  it('a channel needs its webhook or its SMTP settings', () => {
    expect(saveChannelBodySchema.safeParse({ name: 'Ops', type: 'feishu' }).success).toBe(false);
    expect(saveChannelBodySchema.safeParse({ name: 'Ops', type: 'feishu', webhook_url: 'https://open.feishu.cn/open-apis/bot/v2/hook/x' }).success).toBe(true);
    expect(saveChannelBodySchema.safeParse({ name: 'Mail', type: 'email' }).success).toBe(false);
    expect(saveChannelBodySchema.safeParse({ name: 'Mail', type: 'email', email: { smtp_host: 'smtp.example.com', from: 'ads@example.com', to: ['ops@example.com'] } }).success).toBe(true);
    expect(saveChannelBodySchema.safeParse({ name: 'Mail', type: 'email', email: { smtp_host: 'smtp.example.com', from: 'nope', to: ['ops@example.com'] } }).success).toBe(false);
  });
});
