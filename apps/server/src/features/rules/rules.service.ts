import {
  IS_ADMIN_SUPER,
  textIn,
  type DryRunResult,
  type HostingRule,
  type Lang,
  type ListEvaluationsBody,
  type ListFiringsBody,
  type ListRulesBody,
  type RuleDraft,
  type RuleEvaluation,
  type RuleFiring,
  type RuleOptions,
  type RuleOutcome,
  type RuleValue,
} from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { departmentSubtree, seesEverything, visibleAdAccountIds, visibleUserIds } from '../../lib/scope.ts';
import { writeAudit } from '../audit/audit.service.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import { nextSlot } from './rules.engine.ts';
import { RuleOwnerError, specOf, type PlanRow, type RuleEvaluator } from './rules.evaluator.ts';
import { countRules, findRule, hostedAccounts, listEvaluations, listFirings, listRules, rulesPerChannel, type FiringListRow, type RuleListRow, type RuleRow } from './rules.repository.ts';

// Hosting rules on /operation/account (issue 10): rules in the caller's data scope (their owners
// are people whose data the caller sees), saved as the contracts validate them, each owned by
// someone who may use hosting; dry runs; "run now" as a task; the history of evaluations and
// firings; the editor's options.

export const RULES_JOB = 'run-hosting-rules';

export interface RuleServiceDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  reportTimezone: string;
  evaluator: RuleEvaluator;
  notifications: NotificationService;
}

type LastResult = HostingRule['last_result'];

export function createRuleService({ db, clock, jobs, reportTimezone, evaluator, notifications }: RuleServiceDeps) {
  const ownerScope = async (ctx: RequestContext) => (seesEverything(ctx.actor) ? null : ((await visibleUserIds(db, ctx.actor)) ?? []));

  async function loadVisible(ctx: RequestContext, id: number): Promise<RuleRow> {
    const row = await findRule(db, id);
    const scope = await ownerScope(ctx);
    if (!row || (scope && !scope.includes(row.owner_user_id))) throw new AppError('RULE_NOT_FOUND');
    return row;
  }

  function view(r: RuleRow & { owner_name: string; last_result?: unknown }, lang: Lang): HostingRule {
    const spec = specOf(r);
    const schedule = r.schedule as HostingRule['schedule'];
    return {
      id: r.id,
      name: r.name,
      enabled: r.enabled,
      status: r.enabled ? 'on' : r.paused_reason ? 'failing' : 'off',
      owner: { id: r.owner_user_id, name: r.owner_name },
      template: (r.template as HostingRule['template']) ?? null,
      scope: spec.scope,
      level: spec.level,
      filters: spec.filters,
      conditions: spec.conditions,
      action: spec.action,
      stop_loss: spec.stop_loss,
      schedule,
      cooldown_minutes: r.cooldown_minutes,
      max_actions_per_run: r.max_actions_per_run,
      notify: spec.notify,
      consecutive_failures: r.consecutive_failures,
      paused_reason: r.paused_reason === null ? null : textIn({ zh: r.paused_reason, en: r.paused_reason_en ?? r.paused_reason }, lang),
      last_evaluated_at: r.last_evaluated_at?.toISOString() ?? null,
      next_run_at: r.enabled ? nextSlot(schedule, clock.now()).toISOString() : null,
      last_result: (r.last_result as LastResult) ?? null,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  }

  async function viewById(ctx: RequestContext, id: number): Promise<HostingRule> {
    const [row] = await listRules(db, { ownerIds: null, ruleIds: [id] }, 1, 0);
    return view(row as RuleListRow, ctx.lang);
  }

  /** The owner a rule may have: someone whose data the caller sees, who may use hosting. */
  async function checkOwner(ctx: RequestContext, ownerId: number) {
    const scope = await ownerScope(ctx);
    if (scope && !scope.includes(ownerId)) throw new AppError('RULE_OWNER_NOT_ALLOWED', {}, 'rule.owner_user_id');
    try {
      return await evaluator.ownerActor(ownerId);
    } catch (err) {
      if (err instanceof RuleOwnerError) throw new AppError('RULE_OWNER_NOT_ALLOWED', {}, 'rule.owner_user_id');
      throw err;
    }
  }

  /** The scope's lists stay within what the caller and the owner see. */
  async function checkScope(ctx: RequestContext, draft: RuleDraft, owner: Awaited<ReturnType<typeof checkOwner>>) {
    const s = draft.scope;
    if (s.type === 'accounts') {
      const visible = await visibleAdAccountIds(db, owner);
      if (visible && s.ad_account_ids!.some((id) => !visible.includes(id))) throw new AppError('RULE_SCOPE_OUTSIDE', { what: ctx.lang === 'zh' ? '广告账户' : 'ad accounts' }, 'rule.scope.ad_account_ids');
    }
    if (s.type === 'users') {
      const visible = await visibleUserIds(db, ctx.actor);
      if (visible && s.user_ids!.some((id) => !visible.includes(id))) throw new AppError('RULE_SCOPE_OUTSIDE', { what: ctx.lang === 'zh' ? '投手' : 'optimizers' }, 'rule.scope.user_ids');
    }
    if (s.type === 'departments' && !seesEverything(ctx.actor)) {
      const mine = ctx.actor.department_id && ctx.actor.is_leader === 1 ? await departmentSubtree(db, ctx.actor.department_id) : ctx.actor.department_id ? [ctx.actor.department_id] : [];
      if (s.department_ids!.some((id) => !mine.includes(id))) throw new AppError('RULE_SCOPE_OUTSIDE', { what: ctx.lang === 'zh' ? '部门' : 'departments' }, 'rule.scope.department_ids');
    }
    await notifications.assertPickable(ctx, draft.notify.channel_ids);
  }

  const json = (v: unknown) => JSON.stringify(v);

  function planRowView(r: PlanRow, lang: Lang) {
    return {
      level: r.level,
      object: { id: r.object.id, platform_id: r.object.platform_id, name: r.object.name },
      ad_account: { id: r.account.id, name: r.account.name, platform_id: r.account.platform_id, timezone_name: r.account.timezone_name },
      status: r.object.effective_status,
      outcome: r.outcome,
      values: r.values,
      before: r.before,
      after: r.after,
      reason: r.reason ? textIn(r.reason, lang) : null,
    };
  }

  function firingView(r: FiringListRow, lang: Lang): RuleFiring {
    return {
      id: Number(r.id),
      evaluation_id: Number(r.evaluation_id),
      rule: { id: r.rule_id, name: r.rule_name },
      created_at: r.created_at.toISOString(),
      level: r.level,
      object: { id: r.object_id, platform_id: r.object_platform_id, name: r.object_name },
      ad_account: { id: r.ad_account_id, name: r.account_name, platform_id: r.account_platform_id, timezone_name: r.account_timezone },
      action: r.action as RuleFiring['action'],
      outcome: r.outcome as RuleOutcome,
      values: (r.values as RuleValue[]) ?? [],
      before: (r.before as Record<string, unknown>) ?? {},
      after: (r.after as Record<string, unknown>) ?? {},
      error: r.error === null ? null : textIn({ zh: r.error, en: r.error_en ?? r.error }, lang),
      operation_id: r.operation_id === null ? null : Number(r.operation_id),
    };
  }

  const firingFilters = async (ctx: RequestContext, b: ListFiringsBody) => ({
    ownerIds: await ownerScope(ctx),
    ruleId: b.rule_id,
    evaluationId: b.evaluation_id,
    outcome: b.outcome,
    level: b.level,
    adAccountId: b.ad_account_id,
    keyword: b.keyword,
    timeFrom: b.time_from,
    timeTo: b.time_to,
  });

  return {
    async list(ctx: RequestContext, body: ListRulesBody) {
      const f = { ownerIds: await ownerScope(ctx), keyword: body.keyword, status: body.status, ownerUserId: body.owner_user_id, action: body.action };
      const [rows, total] = await Promise.all([listRules(db, f, body.page_size, (body.page - 1) * body.page_size), countRules(db, f)]);
      return { list: rows.map((r) => view(r, ctx.lang)), total };
    },

    async get(ctx: RequestContext, id: number) {
      await loadVisible(ctx, id);
      return viewById(ctx, id);
    },

    async save(ctx: RequestContext, id: number | undefined, draft: RuleDraft): Promise<HostingRule> {
      const existing = id === undefined ? undefined : await loadVisible(ctx, id);
      const ownerId = draft.owner_user_id ?? existing?.owner_user_id ?? ctx.actor.id;
      const owner = await checkOwner(ctx, ownerId);
      await checkScope(ctx, draft, owner);
      const now = clock.now();
      const values = {
        name: draft.name,
        enabled: draft.enabled,
        owner_user_id: ownerId,
        template: draft.template,
        scope: json(draft.scope),
        level: draft.level,
        filters: json(draft.filters),
        conditions: json(draft.conditions),
        action: json(draft.action),
        action_type: draft.action.type,
        stop_loss: json(draft.stop_loss),
        schedule: json(draft.schedule),
        cooldown_minutes: draft.cooldown_minutes,
        max_actions_per_run: draft.max_actions_per_run,
        notify: json(draft.notify),
        updated_at: now,
        // Switching a rule on again gives it a fresh start.
        ...(draft.enabled && { paused_reason: null, paused_reason_en: null, consecutive_failures: 0 }),
      };
      let ruleId: number;
      if (existing) {
        await db.updateTable('hosting_rules').set(values).where('id', '=', existing.id).execute();
        ruleId = existing.id;
        await writeAudit(db, ctx, { action: 'hosting_rule.edit', entity_type: 'hosting_rule', entity_id: ruleId, before: { name: existing.name, enabled: existing.enabled, action: existing.action, conditions: existing.conditions }, after: { name: draft.name, enabled: draft.enabled, action: draft.action, conditions: draft.conditions } });
      } else {
        const row = await db.insertInto('hosting_rules').values({ ...values, created_by: ctx.actor.id, created_at: now }).returning('id').executeTakeFirstOrThrow();
        ruleId = row.id;
        await writeAudit(db, ctx, { action: 'hosting_rule.create', entity_type: 'hosting_rule', entity_id: ruleId, before: null, after: { name: draft.name, enabled: draft.enabled, action: draft.action } });
      }
      return viewById(ctx, ruleId);
    },

    async remove(ctx: RequestContext, id: number) {
      const row = await loadVisible(ctx, id);
      const now = clock.now();
      await db.updateTable('hosting_rules').set({ deleted_at: now, enabled: false, updated_at: now }).where('id', '=', row.id).execute();
      // Waiting revives of a deleted rule are dropped: nobody owns them any more.
      await db.updateTable('rule_stops').set({ status: 'cancelled', settled_at: now }).where('rule_id', '=', row.id).where('status', '=', 'paused').execute();
      await writeAudit(db, ctx, { action: 'hosting_rule.delete', entity_type: 'hosting_rule', entity_id: id, before: { name: row.name }, after: null });
      return { deleted: 1 };
    },

    async toggle(ctx: RequestContext, id: number, enabled: boolean) {
      const row = await loadVisible(ctx, id);
      if (enabled) await checkOwner(ctx, row.owner_user_id);
      await db
        .updateTable('hosting_rules')
        .set({ enabled, updated_at: clock.now(), ...(enabled && { paused_reason: null, paused_reason_en: null, consecutive_failures: 0 }) })
        .where('id', '=', row.id)
        .execute();
      await writeAudit(db, ctx, { action: 'hosting_rule.toggle', entity_type: 'hosting_rule', entity_id: id, before: { enabled: row.enabled }, after: { enabled } });
      return viewById(ctx, id);
    },

    async dryRun(ctx: RequestContext, body: { id?: number | undefined; rule?: RuleDraft | undefined }): Promise<DryRunResult> {
      let plan;
      if (body.id !== undefined) {
        const row = await loadVisible(ctx, body.id);
        plan = await evaluator.dryRun(specOf(row), row.owner_user_id, row.id).catch((err: unknown) => {
          if (err instanceof RuleOwnerError) throw new AppError('RULE_OWNER_NOT_ALLOWED');
          throw err;
        });
      } else {
        const rule = body.rule!;
        const ownerId = rule.owner_user_id ?? ctx.actor.id;
        const owner = await checkOwner(ctx, ownerId);
        await checkScope(ctx, rule, owner);
        plan = await evaluator.dryRun(rule, ownerId, null);
      }
      const order = (r: PlanRow) => (r.outcome === 'would_act' ? 0 : 1);
      const rows = [...plan.rows].sort((a, b) => order(a) - order(b)).slice(0, 500);
      return {
        evaluated_at: clock.now().toISOString(),
        data_as_of: plan.dataAsOf?.toISOString() ?? null,
        report_day: plan.today,
        accounts: plan.accounts.length,
        objects_checked: plan.checked,
        matched: plan.rows.length,
        rows: rows.map((r) => planRowView(r, ctx.lang)),
      };
    },

    /** Evaluates a rule now as a task (its accounts refreshed first), acting as a schedule tick would. */
    async runNow(ctx: RequestContext, id: number) {
      const row = await loadVisible(ctx, id);
      const taskId = await jobs.enqueue(RULES_JOB, { rule_id: row.id }, { createdBy: ctx.actor.id });
      return { task_id: taskId };
    },

    async options(ctx: RequestContext): Promise<RuleOptions> {
      const userScope = await visibleUserIds(db, ctx.actor);
      let users = db.selectFrom('users').select(['id', 'name', 'account']).where('deleted_at', 'is', null).where('is_admin', '!=', IS_ADMIN_SUPER);
      if (userScope) users = users.where('id', 'in', userScope.length ? userScope : [0]);
      let departments = db.selectFrom('departments').select(['id', 'name']);
      if (!seesEverything(ctx.actor)) {
        const mine = ctx.actor.department_id ? (ctx.actor.is_leader === 1 ? await departmentSubtree(db, ctx.actor.department_id) : [ctx.actor.department_id]) : [];
        departments = departments.where('id', 'in', mine.length ? mine : [0]);
      }
      const accounts = await hostedAccounts(db, await visibleAdAccountIds(db, ctx.actor), { type: 'all' });
      return {
        users: await users.orderBy('name').limit(1000).execute(),
        departments: await departments.orderBy('id').execute(),
        ad_accounts: accounts,
        dramas: await db.selectFrom('dramas').select(['id', 'name']).where('deleted_at', 'is', null).orderBy('id', 'desc').limit(1000).execute(),
        products: await db.selectFrom('products').select(['id', 'name']).where('deleted_at', 'is', null).orderBy('id', 'desc').limit(1000).execute(),
        channels: await notifications.pickable(ctx),
        report_timezone: reportTimezone,
      };
    },

    async evaluations(ctx: RequestContext, b: ListEvaluationsBody) {
      const { rows, total } = await listEvaluations(db, { ownerIds: await ownerScope(ctx), ruleId: b.rule_id, status: b.status, trigger: b.trigger, withFirings: b.with_firings, timeFrom: b.time_from, timeTo: b.time_to }, b.page_size, (b.page - 1) * b.page_size);
      const list: RuleEvaluation[] = rows.map((r) => ({
        id: Number(r.id),
        rule: { id: r.rule_id, name: r.rule_name },
        tick_at: r.tick_at.toISOString(),
        trigger: r.trigger,
        status: r.status,
        started_at: r.started_at.toISOString(),
        finished_at: r.finished_at?.toISOString() ?? null,
        accounts: r.accounts,
        objects_checked: r.objects_checked,
        matched: r.matched,
        acted: r.acted,
        failed: r.failed,
        skipped: r.skipped,
        revived: r.revived,
        error: r.error === null ? null : textIn({ zh: r.error, en: r.error_en ?? r.error }, ctx.lang),
        data_as_of: r.data_as_of?.toISOString() ?? null,
      }));
      return { list, total };
    },

    async firings(ctx: RequestContext, b: ListFiringsBody) {
      const { rows, total } = await listFirings(db, await firingFilters(ctx, b), b.page_size, (b.page - 1) * b.page_size);
      return { list: rows.map((r) => firingView(r, ctx.lang)), total };
    },

    async exportFirings(ctx: RequestContext, b: ListFiringsBody, page: { limit: number; offset: number }) {
      const { rows } = await listFirings(db, await firingFilters(ctx, b), page.limit, page.offset, false);
      return rows.map((r) => firingView(r, ctx.lang));
    },

    rulesPerChannel: () => rulesPerChannel(db),
  };
}

export type RuleService = ReturnType<typeof createRuleService>;
