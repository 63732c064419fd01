import type { RuleConditionTree } from '@ads/contracts';
import { describe, expect, it } from 'vitest';
import { compare, dueSlot, evaluateTree, latestSlot, newBudgetMinor, nextSlot, tickOf, treeMet, windowDays, windowSince, type ObjectFigures } from './rules.engine.ts';

// The engine's decisions without I/O: schedule slots, windows, condition trees, budgets.

const at = (iso: string) => new Date(iso);

describe('rule schedules', () => {
  it('an interval is due once per slot, on the clock’s grain', () => {
    const s = { type: 'interval', minutes: 30 } as const;
    expect(latestSlot(s, at('2026-11-06T10:17:00Z')).toISOString()).toBe('2026-11-06T10:00:00.000Z');
    expect(dueSlot(s, at('2026-11-06T10:17:00Z'), null)?.toISOString()).toBe('2026-11-06T10:00:00.000Z');
    expect(dueSlot(s, at('2026-11-06T10:29:59Z'), at('2026-11-06T10:00:00Z'))).toBeNull();
    expect(dueSlot(s, at('2026-11-06T10:30:00Z'), at('2026-11-06T10:00:00Z'))?.toISOString()).toBe('2026-11-06T10:30:00.000Z');
    expect(nextSlot(s, at('2026-11-06T10:17:00Z')).toISOString()).toBe('2026-11-06T10:30:00.000Z');
    expect(tickOf(at('2026-11-06T10:17:31Z')).toISOString()).toBe('2026-11-06T10:15:00.000Z');
  });

  it('set times are read in their zone, across midnight, and a slot missed by more than an hour is not caught up', () => {
    const s = { type: 'times' as const, times: ['00:30', '21:00'], timezone: 'Asia/Shanghai' };
    // 2026-11-06 00:30 in Shanghai is 2026-11-05 16:30 UTC.
    expect(latestSlot(s, at('2026-11-05T17:00:00Z')).toISOString()).toBe('2026-11-05T16:30:00.000Z');
    expect(latestSlot(s, at('2026-11-05T16:00:00Z')).toISOString()).toBe('2026-11-05T13:00:00.000Z');
    expect(dueSlot(s, at('2026-11-05T16:40:00Z'), at('2026-11-05T13:00:00Z'))?.toISOString()).toBe('2026-11-05T16:30:00.000Z');
    expect(dueSlot(s, at('2026-11-05T18:00:00Z'), at('2026-11-05T13:00:00Z'))).toBeNull();
    expect(nextSlot(s, at('2026-11-05T17:00:00Z')).toISOString()).toBe('2026-11-06T13:00:00.000Z');
  });
});

describe('rule windows and conditions', () => {
  it('windows cover report days, today included; hours count back from the current one', () => {
    expect(windowDays({ type: 'today' }, '2026-11-06')).toEqual({ from: '2026-11-06', to: '2026-11-06' });
    expect(windowDays({ type: 'yesterday' }, '2026-11-06')).toEqual({ from: '2026-11-05', to: '2026-11-05' });
    expect(windowDays({ type: 'last_days', n: 7 }, '2026-11-06')).toEqual({ from: '2026-10-31', to: '2026-11-06' });
    expect(windowSince(3, at('2026-11-06T10:17:00Z')).toISOString()).toBe('2026-11-06T08:00:00.000Z');
  });

  it('groups combine with all / any; a missing figure never meets a condition', () => {
    const f: ObjectFigures = {
      sums: new Map([['today', { spend_usd_cents: 3000, purchases: 0, revenue_usd_cents: 600, impressions: 0, clicks: 0 }]]),
      extra: { object_age_hours: 50, hours_since_change: 2, budget_used_pct: 80 },
    };
    const tree = (match: 'all' | 'any', g2: 'all' | 'any'): RuleConditionTree => ({
      match,
      groups: [
        { match: 'all', conditions: [{ metric: 'spend', operator: 'gte', value: 30, window: { type: 'today' } }, { metric: 'purchases', operator: 'eq', value: 0, window: { type: 'today' } }] },
        { match: g2, conditions: [{ metric: 'roi', operator: 'gt', value: 50, window: { type: 'today' } }, { metric: 'object_age_hours', operator: 'gte', value: 48, window: { type: 'today' } }] },
      ],
    });
    expect(evaluateTree(tree('all', 'any'), f).met).toBe(true);
    expect(evaluateTree(tree('all', 'all'), f).met).toBe(false);
    expect(evaluateTree(tree('any', 'all'), f).met).toBe(true);
    // The engine's quick test (no figures recorded) says the same for every combination.
    for (const a of ['all', 'any'] as const) for (const b of ['all', 'any'] as const) expect(treeMet(tree(a, b), f)).toBe(evaluateTree(tree(a, b), f).met);
    expect(treeMet(tree('all', 'all'), f)).toBe(false);
    const { values } = evaluateTree(tree('all', 'all'), f);
    expect(values.map((v) => [v.metric, v.actual, v.met])).toEqual([
      ['spend', 30, true],
      ['purchases', 0, true],
      ['roi', 20, false],
      ['object_age_hours', 50, true],
    ]);
    // CTR over no impressions is no figure: neither "< 1" nor "≥ 1".
    const ctr = (operator: 'lt' | 'gte'): RuleConditionTree => ({ match: 'all', groups: [{ match: 'all', conditions: [{ metric: 'ctr', operator, value: 1, window: { type: 'today' } }] }] });
    expect(evaluateTree(ctr('lt'), f).met).toBe(false);
    expect(evaluateTree(ctr('gte'), f).met).toBe(false);
    expect(compare(0.1 + 0.2, 'eq', 0.3)).toBe(true);
    // A window with no rows (no delivery yet today) is zeros: no purchase today, spend 0, still no CTR.
    const idle: ObjectFigures = { sums: new Map([['last_days:2', { spend_usd_cents: 500 }]]), extra: { object_age_hours: 50, hours_since_change: 2, budget_used_pct: 0 } };
    const one = (metric: 'purchases' | 'spend' | 'ctr', operator: 'eq' | 'gte' | 'lt', value: number): RuleConditionTree => ({ match: 'all', groups: [{ match: 'all', conditions: [{ metric, operator, value, window: { type: 'today' } }] }] });
    expect(evaluateTree(one('purchases', 'eq', 0), idle).met).toBe(true);
    expect(evaluateTree(one('spend', 'gte', 1), idle).met).toBe(false);
    expect(evaluateTree(one('spend', 'lt', 1), idle).values[0]!.actual).toBe(0);
    expect(evaluateTree(one('ctr', 'lt', 1), idle).met).toBe(false);
  });
});

describe('budget actions', () => {
  it('raise and lower by a percentage within the minimum and maximum; set converts dollars', () => {
    expect(newBudgetMinor({ type: 'raise_budget', percent: 20, max_usd: 70 }, 5000, 100)).toBe(6000);
    expect(newBudgetMinor({ type: 'raise_budget', percent: 20, max_usd: 70 }, 6000, 100)).toBe(7000);
    expect(newBudgetMinor({ type: 'raise_budget', percent: 20, max_usd: 70 }, 7000, 100)).toBe(7000);
    // A budget already above the cap is neither raised nor cut by a raise.
    expect(newBudgetMinor({ type: 'raise_budget', percent: 20, max_usd: 70 }, 9000, 100)).toBe(9000);
    expect(newBudgetMinor({ type: 'lower_budget', percent: 50, min_usd: 30 }, 5000, 100)).toBe(3000);
    expect(newBudgetMinor({ type: 'lower_budget', percent: 50, min_usd: 30 }, 2000, 100)).toBe(2000);
    // JPY: 150 yen a dollar, no minor unit.
    expect(newBudgetMinor({ type: 'set_budget', amount_usd: 40 }, 3000, 150)).toBe(6000);
  });
});
