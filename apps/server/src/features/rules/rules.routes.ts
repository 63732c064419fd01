import { endpoints, FIRING_EXPORT_COLUMNS, ruleMetricTitle, RULE_OPERATOR_SIGN, type RuleFiring, type RuleValue } from '@ads/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { endpoint } from '../../lib/endpoint.ts';
import { pickColumns, sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import type { RuleService } from './rules.service.ts';

// Hosting rules endpoints (issue 10), on /operation/account. Scope is applied in the service.

const { hostingRules, ruleHistory } = endpoints;

const OUTCOME: Record<string, { zh: string; en: string }> = {
  acted: { zh: '已执行', en: 'Acted' },
  failed: { zh: '失败', en: 'Failed' },
  notified: { zh: '已提醒', en: 'Notified' },
  would_act: { zh: '将执行', en: 'Would act' },
  skipped_cooldown: { zh: '冷却中', en: 'Cooling down' },
  skipped_cap: { zh: '超过上限', en: 'Over the cap' },
  skipped_limit: { zh: '预算修改次数已满', en: 'Budget change limit' },
  skipped_budget: { zh: '预算不可改', en: 'Budget not changed' },
  skipped_stopped: { zh: '今日已止损', en: 'Stopped today' },
  skipped_scope: { zh: '不在托管范围', en: 'Not hosted / out of scope' },
  revived: { zh: '已复活', en: 'Revived' },
  kept_off: { zh: '保持关闭', en: 'Kept off' },
};
const ACTION: Record<string, { zh: string; en: string }> = {
  pause: { zh: '关闭', en: 'Pause' },
  activate: { zh: '开启', en: 'Switch on' },
  set_budget: { zh: '设置预算', en: 'Set budget' },
  raise_budget: { zh: '提高预算', en: 'Raise budget' },
  lower_budget: { zh: '降低预算', en: 'Lower budget' },
  notify: { zh: '仅通知', en: 'Notify only' },
  revive: { zh: '复活', en: 'Revive' },
};
const LEVEL: Record<string, { zh: string; en: string }> = { campaign: { zh: '广告系列', en: 'Campaign' }, adset: { zh: '广告组', en: 'Ad set' }, ad: { zh: '广告', en: 'Ad' } };

const valuesText = (values: RuleValue[], lang: 'zh' | 'en') => values.map((v) => `${ruleMetricTitle(v.metric, lang)} ${v.actual ?? '-'} ${RULE_OPERATOR_SIGN[v.operator]} ${v.threshold}`).join('; ');
const json = (v: Record<string, unknown>) => (Object.keys(v).length ? JSON.stringify(v) : '');

export function ruleRoutes(s: RuleService): FastifyPluginAsync {
  return async (app) => {
    endpoint(app, hostingRules.list, async (req) => s.list(req.ctx(), req.body));
    endpoint(app, hostingRules.get, async (req) => s.get(req.ctx(), req.body.id));
    endpoint(app, hostingRules.save, async (req) => s.save(req.ctx(), req.body.id, req.body.rule));
    endpoint(app, hostingRules.delete, async (req) => s.remove(req.ctx(), req.body.id));
    endpoint(app, hostingRules.toggle, async (req) => s.toggle(req.ctx(), req.body.id, req.body.enabled));
    endpoint(app, hostingRules.dry_run, async (req) => s.dryRun(req.ctx(), req.body));
    endpoint(app, hostingRules.run_now, async (req) => s.runNow(req.ctx(), req.body.id));
    endpoint(app, hostingRules.options, async (req) => s.options(req.ctx()));
    endpoint(app, ruleHistory.evaluations, async (req) => s.evaluations(req.ctx(), req.body));
    endpoint(app, ruleHistory.firings, async (req) => s.firings(req.ctx(), req.body));
    endpoint(app, ruleHistory.export, async (req, reply) => {
      const lang = req.lang;
      const zh = lang === 'zh';
      const all: XlsxColumn<RuleFiring>[] = [
        { key: 'created_at', header: zh ? '时间 (UTC)' : 'Time (UTC)', width: 20, value: (f) => f.created_at.replace('T', ' ').slice(0, 19) },
        { key: 'rule', header: zh ? '规则' : 'Rule', width: 24, value: (f) => f.rule.name },
        { key: 'level', header: zh ? '层级' : 'Level', width: 10, value: (f) => LEVEL[f.level]?.[lang] ?? f.level },
        { key: 'object', header: zh ? '对象' : 'Object', width: 30, value: (f) => f.object.name },
        { key: 'object_id', header: 'ID', width: 20, value: (f) => f.object.platform_id },
        { key: 'ad_account', header: zh ? '广告账户' : 'Ad account', width: 24, value: (f) => f.ad_account.name },
        { key: 'action', header: zh ? '操作' : 'Action', width: 12, value: (f) => ACTION[f.action]?.[lang] ?? f.action },
        { key: 'outcome', header: zh ? '结果' : 'Outcome', width: 14, value: (f) => OUTCOME[f.outcome]?.[lang] ?? f.outcome },
        { key: 'values', header: zh ? '触发数据' : 'Figures', width: 50, value: (f) => valuesText(f.values, lang) },
        { key: 'before', header: zh ? '修改前' : 'Before', width: 24, value: (f) => json(f.before) },
        { key: 'after', header: zh ? '修改后' : 'After', width: 24, value: (f) => json(f.after) },
        { key: 'error', header: zh ? '原因' : 'Reason', width: 40, value: (f) => f.error ?? '' },
      ];
      const columns = pickColumns(all, req.body.columns ?? [...FIRING_EXPORT_COLUMNS]);
      return sendXlsx(reply, zh ? '规则执行记录.xlsx' : 'rule-firings.xlsx', zh ? '执行记录' : 'Firings', columns, (page) => s.exportFirings(req.ctx(), req.body, page));
    });
  };
}
