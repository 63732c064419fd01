import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { EdgeDef, NodeDef, NodeRegistry } from '../graph/node.ts';
import { hash32 } from '../random.ts';
import type { AdAccountRecord, PixelRecord } from '../store/state.ts';
import { adsetEffectiveStatus } from '../delivery/status.ts';
import { formatGraphTime } from '../time.ts';
import { userCanUseAccount } from './common.ts';
import { renderList } from './users.ts';

// Pixels (reference §9): owned by a business, shared with ad accounts.

export function pixelsOfBusiness(ctx: GraphContext, businessId: string): PixelRecord[] {
  return Object.values(ctx.sim.store.state.pixels).filter((p) => p.business_id === businessId);
}

/** Pixels an ad account may use: its business's own pixels and those shared with it. */
export function pixelsOfAccount(ctx: GraphContext, accountId: string): PixelRecord[] {
  const account = ctx.sim.store.account(accountId);
  return Object.values(ctx.sim.store.state.pixels).filter((p) => p.business_id === account?.business_id || p.shared_account_ids.includes(accountId));
}

export function createPixel(ctx: GraphContext, businessId: string, ownerAccountId: string | undefined): PixelRecord {
  const now = ctx.now;
  const pixel: PixelRecord = {
    id: ctx.sim.store.newId(),
    name: ctx.params.requiredString('name'),
    business_id: businessId,
    owner_account_id: ownerAccountId,
    shared_account_ids: ownerAccountId ? [ownerAccountId] : [],
    created_at: now,
  };
  ctx.sim.store.state.pixels[pixel.id] = pixel;
  ctx.sim.store.changed();
  return pixel;
}

function pixelVisible(ctx: GraphContext, p: PixelRecord): boolean {
  const s = ctx.sim.store.state;
  if (s.businesses[p.business_id]?.owner_user_id === ctx.token.user_id && ctx.token.type !== 'PAGE') return true;
  return p.shared_account_ids.some((id) => userCanUseAccount(ctx, s.ad_accounts[id]));
}

/** Last time a delivering ad set optimising for this pixel "fired" it; undefined when none. */
function lastFired(ctx: GraphContext, p: PixelRecord): string | undefined {
  const delivering = Object.values(ctx.sim.store.state.adsets).some(
    (s) => s.promoted_object?.pixel_id === p.id && adsetEffectiveStatus(ctx.sim.store, s) === 'ACTIVE',
  );
  if (!delivering) return undefined;
  const minutesAgo = hash32(ctx.sim.seed, p.id, Math.floor(ctx.now / 600_000)) % 10;
  return formatGraphTime(ctx.now - minutesAgo * 60_000);
}

export function pixelNode(registry: NodeRegistry): NodeDef<PixelRecord> {
  return {
    kind: 'pixel',
    typeName: 'AdsPixel',
    load: (ctx, id) => ctx.sim.store.state.pixels[id],
    visible: pixelVisible,
    fields: {
      id: (p) => p.id,
      name: (p) => p.name,
      code: (p) => `<!-- Meta Pixel Code --><script>fbq('init', '${p.id}');fbq('track', 'PageView');</script>`,
      creation_time: (p) => formatGraphTime(p.created_at),
      last_fired_time: (p, ctx) => lastFired(ctx, p),
      is_unavailable: () => false,
      owner_business: (p, ctx) => ({ id: p.business_id, name: ctx.sim.store.state.businesses[p.business_id]?.name }),
      owner_ad_account: (p) => (p.owner_account_id ? { id: `act_${p.owner_account_id}`, account_id: p.owner_account_id } : undefined),
      is_created_by_business: (p) => p.owner_account_id === undefined,
      data_use_setting: () => 'ADVERTISING_AND_ANALYTICS',
      enable_automatic_matching: () => false,
      first_party_cookie_status: () => 'FIRST_PARTY_COOKIE_ENABLED',
    },
    defaultFields: ['id'],
    scopes: { read: ['ads_read', 'ads_management', 'business_management'], write: ['ads_management', 'business_management'] },
    update: (ctx, p) => {
      const name = ctx.params.string('name');
      if (name !== undefined) p.name = name;
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {
      shared_accounts: {
        get: (ctx, p) => {
          const accounts = p.shared_account_ids.map((id) => ctx.sim.store.state.ad_accounts[id]).filter((a) => a !== undefined);
          return renderList(ctx, registry, 'adaccount', accounts, ['account_id', 'id', 'name']);
        },
        post: (ctx, p) => {
          // Only the owning business shares its pixel.
          if (ctx.sim.store.state.businesses[p.business_id]?.owner_user_id !== ctx.token.user_id) throw errors.missingPermission('business_management');
          const accountId = ctx.params.requiredString('account_id').replace(/^act_/, '');
          const account = ctx.sim.store.state.ad_accounts[accountId];
          if (!account) throw errors.unsupportedGet(accountId, 'post');
          if (!p.shared_account_ids.includes(accountId)) p.shared_account_ids.push(accountId);
          ctx.sim.store.changed();
          return { success: true };
        },
        delete: (ctx, p) => {
          const accountId = ctx.params.requiredString('account_id').replace(/^act_/, '');
          p.shared_account_ids = p.shared_account_ids.filter((id) => id !== accountId);
          ctx.sim.store.changed();
          return { success: true };
        },
      },
    },
  };
}

export function accountPixelsEdge(registry: NodeRegistry): EdgeDef<AdAccountRecord> {
  return {
    get: (ctx, a) => renderList(ctx, registry, 'pixel', pixelsOfAccount(ctx, a.id), ['id']),
    post: (ctx, a) => ({ id: createPixel(ctx, a.business_id, a.id).id }),
  };
}
