import { BID_STRATEGIES, RENAME_STRATEGIES, STATUS_OPTIONS } from '../domain.ts';
import { adSnapshot, adsetSnapshot, campaignSnapshot, isCampaignBudget } from '../delivery/status.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { AdRecord, AdSetRecord, CampaignRecord, ConfiguredStatus } from '../store/state.ts';
import { recordSnapshot } from '../store/store.ts';
import { parseGraphTime } from '../time.ts';
import { admitNewAds } from './ads.ts';
import { createCreativeFromSpec } from './creatives.ts';

// Copies (reference §3): `POST /<id>/copies` on campaigns, ad sets and ads. Each edge takes
// the parameters of its SDK signature and refuses the others' (an ad set copy takes no
// parameter_overrides, an ad copy no deep_copy): only a campaign copy can override fields
// (its own), only an ad copy can take new creative parameters. A synchronous copy creates at
// most `copy_sync_limit` (3) objects in all; larger trees go through an asynchronous batch
// request (`asyncbatch`, routes/async-batch.ts), where the limit does not apply.

type CopyKind = 'campaign' | 'adset' | 'ad';

/** The parameters of each copies edge (the Business SDKs' create_copy signatures). */
const COPY_PARAMS: Record<CopyKind, readonly string[]> = {
  campaign: ['deep_copy', 'end_time', 'migrate_to_advantage_plus', 'parameter_overrides', 'rename_options', 'start_time', 'status_option'],
  adset: ['campaign_id', 'create_dco_adset', 'deep_copy', 'end_time', 'rename_options', 'start_time', 'status_option'],
  ad: ['adset_id', 'creative_parameters', 'rename_options', 'status_option'],
};
const ANY_COPY_PARAM = new Set(Object.values(COPY_PARAMS).flat());
const KIND_LABEL: Record<CopyKind, string> = { campaign: 'campaign', adset: 'ad set', ad: 'ad' };

/** Campaign fields a campaign copy may override on the copied campaign. */
const CAMPAIGN_OVERRIDES = ['name', 'daily_budget', 'lifetime_budget', 'bid_strategy', 'spend_cap', 'stop_time'] as const;

interface CopyOptions {
  deep: boolean;
  status: (typeof STATUS_OPTIONS)[number];
  strategy: (typeof RENAME_STRATEGIES)[number];
  prefix: string;
  suffix: string;
  startTime?: number;
  endTime?: number;
}

interface CopiedId {
  ad_object_type: 'campaign' | 'ad_set' | 'ad';
  source_id: string;
  copied_id: string;
}

function readOptions(ctx: GraphContext, kind: CopyKind): CopyOptions {
  const p = ctx.params;
  for (const name of p.names()) {
    if (ANY_COPY_PARAM.has(name) && !COPY_PARAMS[kind].includes(name)) throw errors.copyParamNotAllowed(name, KIND_LABEL[kind]);
  }
  const rename = p.object('rename_options');
  const strategy = rename?.rename_strategy ?? 'ONLY_TOP_LEVEL_RENAME';
  if (!(RENAME_STRATEGIES as readonly string[]).includes(String(strategy))) throw errors.invalidEnum('rename_options[rename_strategy]', RENAME_STRATEGIES);
  return {
    deep: kind !== 'ad' && (p.bool('deep_copy') ?? false),
    status: p.enumValue('status_option', STATUS_OPTIONS) ?? 'PAUSED',
    strategy: strategy as CopyOptions['strategy'],
    prefix: rename?.rename_prefix === undefined ? '' : String(rename.rename_prefix),
    // Without rename options the Graph API marks the top-level copy " - Copy".
    suffix: rename ? String(rename.rename_suffix ?? '') : ' - Copy',
    startTime: kind === 'ad' ? undefined : p.time('start_time'),
    endTime: kind === 'ad' ? undefined : p.time('end_time'),
  };
}

function copyName(name: string, o: CopyOptions, topLevel: boolean): string {
  if (o.strategy === 'NO_RENAME' || (!topLevel && o.strategy !== 'DEEP_RENAME')) return name;
  return `${o.prefix}${name}${o.suffix}`;
}

function copyStatus(source: ConfiguredStatus, o: CopyOptions): ConfiguredStatus {
  if (o.status === 'INHERITED_FROM_SOURCE') return source === 'ACTIVE' ? 'ACTIVE' : 'PAUSED';
  return o.status;
}

const live = (s: { status: ConfiguredStatus }) => s.status !== 'DELETED' && s.status !== 'ARCHIVED';

/** Synchronous copies are small; an asynchronous batch item may copy a whole tree. */
function assertSize(ctx: GraphContext, count: number): void {
  const limit = ctx.sim.store.state.settings.copy_sync_limit;
  if (!ctx.async && count > limit) throw errors.copyTooLarge(count, limit);
}

/** Applies `parameter_overrides` (campaign fields only) to the copied campaign. */
function applyCampaignOverrides(copy: CampaignRecord, overrides: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(overrides)) {
    const field = ['parameter_overrides', key];
    if (!(CAMPAIGN_OVERRIDES as readonly string[]).includes(key)) {
      throw errors.invalidParameter(`parameter_overrides[${key}] is not a campaign field that a copy can override`, { data: { blame_field_specs: [field] } });
    }
    if (key === 'name') {
      if (typeof value !== 'string' || value.trim() === '') throw errors.invalidParameter('parameter_overrides[name] must be a non-empty string', { data: { blame_field_specs: [field] } });
      copy.name = value;
    } else if (key === 'bid_strategy') {
      if (!(BID_STRATEGIES as readonly string[]).includes(String(value))) throw errors.invalidEnum('parameter_overrides[bid_strategy]', BID_STRATEGIES);
      copy.bid_strategy = String(value);
    } else if (key === 'stop_time') {
      const ms = parseGraphTime(value);
      if (ms === undefined) throw errors.invalidParameter('parameter_overrides[stop_time] must be a valid datetime', { data: { blame_field_specs: [field] } });
      copy.stop_time = ms;
    } else {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) throw errors.invalidParameter(`parameter_overrides[${key}] must be a non-negative integer (minor units)`, { data: { blame_field_specs: [field] } });
      if (key === 'spend_cap') copy.spend_cap = n;
      else {
        copy.daily_budget = key === 'daily_budget' ? n : undefined;
        copy.lifetime_budget = key === 'lifetime_budget' ? n : undefined;
      }
    }
  }
  if (overrides.daily_budget !== undefined && overrides.lifetime_budget !== undefined) {
    throw errors.invalidParameter('Only one of daily_budget and lifetime_budget can be set', { data: { blame_field_specs: [['parameter_overrides', 'daily_budget']] } });
  }
  if (copy.lifetime_budget !== undefined && copy.stop_time === undefined) {
    throw errors.invalidParameter('A lifetime budget needs stop_time', { data: { blame_field_specs: [['parameter_overrides', 'stop_time']] } });
  }
}

/** The creative of a copied ad: the source's, or one made from `creative_parameters`. */
function copiedCreative(ctx: GraphContext, ad: AdRecord): string {
  const spec = ctx.params.object('creative_parameters');
  if (!spec) return ad.creative_id;
  const existing = spec.creative_id ?? spec.id;
  if (existing !== undefined) {
    const creative = ctx.sim.store.state.creatives[String(existing)];
    if (!creative || creative.account_id !== ad.account_id || creative.status !== 'ACTIVE') {
      throw errors.invalidParameter(`The creative ${String(existing)} is not a creative of this ad account`, { data: { blame_field_specs: [['creative_parameters']] } });
    }
    return creative.id;
  }
  return createCreativeFromSpec(ctx, ad.account_id, spec).id;
}

function cloneAd(ctx: GraphContext, ad: AdRecord, adset: AdSetRecord, o: CopyOptions, topLevel: boolean, out: CopiedId[], creativeId = ad.creative_id): AdRecord {
  // A copied ad is a new ad: the ad set's limit and the account's ad-creation throttle apply.
  admitNewAds(ctx, adset, 1, true);
  const copy: AdRecord = {
    ...structuredClone(ad),
    id: ctx.sim.store.newId(),
    adset_id: adset.id,
    campaign_id: adset.campaign_id,
    creative_id: creativeId,
    name: copyName(ad.name, o, topLevel),
    status: copyStatus(ad.status, o),
    review_until: ctx.now + ctx.sim.store.state.settings.review_delay_seconds * 1000,
    disapproved_at: undefined,
    source_ad_id: ad.id,
    created_at: ctx.now,
    updated_at: ctx.now,
    history: [],
  };
  recordSnapshot(copy.history, adSnapshot(copy, ctx.now));
  ctx.sim.store.state.ads[copy.id] = copy;
  out.push({ ad_object_type: 'ad', source_id: ad.id, copied_id: copy.id });
  return copy;
}

function cloneAdSet(ctx: GraphContext, s: AdSetRecord, campaign: CampaignRecord, o: CopyOptions, topLevel: boolean, out: CopiedId[]): AdSetRecord {
  const copy: AdSetRecord = {
    ...structuredClone(s),
    id: ctx.sim.store.newId(),
    campaign_id: campaign.id,
    name: copyName(s.name, o, topLevel),
    status: copyStatus(s.status, o),
    start_time: o.startTime ?? s.start_time,
    end_time: o.endTime ?? s.end_time,
    budget_changes: [],
    source_adset_id: s.id,
    created_at: ctx.now,
    updated_at: ctx.now,
    history: [],
  };
  const hasBudget = copy.daily_budget !== undefined || copy.lifetime_budget !== undefined;
  if (isCampaignBudget(campaign) && hasBudget) throw errors.budgetOnBothLevels();
  if (!isCampaignBudget(campaign) && !hasBudget) {
    throw errors.invalidParameter('The copied ad set has no budget and its target campaign has none either', { data: { blame_field_specs: [['campaign_id']] } });
  }
  recordSnapshot(copy.history, adsetSnapshot(copy, ctx.now));
  ctx.sim.store.state.adsets[copy.id] = copy;
  out.push({ ad_object_type: 'ad_set', source_id: s.id, copied_id: copy.id });
  if (o.deep) {
    for (const ad of Object.values(ctx.sim.store.state.ads).filter((a) => a.adset_id === s.id && live(a))) cloneAd(ctx, ad, copy, o, false, out);
  }
  return copy;
}

/** Validation runs before anything is stored, so a failed copy leaves nothing behind. */
function transactional<T>(ctx: GraphContext, work: () => T): T {
  const snapshot = structuredClone(ctx.sim.store.state);
  try {
    const result = work();
    ctx.sim.store.changed();
    return result;
  } catch (err) {
    ctx.sim.store.state = snapshot;
    throw err;
  }
}

export function copyCampaign(ctx: GraphContext, c: CampaignRecord): unknown {
  const o = readOptions(ctx, 'campaign');
  const overrides = ctx.params.object('parameter_overrides') ?? {};
  const adsets = Object.values(ctx.sim.store.state.adsets).filter((s) => s.campaign_id === c.id && live(s));
  const ads = Object.values(ctx.sim.store.state.ads).filter((a) => a.campaign_id === c.id && live(a) && adsets.some((s) => s.id === a.adset_id));
  assertSize(ctx, 1 + (o.deep ? adsets.length + ads.length : 0));
  return transactional(ctx, () => {
    const out: CopiedId[] = [];
    const copy: CampaignRecord = {
      ...structuredClone(c),
      id: ctx.sim.store.newId(),
      name: copyName(c.name, o, true),
      status: copyStatus(c.status, o),
      source_campaign_id: c.id,
      created_at: ctx.now,
      updated_at: ctx.now,
      history: [],
    };
    applyCampaignOverrides(copy, overrides);
    recordSnapshot(copy.history, campaignSnapshot(copy, ctx.now));
    ctx.sim.store.state.campaigns[copy.id] = copy;
    out.push({ ad_object_type: 'campaign', source_id: c.id, copied_id: copy.id });
    if (o.deep) for (const s of adsets) cloneAdSet(ctx, s, copy, o, false, out);
    return { copied_campaign_id: copy.id, ad_object_ids: out };
  });
}

export function copyAdSet(ctx: GraphContext, s: AdSetRecord): unknown {
  const o = readOptions(ctx, 'adset');
  const targetId = ctx.params.string('campaign_id') ?? s.campaign_id;
  const campaign = ctx.sim.store.state.campaigns[targetId];
  if (!campaign || campaign.account_id !== s.account_id || !live(campaign)) {
    throw errors.invalidParameter(`The campaign ${targetId} is not a live campaign of this ad account`, { data: { blame_field_specs: [['campaign_id']] } });
  }
  const ads = Object.values(ctx.sim.store.state.ads).filter((a) => a.adset_id === s.id && live(a));
  assertSize(ctx, 1 + (o.deep ? ads.length : 0));
  return transactional(ctx, () => {
    const out: CopiedId[] = [];
    const copy = cloneAdSet(ctx, s, campaign, o, true, out);
    return { copied_adset_id: copy.id, ad_object_ids: out };
  });
}

export function copyAd(ctx: GraphContext, ad: AdRecord): unknown {
  const o = readOptions(ctx, 'ad');
  const targetId = ctx.params.string('adset_id') ?? ad.adset_id;
  const adset = ctx.sim.store.state.adsets[targetId];
  if (!adset || adset.account_id !== ad.account_id || !live(adset)) {
    throw errors.invalidParameter(`The ad set ${targetId} is not a live ad set of this ad account`, { data: { blame_field_specs: [['adset_id']] } });
  }
  return transactional(ctx, () => {
    const out: CopiedId[] = [];
    const copy = cloneAd(ctx, ad, adset, o, true, out, copiedCreative(ctx, ad));
    return { copied_ad_id: copy.id, ad_object_ids: out };
  });
}
