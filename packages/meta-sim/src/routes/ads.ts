import { ADS_PER_ADSET_LIMIT, ADS_READ, ADS_WRITE } from '../domain.ts';
import { adEffectiveStatus, adSnapshot, issuesInfo } from '../delivery/status.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import { NodeRef, type EdgeDef, type NodeDef, type NodeRegistry } from '../graph/node.ts';
import type { AdAccountRecord, AdRecord, AdSetRecord } from '../store/state.ts';
import { recordSnapshot } from '../store/store.ts';
import { createStatus } from './campaigns.ts';
import { accountTime, assertEditable, assertStatusTransition, listEdge, STATUSES, userCanUseAccount } from './common.ts';
import { copyAd } from './copies.ts';
import { createCreativeFromSpec } from './creatives.ts';

// Ads (reference §5): an ad set's ad pointing at a creative, reviewed before it delivers.

export function adsOf(ctx: GraphContext, filter: { accountId?: string; campaignId?: string; adsetId?: string }): AdRecord[] {
  return Object.values(ctx.sim.store.state.ads).filter(
    (a) =>
      (!filter.accountId || a.account_id === filter.accountId) &&
      (!filter.campaignId || a.campaign_id === filter.campaignId) &&
      (!filter.adsetId || a.adset_id === filter.adsetId),
  );
}

/** Sends ads (back) to review: PENDING_REVIEW until the configured delay has passed. */
export function rereviewAds(ctx: GraphContext, ads: AdRecord[]): void {
  const until = ctx.now + ctx.sim.store.state.settings.review_delay_seconds * 1000;
  for (const ad of ads) {
    if (ad.status === 'DELETED') continue;
    ad.review_until = until;
    ad.disapproved_at = undefined;
    recordSnapshot(ad.history, adSnapshot(ad, ctx.now));
  }
}

/** Ads of an ad set that count against its limit: those not archived or deleted. */
function liveAdsOf(ctx: GraphContext, adsetId: string): number {
  let n = 0;
  for (const a of Object.values(ctx.sim.store.state.ads)) if (a.adset_id === adsetId && a.status !== 'DELETED' && a.status !== 'ARCHIVED') n++;
  return n;
}

/**
 * Room for `count` more ads: the ad set's limit of 50 live ads and the account's ad-creation
 * throttle. Counted only when the ads are really created (`commit`).
 */
export function admitNewAds(ctx: GraphContext, adset: AdSetRecord, count: number, commit: boolean): void {
  if (liveAdsOf(ctx, adset.id) + count > ADS_PER_ADSET_LIMIT) throw errors.tooManyAdsInAdSet(ADS_PER_ADSET_LIMIT);
  ctx.sim.limits.admitAdCreations(ctx.now, adset.account_id, count, commit);
}

/**
 * Dynamic creative (Dynamic Creative guide): an asset-feed creative runs only in an ad set made
 * with is_dynamic_creative, such an ad set takes nothing else, and only one ad that is not
 * deleted or archived [U: Meta's subcodes unknown].
 */
function assertDynamicFit(ctx: GraphContext, adset: AdSetRecord): void {
  const spec = ctx.params.object('creative');
  if (!spec) return;
  const feed = spec.creative_id === undefined ? spec.asset_feed_spec : ctx.sim.store.state.creatives[String(spec.creative_id)]?.asset_feed_spec;
  const isFeed = feed !== undefined && feed !== null;
  if (isFeed && !adset.is_dynamic_creative) throw errors.dynamicCreativeMismatch('A creative with asset_feed_spec needs an ad set created with is_dynamic_creative=true');
  if (!isFeed && adset.is_dynamic_creative) throw errors.dynamicCreativeMismatch('A dynamic creative ad set takes only a creative with asset_feed_spec');
  if (adset.is_dynamic_creative && liveAdsOf(ctx, adset.id) >= 1) throw errors.dynamicCreativeMismatch('A dynamic creative ad set can have only one ad');
}

/** `creative={"creative_id":"…"}`, or an inline creative spec that becomes a new creative. */
function resolveCreative(ctx: GraphContext, accountId: string): string {
  const spec = ctx.params.object('creative');
  if (spec === undefined) throw errors.requiredParameter('creative');
  if (spec.creative_id === undefined) return createCreativeFromSpec(ctx, accountId, spec).id;
  const id = String(spec.creative_id);
  const creative = ctx.sim.store.state.creatives[id];
  if (!creative || creative.account_id !== accountId || creative.status !== 'ACTIVE') {
    throw errors.invalidParameter(`The creative ${id} does not exist in this ad account`, { data: { blame_field_specs: [['creative', 'creative_id']] } });
  }
  return id;
}

export function createAd(ctx: GraphContext, account: AdAccountRecord): { id: string } | { success: true } {
  const name = ctx.params.requiredString('name');
  const adsetId = ctx.params.requiredString('adset_id');
  const adset = ctx.sim.store.state.adsets[adsetId];
  if (!adset || adset.account_id !== account.id) {
    throw errors.invalidParameter(`The ad set ${adsetId} does not exist in this ad account`, { data: { blame_field_specs: [['adset_id']] } });
  }
  if (adset.status === 'DELETED' || adset.status === 'ARCHIVED') throw errors.invalidParameter('Cannot add an ad to a deleted or archived ad set');
  const status = createStatus(ctx);
  // The limits are checked before an inline creative is made, so a refused ad leaves nothing behind.
  admitNewAds(ctx, adset, 1, false);
  assertDynamicFit(ctx, adset);
  const creativeId = resolveCreative(ctx, account.id);
  if (ctx.validateOnly) return { success: true };
  ctx.sim.limits.admitAdCreations(ctx.now, account.id, 1, true);
  const ad: AdRecord = {
    id: ctx.sim.store.newId(),
    account_id: account.id,
    adset_id: adset.id,
    campaign_id: adset.campaign_id,
    creative_id: creativeId,
    name,
    status,
    review_until: ctx.now + ctx.sim.store.state.settings.review_delay_seconds * 1000,
    created_at: ctx.now,
    updated_at: ctx.now,
    history: [],
  };
  const tracking = ctx.params.json('tracking_specs');
  if (tracking !== undefined) ad.tracking_specs = Array.isArray(tracking) ? tracking : [tracking];
  ad.conversion_domain = ctx.params.string('conversion_domain');
  recordSnapshot(ad.history, adSnapshot(ad, ctx.now));
  ctx.sim.store.state.ads[ad.id] = ad;
  ctx.sim.store.changed();
  return { id: ad.id };
}

function updateAd(ctx: GraphContext, ad: AdRecord): unknown {
  assertEditable(ad.status, ctx.params);
  if (ctx.params.has('adset_id') && ctx.params.string('adset_id') !== ad.adset_id) {
    throw errors.invalidParameter("An ad can't be moved to another ad set; copy it instead", { data: { blame_field_specs: [['adset_id']] } });
  }
  const status = ctx.params.enumValue('status', STATUSES);
  const creativeId = ctx.params.has('creative') ? resolveCreative(ctx, ad.account_id) : undefined;
  if (status !== undefined) assertStatusTransition(ad.status, status);
  if (ctx.validateOnly) return { success: true };
  if (status !== undefined) ad.status = status;
  const name = ctx.params.string('name');
  if (name !== undefined) ad.name = name;
  const tracking = ctx.params.json('tracking_specs');
  if (tracking !== undefined) ad.tracking_specs = Array.isArray(tracking) ? tracking : [tracking];
  const domain = ctx.params.string('conversion_domain');
  if (domain !== undefined) ad.conversion_domain = domain;
  ad.updated_at = ctx.now;
  // A new creative means a new review (reference §1).
  if (creativeId !== undefined && creativeId !== ad.creative_id) {
    ad.creative_id = creativeId;
    rereviewAds(ctx, [ad]);
  }
  recordSnapshot(ad.history, adSnapshot(ad, ctx.now));
  ctx.sim.store.changed();
  return { success: true };
}

export function adNode(registry: NodeRegistry, edges: { insights: EdgeDef<AdRecord> }): NodeDef<AdRecord> {
  return {
    kind: 'ad',
    typeName: 'Ad',
    load: (ctx, id) => ctx.sim.store.state.ads[id],
    visible: (ctx, ad) => userCanUseAccount(ctx, ctx.sim.store.account(ad.account_id)),
    accountId: (ad) => ad.account_id,
    fields: {
      id: (ad) => ad.id,
      account_id: (ad) => ad.account_id,
      adset_id: (ad) => ad.adset_id,
      campaign_id: (ad) => ad.campaign_id,
      adset: (ad) => new NodeRef('adset', ad.adset_id),
      campaign: (ad) => new NodeRef('campaign', ad.campaign_id),
      name: (ad) => ad.name,
      status: (ad) => ad.status,
      configured_status: (ad) => ad.status,
      effective_status: (ad, ctx) => adEffectiveStatus(ctx.sim.store, ad, ctx.now),
      creative: (ad) => new NodeRef('creative', ad.creative_id),
      tracking_specs: (ad) => ad.tracking_specs,
      conversion_domain: (ad) => ad.conversion_domain,
      ad_review_feedback: (ad) =>
        ad.disapproved_at === undefined ? undefined : { global: { 'Advertising Policies': 'Your ad was disapproved because it does not follow our Advertising Standards.' } },
      issues_info: (ad, ctx) => issuesInfo(ctx.sim.store, ad.account_id),
      preview_shareable_link: (ad, ctx) => `${ctx.sim.baseUrl()}/__sim/preview/${ad.id}`,
      created_time: (ad, ctx) => accountTime(ctx, ad.account_id, ad.created_at),
      updated_time: (ad, ctx) => accountTime(ctx, ad.account_id, ad.updated_at),
      source_ad_id: (ad) => ad.source_ad_id ?? '0',
    },
    defaultFields: ['id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    update: updateAd,
    updateValidateOnly: true,
    remove: (ctx, ad) => {
      assertStatusTransition(ad.status, 'DELETED');
      ad.status = 'DELETED';
      ad.updated_at = ctx.now;
      recordSnapshot(ad.history, adSnapshot(ad, ctx.now));
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {
      ...edges,
      adcreatives: {
        get: (ctx, ad) => listEdge(ctx, registry, 'creative', [ctx.sim.store.state.creatives[ad.creative_id]].filter((c) => c !== undefined)),
      },
      copies: {
        get: (ctx, ad) => listEdge(ctx, registry, 'ad', adsOf(ctx, { accountId: ad.account_id }).filter((x) => x.source_ad_id === ad.id)),
        post: (ctx, ad) => copyAd(ctx, ad),
      },
    },
  };
}

export function adsEdge<T>(registry: NodeRegistry, filter: (obj: T) => Parameters<typeof adsOf>[1], create?: (ctx: GraphContext, obj: T) => unknown): EdgeDef<T> {
  return {
    get: (ctx, obj) => listEdge(ctx, registry, 'ad', adsOf(ctx, filter(obj))),
    ...(create ? { post: create, validateOnly: true } : {}),
  };
}
