import type { GraphContext } from '../graph/context.ts';
import type { NodeDef, NodeRegistry } from '../graph/node.ts';
import { paginate } from '../graph/paging.ts';
import { selectionOf } from '../graph/params.ts';
import { SUBCODE } from '../errors.ts';
import type { PageRecord, UserRecord } from '../store/state.ts';
import { newestFirst } from './common.ts';

// The user node (`/me`, `/<user_id>`): its ad accounts, pages (with page tokens), businesses
// and permissions (reference §10, §11).

/** Renders a list of objects of one kind with the caller's fields (or the given defaults). */
export async function renderList<T extends { id: string }>(
  ctx: GraphContext,
  registry: NodeRegistry,
  kind: Parameters<NodeRegistry['serialize']>[1],
  rows: T[],
  defaults?: readonly string[],
) {
  const page = paginate(ctx, newestFirst([...rows]), (r) => r.id);
  const selection = ctx.fields ?? (defaults ? selectionOf(defaults) : undefined);
  return { ...page, data: await Promise.all(page.data.map((r) => registry.serialize(ctx, kind, r, selection))) };
}

export function userPages(ctx: GraphContext): PageRecord[] {
  return Object.values(ctx.sim.store.state.pages).filter((p) => p.user_ids.includes(ctx.token.user_id));
}

export function userNode(registry: NodeRegistry): NodeDef<UserRecord> {
  return {
    kind: 'user',
    typeName: 'User',
    load: (ctx, id) => ctx.sim.store.state.users[id],
    visible: (ctx, user) => ctx.token.type !== 'PAGE' && user.id === ctx.token.user_id,
    fields: {
      id: (u) => u.id,
      name: (u) => u.name,
    },
    defaultFields: ['name', 'id'],
    scopes: { read: [], write: ['ads_management'] },
    edges: {
      adaccounts: {
        scopes: { read: ['ads_read', 'ads_management', 'business_management'] },
        get: (ctx) => {
          const accounts = Object.values(ctx.sim.store.state.ad_accounts).filter((a) => a.user_ids.includes(ctx.token.user_id));
          return renderList(ctx, registry, 'adaccount', accounts, ['account_id', 'id']);
        },
      },
      accounts: {
        scopes: { read: ['pages_show_list'] },
        get: (ctx) => renderList(ctx, registry, 'page', userPages(ctx), ['access_token', 'category', 'name', 'id', 'tasks']),
      },
      businesses: {
        scopes: { read: ['business_management'] },
        get: (ctx) => {
          const businesses = Object.values(ctx.sim.store.state.businesses).filter((b) => b.owner_user_id === ctx.token.user_id);
          return renderList(ctx, registry, 'business', businesses, ['id', 'name']);
        },
      },
      permissions: {
        scopes: { read: [], write: [] },
        get: (ctx) => ({ data: ctx.token.scopes.map((permission) => ({ permission, status: 'granted' })) }),
        // Removing the app's permissions deauthorises it: every token of the user stops working.
        delete: (ctx) => {
          for (const t of Object.values(ctx.sim.store.state.tokens)) {
            if (t.user_id === ctx.token.user_id && t.app_id === ctx.token.app_id) ctx.sim.tokens.revoke(t, SUBCODE.tokenAppRemoved);
          }
          return { success: true };
        },
      },
    },
  };
}
