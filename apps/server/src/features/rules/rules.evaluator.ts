import {
  both,
  factColumnsOf,
  formatMetric,
  HOSTING_RULE_PATHS,
  isBudgetAction,
  isExtraMetric,
  derivePaths,
  RULE_OPERATOR_SIGN,
  ruleMetricTitle,
  type Bilingual,
  type FactColumn,
  type FactSums,
  type MetricKey,
  type RuleAction,
  type RuleConditionTree,
  type RuleDraft,
  type RuleLevel,
  type RuleOutcome,
  type RuleValue,
  type RuleWindow,
} from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { latestRates } from '../../lib/fx.ts';
import { visibleAdAccountIds, type ScopeActor } from '../../lib/scope.ts';
import { addDays, dayIn, startOfDay } from '../../lib/tz.ts';
import { currencyOffset, toMajor } from '../../platform/currency.ts';
import { failureText, type AdOperations, type OpResult } from '../ad-data/ad-ops.service.ts';
import type { NotifyInput } from '../notifications/notifications.service.ts';
import { evaluateTree, newBudgetMinor, treeExtras, treeMet, treeWindows, windowDays, windowKey, windowSince, type ObjectFigures } from './rules.engine.ts';
import {
  budgetChangesSince,
  candidates,
  claimEvaluation,
  completeFiring,
  completeFirings,
  dueStops,
  findRule,
  finishedOps,
  finishEvaluation,
  firedObjects,
  holderSpendSince,
  hostedAccounts,
  hourSums,
  hourSumsByAccounts,
  multiWindowSums,
  insertFiring,
  insertFirings,
  insertFiringsReturning,
  lastSwitch,
  loadOwner,
  objectState,
  recentlyActed,
  settleStop,
  stillHosted,
  stoppedOn,
  syncStates,
  windowSums,
  type AccountRef,
  type CandidateMode,
  type EvaluationCounts,
  type FiringValues,
  type RuleObject,
  type RuleRow,
  type StopRow,
  type StopValues,
} from './rules.repository.ts';

// Evaluating a rule (issue 10): the hosted accounts its owner may act on, the objects its scope
// and filters select, their figures over each window (one query per window), the condition tree,
// then per matched object what to do — or why not (cooldown, stop-loss already today, budget
// held elsewhere, the platform's budget-change limit, the cap per run) — and, live, the acts
// through the ad operations service with the rule as actor. Dry runs stop before acting.

const HOUR = 3_600_000;
const ADSET_BUDGET_CHANGES_PER_HOUR = 4;
const LEVEL_WORD = { campaign: { zh: '广告系列', en: 'campaign' }, adset: { zh: '广告组', en: 'ad set' }, ad: { zh: '广告', en: 'ad' } };
/** A revive that keeps failing is given up this long after it was due. */
const REVIVE_GIVE_UP_MS = 6 * HOUR;
/** Ad accounts acted on at once within one rule's evaluation. */
const ACT_ACCOUNT_CONCURRENCY = 8;

interface Acting {
  row: PlanRow;
  firingId: number;
}
interface ActOutcome {
  t: Acting;
  ok: boolean;
  operationId: number | null;
  error: Bilingual | null;
}

export type RuleSpec = Pick<RuleDraft, 'name' | 'scope' | 'level' | 'filters' | 'conditions' | 'action' | 'stop_loss' | 'cooldown_minutes' | 'max_actions_per_run' | 'notify'>;

/** A rule row's JSON as the engine reads it (saved through the contracts' schema). */
export function specOf(row: RuleRow): RuleSpec {
  return {
    name: row.name,
    scope: row.scope as RuleSpec['scope'],
    level: row.level,
    filters: row.filters as RuleSpec['filters'],
    conditions: row.conditions as RuleConditionTree,
    action: row.action as RuleAction,
    stop_loss: row.stop_loss as RuleSpec['stop_loss'],
    cooldown_minutes: row.cooldown_minutes,
    max_actions_per_run: row.max_actions_per_run,
    notify: row.notify as RuleSpec['notify'],
  };
}

export interface PlanRow {
  level: RuleLevel;
  object: RuleObject;
  account: AccountRef;
  values: RuleValue[];
  outcome: RuleOutcome;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  reason: Bilingual | null;
  /** Budget actions: the new daily budget, minor units. */
  budgetMinor?: number;
}

export interface Plan {
  accounts: AccountRef[];
  checked: number;
  rows: PlanRow[];
  dataAsOf: Date | null;
  today: string;
}

export interface EvaluatorDeps {
  db: Db;
  clock: Clock;
  reportTimezone: string;
  /** Acts on the platform; absent without an ad platform (acts then fail, saying so). */
  ops?: AdOperations;
  notify: (input: NotifyInput) => Promise<unknown>;
  log?: { warn(obj: object, msg?: string): void };
}

/** An owner who cannot run rules, and why. */
export class RuleOwnerError extends Error {
  constructor(readonly text: Bilingual) {
    super(text.en);
    this.name = 'RuleOwnerError';
  }
}

/**
 * Optional per-phase timing of the engine (the rules benchmark sets it to find where a tick's
 * time goes); null in the server, where it costs one comparison per phase.
 */
export const ruleProfiler: { record: ((phase: string, ms: number) => void) | null } = { record: null };

async function timed<T>(phase: string, work: () => Promise<T>): Promise<T> {
  if (!ruleProfiler.record) return work();
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    ruleProfiler.record(phase, performance.now() - t0);
  }
}

const extrasEmpty = { object_age_hours: null, hours_since_change: null, budget_used_pct: null };

/**
 * What the rules of one tick share: the objects of a scope and the sums of a window, read once
 * for all the rules that ask for them (20 rules over 100,000 ads read the same rows 20 times
 * otherwise). Facts do not change within a tick; objects do when a rule acts, so a rule that
 * acted drops the cached objects of its level and the next rule reads them again.
 */
export interface TickMemo {
  /** Per level and window, the fact columns any due rule reads: one query serves them all. */
  columns: Map<string, Set<FactColumn>>;
  /** Per level, every day window the due rules read (summed together in one pass). */
  windows: Map<RuleLevel, Map<string, Exclude<RuleWindow, { type: 'last_hours' }>>>;
  candidates: Map<string, Promise<RuleObject[]>>;
  /** What each cached object list was read for (to read again the accounts a rule acted in). */
  candidateArgs: Map<string, { level: RuleLevel; accountIds: number[]; filters: RuleSpec['filters']; mode: CandidateMode }>;
  /** Per level, day and accounts: the sums of all those windows, by window key and object. */
  allSums: Map<string, Promise<Map<string, Map<number, FactSums>>>>;
  sums: Map<string, { asked: Set<number>; sums: Map<number, FactSums> }>;
  hours: Map<string, Promise<Awaited<ReturnType<typeof hourSumsByAccounts>>>>;
}

export function createTickMemo(specs: readonly Pick<RuleSpec, 'level' | 'conditions'>[] = []): TickMemo {
  const columns = new Map<string, Set<FactColumn>>();
  const windows = new Map<RuleLevel, Map<string, Exclude<RuleWindow, { type: 'last_hours' }>>>();
  for (const spec of specs) {
    for (const g of spec.conditions.groups) {
      for (const c of g.conditions) {
        if (isExtraMetric(c.metric)) continue;
        const key = `${spec.level}|${windowKey(c.window)}`;
        let set = columns.get(key);
        if (!set) columns.set(key, (set = new Set()));
        for (const col of factColumnsOf([c.metric])) set.add(col);
        if (c.window.type !== 'last_hours') {
          let byKey = windows.get(spec.level);
          if (!byKey) windows.set(spec.level, (byKey = new Map()));
          byKey.set(windowKey(c.window), c.window);
        }
      }
    }
  }
  return { columns, windows, candidates: new Map(), candidateArgs: new Map(), allSums: new Map(), sums: new Map(), hours: new Map() };
}

/** Remembers a promise under a key; a failed read is not remembered. */
function remember<T>(map: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let hit = map.get(key);
  if (!hit) {
    hit = read();
    map.set(key, hit);
    hit.catch(() => map.delete(key));
  }
  return hit;
}

export function createRuleEvaluator(deps: EvaluatorDeps) {
  const { db, clock, reportTimezone } = deps;

  /** The owner as a scope actor; refuses an owner who is gone or lost hosting. */
  async function ownerActor(userId: number): Promise<ScopeActor & { name: string }> {
    const owner = await loadOwner(db, userId);
    if (!owner || owner.deleted_at || owner.status !== 'enabled') throw new RuleOwnerError(both('RULE_OWNER_INACTIVE', { name: owner?.name ?? `#${userId}` }));
    const paths = derivePaths(owner.is_admin, owner.role_paths);
    if (!HOSTING_RULE_PATHS.some((p) => paths.includes(p))) throw new RuleOwnerError(both('RULE_OWNER_NO_ACCESS', { name: owner.name }));
    return { id: owner.id, name: owner.name, is_admin: owner.is_admin, is_leader: owner.is_leader, department_id: owner.department_id };
  }

  /** Hosted accounts of the rule's scope within what its owner may act on. */
  async function accountsFor(spec: Pick<RuleSpec, 'scope'>, owner: ScopeActor): Promise<AccountRef[]> {
    return hostedAccounts(db, await visibleAdAccountIds(db, owner), spec.scope);
  }

  /**
   * Window sums through the tick's memo: a window every due rule of the level plans for is summed
   * with all the others in one pass over the accounts' facts (once per tick and accounts); any
   * other window reads the objects no earlier rule asked for.
   */
  async function memoSums(memo: TickMemo | undefined, level: RuleLevel, window: RuleWindow, accountIds: number[], ids: number[], from: string, to: string, today: string, own: FactColumn[]): Promise<Map<number, FactSums>> {
    if (!memo) return windowSums(db, level, ids, from, to, today, own);
    const shared = memo.columns.get(`${level}|${windowKey(window)}`);
    const planned = memo.windows.get(level);
    if (shared && planned?.has(windowKey(window)) && own.every((c) => shared.has(c))) {
      const all = await remember(memo.allSums, `${level}|${today}|${accountIds.join(',')}`, () =>
        timed(`figures.multiWindowSums.${level}`, () => multiWindowSums(
          db,
          level,
          accountIds,
          [...planned].map(([key, w]) => ({ key, ...windowDays(w, today), columns: [...(memo.columns.get(`${level}|${key}`) ?? [])] })),
          today,
        )),
      );
      return all.get(windowKey(window)) ?? new Map();
    }
    const columns = shared && own.every((c) => shared.has(c)) ? [...shared].sort() : [...own].sort();
    const key = `${level}|${from}|${to}|${columns.join(',')}`;
    let entry = memo.sums.get(key);
    if (!entry) memo.sums.set(key, (entry = { asked: new Set(), sums: new Map() }));
    const missing = ids.filter((id) => !entry.asked.has(id));
    if (missing.length) {
      for (const [id, v] of await windowSums(db, level, missing, from, to, today, columns)) entry.sums.set(id, v);
      for (const id of missing) entry.asked.add(id);
    }
    return entry.sums;
  }

  /** Hourly sums through the tick's memo: once per level, hour and accounts, for all their objects. */
  async function memoHours(memo: TickMemo | undefined, level: RuleLevel, accountIds: number[], ids: number[], since: Date) {
    if (!memo) return hourSums(db, level, ids, since);
    const rows = await remember(memo.hours, `${level}|${since.getTime()}|${accountIds.join(',')}`, () => timed(`figures.hourSums.${level}`, () => hourSumsByAccounts(db, level, accountIds, since)));
    const wanted = new Set(ids);
    return rows.filter((r) => wanted.has(r.k));
  }

  function memoCandidates(memo: TickMemo | undefined, level: RuleLevel, accountIds: number[], filters: RuleSpec['filters'], mode: CandidateMode): Promise<RuleObject[]> {
    if (!memo) return candidates(db, level, accountIds, filters, mode);
    const key = `${level}|${mode}|${JSON.stringify(filters)}|${accountIds.join(',')}`;
    memo.candidateArgs.set(key, { level, accountIds, filters, mode });
    return remember(memo.candidates, key, () => candidates(db, level, accountIds, filters, mode));
  }

  /**
   * After a rule acted: the cached objects of its level in the accounts it acted in are read
   * again (their status or budget changed); the other accounts' objects stay as read.
   */
  function rereadActed(memo: TickMemo, level: RuleLevel, touched: Set<number>) {
    for (const [key, args] of memo.candidateArgs) {
      if (args.level !== level) continue;
      const old = memo.candidates.get(key);
      const affected = args.accountIds.filter((a) => touched.has(a));
      if (!old || !affected.length) continue;
      const fresh = Promise.all([old, candidates(db, level, affected, args.filters, args.mode)]).then(([list, again]) =>
        [...list.filter((o) => !touched.has(o.ad_account_id)), ...again].sort((a, b) => a.id - b.id),
      );
      memo.candidates.set(key, fresh);
      fresh.catch(() => memo.candidates.delete(key));
    }
  }

  /** The figures of objects over every window the trees read, and the extra figures. */
  async function figures(level: RuleLevel, objects: RuleObject[], accounts: Map<number, AccountRef>, trees: (RuleConditionTree | null | undefined)[], now: Date, today: string, memo?: TickMemo): Promise<Map<number, ObjectFigures>> {
    const out = new Map<number, ObjectFigures>(objects.map((o) => [o.id, { sums: new Map(), extra: { ...extrasEmpty } }]));
    if (!objects.length) return out;
    const ids = objects.map((o) => o.id);
    const accountIds = [...accounts.keys()].sort((a, b) => a - b);
    // Which metrics each window needs: one query per window.
    const perWindow = new Map<string, { window: RuleWindow; metrics: Set<MetricKey> }>();
    for (const w of treeWindows(trees)) perWindow.set(windowKey(w), { window: w, metrics: new Set() });
    for (const tree of trees) for (const g of tree?.groups ?? []) for (const c of g.conditions) if (!isExtraMetric(c.metric)) perWindow.get(windowKey(c.window))!.metrics.add(c.metric);
    for (const [key, { window, metrics }] of perWindow) {
      if (window.type === 'last_hours') {
        const rows = await memoHours(memo, level, accountIds, ids, windowSince(window.n, now));
        const rates = await latestRates(db, rows.map((r) => r.currency));
        const acc = new Map<number, FactSums>();
        for (const r of rows) {
          const rate = rates.get(r.currency.toUpperCase()) ?? (r.currency.toUpperCase() === 'USD' ? 1 : null);
          const s = acc.get(r.k) ?? { spend_usd_cents: 0, impressions: 0, clicks: 0 };
          s.spend_usd_cents! += rate ? Math.round((r.spend_minor / currencyOffset(r.currency) / rate) * 100) : 0;
          s.impressions! += r.impressions;
          s.clicks! += r.clicks;
          acc.set(r.k, s);
        }
        for (const o of objects) out.get(o.id)!.sums.set(key, acc.get(o.id) ?? { spend_usd_cents: 0, impressions: 0, clicks: 0 });
        continue;
      }
      const { from, to } = windowDays(window, today);
      const columns = factColumnsOf([...metrics]);
      const sums = await memoSums(memo, level, window, accountIds, ids, from, to, today, columns);
      const zero = Object.fromEntries(columns.map((c) => [c, 0])) as FactSums;
      for (const o of objects) out.get(o.id)!.sums.set(key, sums.get(o.id) ?? zero);
    }
    const extras = treeExtras(trees);
    for (const o of objects) {
      const f = out.get(o.id)!;
      const created = (o.created_time ?? o.created_at).getTime();
      f.extra.object_age_hours = Math.max(0, (now.getTime() - created) / HOUR);
      f.extra.hours_since_change = Math.max(0, (now.getTime() - (o.updated_time ?? o.created_time ?? o.created_at).getTime()) / HOUR);
    }
    if (extras.has('budget_used_pct')) {
      // Today's spend of the budget holder since the start of its account's day, against its daily budget.
      // Read by the holders' accounts (a holder's ads are all in its account), not by a long id list.
      const groups = new Map<string, { level: 'campaign' | 'adset'; since: Date; holders: Set<number>; accounts: Set<number> }>();
      // The start of today per zone, worked out once per zone (not per object: 100,000 Intl calls took seconds).
      const dayStart = new Map<string, Date>();
      const startIn = (tz: string) => {
        let d = dayStart.get(tz);
        if (!d) dayStart.set(tz, (d = new Date(startOfDay(dayIn(now.getTime(), tz), tz))));
        return d;
      };
      for (const o of objects) {
        if (!o.holder_daily_minor) continue;
        const tz = accounts.get(o.ad_account_id)?.timezone_name ?? 'UTC';
        const since = startIn(tz);
        const k = `${o.holder_level}|${since.getTime()}`;
        const g = groups.get(k) ?? { level: o.holder_level, since, holders: new Set<number>(), accounts: new Set<number>() };
        g.holders.add(o.holder_id);
        g.accounts.add(o.ad_account_id);
        groups.set(k, g);
      }
      const spent = new Map<string, number>();
      for (const g of groups.values()) {
        for (const [id, minor] of await timed('figures.holderSpend', () => holderSpendSince(db, g.level, [...g.accounts], g.since))) if (g.holders.has(id)) spent.set(`${g.level}:${id}`, minor);
      }
      for (const o of objects) {
        if (!o.holder_daily_minor) continue;
        out.get(o.id)!.extra.budget_used_pct = ((spent.get(`${o.holder_level}:${o.holder_id}`) ?? 0) / o.holder_daily_minor) * 100;
      }
    }
    return out;
  }

  function beforeAfter(action: RuleAction, o: RuleObject): { before: Record<string, unknown>; after: Record<string, unknown> } {
    if (action.type === 'pause') return { before: { status: o.status }, after: { status: 'PAUSED' } };
    if (action.type === 'activate') return { before: { status: o.status }, after: { status: 'ACTIVE' } };
    if (action.type === 'notify') return { before: {}, after: {} };
    return { before: { daily_budget: o.daily_budget_minor === null ? null : toMajor(o.daily_budget_minor, o.currency), currency: o.currency }, after: {} };
  }

  /**
   * What the rule does now: every matched object with its outcome. Nothing is written; `acting`
   * decides whether outcomes read "would act" or are to be acted on.
   */
  async function plan(spec: RuleSpec, owner: ScopeActor, now: Date, ruleId: number | null, memo?: TickMemo): Promise<Plan> {
    const today = dayIn(now.getTime(), reportTimezone);
    const accounts = await timed('plan.accounts', () => accountsFor(spec, owner));
    const byId = new Map(accounts.map((a) => [a.id, a]));
    const states = await timed('plan.syncStates', () => syncStates(db, accounts.map((a) => a.id)));
    const synced = states.map((s) => s.insights_synced_at).filter((d): d is Date => d !== null);
    const dataAsOf = synced.length === accounts.length && synced.length ? new Date(Math.min(...synced.map((d) => d.getTime()))) : null;
    const mode = spec.action.type === 'activate' ? (spec.action.only_paused_by_rules ? 'paused_by_rule' : 'paused') : 'active';
    const objects = await timed('plan.candidates', () => memoCandidates(memo, spec.level, accounts.map((a) => a.id), spec.filters, mode));
    const figs = await timed('plan.figures', () => figures(spec.level, objects, byId, [spec.conditions], now, today, memo));

    const matched: { o: RuleObject; values: RuleValue[] }[] = [];
    for (const o of objects) {
      const f = figs.get(o.id)!;
      if (treeMet(spec.conditions, f)) matched.push({ o, values: evaluateTree(spec.conditions, f).values });
    }
    const ids = matched.map((m) => m.o.id);
    const t0 = performance.now();
    const cooling = ruleId && spec.cooldown_minutes > 0 ? await recentlyActed(db, ruleId, spec.level, ids, new Date(now.getTime() - spec.cooldown_minutes * 60_000)) : new Set<number>();
    const stopped = ruleId && spec.stop_loss.enabled ? await stoppedOn(db, ruleId, spec.level, ids, today) : new Set<number>();
    const changes = isBudgetAction(spec.action.type) && spec.level === 'adset' ? await budgetChangesSince(db, matched.map((m) => m.o.platform_id), new Date(now.getTime() - HOUR)) : new Map<string, number>();
    const rates = isBudgetAction(spec.action.type) ? await latestRates(db, matched.map((m) => m.o.currency), today) : new Map<string, number>();
    ruleProfiler.record?.('plan.checks', performance.now() - t0);

    let taken = 0;
    const rows: PlanRow[] = [];
    for (const { o, values } of matched) {
      const account = byId.get(o.ad_account_id)!;
      const { before, after } = beforeAfter(spec.action, o);
      const row: PlanRow = { level: spec.level, object: o, account, values, outcome: 'would_act', before, after, reason: null };
      if (stopped.has(o.id)) {
        row.outcome = 'skipped_stopped';
        row.reason = both('RULE_SKIP_STOPPED');
      } else if (cooling.has(o.id)) {
        row.outcome = 'skipped_cooldown';
        row.reason = both('RULE_SKIP_COOLDOWN', { minutes: spec.cooldown_minutes });
      } else if (spec.action.type === 'set_budget' || spec.action.type === 'raise_budget' || spec.action.type === 'lower_budget') {
        const rate = rates.get(o.currency.toUpperCase()) ?? (o.currency.toUpperCase() === 'USD' ? 1 : null);
        if (!o.own_budget) {
          const holder = LEVEL_WORD[o.holder_level];
          row.outcome = 'skipped_budget';
          row.reason = { zh: both('RULE_SKIP_BUDGET_HOLDER', { holder: holder.zh }).zh, en: both('RULE_SKIP_BUDGET_HOLDER', { holder: holder.en }).en };
        } else if (o.daily_budget_minor === null || rate === null) {
          row.outcome = 'skipped_budget';
          row.reason = both('RULE_SKIP_NO_DAILY_BUDGET');
        } else {
          const next = newBudgetMinor(spec.action, o.daily_budget_minor, rate * currencyOffset(o.currency));
          row.after = { daily_budget: toMajor(next, o.currency), currency: o.currency };
          row.budgetMinor = next;
          const count = changes.get(o.platform_id) ?? 0;
          if (next === o.daily_budget_minor) {
            row.outcome = 'skipped_budget';
            row.reason = both('RULE_SKIP_BUDGET_SAME');
          } else if (spec.level === 'adset' && count >= ADSET_BUDGET_CHANGES_PER_HOUR) {
            row.outcome = 'skipped_limit';
            row.reason = both('RULE_SKIP_LIMIT', { count });
          }
        }
      }
      if (row.outcome === 'would_act') {
        if (taken >= spec.max_actions_per_run) {
          row.outcome = 'skipped_cap';
          row.reason = both('RULE_SKIP_CAP', { max: spec.max_actions_per_run });
        } else taken++;
      }
      rows.push(row);
    }
    return { accounts, checked: objects.length, rows, dataAsOf, today };
  }

  /** Acts on the objects a plan says to, recording each firing before its act; answers the counts. */
  async function act(ruleId: number, spec: RuleSpec, p: Plan, evaluationId: number, now: Date, resumed: boolean) {
    const done = resumed ? await firedObjects(db, evaluationId) : new Set<string>();
    const rows = p.rows.filter((r) => !done.has(`${r.level}:${r.object.id}`));
    const hosted = await timed('act.stillHosted', () => stillHosted(db, [...new Set(rows.filter((r) => r.outcome === 'would_act').map((r) => r.object.ad_account_id))]));
    const firing = (r: PlanRow, outcome: RuleOutcome, extra: Partial<FiringValues> = {}): FiringValues => ({
      evaluation_id: evaluationId,
      rule_id: ruleId,
      level: r.level,
      object_id: r.object.id,
      object_platform_id: r.object.platform_id,
      object_name: r.object.name,
      ad_account_id: r.object.ad_account_id,
      action: spec.action.type,
      outcome,
      values: r.values,
      before: r.before,
      after: r.after,
      error: r.reason,
      created_at: now,
      ...extra,
    });
    const pending: PlanRow[] = [];
    const skipped: FiringValues[] = [];
    for (const r of rows) {
      if (r.outcome === 'would_act' && !hosted.has(r.object.ad_account_id)) {
        r.outcome = 'skipped_scope';
        r.reason = both('RULE_SKIP_NOT_HOSTED');
      }
      if (r.outcome !== 'would_act') {
        skipped.push(firing(r, r.outcome));
        continue;
      }
      if (spec.action.type === 'notify') {
        r.outcome = 'notified';
        skipped.push(firing(r, 'notified'));
        continue;
      }
      pending.push(r);
    }
    // Written before any platform call, in one statement: a run resumed after a crash skips these objects.
    const firingIds = await timed('act.firingsBefore', () => insertFiringsReturning(db, pending.map((r) => firing(r, 'failed', { error: both('RULE_INTERRUPTED') }))));
    const toAct: Acting[] = [];
    for (const r of pending) {
      const id = firingIds.get(`${r.level}:${r.object.id}`);
      if (id !== undefined) toAct.push({ row: r, firingId: id });
    }
    await timed('act.firingsSkipped', () => insertFirings(db, skipped));

    // Acts of one ad account run in order and their outcomes are written in one transaction;
    // accounts run side by side (the Graph client paces each account and token on its own).
    const byAccount = new Map<number, Acting[]>();
    for (const t of toAct) byAccount.set(t.row.object.ad_account_id, [...(byAccount.get(t.row.object.ad_account_id) ?? []), t]);
    const groups = [...byAccount.values()];
    let next = 0;
    const worker = async () => {
      while (next < groups.length) {
        const group = groups[next++]!;
        const outcomes = await timed('act.platform', () => actOnAccount(ruleId, spec, group));
        const stops: StopValues[] = [];
        for (const { t, ok, operationId, error } of outcomes) {
          t.row.outcome = ok ? 'acted' : 'failed';
          t.row.reason = error;
          if (ok && spec.stop_loss.enabled && spec.action.type === 'pause') {
            const tz = t.row.account.timezone_name;
            const reviveAt = spec.stop_loss.revive ? new Date(startOfDay(addDays(dayIn(now.getTime(), tz), 1), tz)) : null;
            stops.push({ rule_id: ruleId, level: t.row.level, object_id: t.row.object.id, ad_account_id: t.row.object.ad_account_id, firing_id: t.firingId, operation_id: operationId, report_day: p.today, paused_at: now, revive_at: reviveAt });
          }
        }
        await timed('act.firingsAfter', () =>
          completeFirings(
            db,
            outcomes.map((o) => ({ id: o.t.firingId, outcome: o.ok ? 'acted' : 'failed', error: o.error, operation_id: o.operationId })),
            stops,
          ),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(ACT_ACCOUNT_CONCURRENCY, groups.length) }, worker));
    return rows;
  }

  /**
   * The platform acts on one account's objects: one `applyMany` (a log row per object, the
   * account's updates in batch requests, lost answers read back). Should that call fail as a
   * whole, each object's fate is found out on its own: an object the call already logged as done
   * or refused keeps that row's result; any other is acted on again by itself. Answers every
   * object's outcome; nothing is written here.
   */
  async function actOnAccount(ruleId: number, spec: RuleSpec, group: Acting[]): Promise<ActOutcome[]> {
    const ops = deps.ops;
    if (!ops) return group.map((t) => ({ t, ok: false, operationId: null, error: both('PLATFORM_NOT_CONFIGURED') }));
    const action = spec.action.type === 'pause' || spec.action.type === 'activate' ? spec.action.type : 'budget';
    const itemOf = (t: Acting) => ({ id: t.row.object.id, ...(action === 'budget' && { daily_budget: toMajor(t.row.budgetMinor!, t.row.object.currency) }) });
    const outcome = (t: Acting, r: OpResult | undefined): ActOutcome => ({ t, ok: r?.result === 'ok', operationId: r?.operation_id ?? null, error: r?.result === 'ok' ? null : (r?.error ?? both('RULE_INTERRUPTED')) });
    const startedAt = clock.now();
    try {
      const res = await ops.applyMany({ type: 'rule', ruleId }, { level: spec.level, action, items: group.map(itemOf) });
      const byId = new Map(res.results.map((r) => [r.id, r]));
      return group.map((t) => outcome(t, byId.get(t.row.object.id)));
    } catch (err) {
      deps.log?.warn({ err, rule: ruleId }, 'rules: a grouped act failed as a whole; each object is found out on its own');
      const logged = await finishedOps(db, ruleId, spec.level, group.map((t) => t.row.object.id), startedAt);
      const out: ActOutcome[] = [];
      for (const t of group) {
        const row = logged.get(t.row.object.id);
        if (row) {
          out.push({ t, ok: row.result === 'ok', operationId: row.id, error: row.result === 'ok' ? null : row.error });
          continue;
        }
        try {
          const res = await ops.applyMany({ type: 'rule', ruleId }, { level: spec.level, action, items: [itemOf(t)] });
          out.push(outcome(t, res.results[0]));
        } catch (one) {
          out.push({ t, ok: false, operationId: null, error: failureText(one) });
        }
      }
      return out;
    }
  }

  /** A message about what a rule did, both languages, a line per object (at most 20). */
  function firedMessage(spec: RuleSpec, rows: PlanRow[]): NotifyInput['message'] {
    const done = rows.filter((r) => r.outcome === 'acted' || r.outcome === 'notified');
    const failed = rows.filter((r) => r.outcome === 'failed');
    const verb = {
      pause: { zh: '关闭', en: 'paused' },
      activate: { zh: '开启', en: 'switched on' },
      set_budget: { zh: '修改预算', en: 'budget set' },
      raise_budget: { zh: '提高预算', en: 'budget raised' },
      lower_budget: { zh: '降低预算', en: 'budget lowered' },
      notify: { zh: '提醒', en: 'flagged' },
    }[spec.action.type];
    const level = LEVEL_WORD[spec.level];
    const line = (r: PlanRow, lang: 'zh' | 'en') => {
      const figures = r.values.filter((v) => v.met).map((v) => `${ruleMetricTitle(v.metric, lang)} ${isExtraMetric(v.metric) ? (v.actual?.toFixed(1) ?? '-') : formatMetric(v.metric, v.actual, lang)} ${RULE_OPERATOR_SIGN[v.operator]} ${v.threshold}`);
      const change = r.budgetMinor !== undefined ? ` · ${r.before.daily_budget} → ${r.after.daily_budget} ${r.object.currency}` : '';
      const outcome = r.outcome === 'failed' ? (lang === 'zh' ? ` · 失败：${r.reason?.zh ?? ''}` : ` · failed: ${r.reason?.en ?? ''}`) : '';
      return `${r.object.name} (${r.account.name}) · ${figures.join(' · ')}${change}${outcome}`;
    };
    const list = [...done, ...failed].slice(0, 20);
    return {
      severity: failed.length ? 'warning' : 'info',
      title: {
        zh: `规则「${spec.name}」：${verb.zh} ${done.length} 个${level.zh}${failed.length ? `，失败 ${failed.length} 个` : ''}`,
        en: `Rule "${spec.name}": ${done.length} ${level.en}${done.length === 1 ? '' : 's'} ${verb.en}${failed.length ? `, ${failed.length} failed` : ''}`,
      },
      lines: list.map((r) => ({ zh: line(r, 'zh'), en: line(r, 'en') })),
    };
  }

  function countsOf(p: Plan, rows: PlanRow[]): Omit<EvaluationCounts, 'status' | 'data_as_of'> {
    const acted = rows.filter((r) => r.outcome === 'acted' || r.outcome === 'notified').length;
    const failed = rows.filter((r) => r.outcome === 'failed').length;
    return { accounts: p.accounts.length, objects_checked: p.checked, matched: p.rows.length, acted, failed, skipped: rows.length - acted - failed, revived: 0 };
  }

  return {
    ownerActor,
    accountsFor,

    /** The dry run: what a rule would do now, acting on nothing and writing nothing. */
    async dryRun(spec: RuleSpec, ownerUserId: number, ruleId: number | null): Promise<Plan> {
      const owner = await ownerActor(ownerUserId);
      return plan(spec, owner, clock.now(), ruleId);
    },

    /**
     * One evaluation of a saved rule for a slot (schedule tick or run now): claims (rule,
     * trigger, slot) — a second run of the same slot does nothing — plans, acts, records, and
     * notifies. Answers null when the slot was done already.
     */
    async run(rule: RuleRow, trigger: 'schedule' | 'manual', slot: Date, memo?: TickMemo): Promise<{ evaluationId: number; counts: EvaluationCounts } | null> {
      const now = clock.now();
      const claim = await claimEvaluation(db, { rule_id: rule.id, trigger, tick_at: slot, started_at: now });
      if (!claim) return null;
      const spec = specOf(rule);
      let counts: EvaluationCounts;
      try {
        const owner = await ownerActor(rule.owner_user_id);
        const p = await plan(spec, owner, now, rule.id, memo);
        const rows = await act(rule.id, spec, p, claim.id, now, claim.resumed);
        // Objects it switched or whose budget it set are not what the memo holds any more.
        if (memo) {
          const touched = new Set(rows.filter((r) => r.outcome === 'acted' || r.outcome === 'failed').map((r) => r.object.ad_account_id));
          if (touched.size) rereadActed(memo, spec.level, touched);
        }
        const c = countsOf(p, rows);
        const allFailed = c.failed > 0 && c.acted === 0;
        const firstError = rows.find((r) => r.outcome === 'failed')?.reason ?? null;
        const error = allFailed && firstError ? { zh: both('RULE_ALL_FAILED', { count: c.failed, error: firstError.zh }).zh, en: both('RULE_ALL_FAILED', { count: c.failed, error: firstError.en }).en } : null;
        counts = { ...c, status: allFailed ? 'failed' : c.failed ? 'partial' : 'ok', data_as_of: p.dataAsOf, error };
        if (spec.notify.channel_ids.length && ((spec.notify.on_fire && c.acted > 0) || (spec.notify.on_failure && c.failed > 0) || (spec.action.type === 'notify' && c.acted > 0))) {
          await deps.notify({ kind: 'rule_fired', ruleId: rule.id, channelIds: spec.notify.channel_ids, dedupeKey: `rule:${rule.id}:evaluation:${claim.id}`, message: firedMessage(spec, rows) });
        }
      } catch (err) {
        const text = err instanceof RuleOwnerError ? err.text : failureText(err);
        deps.log?.warn({ err, rule: rule.id }, 'rule evaluation failed');
        counts = { status: 'failed', accounts: 0, objects_checked: 0, matched: 0, acted: 0, failed: 0, skipped: 0, revived: 0, error: text, data_as_of: null };
      }
      await finishEvaluation(db, claim.id, counts, clock.now());
      return { evaluationId: claim.id, counts };
    },

    /**
     * Stop-loss revives that are due (the start of the next day of the object's market): each
     * object still off since the rule's pause — nobody switched it on or off since — in a hosted
     * account of the owner's scope, whose revive conditions hold, is switched on again.
     */
    async revive(slot: Date): Promise<{ rules: number; revived: number; failed: number }> {
      const now = clock.now();
      const due = await dueStops(db, now);
      const byRule = new Map<number, StopRow[]>();
      for (const s of due) byRule.set(s.rule_id, [...(byRule.get(s.rule_id) ?? []), s]);
      let revived = 0;
      let failedTotal = 0;
      for (const [ruleId, stops] of byRule) {
        const rule = await findRule(db, ruleId);
        if (!rule) continue;
        const claim = await claimEvaluation(db, { rule_id: ruleId, trigger: 'revive', tick_at: slot, started_at: now });
        if (!claim) continue;
        const spec = specOf(rule);
        const counts = { accounts: 0, objects_checked: stops.length, matched: 0, acted: 0, failed: 0, skipped: 0, revived: 0 };
        let error: Bilingual | null = null;
        try {
          const owner = await ownerActor(rule.owner_user_id).catch((err: unknown) => {
            if (err instanceof RuleOwnerError) return err;
            throw err;
          });
          const accounts = owner instanceof RuleOwnerError ? [] : await accountsFor(spec, owner);
          if (owner instanceof RuleOwnerError) error = owner.text;
          const byId = new Map(accounts.map((a) => [a.id, a]));
          counts.accounts = new Set(stops.map((s) => s.ad_account_id)).size;
          const done = claim.resumed ? await firedObjects(db, claim.id) : new Set<string>();
          for (const stop of stops) {
            if (done.has(`${stop.level}:${stop.object_id}`)) continue;
            const state = await objectState(db, stop.level, stop.object_id);
            if (!state) {
              await settleStop(db, stop.id, 'cancelled', now);
              continue;
            }
            const base = { evaluation_id: claim.id, rule_id: ruleId, level: stop.level, object_id: stop.object_id, object_platform_id: state.platform_id, object_name: state.name, ad_account_id: stop.ad_account_id, action: 'revive', before: { status: state.status }, after: { status: 'ACTIVE' }, created_at: now };
            const account = byId.get(stop.ad_account_id);
            if (!account) {
              await insertFiring(db, { ...base, outcome: 'skipped_scope', values: [], error: error ?? both('RULE_SKIP_NOT_HOSTED') });
              await settleStop(db, stop.id, 'cancelled', now);
              counts.skipped++;
              continue;
            }
            const last = await lastSwitch(db, stop.level, state.platform_id);
            if (state.deleted_at || state.status !== 'PAUSED' || (stop.operation_id !== null && last?.id !== stop.operation_id)) {
              await insertFiring(db, { ...base, outcome: 'kept_off', values: [], error: both('RULE_REVIVE_TOUCHED') });
              await settleStop(db, stop.id, 'cancelled', now);
              counts.skipped++;
              continue;
            }
            let values: RuleValue[] = [];
            const tree = spec.stop_loss.revive_conditions;
            if (tree) {
              const [object] = await candidates(db, stop.level, [stop.ad_account_id], { name_contains: [], name_excludes: [], drama_ids: [], product_ids: [] }, 'paused', [stop.object_id]);
              const figs = object ? await figures(stop.level, [object], byId, [tree], now, dayIn(now.getTime(), reportTimezone)) : new Map<number, ObjectFigures>();
              const r = object ? evaluateTree(tree, figs.get(object.id)!) : { met: false, values: [] };
              values = r.values;
              if (!r.met) {
                await insertFiring(db, { ...base, outcome: 'kept_off', values, error: both('RULE_REVIVE_CONDITIONS') });
                await settleStop(db, stop.id, 'kept_off', now);
                counts.skipped++;
                continue;
              }
            }
            counts.matched++;
            const firingId = await insertFiring(db, { ...base, outcome: 'failed', values, error: both('RULE_INTERRUPTED') });
            if (firingId === null) continue;
            let ok = false;
            let opId: number | null = null;
            let text: Bilingual | null = null;
            try {
              if (!deps.ops) throw Object.assign(new Error('no platform'), { text: both('PLATFORM_NOT_CONFIGURED') });
              const res = await deps.ops.apply({ type: 'rule', ruleId }, { level: stop.level, ids: [stop.object_id], action: 'activate' });
              ok = res.results[0]?.result === 'ok';
              opId = res.results[0]?.operation_id ?? null;
              text = ok ? null : (res.results[0]?.error ?? null);
            } catch (err) {
              text = (err as { text?: Bilingual }).text ?? failureText(err);
            }
            await completeFiring(db, firingId, { outcome: ok ? 'revived' : 'failed', error: text, operation_id: opId });
            if (ok) {
              counts.revived++;
              revived++;
              await settleStop(db, stop.id, 'revived', now);
            } else {
              counts.failed++;
              failedTotal++;
              // Tried again on the next ticks for a while, then given up.
              if (stop.revive_at && now.getTime() - stop.revive_at.getTime() > REVIVE_GIVE_UP_MS) await settleStop(db, stop.id, 'cancelled', now);
            }
          }
        } catch (err) {
          error = failureText(err);
        }
        const status = counts.failed && !counts.revived ? 'failed' : counts.failed ? 'partial' : 'ok';
        await finishEvaluation(db, claim.id, { ...counts, status, error, data_as_of: null }, clock.now());
      }
      return { rules: byRule.size, revived, failed: failedTotal };
    },
  };
}

export type RuleEvaluator = ReturnType<typeof createRuleEvaluator>;
