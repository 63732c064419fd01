import { isExtraMetric, metricValue, RULE_TICK_MINUTES, type FactSums, type RuleCondition, type RuleConditionTree, type RuleOperator, type RuleSchedule, type RuleValue, type RuleWindow } from '@ads/contracts';
import { addDays, dayIn, localHourStart } from '../../lib/tz.ts';

// The engine's pure parts (issue 10): when a rule is due, which days or hours a window covers,
// whether an object's figures meet a condition tree, and what a budget action sets. No I/O here,
// so every decision is unit-tested on its own.

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A `times` slot missed by more than this (downtime) is not caught up. */
const TIMES_CATCH_UP_MS = HOUR;

/** The engine's tick an instant falls in (start of its 5-minute slot). */
export function tickOf(now: Date): Date {
  const step = RULE_TICK_MINUTES * MINUTE;
  return new Date(Math.floor(now.getTime() / step) * step);
}

/** The instants of a `times` schedule on one local day of its zone. */
function timesOn(day: string, schedule: Extract<RuleSchedule, { type: 'times' }>): number[] {
  return schedule.times.map((t) => {
    const [h, m] = t.split(':').map(Number) as [number, number];
    return localHourStart(day, h, schedule.timezone) + m * MINUTE;
  });
}

/** The latest schedule slot at or before `now` (an interval's start, or a set time). */
export function latestSlot(schedule: RuleSchedule, now: Date): Date {
  const t = now.getTime();
  if (schedule.type === 'interval') {
    const step = schedule.minutes * MINUTE;
    return new Date(Math.floor(t / step) * step);
  }
  const today = dayIn(t, schedule.timezone);
  const slots = [...timesOn(addDays(today, -1), schedule), ...timesOn(today, schedule)].filter((s) => s <= t);
  return new Date(Math.max(...slots));
}

/** The slot to evaluate now, or null when the rule's latest slot was evaluated already (or is too old to catch up). */
export function dueSlot(schedule: RuleSchedule, now: Date, lastSlot: Date | null): Date | null {
  const slot = latestSlot(schedule, now);
  if (lastSlot && slot.getTime() <= lastSlot.getTime()) return null;
  if (schedule.type === 'times' && now.getTime() - slot.getTime() > TIMES_CATCH_UP_MS) return null;
  return slot;
}

/** The next slot after `now` (shown in the rule list). */
export function nextSlot(schedule: RuleSchedule, now: Date): Date {
  const t = now.getTime();
  if (schedule.type === 'interval') {
    const step = schedule.minutes * MINUTE;
    return new Date((Math.floor(t / step) + 1) * step);
  }
  const today = dayIn(t, schedule.timezone);
  const slots = [...timesOn(today, schedule), ...timesOn(addDays(today, 1), schedule)].filter((s) => s > t);
  return new Date(Math.min(...slots));
}

/** Report days a day window covers, inclusive (lifetime: from the first day there can be). */
export function windowDays(window: Exclude<RuleWindow, { type: 'last_hours' }>, today: string): { from: string; to: string } {
  switch (window.type) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case 'last_days':
      return { from: addDays(today, -(window.n - 1)), to: today };
    case 'lifetime':
      return { from: '2000-01-01', to: today };
  }
}

/** The first hour a `last_hours` window sums: the current hour and the n−1 before it. */
export function windowSince(n: number, now: Date): Date {
  return new Date(Math.floor(now.getTime() / HOUR) * HOUR - (n - 1) * HOUR);
}

/** A stable key of a window, to query each window once. */
export function windowKey(w: RuleWindow): string {
  return w.type === 'last_hours' || w.type === 'last_days' ? `${w.type}:${w.n}` : w.type;
}

/** What one object shows: the sums of each window, and the figures that are not report metrics. */
export interface ObjectFigures {
  sums: Map<string, FactSums>;
  extra: { object_age_hours: number | null; hours_since_change: number | null; budget_used_pct: number | null };
}

/** A condition's figure for an object; null when there is none (a ratio over zero, a cohort not matured). */
export function conditionActual(c: RuleCondition, f: ObjectFigures): number | null {
  if (isExtraMetric(c.metric)) return f.extra[c.metric];
  // A window without rows is a window of zeros (no delivery today is no purchase today); a ratio
  // over it still has no figure (metricValue answers null over a zero denominator).
  return metricValue(c.metric, f.sums.get(windowKey(c.window)) ?? {});
}

const EPS = 1e-9;

export function compare(actual: number | null, op: RuleOperator, threshold: number): boolean {
  // No figure never meets a condition: "ROI below 30 %" says nothing about an object without spend.
  if (actual === null || !Number.isFinite(actual)) return false;
  switch (op) {
    case 'gt':
      return actual > threshold + EPS;
    case 'gte':
      return actual >= threshold - EPS;
    case 'lt':
      return actual < threshold - EPS;
    case 'lte':
      return actual <= threshold + EPS;
    case 'eq':
      return Math.abs(actual - threshold) <= EPS;
    case 'neq':
      return Math.abs(actual - threshold) > EPS;
  }
}

/** Whether an object's figures meet a condition tree, with every condition's figure (shown in the history). */
export function evaluateTree(tree: RuleConditionTree, f: ObjectFigures): { met: boolean; values: RuleValue[] } {
  const values: RuleValue[] = [];
  const groups = tree.groups.map((g) => {
    const results = g.conditions.map((c) => {
      const actual = conditionActual(c, f);
      const met = compare(actual, c.operator, c.value);
      values.push({ metric: c.metric, window: c.window, operator: c.operator, threshold: c.value, actual: actual === null ? null : round(actual), met });
      return met;
    });
    return g.match === 'all' ? results.every(Boolean) : results.some(Boolean);
  });
  return { met: tree.match === 'all' ? groups.every(Boolean) : groups.some(Boolean), values };
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * Whether a tree is met, as `evaluateTree` says, without recording the figures (100,000 objects a
 * rule, most not matching: their figures are only worked out for the ones that match).
 */
export function treeMet(tree: RuleConditionTree, f: ObjectFigures): boolean {
  const met = (g: RuleConditionTree['groups'][number]) => {
    const one = (c: RuleCondition) => compare(conditionActual(c, f), c.operator, c.value);
    return g.match === 'all' ? g.conditions.every(one) : g.conditions.some(one);
  };
  return tree.match === 'all' ? tree.groups.every(met) : tree.groups.some(met);
}

/** Every window a tree reads (each is one query). */
export function treeWindows(trees: readonly (RuleConditionTree | null | undefined)[]): RuleWindow[] {
  const out = new Map<string, RuleWindow>();
  for (const tree of trees) for (const g of tree?.groups ?? []) for (const c of g.conditions) if (!isExtraMetric(c.metric)) out.set(windowKey(c.window), c.window);
  return [...out.values()];
}

/** The extra figures a tree reads. */
export function treeExtras(trees: readonly (RuleConditionTree | null | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const tree of trees) for (const g of tree?.groups ?? []) for (const c of g.conditions) if (isExtraMetric(c.metric)) out.add(c.metric);
  return out;
}

/**
 * A budget action's new daily budget in minor units of the account currency, from the current
 * one; dollars convert at `minorPerUsd` (minor units per US dollar). Raises and cuts stay within
 * the minimum and maximum; a result equal to the current budget means nothing to do.
 */
export function newBudgetMinor(
  action: { type: 'set_budget'; amount_usd: number } | { type: 'raise_budget' | 'lower_budget'; percent: number; min_usd?: number | undefined; max_usd?: number | undefined },
  currentMinor: number,
  minorPerUsd: number,
): number {
  if (action.type === 'set_budget') return Math.round(action.amount_usd * minorPerUsd);
  const factor = action.type === 'raise_budget' ? 1 + action.percent / 100 : 1 - action.percent / 100;
  let next = Math.round(currentMinor * factor);
  if (action.max_usd !== undefined) {
    const max = Math.round(action.max_usd * minorPerUsd);
    // A budget already above the cap is never raised further, nor cut to it by a raise.
    if (action.type === 'raise_budget') next = Math.min(next, Math.max(max, currentMinor));
    else next = Math.min(next, max);
  }
  if (action.min_usd !== undefined) {
    const min = Math.round(action.min_usd * minorPerUsd);
    if (action.type === 'lower_budget') next = Math.max(next, Math.min(min, currentMinor));
    else next = Math.max(next, min);
  }
  return next;
}
