import { ADS_READ, ADS_WRITE, BID_STRATEGIES, BUYING_TYPES, CREATE_STATUSES, OBJECTIVES, SPECIAL_AD_CATEGORIES } from '../domain.ts';
import { campaignEffectiveStatus, campaignSnapshot, isCampaignBudget, issuesInfo } from '../delivery/status.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { EdgeDef, NodeDef, NodeRegistry } from '../graph/node.ts';
import type { AdAccountRecord, CampaignRecord } from '../store/state.ts';
import { recordSnapshot } from '../store/store.ts';
import { assertBudgetMinimums } from '../rules.ts';
import { accountTime, assertEditable, assertStatusTransition, listEdge, money, STATUSES, userCanUseAccount } from './common.ts';
import { copyCampaign } from './copies.ts';

// Campaigns (reference §3).

export function campaignsOf(ctx: GraphContext, accountId: string): CampaignRecord[] {
  return Object.values(ctx.sim.store.state.campaigns).filter((c) => c.account_id === accountId);
}

function readSpecialCategories(ctx: GraphContext, required: boolean): string[] | undefined {
  const list = ctx.params.list('special_ad_categories');
  if (list === undefined) {
    if (required) throw errors.requiredParameter('special_ad_categories');
    return undefined;
  }
  for (const v of list) if (!(SPECIAL_AD_CATEGORIES as readonly string[]).includes(v)) throw errors.invalidEnum('special_ad_categories', SPECIAL_AD_CATEGORIES);
  return list.filter((v) => v !== 'NONE');
}

/** Campaign budget changes must not put a budget on both levels (1885621). */
function assertBudgetOwnership(ctx: GraphContext, c: CampaignRecord): void {
  if (!isCampaignBudget(c)) return;
  const adsetWithBudget = Object.values(ctx.sim.store.state.adsets).some(
    (s) => s.campaign_id === c.id && s.status !== 'DELETED' && (s.daily_budget !== undefined || s.lifetime_budget !== undefined),
  );
  if (adsetWithBudget) throw errors.budgetOnBothLevels();
}

function readBudgets(ctx: GraphContext, c: Pick<CampaignRecord, 'daily_budget' | 'lifetime_budget' | 'stop_time'>): void {
  const daily = ctx.params.uint('daily_budget');
  const lifetime = ctx.params.uint('lifetime_budget');
  if (daily !== undefined && lifetime !== undefined) {
    throw errors.invalidParameter('Only one of daily_budget and lifetime_budget can be set', { data: { blame_field_specs: [['daily_budget'], ['lifetime_budget']] } });
  }
  if (daily !== undefined) {
    c.daily_budget = daily;
    c.lifetime_budget = undefined;
  }
  if (lifetime !== undefined) {
    c.lifetime_budget = lifetime;
    c.daily_budget = undefined;
  }
  if (c.lifetime_budget !== undefined && c.stop_time === undefined) {
    throw errors.invalidParameter('A lifetime budget needs stop_time', { data: { blame_field_specs: [['stop_time']] } });
  }
}

/** Fields shared by create and update. */
function readCommon(ctx: GraphContext, c: CampaignRecord): void {
  const name = ctx.params.string('name');
  if (name !== undefined) c.name = name;
  const bid = ctx.params.enumValue('bid_strategy', BID_STRATEGIES);
  if (bid !== undefined) c.bid_strategy = bid;
  const sharing = ctx.params.bool('is_adset_budget_sharing_enabled');
  if (sharing !== undefined) c.is_adset_budget_sharing_enabled = sharing;
  const cap = ctx.params.uint('spend_cap');
  if (cap !== undefined) c.spend_cap = cap;
  if (ctx.params.has('start_time')) c.start_time = ctx.params.time('start_time');
  if (ctx.params.has('stop_time')) c.stop_time = ctx.params.time('stop_time');
  const countries = ctx.params.list('special_ad_category_country');
  if (countries !== undefined) c.special_ad_category_country = countries;
  const promoted = ctx.params.object('promoted_object');
  if (promoted !== undefined) c.promoted_object = promoted;
  readBudgets(ctx, c);
}

/** The status of a new object: ACTIVE or PAUSED only (DELETED and ARCHIVED are for updates). */
export function createStatus(ctx: GraphContext): 'ACTIVE' | 'PAUSED' {
  const status = ctx.params.enumValue('status', STATUSES) ?? 'ACTIVE';
  if (!(CREATE_STATUSES as readonly string[]).includes(status)) throw errors.statusOnCreate(status);
  return status as 'ACTIVE' | 'PAUSED';
}

/** A campaign budget meets the impressions minimum (its ad sets' own events are checked with them). */
function assertCampaignBudget(c: CampaignRecord, account: AdAccountRecord, now: number): void {
  assertBudgetMinimums(c, account.currency, { capped: false, start: c.start_time ?? now, end: c.stop_time });
}

export function createCampaign(ctx: GraphContext, account: AdAccountRecord): { id: string } | { success: true } {
  const name = ctx.params.requiredString('name');
  const objective = ctx.params.string('objective');
  if (objective === undefined) throw errors.requiredParameter('objective');
  if (!(OBJECTIVES as readonly string[]).includes(objective)) throw errors.invalidEnum('objective', OBJECTIVES);
  const special = readSpecialCategories(ctx, true)!;
  const c: CampaignRecord = {
    id: '',
    account_id: account.id,
    name,
    objective,
    status: createStatus(ctx),
    special_ad_categories: special,
    buying_type: ctx.params.enumValue('buying_type', BUYING_TYPES) ?? 'AUCTION',
    created_at: ctx.now,
    updated_at: ctx.now,
    history: [],
  };
  readCommon(ctx, c);
  // Since v24 a campaign without a campaign budget must say whether its ad sets share budget.
  if (!isCampaignBudget(c) && c.is_adset_budget_sharing_enabled === undefined) throw errors.budgetSharingRequired();
  if (isCampaignBudget(c)) assertCampaignBudget(c, account, ctx.now);
  if (ctx.validateOnly) return { success: true };
  c.id = ctx.sim.store.newId();
  recordSnapshot(c.history, campaignSnapshot(c, ctx.now));
  ctx.sim.store.state.campaigns[c.id] = c;
  ctx.sim.store.changed();
  return { id: c.id };
}

/** Sets a status, enforcing the transition rules (callers record the snapshot). */
function setCampaignStatus(c: CampaignRecord, status: CampaignRecord['status']): void {
  assertStatusTransition(c.status, status);
  c.status = status;
}

function updateCampaign(ctx: GraphContext, c: CampaignRecord): unknown {
  assertEditable(c.status, ctx.params);
  if (ctx.params.has('objective') && ctx.params.string('objective') !== c.objective) {
    throw errors.invalidParameter("A campaign's objective can't be changed", { data: { blame_field_specs: [['objective']] } });
  }
  const before = { ...c };
  const status = ctx.params.enumValue('status', STATUSES);
  if (status !== undefined) setCampaignStatus(c, status);
  const special = readSpecialCategories(ctx, false);
  if (special !== undefined) c.special_ad_categories = special;
  try {
    readCommon(ctx, c);
    if (!isCampaignBudget(before) && isCampaignBudget(c)) assertBudgetOwnership(ctx, c);
    if (isCampaignBudget(before) && !isCampaignBudget(c)) {
      throw errors.invalidParameter('A campaign budget cannot be removed; set a new budget instead');
    }
    const budgetChanged = c.daily_budget !== before.daily_budget || c.lifetime_budget !== before.lifetime_budget || c.stop_time !== before.stop_time;
    if (isCampaignBudget(c) && budgetChanged) assertCampaignBudget(c, ctx.sim.store.account(c.account_id)!, ctx.now);
  } catch (err) {
    Object.assign(c, before);
    throw err;
  }
  if (ctx.validateOnly) {
    Object.assign(c, before);
    return { success: true };
  }
  c.updated_at = ctx.now;
  recordSnapshot(c.history, campaignSnapshot(c, ctx.now));
  ctx.sim.store.changed();
  return { success: true };
}

function budgetRemaining(ctx: GraphContext, c: CampaignRecord): string {
  if (!isCampaignBudget(c)) return '0';
  const owner = ctx.sim.delivery.owners(c.account_id).find((o) => o.id === c.id);
  if (c.daily_budget !== undefined) return String(Math.max(0, c.daily_budget - (owner ? ctx.sim.delivery.ownerSpendToday(owner, ctx.now) : 0)));
  const spent = owner ? ctx.sim.delivery.spendOf([owner], 0, ctx.now) : 0;
  return String(Math.max(0, (c.lifetime_budget ?? 0) - spent));
}

export function campaignNode(registry: NodeRegistry, edges: { adsets: EdgeDef<CampaignRecord>; ads: EdgeDef<CampaignRecord>; insights: EdgeDef<CampaignRecord> }): NodeDef<CampaignRecord> {
  return {
    kind: 'campaign',
    typeName: 'Campaign',
    load: (ctx, id) => ctx.sim.store.state.campaigns[id],
    visible: (ctx, c) => userCanUseAccount(ctx, ctx.sim.store.account(c.account_id)),
    accountId: (c) => c.account_id,
    fields: {
      id: (c) => c.id,
      account_id: (c) => c.account_id,
      name: (c) => c.name,
      objective: (c) => c.objective,
      status: (c) => c.status,
      configured_status: (c) => c.status,
      effective_status: (c, ctx) => campaignEffectiveStatus(ctx.sim.store, c),
      special_ad_categories: (c) => c.special_ad_categories,
      special_ad_category_country: (c) => c.special_ad_category_country,
      buying_type: (c) => c.buying_type,
      daily_budget: (c) => money(c.daily_budget),
      lifetime_budget: (c) => money(c.lifetime_budget),
      bid_strategy: (c) => c.bid_strategy,
      is_adset_budget_sharing_enabled: (c) => c.is_adset_budget_sharing_enabled,
      spend_cap: (c) => money(c.spend_cap),
      start_time: (c, ctx) => accountTime(ctx, c.account_id, c.start_time ?? c.created_at),
      stop_time: (c, ctx) => accountTime(ctx, c.account_id, c.stop_time),
      promoted_object: (c) => c.promoted_object,
      budget_remaining: (c, ctx) => budgetRemaining(ctx, c),
      created_time: (c, ctx) => accountTime(ctx, c.account_id, c.created_at),
      updated_time: (c, ctx) => accountTime(ctx, c.account_id, c.updated_at),
      issues_info: (c, ctx) => issuesInfo(ctx.sim.store, c.account_id),
      source_campaign_id: (c) => c.source_campaign_id ?? '0',
    },
    defaultFields: ['id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    update: updateCampaign,
    updateValidateOnly: true,
    remove: (ctx, c) => {
      setCampaignStatus(c, 'DELETED');
      c.updated_at = ctx.now;
      recordSnapshot(c.history, campaignSnapshot(c, ctx.now));
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {
      ...edges,
      copies: {
        get: (ctx, c) => listEdge(ctx, registry, 'campaign', campaignsOf(ctx, c.account_id).filter((x) => x.source_campaign_id === c.id)),
        post: (ctx, c) => copyCampaign(ctx, c),
      },
    },
  };
}

export function accountCampaignsEdge(registry: NodeRegistry): EdgeDef<AdAccountRecord> {
  return {
    get: (ctx, a) => listEdge(ctx, registry, 'campaign', campaignsOf(ctx, a.id)),
    post: (ctx, a) => createCampaign(ctx, a),
    validateOnly: true,
  };
}
