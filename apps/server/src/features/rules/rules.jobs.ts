import { both, RULE_MAX_FAILURES, type Bilingual } from '@ads/contracts';
import { defineJob, type JobContext, type JobResult } from '../../jobs/types.ts';
import { secretBoxFor } from '../../lib/crypto.ts';
import { createAdOperations } from '../ad-data/ad-ops.service.ts';
import { createAdSync } from '../ad-data/ad-sync.service.ts';
import { createNotificationService } from '../notifications/notifications.service.ts';
import { dueSlot, tickOf } from './rules.engine.ts';
import { createRuleEvaluator, createTickMemo, specOf } from './rules.evaluator.ts';
import { addFailure, clearFailures, enabledRules, findRule, markRuleEvaluated, switchOffFailing, syncStates, type RuleRow } from './rules.repository.ts';
import { RULES_JOB } from './rules.service.ts';

// The engine's job (issue 10): every 5 minutes, the stop-loss revives that are due, then each
// rule whose schedule slot has come — after refreshing today's figures of the hosted accounts
// they cover — and the notifications that are due. "Run now" queues the same job for one rule.
// A slot is evaluated once per rule (rule_evaluations' unique key), so a second run of the same
// tick acts on nothing; a rule failing RULE_MAX_FAILURES times in a row is switched off and its
// owner told through its channels and the system-alert channels.

/** Accounts whose figures are older than this are refreshed before a scheduled evaluation. */
const REFRESH_AFTER_MS = 10 * 60_000;
/** Manual runs refresh anything older than this (a person waits for the result). */
const REFRESH_MANUAL_MS = 60_000;
const REFRESH_CONCURRENCY = 3;

export interface RulesJobData {
  /** Run now: this rule only, whatever its schedule. */
  rule_id?: number;
}

export function ruleEngineOf(ctx: JobContext<unknown>) {
  const secrets = secretBoxFor(ctx.db, ctx.config.tokenEncryptionKey, ctx.log);
  const sync = createAdSync({ db: ctx.db, platform: ctx.platform, clock: ctx.clock, secrets, reportTimezone: ctx.config.reportTimezone, log: ctx.log });
  const ops = createAdOperations({ db: ctx.db, clock: ctx.clock, sync, platform: ctx.platform });
  const notifications = createNotificationService({ db: ctx.db, clock: ctx.clock, secrets, config: ctx.config, log: ctx.log });
  const evaluator = createRuleEvaluator({ db: ctx.db, clock: ctx.clock, reportTimezone: ctx.config.reportTimezone, ops, notify: (i) => notifications.send(i), log: ctx.log });
  return { sync, ops, notifications, evaluator };
}

type Engine = ReturnType<typeof ruleEngineOf>;

/** Refreshes today's figures of accounts whose last sync is older than `maxAgeMs`; a failure leaves the figures as they were. */
async function refresh(ctx: JobContext<unknown>, engine: Engine, accountIds: number[], maxAgeMs: number) {
  const states = new Map((await syncStates(ctx.db, accountIds)).map((s) => [s.ad_account_id, s.insights_synced_at]));
  const cutoff = ctx.clock.now().getTime() - maxAgeMs;
  const stale = accountIds.filter((id) => (states.get(id)?.getTime() ?? 0) <= cutoff);
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < stale.length) {
      ctx.signal.throwIfAborted();
      const id = stale[next++]!;
      try {
        await engine.sync.syncAccount(id, { mode: 'recent', signal: ctx.signal });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        failed++;
        ctx.log.warn({ err, ad_account_id: id }, 'rules: refreshing an account failed; its figures are as of its last sync');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(REFRESH_CONCURRENCY, stale.length) }, worker));
  return { refreshed: stale.length - failed, failed };
}

/** After an evaluation: failures counted, and a rule failing too often switched off with its owner told. */
async function afterRun(ctx: JobContext<unknown>, engine: Engine, rule: RuleRow, res: Awaited<ReturnType<Engine['evaluator']['run']>>) {
  if (!res) return;
  if (res.counts.status !== 'failed') {
    await clearFailures(ctx.db, rule.id);
    return;
  }
  const count = await addFailure(ctx.db, rule.id);
  if (count < RULE_MAX_FAILURES) return;
  const error: Bilingual = res.counts.error ?? { zh: '-', en: '-' };
  const reason = { zh: both('RULE_PAUSED_FAILING', { count, error: error.zh }).zh, en: both('RULE_PAUSED_FAILING', { count, error: error.en }).en };
  await switchOffFailing(ctx.db, rule.id, reason, ctx.clock.now());
  const spec = specOf(rule);
  await engine.notifications.send({
    kind: 'rule_paused',
    ruleId: rule.id,
    channelIds: spec.notify.on_failure ? spec.notify.channel_ids : [],
    systemAlerts: true,
    dedupeKey: `rule_paused:${rule.id}:${res.evaluationId}`,
    message: { severity: 'error', title: { zh: `规则「${rule.name}」已自动关闭`, en: `Rule "${rule.name}" was switched off` }, lines: [reason] },
  });
}

export const runHostingRulesJob = defineJob<RulesJobData>({
  name: RULES_JOB,
  title: { zh: '执行托管规则', en: 'Run hosting rules' },
  description: {
    zh: '每 5 分钟：到期的止损对象按市场次日复活，到期的规则先刷新所覆盖托管账户的今日数据再判断并执行，随后发送到期的通知。',
    en: 'Every 5 minutes: stop-loss revives that are due, then the rules whose schedule has come (after refreshing today’s figures of the hosted accounts they cover), then the notifications that are due.',
  },
  defaultSchedule: '*/5 * * * *',
  retryLimit: 1,
  expireInSeconds: 3600,
  async run(ctx): Promise<JobResult> {
    const engine = ruleEngineOf(ctx);
    const now = ctx.clock.now();
    const totals = { rules: 0, acted: 0, failed: 0, revived: 0 };

    if (ctx.data.rule_id) {
      const rule = await findRule(ctx.db, ctx.data.rule_id);
      if (!rule) return { status: 'skipped', message: both('RULE_NOT_FOUND') };
      const owner = await engine.evaluator.ownerActor(rule.owner_user_id).catch(() => null);
      if (owner) await refresh(ctx, engine, (await engine.evaluator.accountsFor(specOf(rule), owner)).map((a) => a.id), REFRESH_MANUAL_MS);
      const res = await engine.evaluator.run(rule, 'manual', now);
      await markRuleEvaluated(ctx.db, rule.id, { last_evaluated_at: now });
      await afterRun(ctx, engine, rule, res);
      await engine.notifications.deliverDue({ signal: ctx.signal });
      if (!res) return { status: 'skipped' };
      const c = res.counts;
      const message = both('JOB_RULES_DONE', { rules: 1, acted: c.acted, failed: c.failed, revived: 0 });
      return { status: c.status === 'failed' ? 'failed' : 'success', summary: { evaluation_id: res.evaluationId, ...c, error: undefined }, message: c.status === 'failed' && c.error ? { zh: `${message.zh}：${c.error.zh}`, en: `${message.en}: ${c.error.en}` } : message };
    }

    const tick = tickOf(now);
    const revive = await engine.evaluator.revive(tick);
    totals.revived = revive.revived;
    totals.failed += revive.failed;

    const due: { rule: RuleRow; slot: Date }[] = [];
    for (const rule of await enabledRules(ctx.db)) {
      const slot = dueSlot(rule.schedule as never, now, rule.last_slot_at);
      if (slot) due.push({ rule, slot });
    }
    if (due.length) {
      const accounts = new Set<number>();
      for (const { rule } of due) {
        const owner = await engine.evaluator.ownerActor(rule.owner_user_id).catch(() => null);
        if (owner) for (const a of await engine.evaluator.accountsFor(specOf(rule), owner)) accounts.add(a.id);
      }
      await refresh(ctx, engine, [...accounts], REFRESH_AFTER_MS);
    }
    // The due rules read the same objects and figures: once per tick.
    const memo = createTickMemo(due.map(({ rule }) => specOf(rule)));
    for (const [i, { rule, slot }] of due.entries()) {
      ctx.signal.throwIfAborted();
      const res = await engine.evaluator.run(rule, 'schedule', slot, memo);
      await markRuleEvaluated(ctx.db, rule.id, { last_slot_at: slot, last_evaluated_at: now });
      await afterRun(ctx, engine, rule, res);
      if (res) {
        totals.rules++;
        totals.acted += res.counts.acted;
        totals.failed += res.counts.failed;
      }
      await ctx.progress(i + 1, due.length, rule.name);
    }
    const delivered = await engine.notifications.deliverDue({ signal: ctx.signal });
    if (!totals.rules && !revive.rules) return { status: 'skipped', message: both('JOB_RULES_NONE'), summary: { ...totals, delivered } };
    return { status: 'success', message: both('JOB_RULES_DONE', totals), summary: { ...totals, delivered } };
  },
});
