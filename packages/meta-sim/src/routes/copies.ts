import { RENAME_STRATEGIES, STATUS_OPTIONS } from '../domain.ts';
import { adSnapshot, adsetSnapshot, campaignSnapshot, isCampaignBudget } from '../delivery/status.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { AdRecord, AdSetRecord, CampaignRecord, ConfiguredStatus } from '../store/state.ts';
import { recordSnapshot } from '../store/store.ts';
import { pixelsOfAccount } from './pixels.ts';

// Copies (reference §3): `POST /<id>/copies` on campaigns, ad sets and ads, with deep copy,
// rename options, status option and (for the copied top object) parameter overrides — what
// users do instead of editing a published ad set's pixel or event.

interface CopyOptions {
  deep: boolean;
  status: (typeof STATUS_OPTIONS)[number];
  strategy: (typeof RENAME_STRATEGIES)[number];
  prefix: string;
  suffix: string;
  startTime?: number;
  endTime?: number;
  overrides: Record<string, unknown>;
}

interface CopiedId {
  ad_object_type: 'campaign' | 'ad_set' | 'ad';
  source_id: string;
  copied_id: string;
}

function readOptions(ctx: GraphContext): CopyOptions {
  const p = ctx.params;
  const rename = p.object('rename_options');
  const strategy = rename?.rename_strategy ?? 'ONLY_TOP_LEVEL_RENAME';
  if (!(RENAME_STRATEGIES as readonly string[]).includes(String(strategy))) throw errors.invalidEnum('rename_options[rename_strategy]', RENAME_STRATEGIES);
  return {
    deep: p.bool('deep_copy') ?? false,
    status: p.enumValue('status_option', STATUS_OPTIONS) ?? 'PAUSED',
    strategy: strategy as CopyOptions['strategy'],
    prefix: rename?.rename_prefix === undefined ? '' : String(rename.rename_prefix),
    // Without rename options the Graph API marks the top-level copy " - Copy".
    suffix: rename ? String(rename.rename_suffix ?? '') : ' - Copy',
    startTime: p.time('start_time'),
    endTime: p.time('end_time'),
    overrides: p.object('parameter_overrides') ?? {},
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

function assertSize(ctx: GraphContext, count: number): void {
  const limit = ctx.sim.store.state.settings.copy_sync_limit;
  if (count > limit) {
    throw errors.invalidParameter(`Too many objects to copy synchronously (${count} > ${limit}); copy a smaller subtree`, {
      userTitle: 'Copy Request Too Large',
    });
  }
}

/** Applies the overrides the simulator supports on the copied top object. */
function applyOverrides(ctx: GraphContext, target: CampaignRecord | AdSetRecord, overrides: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(overrides)) {
    if (key === 'name') target.name = String(value);
    else if (key === 'daily_budget' || key === 'lifetime_budget' || key === 'bid_amount') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) throw errors.invalidParameter(`parameter_overrides[${key}] must be a non-negative integer`);
      if (key === 'bid_amount') (target as AdSetRecord).bid_amount = n;
      else {
        target.daily_budget = key === 'daily_budget' ? n : undefined;
        target.lifetime_budget = key === 'lifetime_budget' ? n : undefined;
      }
    } else if (key === 'promoted_object' && 'optimization_goal' in target) {
      const po = value as Record<string, unknown>;
      if (po?.pixel_id !== undefined && !pixelsOfAccount(ctx, target.account_id).some((px) => px.id === String(po.pixel_id))) {
        throw errors.invalidParameter(`The pixel ${String(po.pixel_id)} is not available to this ad account`);
      }
      target.promoted_object = po;
    } else if (key === 'targeting' && 'optimization_goal' in target && value && typeof value === 'object') {
      target.targeting = value as Record<string, unknown>;
    } else {
      throw errors.invalidParameter(`parameter_overrides[${key}] is not supported`);
    }
  }
}

function cloneAd(ctx: GraphContext, ad: AdRecord, adset: AdSetRecord, o: CopyOptions, topLevel: boolean, out: CopiedId[]): AdRecord {
  const copy: AdRecord = {
    ...structuredClone(ad),
    id: ctx.sim.store.newId(),
    adset_id: adset.id,
    campaign_id: adset.campaign_id,
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
  if (topLevel) applyOverrides(ctx, copy, o.overrides);
  const hasBudget = copy.daily_budget !== undefined || copy.lifetime_budget !== undefined;
  if (isCampaignBudget(campaign) && hasBudget) throw errors.budgetOnBothLevels();
  if (!isCampaignBudget(campaign) && !hasBudget) {
    throw errors.invalidParameter('The copied ad set needs a budget: its target campaign has none (use parameter_overrides daily_budget)');
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
  const o = readOptions(ctx);
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
    applyOverrides(ctx, copy, o.overrides);
    recordSnapshot(copy.history, campaignSnapshot(copy, ctx.now));
    ctx.sim.store.state.campaigns[copy.id] = copy;
    out.push({ ad_object_type: 'campaign', source_id: c.id, copied_id: copy.id });
    if (o.deep) for (const s of adsets) cloneAdSet(ctx, s, copy, { ...o, overrides: {} }, false, out);
    return { copied_campaign_id: copy.id, ad_object_ids: out };
  });
}

export function copyAdSet(ctx: GraphContext, s: AdSetRecord): unknown {
  const o = readOptions(ctx);
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
  const o = readOptions(ctx);
  const targetId = ctx.params.string('adset_id') ?? ad.adset_id;
  const adset = ctx.sim.store.state.adsets[targetId];
  if (!adset || adset.account_id !== ad.account_id || !live(adset)) {
    throw errors.invalidParameter(`The ad set ${targetId} is not a live ad set of this ad account`, { data: { blame_field_specs: [['adset_id']] } });
  }
  return transactional(ctx, () => {
    const out: CopiedId[] = [];
    const copy = cloneAd(ctx, ad, adset, o, true, out);
    return { copied_ad_id: copy.id, ad_object_ids: out };
  });
}
