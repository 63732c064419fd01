import {
  ADS_READ, ADS_WRITE, BID_STRATEGIES, BID_STRATEGIES_WITH_AMOUNT, BILLING_EVENTS, CONVERSION_GOALS, CUSTOM_EVENT_TYPES,
  DESTINATION_TYPES, GOALS_BY_OBJECTIVE, OPTIMIZATION_GOALS,
} from '../domain.ts';
import { assertBidStrategy, assertBudgetMinimums, assertDsa, effectiveBidStrategy } from '../rules.ts';
import { adsetEffectiveStatus, adsetSnapshot, isCampaignBudget, issuesInfo } from '../delivery/status.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import { NodeRef, type EdgeDef, type NodeDef, type NodeRegistry } from '../graph/node.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from '../store/state.ts';
import { recordSnapshot } from '../store/store.ts';
import { DAY_MS, HOUR_MS } from '../time.ts';
import { rereviewAds } from './ads.ts';
import { accountTime, assertEditable, assertStatusTransition, listEdge, money, STATUSES, userCanUseAccount } from './common.ts';
import { createStatus } from './campaigns.ts';
import { copyAdSet } from './copies.ts';
import { pixelsOfAccount } from './pixels.ts';

// Ad sets (reference §4): budgets (unless the campaign has one), goal ↔ objective, targeting,
// promoted object, and the publish-time rules on changing them.

/** Budget changes allowed per ad set per rolling hour (613 / 1487632 beyond). */
const BUDGET_CHANGES_PER_HOUR = 4;

export function adsetsOf(ctx: GraphContext, filter: { accountId?: string; campaignId?: string }): AdSetRecord[] {
  return Object.values(ctx.sim.store.state.adsets).filter(
    (s) => (!filter.accountId || s.account_id === filter.accountId) && (!filter.campaignId || s.campaign_id === filter.campaignId),
  );
}

function readTargeting(ctx: GraphContext, required: boolean): Record<string, unknown> | undefined {
  const targeting = ctx.params.object('targeting');
  if (targeting === undefined) {
    if (required) throw errors.requiredParameter('targeting');
    return undefined;
  }
  const automation = targeting.targeting_automation as { advantage_audience?: unknown } | undefined;
  const flag = automation?.advantage_audience;
  // Since v23 the flag must be sent explicitly on every ad set (reference §4).
  if (flag !== 0 && flag !== 1 && flag !== '0' && flag !== '1') {
    throw errors.invalidParameter('Invalid parameter', {
      userTitle: 'Advantage Audience Flag Required',
      userMsg: 'To create your ad set, you need to enable or disable the Advantage audience feature: set targeting_automation.advantage_audience to 1 or 0.',
      data: { blame_field_specs: [['targeting', 'targeting_automation', 'advantage_audience']] },
    });
  }
  const geo = targeting.geo_locations as Record<string, unknown> | undefined;
  if (!geo || typeof geo !== 'object' || Object.keys(geo).length === 0) {
    throw errors.invalidParameter('Your audience is missing a location. Add geo_locations to targeting.', { data: { blame_field_specs: [['targeting', 'geo_locations']] } });
  }
  const ageMin = Number(targeting.age_min ?? 18);
  const ageMax = Number(targeting.age_max ?? 65);
  if (!(ageMin >= 13 && ageMax <= 65 && ageMin <= ageMax)) {
    throw errors.invalidParameter('age_min and age_max must satisfy 13 ≤ age_min ≤ age_max ≤ 65', { data: { blame_field_specs: [['targeting', 'age_min']] } });
  }
  return targeting;
}

function readPromotedObject(ctx: GraphContext, accountId: string): Record<string, unknown> | undefined {
  const po = ctx.params.object('promoted_object');
  if (po === undefined) return undefined;
  if (po.pixel_id !== undefined) {
    const pixelId = String(po.pixel_id);
    if (!pixelsOfAccount(ctx, accountId).some((p) => p.id === pixelId)) {
      throw errors.invalidParameter(`The pixel ${pixelId} is not available to this ad account`, { data: { blame_field_specs: [['promoted_object', 'pixel_id']] } });
    }
    if (po.custom_event_type !== undefined && !(CUSTOM_EVENT_TYPES as readonly string[]).includes(String(po.custom_event_type))) {
      throw errors.invalidEnum('promoted_object[custom_event_type]', CUSTOM_EVENT_TYPES);
    }
  }
  return po;
}

/**
 * Validations that need the finished record: goal ↔ objective, budgets, bids, the EU's
 * beneficiary and payer, promoted object. On an update (`before`) the budget, bid and EU rules run
 * only when something they depend on changed, so an old object can still be paused or renamed.
 */
function validate(ctx: GraphContext, s: AdSetRecord, campaign: CampaignRecord, account: AdAccountRecord, before?: AdSetRecord): void {
  const changed = (...keys: Array<keyof AdSetRecord>) => !before || keys.some((k) => JSON.stringify(before[k]) !== JSON.stringify(s[k]));
  const allowed = GOALS_BY_OBJECTIVE[campaign.objective as keyof typeof GOALS_BY_OBJECTIVE];
  if (allowed && !allowed.includes(s.optimization_goal)) throw errors.optimizationGoalNotAllowed(s.optimization_goal, campaign.objective);

  const hasBudget = s.daily_budget !== undefined || s.lifetime_budget !== undefined;
  if (isCampaignBudget(campaign) && hasBudget) throw errors.budgetOnBothLevels();
  if (!isCampaignBudget(campaign) && !hasBudget) {
    throw errors.invalidParameter('An ad set needs daily_budget or lifetime_budget when its campaign has no budget', { data: { blame_field_specs: [['daily_budget']] } });
  }
  if (s.lifetime_budget !== undefined && s.end_time === undefined) {
    throw errors.invalidParameter('An ad set with a lifetime budget needs end_time', { data: { blame_field_specs: [['end_time']] } });
  }
  const strategy = effectiveBidStrategy(s, campaign);
  const biddingChanged = changed('bid_strategy', 'bid_amount', 'bid_constraints', 'optimization_goal');
  if (biddingChanged) assertBidStrategy(s, strategy);
  const capped = BID_STRATEGIES_WITH_AMOUNT.has(strategy);
  const start = s.start_time ?? ctx.now;
  if (!biddingChanged && !changed('daily_budget', 'lifetime_budget', 'billing_event', 'start_time', 'end_time')) {
    // Budget minimums were met when these were last set.
  } else if (hasBudget) {
    assertBudgetMinimums(s, account.currency, { billingEvent: s.billing_event, bidAmount: s.bid_amount, capped, start, end: s.end_time });
  } else {
    // A campaign budget has to cover this ad set's minimum and, with a cap, 5× its bid [U: Meta's per-ad-set share].
    assertBudgetMinimums(campaign, account.currency, {
      billingEvent: s.billing_event,
      bidAmount: s.bid_amount,
      capped,
      start: campaign.start_time ?? start,
      end: campaign.stop_time,
      prefix: ['campaign'],
    });
  }
  if (changed('targeting', 'dsa_beneficiary', 'dsa_payor')) assertDsa(s, account);
  if (CONVERSION_GOALS.has(s.optimization_goal)) {
    const po = s.promoted_object;
    if (!po?.pixel_id || !po.custom_event_type) {
      throw errors.invalidParameter(`promoted_object with pixel_id and custom_event_type is required for optimization_goal ${s.optimization_goal}`, {
        data: { blame_field_specs: [['promoted_object']] },
      });
    }
  }
}

function readCommon(ctx: GraphContext, s: AdSetRecord): void {
  const p = ctx.params;
  const name = p.string('name');
  if (name !== undefined) s.name = name;
  const daily = p.uint('daily_budget');
  const lifetime = p.uint('lifetime_budget');
  if (daily !== undefined && lifetime !== undefined) {
    throw errors.invalidParameter('Only one of daily_budget and lifetime_budget can be set', { data: { blame_field_specs: [['daily_budget'], ['lifetime_budget']] } });
  }
  if (daily !== undefined) [s.daily_budget, s.lifetime_budget] = [daily, undefined];
  if (lifetime !== undefined) [s.lifetime_budget, s.daily_budget] = [lifetime, undefined];
  const bidAmount = p.uint('bid_amount');
  if (bidAmount !== undefined) s.bid_amount = bidAmount;
  const strategy = p.enumValue('bid_strategy', BID_STRATEGIES);
  if (strategy !== undefined) s.bid_strategy = strategy;
  const constraints = p.object('bid_constraints');
  if (constraints !== undefined) s.bid_constraints = constraints;
  const billing = p.enumValue('billing_event', BILLING_EVENTS);
  if (billing !== undefined) s.billing_event = billing;
  const destination = p.enumValue('destination_type', DESTINATION_TYPES);
  if (destination !== undefined) s.destination_type = destination;
  const targeting = readTargeting(ctx, false);
  if (targeting !== undefined) s.targeting = targeting;
  if (p.has('start_time')) s.start_time = p.time('start_time');
  if (p.has('end_time')) s.end_time = p.time('end_time');
  const pacing = p.list('pacing_type');
  if (pacing !== undefined) s.pacing_type = pacing;
  const attribution = p.json('attribution_spec');
  if (attribution !== undefined) {
    if (!Array.isArray(attribution)) throw errors.invalidParameter('attribution_spec must be an array');
    s.attribution_spec = attribution;
  }
  const beneficiary = p.string('dsa_beneficiary');
  if (beneficiary !== undefined) s.dsa_beneficiary = beneficiary;
  const payor = p.string('dsa_payor');
  if (payor !== undefined) s.dsa_payor = payor;
  const dynamic = p.bool('is_dynamic_creative');
  if (dynamic !== undefined) s.is_dynamic_creative = dynamic;
}

export function createAdSet(ctx: GraphContext, account: AdAccountRecord): { id: string } | { success: true } {
  const name = ctx.params.requiredString('name');
  const campaignId = ctx.params.requiredString('campaign_id');
  const campaign = ctx.sim.store.state.campaigns[campaignId];
  if (!campaign || campaign.account_id !== account.id) {
    throw errors.invalidParameter(`The campaign ${campaignId} does not exist in this ad account`, { data: { blame_field_specs: [['campaign_id']] } });
  }
  if (campaign.status === 'DELETED' || campaign.status === 'ARCHIVED') throw errors.invalidParameter('Cannot add an ad set to a deleted or archived campaign');
  const billing = ctx.params.enumValue('billing_event', BILLING_EVENTS);
  if (billing === undefined) throw errors.requiredParameter('billing_event');
  const goal = ctx.params.enumValue('optimization_goal', OPTIMIZATION_GOALS);
  if (goal === undefined) throw errors.requiredParameter('optimization_goal');

  const s: AdSetRecord = {
    id: '',
    account_id: account.id,
    campaign_id: campaign.id,
    name,
    status: createStatus(ctx),
    billing_event: billing,
    optimization_goal: goal,
    targeting: readTargeting(ctx, true)!,
    promoted_object: readPromotedObject(ctx, account.id),
    budget_changes: [],
    created_at: ctx.now,
    updated_at: ctx.now,
    history: [],
  };
  readCommon(ctx, s);
  validate(ctx, s, campaign, account);
  if (ctx.validateOnly) return { success: true };
  s.id = ctx.sim.store.newId();
  recordSnapshot(s.history, adsetSnapshot(s, ctx.now));
  ctx.sim.store.state.adsets[s.id] = s;
  ctx.sim.store.changed();
  return { id: s.id };
}

function updateAdSet(ctx: GraphContext, s: AdSetRecord): unknown {
  assertEditable(s.status, ctx.params);
  const campaign = ctx.sim.store.state.campaigns[s.campaign_id]!;
  const account = ctx.sim.store.account(s.account_id)!;
  const p = ctx.params;

  // A published ad set keeps its pixel, conversion event and goal (reference §4).
  const po = p.object('promoted_object');
  if (po !== undefined && JSON.stringify(po) !== JSON.stringify(s.promoted_object ?? {})) throw errors.promotedObjectImmutable('promoted_object');
  const goal = p.enumValue('optimization_goal', OPTIMIZATION_GOALS);
  if (goal !== undefined && goal !== s.optimization_goal) throw errors.promotedObjectImmutable('optimization_goal');

  const before = structuredClone(s);
  try {
    const status = p.enumValue('status', STATUSES);
    if (status !== undefined) {
      assertStatusTransition(s.status, status);
      s.status = status;
    }
    readCommon(ctx, s);
    const budgetChanged = s.daily_budget !== before.daily_budget || s.lifetime_budget !== before.lifetime_budget;
    if (budgetChanged) {
      s.budget_changes = s.budget_changes.filter((t) => t > ctx.now - HOUR_MS);
      if (s.budget_changes.length >= BUDGET_CHANGES_PER_HOUR) throw errors.adsetBudgetChangeLimit();
      s.budget_changes.push(ctx.now);
    }
    validate(ctx, s, campaign, account, before);
  } catch (err) {
    Object.assign(s, before);
    throw err;
  }
  if (ctx.validateOnly) {
    Object.assign(s, before);
    return { success: true };
  }
  // Targeting and billing changes send the ads back to review (budget and schedule do not).
  if (JSON.stringify(before.targeting) !== JSON.stringify(s.targeting) || before.billing_event !== s.billing_event) {
    rereviewAds(ctx, Object.values(ctx.sim.store.state.ads).filter((a) => a.adset_id === s.id));
  }
  s.updated_at = ctx.now;
  recordSnapshot(s.history, adsetSnapshot(s, ctx.now));
  ctx.sim.store.changed();
  return { success: true };
}

/** Conversions needed in 7 days to leave the learning phase (Meta's published rule of thumb). */
const LEARNING_CONVERSIONS = 50;

/**
 * `learning_stage_info` (AdCampaignLearningStageInfo): the delivery model's learning phase —
 * LEARNING until 50 optimization events since the last significant edit, SUCCESS once they are
 * in, FAIL ("Learning limited") when 7 days pass without them. With delivery dynamics off, the
 * older rule of thumb: 50 purchases in the last 7 days.
 */
function learningStage(ctx: GraphContext, s: AdSetRecord): unknown {
  const attribution_windows = ['7d_click', '1d_view'];
  if (ctx.sim.delivery.dynamics()) {
    const st = ctx.sim.delivery.learningState(s.id, ctx.now);
    if (!st) return { status: 'LEARNING', conversions: 0, attribution_windows };
    return { status: st.status, conversions: st.events, last_sig_edit_ts: Math.floor(st.since / 1000), attribution_windows };
  }
  const owners = ctx.sim.delivery.owners(s.account_id).filter((o) => o.id === s.id || o.id === s.campaign_id);
  const ads = new Set(Object.values(ctx.sim.store.state.ads).filter((a) => a.adset_id === s.id).map((a) => a.id));
  const conversions = ctx.sim.delivery.sumCells(owners, ctx.now - 7 * DAY_MS, ctx.now, ads).purchases;
  return {
    status: conversions >= LEARNING_CONVERSIONS ? 'SUCCESS' : 'LEARNING',
    conversions,
    attribution_windows,
  };
}

export function adsetNode(registry: NodeRegistry, edges: { ads: EdgeDef<AdSetRecord>; insights: EdgeDef<AdSetRecord> }): NodeDef<AdSetRecord> {
  return {
    kind: 'adset',
    typeName: 'AdSet',
    load: (ctx, id) => ctx.sim.store.state.adsets[id],
    visible: (ctx, s) => userCanUseAccount(ctx, ctx.sim.store.account(s.account_id)),
    accountId: (s) => s.account_id,
    fields: {
      id: (s) => s.id,
      account_id: (s) => s.account_id,
      campaign_id: (s) => s.campaign_id,
      campaign: (s) => new NodeRef('campaign', s.campaign_id),
      name: (s) => s.name,
      status: (s) => s.status,
      configured_status: (s) => s.status,
      effective_status: (s, ctx) => adsetEffectiveStatus(ctx.sim.store, s),
      daily_budget: (s) => money(s.daily_budget),
      lifetime_budget: (s) => money(s.lifetime_budget),
      bid_amount: (s) => s.bid_amount,
      bid_strategy: (s, ctx) => s.bid_strategy ?? ctx.sim.store.state.campaigns[s.campaign_id]?.bid_strategy ?? 'LOWEST_COST_WITHOUT_CAP',
      bid_constraints: (s) => s.bid_constraints,
      billing_event: (s) => s.billing_event,
      optimization_goal: (s) => s.optimization_goal,
      destination_type: (s) => s.destination_type,
      promoted_object: (s) => s.promoted_object,
      targeting: (s) => s.targeting,
      start_time: (s, ctx) => accountTime(ctx, s.account_id, s.start_time ?? s.created_at),
      end_time: (s, ctx) => accountTime(ctx, s.account_id, s.end_time),
      pacing_type: (s) => s.pacing_type ?? ['standard'],
      attribution_spec: (s) => s.attribution_spec,
      dsa_beneficiary: (s) => s.dsa_beneficiary,
      dsa_payor: (s) => s.dsa_payor,
      is_dynamic_creative: (s) => s.is_dynamic_creative ?? false,
      budget_remaining: (s, ctx) => {
        if (s.daily_budget === undefined && s.lifetime_budget === undefined) return '0';
        const owner = ctx.sim.delivery.owners(s.account_id).find((o) => o.id === s.id);
        const spent = !owner ? 0 : s.daily_budget !== undefined ? ctx.sim.delivery.ownerSpendToday(owner, ctx.now) : ctx.sim.delivery.spendOf([owner], 0, ctx.now);
        return String(Math.max(0, (s.daily_budget ?? s.lifetime_budget ?? 0) - spent));
      },
      learning_stage_info: (s, ctx) => learningStage(ctx, s),
      issues_info: (s, ctx) => issuesInfo(ctx.sim.store, s.account_id),
      created_time: (s, ctx) => accountTime(ctx, s.account_id, s.created_at),
      updated_time: (s, ctx) => accountTime(ctx, s.account_id, s.updated_at),
      source_adset_id: (s) => s.source_adset_id ?? '0',
    },
    defaultFields: ['id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    update: updateAdSet,
    updateValidateOnly: true,
    remove: (ctx, s) => {
      assertStatusTransition(s.status, 'DELETED');
      s.status = 'DELETED';
      s.updated_at = ctx.now;
      recordSnapshot(s.history, adsetSnapshot(s, ctx.now));
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {
      ...edges,
      copies: {
        get: (ctx, s) => listEdge(ctx, registry, 'adset', adsetsOf(ctx, { accountId: s.account_id }).filter((x) => x.source_adset_id === s.id)),
        post: (ctx, s) => copyAdSet(ctx, s),
      },
    },
  };
}

export function adsetsEdge<T>(registry: NodeRegistry, filter: (obj: T) => { accountId?: string; campaignId?: string }, create?: (ctx: GraphContext, obj: T) => unknown): EdgeDef<T> {
  return {
    get: (ctx, obj) => listEdge(ctx, registry, 'adset', adsetsOf(ctx, filter(obj))),
    ...(create ? { post: create, validateOnly: true } : {}),
  };
}
