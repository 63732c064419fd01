import { randomUUID } from 'node:crypto';
import { AD_CONVERSION_EVENTS, ADSET_BUDGET_CHANGES_PER_HOUR, both, IS_ADMIN_SUPER, type AdBudgetChangeState, type AdCopyAccount, type AdCopyTargets, type Bilingual } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import type { AdLevel } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import type { Clock } from '../../lib/clock.ts';
import { seesEverything, visibleAdAccountIds, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import { isAuthFailure } from '../../lib/platform-errors.ts';
import { escapeLike } from '../../lib/sql.ts';
import { currencyOffset, toMajor, toMinor } from '../../platform/currency.ts';
import { PlatformError, type AdPlatformClient, type CopyResult, type UpdateAdObjectInput } from '../../platform/types.ts';
import { COPY_JOB, createAdCopier, needsRecreate, type CopyInput } from './ad-copy.service.ts';
import { createOpLog, failureText, type OpActor, type OpResult } from './ad-op-log.ts';
import type { createAdSync } from './ad-sync.service.ts';

export { failureText, type OpActor, type OpResult, type CopyInput };

// Operations on campaigns, ad sets and ads (issue 7 "Operations"): each act on each object is a
// row of ad_operations written `pending` before the platform call and completed after it
// (docs/ad-data-design.md §7), with before → after and, on failure, the platform's reason in both
// languages. The mirror is re-read right after the writes, so the tables show the new state.

type AdSync = ReturnType<typeof createAdSync>;

export interface AdOpsDeps {
  db: Db;
  clock: Clock;
  sync: AdSync;
  platform: AdPlatformClient;
  /** Queues copies into another ad account (a task); without it they are refused. */
  jobs?: Pick<Jobs, 'enqueue'>;
  /** The day whose exchange rates convert budgets of copies between currencies. */
  reportTimezone?: string;
}

/** The data of a copy into another ad account, run by `copy-ad-objects` (ad-data.jobs.ts). */
export interface CopyJobData {
  batch_id: string;
  actor: OpActor;
  input: CopyInput;
  /** Pushes of missing materials were queued by an earlier run (a continuation waits for them). */
  pushed?: boolean;
  /** Continuations so far while materials were processed. */
  waits?: number;
}

export type ApplyAction = 'activate' | 'pause' | 'budget' | 'bid' | 'rename' | 'delete';

export interface ApplyInput {
  level: AdLevel;
  /** Our ids of the objects (ad_campaigns / ad_sets / ads). */
  ids: number[];
  action: ApplyAction;
  /** budget: major units of the account currency (10.5 = $10.50; 1000 = ¥1000 for JPY). */
  daily_budget?: number;
  lifetime_budget?: number;
  /** bid: major units. */
  bid_amount?: number;
  /** rename: the new name. */
  name?: string;
  /** Only say what would change (the confirmation), never call the platform. */
  dry_run?: boolean;
}

/** Many objects at once (the rule engine): switches, or budgets with a value per object. */
export interface ApplyManyInput {
  level: AdLevel;
  action: 'pause' | 'activate' | 'budget';
  /** Our ids; `daily_budget` (budget acts): the object's new daily budget in major units of its currency. */
  items: { id: number; daily_budget?: number }[];
}

export { ADSET_BUDGET_CHANGES_PER_HOUR };
const HOUR_MS = 3_600_000;
/** A time of day as the refusal says it (the dialog shows the exact instant in the viewer's zone). */
const hhmm = (iso: string) => `${iso.slice(11, 16)} UTC`;
/** A budget above this many US dollars a day is confirmed with a warning. */
const BUDGET_WARN_USD = 1000;

const TABLE = { campaign: 'ad_campaigns', adset: 'ad_sets', ad: 'ads' } as const;
const LEVEL_WORD = { campaign: { zh: '广告系列', en: 'campaign' }, adset: { zh: '广告组', en: 'ad set' } };

interface Target {
  id: number;
  platform_id: string;
  name: string;
  ad_account_id: number;
  status: string;
  currency: string;
  owner_user_id: number | null;
  daily_budget_minor: number | null;
  lifetime_budget_minor: number | null;
  bid_amount_minor: number | null;
  budget_holder: 'self' | 'campaign' | 'adset' | 'none';
  campaign_id: number | null;
  adset_id: number | null;
}

/** Rows of `level` the actor may see and act on (design §5): their ad account or their owner is within the actor's scope. */
export async function scopedIds(db: Db, actor: ScopeActor, level: AdLevel, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  let q = db.selectFrom(TABLE[level]).select('id').where('id', 'in', [...ids]);
  if (!seesEverything(actor)) {
    const accounts = await visibleAdAccountIds(db, actor);
    const users = await visibleUserIds(db, actor);
    q = q.where((eb) => eb.or([eb('ad_account_id', 'in', accounts?.length ? accounts : [0]), eb('owner_user_id', 'in', users?.length ? users : [0])]));
  }
  return new Set((await q.execute()).map((r) => r.id));
}

export function createAdOperations({ db, clock, sync, platform, jobs, reportTimezone }: AdOpsDeps) {
  const { begin, beginMany, finish, finishMany, refused } = createOpLog({ db, clock });
  const copier = createAdCopier({ db, clock, sync, platform, reportTimezone });

  async function targets(level: AdLevel, ids: readonly number[]): Promise<Target[]> {
    if (!ids.length) return [];
    if (level === 'campaign') {
      const rows = await db.selectFrom('ad_campaigns').select(['id', 'platform_id', 'name', 'ad_account_id', 'status', 'currency', 'owner_user_id', 'daily_budget_minor', 'lifetime_budget_minor', 'bid_amount_minor', 'budget_level']).where('id', 'in', [...ids]).execute();
      return rows.map((r) => ({ ...r, budget_holder: r.budget_level === 'campaign' ? 'self' : 'adset', campaign_id: null, adset_id: null }));
    }
    if (level === 'adset') {
      const rows = await db
        .selectFrom('ad_sets as s')
        .innerJoin('ad_campaigns as c', 'c.id', 's.campaign_id')
        .select(['s.id', 's.platform_id', 's.name', 's.ad_account_id', 's.status', 's.currency', 's.owner_user_id', 's.daily_budget_minor', 's.lifetime_budget_minor', 's.bid_amount_minor', 'c.budget_level', 's.campaign_id'])
        .where('s.id', 'in', [...ids])
        .execute();
      return rows.map((r) => ({ ...r, budget_holder: r.budget_level === 'campaign' ? 'campaign' : 'self', adset_id: null }));
    }
    const rows = await db
      .selectFrom('ads as a')
      .innerJoin('ad_accounts as acc', 'acc.id', 'a.ad_account_id')
      .select(['a.id', 'a.platform_id', 'a.name', 'a.ad_account_id', 'a.status', 'acc.currency', 'a.owner_user_id', 'a.campaign_id', 'a.adset_id'])
      .where('a.id', 'in', [...ids])
      .execute();
    return rows.map((r) => ({ ...r, daily_budget_minor: null, lifetime_budget_minor: null, bid_amount_minor: null, budget_holder: 'none' }));
  }

  /**
   * Ok budget changes of ad sets (platform ids) within the last hour, from our log — every budget
   * act made here (people, rules, start tasks) goes through it, and the platform counts the same
   * acts: how many are used, when one frees and, once all four are used, when the next is allowed.
   */
  async function budgetChangeStates(adsetPlatformIds: readonly string[]): Promise<Map<string, AdBudgetChangeState>> {
    const out = new Map<string, AdBudgetChangeState>();
    if (!adsetPlatformIds.length) return out;
    const since = new Date(clock.now().getTime() - HOUR_MS);
    const rows = await db
      .selectFrom('ad_operations')
      .select(['object_platform_id', 'finished_at'])
      .where('level', '=', 'adset')
      .where('object_platform_id', 'in', [...new Set(adsetPlatformIds)])
      .where('action', '=', 'budget')
      .where('result', '=', 'ok')
      .where('finished_at', '>', since)
      .orderBy('finished_at', 'desc')
      .execute();
    const times = new Map<string, Date[]>();
    for (const r of rows) times.set(r.object_platform_id, [...(times.get(r.object_platform_id) ?? []), r.finished_at!]);
    for (const id of adsetPlatformIds) {
      // Newest first: the change that must leave the hour before another is allowed is the limit-th newest.
      const list = times.get(id) ?? [];
      const used = list.length;
      const oldest = list.at(-1);
      const blocking = used >= ADSET_BUDGET_CHANGES_PER_HOUR ? list[ADSET_BUDGET_CHANGES_PER_HOUR - 1]! : null;
      out.set(id, {
        used,
        limit: ADSET_BUDGET_CHANGES_PER_HOUR,
        next_change_at: blocking ? new Date(blocking.getTime() + HOUR_MS).toISOString() : null,
        frees_at: oldest ? new Date(oldest.getTime() + HOUR_MS).toISOString() : null,
      });
    }
    return out;
  }

  async function assertScope(actor: OpActor, level: AdLevel, ids: number[]) {
    if (actor.type !== 'user') return;
    const visible = await scopedIds(db, actor.actor, level, ids);
    if (ids.some((id) => !visible.has(id))) throw new AppError('AD_OBJECT_NOT_FOUND');
  }

  /** Re-reads the written objects per account; a failure here is logged by the caller's sync later, never undoes the log. */
  async function refresh(level: AdLevel, written: { ad_account_id: number; platform_id: string }[]) {
    const byAccount = new Map<number, string[]>();
    for (const w of written) byAccount.set(w.ad_account_id, [...(byAccount.get(w.ad_account_id) ?? []), w.platform_id]);
    for (const [account, ids] of byAccount) {
      try {
        await sync.refreshObjects(account, level, ids);
      } catch {
        // The next scheduled sync brings the mirror up to date.
      }
    }
  }

  /**
   * The mirror rows of objects whose update the platform confirmed, set to what was sent (the
   * next sync reads them as usual); `updated_time` moves to now as the platform's does.
   */
  async function writeConfirmed(level: AdLevel, done: readonly { t: Target; update: UpdateAdObjectInput }[]) {
    const now = clock.now();
    const table = TABLE[level];
    const byValue = new Map<string, { update: UpdateAdObjectInput; ids: number[] }>();
    for (const { t, update } of done) {
      const key = JSON.stringify(update);
      const entry = byValue.get(key) ?? { update, ids: [] };
      entry.ids.push(t.id);
      byValue.set(key, entry);
    }
    for (const { update, ids } of byValue.values()) {
      const set: Record<string, unknown> = { updated_time: now, updated_at: now };
      if (update.status !== undefined) Object.assign(set, { status: update.status, effective_status: update.status });
      if (update.dailyBudgetMinor !== undefined) set.daily_budget_minor = update.dailyBudgetMinor;
      if (update.lifetimeBudgetMinor !== undefined) set.lifetime_budget_minor = update.lifetimeBudgetMinor;
      await db.updateTable(table).set(set as never).where('id', 'in', ids).execute();
    }
  }

  /** Platform ids of campaigns by our ids. */
  async function campaignPlatformIds(ids: readonly (number | null)[]): Promise<Map<number, string>> {
    const list = [...new Set(ids.filter((id): id is number => id !== null))];
    if (!list.length) return new Map();
    return new Map((await db.selectFrom('ad_campaigns').select(['id', 'platform_id']).where('id', 'in', list).execute()).map((c) => [c.id, c.platform_id]));
  }

  /** The platform's current state of some objects of one account (to learn whether a lost update took effect). */
  async function readBack(token: string, act: string, level: AdLevel, platformIds: string[]): Promise<Map<string, { status: string; dailyBudgetMinor: number | null; lifetimeBudgetMinor: number | null }>> {
    const rows =
      level === 'ad'
        ? (await platform.listAds(token, act, { ids: platformIds })).map((a) => ({ id: a.id, status: a.status, dailyBudgetMinor: null, lifetimeBudgetMinor: null }))
        : level === 'adset'
          ? await platform.listAdSets(token, act, { ids: platformIds })
          : await platform.listCampaigns(token, act, { ids: platformIds });
    return new Map(rows.map((r) => [r.id, { status: r.status, dailyBudgetMinor: r.dailyBudgetMinor, lifetimeBudgetMinor: r.lifetimeBudgetMinor }]));
  }

  /** Whether an object already shows what an update sets. */
  function matches(now: { status: string; dailyBudgetMinor: number | null; lifetimeBudgetMinor: number | null }, update: UpdateAdObjectInput): boolean {
    if (update.status !== undefined && now.status !== update.status) return false;
    if (update.dailyBudgetMinor !== undefined && now.dailyBudgetMinor !== update.dailyBudgetMinor) return false;
    if (update.lifetimeBudgetMinor !== undefined && now.lifetimeBudgetMinor !== update.lifetimeBudgetMinor) return false;
    return true;
  }

  /** What an act does to one object: before → after, the platform update, and why it is refused (if it is). */
  function prepare(input: ApplyInput, t: Target, budgetStates: Map<string, AdBudgetChangeState>) {
    const warnings: Bilingual[] = [];
    let budgetChanges: AdBudgetChangeState | undefined;
    let before: Record<string, unknown> = {};
    let after: Record<string, unknown> = {};
    let update: Parameters<AdPlatformClient['updateAdObject']>[2] | 'delete' = {};
    let refusal: Bilingual | null = null;
    switch (input.action) {
      case 'pause':
      case 'activate':
        before = { status: t.status };
        after = { status: input.action === 'pause' ? 'PAUSED' : 'ACTIVE' };
        update = { status: after.status as 'ACTIVE' | 'PAUSED' };
        break;
      case 'delete':
        before = { status: t.status };
        after = { status: 'DELETED' };
        update = 'delete';
        break;
      case 'rename': {
        const name = input.name?.trim();
        if (!name) throw new AppError('VALIDATION', { detail: 'name' }, 'name');
        before = { name: t.name };
        after = { name };
        update = { name };
        break;
      }
      case 'bid': {
        if (input.bid_amount === undefined) throw new AppError('VALIDATION', { detail: 'bid_amount' }, 'bid_amount');
        const minor = toMinor(input.bid_amount, t.currency);
        before = { bid_amount_minor: t.bid_amount_minor, currency: t.currency };
        after = { bid_amount_minor: minor, currency: t.currency };
        update = { bidAmountMinor: minor };
        break;
      }
      case 'budget': {
        if (input.daily_budget === undefined && input.lifetime_budget === undefined) throw new AppError('VALIDATION', { detail: 'daily_budget' }, 'daily_budget');
        before = { daily_budget_minor: t.daily_budget_minor, lifetime_budget_minor: t.lifetime_budget_minor, currency: t.currency };
        const daily = input.daily_budget === undefined ? undefined : toMinor(input.daily_budget, t.currency);
        const lifetime = input.lifetime_budget === undefined ? undefined : toMinor(input.lifetime_budget, t.currency);
        after = { ...(daily !== undefined && { daily_budget_minor: daily }), ...(lifetime !== undefined && { lifetime_budget_minor: lifetime }), currency: t.currency };
        update = { dailyBudgetMinor: daily, lifetimeBudgetMinor: lifetime };
        if (t.budget_holder !== 'self') {
          const holder = t.budget_holder === 'campaign' ? LEVEL_WORD.campaign : LEVEL_WORD.adset;
          refusal = { zh: both('AD_OP_NO_BUDGET_HERE', { name: t.name, holder: holder.zh }).zh, en: both('AD_OP_NO_BUDGET_HERE', { name: t.name, holder: holder.en }).en };
        } else if (input.level === 'adset') {
          const changes = budgetStates.get(t.platform_id)!;
          budgetChanges = changes;
          if (changes.next_change_at) {
            refusal = both('AD_OP_BUDGET_LIMIT', { name: t.name, count: changes.used, at: hhmm(changes.next_change_at) });
          } else if (changes.used === ADSET_BUDGET_CHANGES_PER_HOUR - 1) {
            // The last change of the hour: after it, the next waits until the oldest leaves the hour.
            warnings.push(both('AD_OP_BUDGET_LAST', { name: t.name, count: changes.used, at: hhmm(changes.frees_at!) }));
          }
        }
        const usd = (daily ?? lifetime ?? 0) / currencyOffset(t.currency);
        if (t.currency === 'USD' && usd > BUDGET_WARN_USD) warnings.push({ zh: `预算 ${toMajor(daily ?? lifetime ?? 0, t.currency)} ${t.currency} 较高，请确认`, en: `The budget ${toMajor(daily ?? lifetime ?? 0, t.currency)} ${t.currency} is high; please confirm` });
        break;
      }
    }
    return { before, after, update, refusal, warnings, budgetChanges };
  }

  return {
    /**
     * Logs acts refused before any platform call, one failed row per object with the reason (a
     * start task whose creator may no longer switch them on).
     */
    async refuse(actor: OpActor, input: { level: AdLevel; ids: readonly number[]; action: 'activate' | 'pause' }, error: Bilingual): Promise<OpResult[]> {
      const batchId = randomUUID();
      const results: OpResult[] = [];
      for (const t of await targets(input.level, input.ids)) {
        const before = { status: t.status };
        const after = { status: input.action === 'pause' ? 'PAUSED' : 'ACTIVE' };
        const opId = await refused(actor, batchId, input.action, input.level, t, before, after, error);
        results.push({ id: t.id, platform_id: t.platform_id, name: t.name, ad_account_id: t.ad_account_id, before, after, warnings: [], result: 'failed', error, operation_id: opId });
      }
      return results;
    },

    /**
     * Pause / activate / budget / bid / rename / delete, one object or many. Each object gets its
     * own log row and result; one failing does not stop the others. The super admin may only
     * pause and activate.
     */
    async apply(actor: OpActor, input: ApplyInput): Promise<{ batch_id: string; results: OpResult[] }> {
      if (actor.type === 'user' && actor.actor.is_admin === IS_ADMIN_SUPER && input.action !== 'pause' && input.action !== 'activate') throw new AppError('AD_OP_SUPER_ADMIN_ONLY_STATUS');
      const ids = [...new Set(input.ids)];
      await assertScope(actor, input.level, ids);
      const list = await targets(input.level, ids);
      if (list.length !== ids.length) throw new AppError('AD_OBJECT_NOT_FOUND');
      const batchId = randomUUID();
      const results: OpResult[] = [];
      const written: { ad_account_id: number; platform_id: string }[] = [];

      const budgetStates = input.action === 'budget' && input.level === 'adset' ? await budgetChangeStates(list.map((t) => t.platform_id)) : new Map<string, AdBudgetChangeState>();
      for (const t of list) {
        const { before, after, update, refusal, warnings, budgetChanges } = prepare(input, t, budgetStates);
        const base = { id: t.id, platform_id: t.platform_id, name: t.name, ad_account_id: t.ad_account_id, before, after, warnings, ...(budgetChanges && { budget_changes: budgetChanges }) };
        if (input.dry_run) {
          results.push({ ...base, result: refusal ? 'failed' : 'preview', error: refusal, operation_id: null });
          continue;
        }
        if (refusal) {
          const opId = await refused(actor, batchId, input.action, input.level, t, before, after, refusal);
          results.push({ ...base, result: 'failed', error: refusal, operation_id: opId });
          continue;
        }
        const opId = await begin(actor, batchId, input.action, input.level, t, before, after);
        try {
          await sync.withToken(t.ad_account_id, (token) => (update === 'delete' ? platform.deleteAdObject(token, t.platform_id) : platform.updateAdObject(token, t.platform_id, update)));
          await finish(opId, 'ok', null);
          written.push(t);
          results.push({ ...base, result: 'ok', error: null, operation_id: opId });
        } catch (err) {
          const text = failureText(err);
          await finish(opId, 'failed', text);
          results.push({ ...base, result: 'failed', error: text, operation_id: opId });
        }
      }
      if (written.length) await refresh(input.level, written);
      return { batch_id: batchId, results };
    },

    /**
     * `apply` for many objects, as the rule engine acts: the same refusals (budget held elsewhere,
     * the hour's budget changes) and a log row per object, but the rows are written in one
     * statement before any platform call, each ad account's updates go in batch requests, and the
     * rows are completed in one statement. An update whose answer is lost — a batch request that
     * failed as a whole, or an item without an answer — may or may not have taken effect: those
     * objects are read back from the platform, and each one not yet as wanted is sent again on
     * its own, so every object's result and log row says what happened to it.
     */
    async applyMany(actor: OpActor, input: ApplyManyInput): Promise<{ batch_id: string; results: OpResult[] }> {
      if (actor.type === 'user' && actor.actor.is_admin === IS_ADMIN_SUPER && input.action === 'budget') throw new AppError('AD_OP_SUPER_ADMIN_ONLY_STATUS');
      const wanted = new Map(input.items.map((i) => [i.id, i]));
      const ids = [...wanted.keys()];
      await assertScope(actor, input.level, ids);
      const list = await targets(input.level, ids);
      const batchId = randomUUID();
      const results = new Map<number, OpResult>();
      const budgetStates = input.action === 'budget' && input.level === 'adset' ? await budgetChangeStates(list.map((t) => t.platform_id)) : new Map<string, AdBudgetChangeState>();
      type Pending = { t: Target; update: UpdateAdObjectInput; base: Omit<OpResult, 'result' | 'error' | 'operation_id'> };
      const pending: Pending[] = [];
      for (const t of list) {
        const one: ApplyInput = { level: input.level, ids: [t.id], action: input.action, daily_budget: wanted.get(t.id)?.daily_budget };
        const { before, after, update, refusal, warnings, budgetChanges } = prepare(one, t, budgetStates);
        const base = { id: t.id, platform_id: t.platform_id, name: t.name, ad_account_id: t.ad_account_id, before, after, warnings, ...(budgetChanges && { budget_changes: budgetChanges }) };
        if (refusal) {
          results.set(t.id, { ...base, result: 'failed', error: refusal, operation_id: await refused(actor, batchId, input.action, input.level, t, before, after, refusal) });
        } else pending.push({ t, update: update as UpdateAdObjectInput, base });
      }
      // Every act is in the log before the platform hears of it.
      const opIds = await beginMany(actor, batchId, input.action, input.level, pending.map((p) => ({ t: p.t, before: p.base.before, after: p.base.after })));
      const outcomes = new Map<number, { ok: boolean; error: Bilingual | null }>();
      const byAccount = new Map<number, Pending[]>();
      for (const p of pending) byAccount.set(p.t.ad_account_id, [...(byAccount.get(p.t.ad_account_id) ?? []), p]);
      const accountIds = new Map((await db.selectFrom('ad_accounts').select(['id', 'platform_id']).where('id', 'in', [...byAccount.keys(), 0]).execute()).map((a) => [a.id, a.platform_id]));
      for (const [accountId, group] of byAccount) {
        try {
          await sync.withToken(accountId, async (token) => {
            const act = accountIds.get(accountId)!;
            let unknown: { p: Pending; error: Bilingual }[] = [];
            try {
              const campaigns = input.level === 'adset' ? await campaignPlatformIds(group.map((p) => p.t.campaign_id)) : new Map<number, string>();
              const answers = await platform.updateMany(
                token,
                act,
                group.map((p) => ({ id: p.t.platform_id, input: p.update, campaignId: p.t.campaign_id === null ? undefined : campaigns.get(p.t.campaign_id) })),
              );
              group.forEach((p, i) => {
                const a = answers[i];
                if (a?.ok) outcomes.set(p.t.id, { ok: true, error: null });
                else if (a && !a.unknown) outcomes.set(p.t.id, { ok: false, error: failureText(a.error) });
                else unknown.push({ p, error: a ? failureText(a.error) : both('RULE_INTERRUPTED') });
              });
            } catch (err) {
              // A token refused as a whole applied nothing: the next token of the account is tried.
              if (isAuthFailure(err)) throw err;
              // The batch request failed as a whole: any of its updates may have been applied.
              unknown = group.map((p) => ({ p, error: failureText(err) }));
            }
            if (!unknown.length) return;
            const current = await readBack(token, act, input.level, unknown.map((u) => u.p.t.platform_id)).catch(() => null);
            for (const { p } of unknown) {
              const now = current?.get(p.t.platform_id);
              if (now && matches(now, p.update)) {
                outcomes.set(p.t.id, { ok: true, error: null });
                continue;
              }
              // Not (yet) as wanted, or unknown: sent again on its own (setting a value is idempotent).
              try {
                await platform.updateAdObject(token, p.t.platform_id, p.update);
                outcomes.set(p.t.id, { ok: true, error: null });
              } catch (err) {
                outcomes.set(p.t.id, { ok: false, error: failureText(err) });
              }
            }
          });
        } catch (err) {
          // No token: nothing was sent.
          const text = failureText(err);
          for (const p of group) if (!outcomes.has(p.t.id)) outcomes.set(p.t.id, { ok: false, error: text });
        }
      }
      const written: Target[] = [];
      const finals: { id: number; result: 'ok' | 'failed'; error: Bilingual | null }[] = [];
      for (const p of pending) {
        const o = outcomes.get(p.t.id) ?? { ok: false, error: both('RULE_INTERRUPTED') };
        const opId = opIds.get(p.t.platform_id) ?? null;
        if (opId !== null) finals.push({ id: opId, result: o.ok ? 'ok' : 'failed', error: o.error });
        if (o.ok) written.push(p.t);
        results.set(p.t.id, { ...p.base, result: o.ok ? 'ok' : 'failed', error: o.error, operation_id: opId });
      }
      await finishMany(finals);
      if (written.length) {
        // What the platform confirmed goes straight into the mirror where nothing else follows from
        // it: an ad's own pause, a budget. A switched campaign or ad set changes its children's
        // delivery, and a switched-on ad may wait for review: those are read again.
        if (input.action === 'budget' || (input.action === 'pause' && input.level === 'ad')) await writeConfirmed(input.level, pending.filter((p) => outcomes.get(p.t.id)?.ok));
        else await refresh(input.level, written);
      }
      const notFound = both('AD_OBJECT_NOT_FOUND');
      return {
        batch_id: batchId,
        results: ids.map((id) => results.get(id) ?? { id, platform_id: '', name: '', ad_account_id: 0, before: {}, after: {}, warnings: [], result: 'failed', error: notFound, operation_id: null }),
      };
    },

    /**
     * Copies within the ad account through the platform's copies edge (deep; chunked when the
     * platform refuses a large synchronous copy). With another pixel, conversion event, name or
     * budget the platform cannot set on a copy, the objects are read and re-created here and now
     * (ad-copy.service.ts); into another ad account (in the caller's scope, reached by a valid
     * token) the same runs as a task, since materials must reach that account first. `dry_run`
     * answers what would be created.
     */
    async copy(actor: OpActor, input: CopyInput & { dry_run?: boolean }): Promise<{ batch_id: string; results: OpResult[]; task_id?: number | null; notes?: Bilingual[] }> {
      if (actor.type === 'user' && actor.actor.is_admin === IS_ADMIN_SUPER) throw new AppError('AD_OP_SUPER_ADMIN_ONLY_STATUS');
      const ids = [...new Set(input.ids)];
      await assertScope(actor, input.level, ids);
      const list = await targets(input.level, ids);
      if (list.length !== ids.length) throw new AppError('AD_OBJECT_NOT_FOUND');
      const parentLevel: AdLevel = input.level === 'ad' ? 'adset' : 'campaign';
      if (input.parent_id !== undefined && input.level !== 'campaign') await assertScope(actor, parentLevel, [input.parent_id]);

      const targetId = input.target_ad_account_id;
      if (targetId !== undefined) {
        const account = await db.selectFrom('ad_accounts').select(['id', 'name']).where('id', '=', targetId).executeTakeFirst();
        if (!account) throw new AppError('AD_OBJECT_NOT_FOUND');
        if (actor.type === 'user') {
          const visible = await visibleAdAccountIds(db, actor.actor);
          if (visible !== null && !visible.includes(targetId)) throw new AppError('AD_COPY_TARGET_SCOPE', { account: account.name });
        }
        if (!(await sync.tokensFor(targetId)).length) throw new AppError('AD_COPY_NO_TOKEN', { account: account.name });
      }
      const crossAccount = targetId !== undefined && list.some((t) => t.ad_account_id !== targetId);

      if (!crossAccount && !needsRecreate(input)) return copyThroughEdge(actor, input, list);

      const plan = await copier.plan(input);
      if (input.dry_run) {
        const preview = await copier.preview(plan);
        return { batch_id: randomUUID(), ...preview };
      }
      const batchId = randomUUID();
      if (crossAccount) {
        if (!jobs) throw new AppError('PLATFORM_NOT_CONFIGURED');
        const { dry_run: _dry, ...copyInput } = input;
        const data: CopyJobData = { batch_id: batchId, actor: actor.type === 'user' ? { type: 'user', actor: { id: actor.actor.id, is_admin: actor.actor.is_admin, is_leader: actor.actor.is_leader, department_id: actor.actor.department_id } } : actor, input: copyInput };
        const createdBy = actor.type === 'user' ? actor.actor.id : actor.type === 'start_task' ? (actor.userId ?? null) : null;
        // Copies into one account run one at a time, so their look-ups by name see each other's objects.
        const taskId = await jobs.enqueue(COPY_JOB, data, { createdBy, key: `ad-copy:${targetId}` });
        return { batch_id: batchId, results: [], task_id: taskId, notes: [...(await copier.preview(plan)).notes, both('AD_COPY_QUEUED')] };
      }
      return { batch_id: batchId, results: await copier.execute(plan, actor, batchId) };
    },

    /** The budget changes of the last hour of ad sets (our ids) in the caller's scope, for the budget dialog before it sends. */
    async budgetChanges(actor: OpActor, ids: number[]): Promise<{ list: (AdBudgetChangeState & { id: number })[] }> {
      const unique = [...new Set(ids)];
      await assertScope(actor, 'adset', unique);
      const sets = await db.selectFrom('ad_sets').select(['id', 'platform_id']).where('id', 'in', unique).execute();
      if (sets.length !== unique.length) throw new AppError('AD_OBJECT_NOT_FOUND');
      const states = await budgetChangeStates(sets.map((s) => s.platform_id));
      const byId = new Map(sets.map((s) => [s.id, states.get(s.platform_id)!]));
      return { list: unique.map((id) => ({ id, ...byId.get(id)! })) };
    },

    /** Ad accounts of the caller's data scope (50, by name or id), for the copy dialog's picker. */
    async copyAccounts(actor: ScopeActor, keyword: string | undefined): Promise<{ list: AdCopyAccount[] }> {
      const visible = await visibleAdAccountIds(db, actor);
      let q = db.selectFrom('ad_accounts as a').select(['a.id', 'a.name', 'a.platform_id', 'a.currency']);
      if (visible !== null) q = q.where('a.id', 'in', visible.length ? visible : [0]);
      if (keyword) {
        const like = `%${escapeLike(keyword)}%`;
        q = q.where((eb) => eb.or([eb('a.name', 'ilike', like), eb('a.platform_id', 'ilike', like), eb('a.account_id', 'ilike', like)]));
      }
      const rows = await q.orderBy('a.name').orderBy('a.id').limit(50).execute();
      const reached = new Set(
        rows.length
          ? (
              await db
                .selectFrom('personal_account_ad_accounts as l')
                .innerJoin('personal_accounts as pa', 'pa.id', 'l.personal_account_id')
                .select('l.ad_account_id')
                .where('l.ad_account_id', 'in', rows.map((r) => r.id))
                .where('l.reachable', '=', true)
                .where('pa.deleted_at', 'is', null)
                .where('pa.token_enc', 'is not', null)
                .where('pa.status', '!=', 'invalid')
                .execute()
            ).map((r) => r.ad_account_id)
          : [],
      );
      return { list: rows.map((r) => ({ ...r, reachable: reached.has(r.id) })) };
    },

    /** An ad account a copy may go to: in the caller's scope; its currency, token, pixels and the events. */
    async copyTargets(actor: ScopeActor, adAccountId: number): Promise<AdCopyTargets> {
      const account = await db.selectFrom('ad_accounts').select(['id', 'name', 'platform_id', 'currency', 'timezone_name']).where('id', '=', adAccountId).executeTakeFirst();
      if (!account) throw new AppError('AD_OBJECT_NOT_FOUND');
      const visible = await visibleAdAccountIds(db, actor);
      if (visible !== null && !visible.includes(adAccountId)) throw new AppError('AD_COPY_TARGET_SCOPE', { account: account.name });
      const pixels = await db.selectFrom('pixels as p').innerJoin('pixel_ad_accounts as pa', 'pa.pixel_id', 'p.id').select(['p.platform_id', 'p.name']).where('pa.ad_account_id', '=', adAccountId).orderBy('p.name').orderBy('p.platform_id').execute();
      return { ad_account: account, reachable: (await sync.tokensFor(adAccountId)).length > 0, pixels, events: [...AD_CONVERSION_EVENTS] };
    },

    /**
     * Rows a crash left pending (older than two minutes) are checked against the platform: a
     * status, name, budget or bid that now reads as `after` was applied (ok); anything else did
     * not take effect (failed). Copies and creates cannot be told apart from nothing, so they fail.
     */
    async reconcile(opts: { signal?: AbortSignal; olderThanMs?: number } = {}) {
      const before = new Date(clock.now().getTime() - (opts.olderThanMs ?? 120_000));
      const rows = await db.selectFrom('ad_operations').selectAll().where('result', '=', 'pending').where('created_at', '<', before).orderBy('id').limit(200).execute();
      let ok = 0;
      let failed = 0;
      for (const row of rows) {
        opts.signal?.throwIfAborted();
        const after = (row.after ?? {}) as Record<string, unknown>;
        let applied = false;
        if (row.action !== 'copy' && row.action !== 'create') {
          try {
            const account = await db.selectFrom('ad_accounts').select('platform_id').where('id', '=', row.ad_account_id).executeTakeFirstOrThrow();
            const current = await sync.withToken(row.ad_account_id, async (token) => {
              const o = { ids: [row.object_platform_id] };
              if (row.level === 'campaign') return (await platform.listCampaigns(token, account.platform_id, o))[0];
              if (row.level === 'adset') return (await platform.listAdSets(token, account.platform_id, o))[0];
              return (await platform.listAds(token, account.platform_id, o))[0];
            });
            if (current) {
              const c = current as unknown as Record<string, unknown>;
              applied = Object.entries(after).every(([k, v]) => {
                if (k === 'currency') return true;
                if (k === 'status') return c.status === v;
                if (k === 'name') return c.name === v;
                if (k === 'daily_budget_minor') return c.dailyBudgetMinor === v;
                if (k === 'lifetime_budget_minor') return c.lifetimeBudgetMinor === v;
                if (k === 'bid_amount_minor') return c.bidAmountMinor === v;
                return false;
              });
              await sync.refreshObjects(row.ad_account_id, row.level, [row.object_platform_id]).catch(() => undefined);
            }
          } catch (err) {
            if (err instanceof PlatformError && err.retryable) continue; // asked again next run
          }
        }
        await finish(row.id, applied ? 'ok' : 'failed', applied ? null : both('AD_OP_CRASHED'));
        if (applied) ok++;
        else failed++;
      }
      return { checked: ok + failed, ok, failed };
    },
  };

  /** Copies through the platform's copies edge, within each source's ad account. */
  async function copyThroughEdge(actor: OpActor, input: CopyInput & { dry_run?: boolean }, list: Target[]): Promise<{ batch_id: string; results: OpResult[] }> {
    let parent: { platform_id: string; ad_account_id: number } | undefined;
    if (input.parent_id !== undefined && input.level !== 'campaign') {
      parent = await db.selectFrom(TABLE[input.level === 'ad' ? 'adset' : 'campaign']).select(['platform_id', 'ad_account_id']).where('id', '=', input.parent_id).executeTakeFirst();
      if (!parent) throw new AppError('AD_OBJECT_NOT_FOUND');
      if (list.some((t) => t.ad_account_id !== parent!.ad_account_id)) throw new AppError('AD_OP_CROSS_ACCOUNT');
    }
    const batchId = randomUUID();
    const results: OpResult[] = [];
    const copies = Math.min(20, Math.max(1, input.copies ?? 1));
    for (const t of list) {
      for (let n = 0; n < copies; n++) {
        const before = { source_id: t.platform_id, name: t.name };
        const wanted = { parent: parent?.platform_id ?? null, status: input.status ?? 'PAUSED', ...(input.name && { name: input.name }), ...(input.daily_budget !== undefined && { daily_budget_minor: toMinor(input.daily_budget, t.currency), currency: t.currency }) };
        const base = { level: input.level, id: t.id, platform_id: t.platform_id, name: t.name, ad_account_id: t.ad_account_id, before, warnings: [] };
        if (input.dry_run) {
          results.push({ ...base, after: wanted, result: 'preview', error: null, operation_id: null });
          continue;
        }
        const opId = await begin(actor, batchId, 'copy', input.level, t, before, wanted);
        try {
          const copied = await sync.withToken(t.ad_account_id, (token) => copyOnPlatform(token, input.level, t, input, parent?.platform_id));
          const after = { ...wanted, copied_id: copied.copiedId, objects: copied.objects.length };
          await finish(opId, 'ok', null, after);
          results.push({ ...base, after, result: 'ok', error: null, operation_id: opId });
          await refresh(input.level, [{ ad_account_id: t.ad_account_id, platform_id: copied.copiedId }]);
        } catch (err) {
          const text = failureText(err);
          await finish(opId, 'failed', text);
          results.push({ ...base, after: wanted, result: 'failed', error: text, operation_id: opId });
        }
      }
    }
    return { batch_id: batchId, results };
  }

  async function copyOnPlatform(token: string, level: AdLevel, t: Target, input: CopyInput, parent: string | undefined): Promise<CopyResult> {
    const common = {
      statusOption: input.status ?? 'PAUSED',
      ...(input.rename_suffix !== undefined && { renameSuffix: input.rename_suffix }),
      ...(parent && { parentId: parent }),
      ...(level === 'campaign' && (input.name !== undefined || input.daily_budget !== undefined) && { campaignOverrides: { name: input.name, dailyBudgetMinor: input.daily_budget === undefined ? undefined : toMinor(input.daily_budget, t.currency) } }),
    } as const;
    try {
      return await platform.copyAdObject(token, level, t.platform_id, { ...common, deepCopy: level !== 'ad' });
    } catch (err) {
      // A synchronous copy is limited to a few objects (reference §3): copy the top object alone, then its children into it.
      if (!(err instanceof PlatformError) || err.details.subcode !== 1885194 || level === 'ad') throw err;
      const top = await platform.copyAdObject(token, level, t.platform_id, { ...common, deepCopy: false });
      const objects = [...top.objects];
      if (level === 'campaign') {
        const sets = await db.selectFrom('ad_sets').select(['id', 'platform_id']).where('campaign_id', '=', t.id).where('deleted_at', 'is', null).execute();
        for (const s of sets) {
          const copiedSet = await platform.copyAdObject(token, 'adset', s.platform_id, { parentId: top.copiedId, deepCopy: false, statusOption: common.statusOption, renameSuffix: '' });
          objects.push(...copiedSet.objects);
          await copyAds(token, s.id, copiedSet.copiedId, common.statusOption, objects);
        }
      } else await copyAds(token, t.id, top.copiedId, common.statusOption, objects);
      return { copiedId: top.copiedId, objects };
    }
  }

  async function copyAds(token: string, adsetId: number, into: string, status: 'ACTIVE' | 'PAUSED', objects: CopyResult['objects']) {
    const ads = await db.selectFrom('ads').select('platform_id').where('adset_id', '=', adsetId).where('deleted_at', 'is', null).execute();
    for (const a of ads) objects.push(...(await platform.copyAdObject(token, 'ad', a.platform_id, { parentId: into, statusOption: status, renameSuffix: '' })).objects);
  }

}

export type AdOperations = ReturnType<typeof createAdOperations>;
