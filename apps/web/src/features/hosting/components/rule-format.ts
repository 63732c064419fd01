import { ruleMetricTitle, RULE_OPERATOR_SIGN, type HostingRule, type RuleValue, type RuleWindow } from '@ads/contracts';
import type { TFunction } from 'i18next';
import { formatMoney } from '@/lib/format';

type T = TFunction<'rules'>;
export type Lang = 'zh' | 'en';

/** "today", "last 3 days". */
export const windowText = (t: T, w: RuleWindow) => t(`windowShort.${w.type}`, { n: 'n' in w ? w.n : '' });

/** A figure as a number people read (2 decimals at most). */
export const figure = (v: number | null) => (v === null ? '—' : String(Math.round(v * 100) / 100));

/** One condition's figure: "Spend (today) 42.5 ≥ 30". */
export function valueText(t: T, v: RuleValue, lang: Lang) {
  return `${ruleMetricTitle(v.metric, lang)}（${windowText(t, v.window)}）${figure(v.actual)} ${RULE_OPERATOR_SIGN[v.operator]} ${figure(v.threshold)}`;
}

/** Which accounts a rule watches, in a few words. */
export function scopeText(t: T, r: Pick<HostingRule, 'scope'>) {
  const s = r.scope;
  switch (s.type) {
    case 'all':
      return t('scopeSummary.all');
    case 'platform':
      return t('scopeSummary.platform', { platform: (s.platform ?? '').toUpperCase() });
    case 'users':
      return t('scopeSummary.users', { count: s.user_ids?.length ?? 0 });
    case 'departments':
      return t('scopeSummary.departments', { count: s.department_ids?.length ?? 0 });
    case 'accounts':
      return t('scopeSummary.accounts', { count: s.ad_account_ids?.length ?? 0 });
  }
}

export function scheduleText(t: T, r: Pick<HostingRule, 'schedule'>) {
  const s = r.schedule;
  return s.type === 'interval' ? t('schedule.interval', { minutes: s.minutes }) : t('schedule.times', { times: s.times.join(', '), zone: s.timezone });
}

/** "Raise budget +20 % (max $500)". */
export function actionText(t: T, r: Pick<HostingRule, 'action'>) {
  const a = r.action;
  const base = t(`action.${a.type}`);
  if (a.type === 'set_budget') return `${base} ${formatMoney(a.amount_usd, 'USD')}`;
  if (a.type === 'raise_budget' || a.type === 'lower_budget') {
    const bounds = [a.min_usd !== undefined ? `≥ ${formatMoney(a.min_usd, 'USD')}` : '', a.max_usd !== undefined ? `≤ ${formatMoney(a.max_usd, 'USD')}` : ''].filter(Boolean).join(', ');
    return `${base} ${a.type === 'raise_budget' ? '+' : '−'}${a.percent}%${bounds ? ` (${bounds})` : ''}`;
  }
  return base;
}

/** What an act changes: "ACTIVE → PAUSED", "USD 20.00 → USD 24.00". */
export function changeText(before: Record<string, unknown>, after: Record<string, unknown>) {
  const show = (o: Record<string, unknown>) => {
    if ('daily_budget' in o) return o.daily_budget === null ? '—' : formatMoney(Number(o.daily_budget), String(o.currency ?? 'USD'));
    if ('status' in o) return String(o.status);
    return '';
  };
  const b = show(before);
  const a = show(after);
  if (!b && !a) return '';
  return a ? `${b || '—'} → ${a}` : b;
}
