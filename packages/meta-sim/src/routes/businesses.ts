import type { GraphContext } from '../graph/context.ts';
import type { NodeDef, NodeRegistry } from '../graph/node.ts';
import type { BusinessRecord } from '../store/state.ts';
import { formatGraphTime } from '../time.ts';
import { createPixel, pixelsOfBusiness } from './pixels.ts';
import { renderList } from './users.ts';

// Business (Business Manager) nodes and their asset edges (reference §10).

export function businessNode(registry: NodeRegistry): NodeDef<BusinessRecord> {
  const accounts = (ctx: GraphContext, b: BusinessRecord, relation: 'owned' | 'client') =>
    Object.values(ctx.sim.store.state.ad_accounts).filter((a) => a.business_id === b.id && a.relation === relation);
  const pages = (ctx: GraphContext, b: BusinessRecord, relation: 'owned' | 'client') =>
    Object.values(ctx.sim.store.state.pages).filter((p) => p.business_id === b.id && p.relation === relation);

  return {
    kind: 'business',
    typeName: 'Business',
    load: (ctx, id) => ctx.sim.store.state.businesses[id],
    visible: (ctx, b) => ctx.token.type !== 'PAGE' && b.owner_user_id === ctx.token.user_id,
    fields: {
      id: (b) => b.id,
      name: (b) => b.name,
      verification_status: (b) => b.verification_status,
      created_time: (b) => formatGraphTime(b.created_at),
    },
    defaultFields: ['id', 'name'],
    scopes: { read: ['business_management'], write: ['business_management'] },
    edges: {
      owned_ad_accounts: { get: (ctx, b) => renderList(ctx, registry, 'adaccount', accounts(ctx, b, 'owned'), ['id']) },
      client_ad_accounts: { get: (ctx, b) => renderList(ctx, registry, 'adaccount', accounts(ctx, b, 'client'), ['id']) },
      owned_pages: { get: (ctx, b) => renderList(ctx, registry, 'page', pages(ctx, b, 'owned'), ['id']) },
      client_pages: { get: (ctx, b) => renderList(ctx, registry, 'page', pages(ctx, b, 'client'), ['id']) },
      owned_pixels: { get: (ctx, b) => renderList(ctx, registry, 'pixel', pixelsOfBusiness(ctx, b.id), ['id']) },
      adspixels: {
        get: (ctx, b) => renderList(ctx, registry, 'pixel', pixelsOfBusiness(ctx, b.id), ['id']),
        post: (ctx, b) => ({ id: createPixel(ctx, b.id, undefined).id }),
      },
    },
  };
}
