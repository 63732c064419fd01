import { WRITABLE_ACCOUNT_STATUSES } from '../domain.ts';
import { errors } from '../errors.ts';
import type { NodeKind } from '../store/store.ts';
import type { GraphContext } from './context.ts';
import type { NodeRegistry } from './node.ts';

// Resolves `/<id>[/<edge>]` to a node family, checks visibility, scopes and the ad-account
// rate limits, and runs the handler.

/** Resolves `me`, `act_<n>`, `<page>_<post>` and plain ids to a node kind and id. */
function resolveId(ctx: GraphContext, segment: string): { kind: NodeKind; id: string } | undefined {
  const store = ctx.sim.store;
  if (segment === 'me') {
    if (ctx.token.type === 'PAGE' && ctx.token.page_id) return { kind: 'page', id: ctx.token.page_id };
    return { kind: 'user', id: ctx.token.user_id };
  }
  const kind = store.kindOf(segment);
  return kind ? { kind, id: segment } : undefined;
}

/** The status-only changes a disabled account still allows: stopping things. */
function onlyStops(ctx: GraphContext): boolean {
  if (ctx.method === 'DELETE') return true;
  const names = ctx.params.names().filter((n) => !['access_token', 'appsecret_proof', 'fields', 'execution_options'].includes(n));
  const status = ctx.params.string('status');
  return names.length === 1 && names[0] === 'status' && (status === 'PAUSED' || status === 'ARCHIVED' || status === 'DELETED');
}

/** Writes to a disabled (or otherwise unusable) ad account are refused, except pausing and deleting. */
function assertAccountWritable(ctx: GraphContext, accountId: string): void {
  const account = ctx.sim.store.account(accountId);
  if (!account || WRITABLE_ACCOUNT_STATUSES.has(account.account_status) || onlyStops(ctx)) return;
  throw errors.accountNotWritable(account.id, account.account_status);
}

export async function dispatch(ctx: GraphContext, registry: NodeRegistry): Promise<unknown> {
  const segments = ctx.path.split('/').filter(Boolean);
  if (segments.length === 0 || segments.length > 2) throw errors.unknownPath(ctx.path);
  const method = ctx.method.toLowerCase();

  const target = resolveId(ctx, segments[0]!);
  if (!target) throw errors.unsupportedGet(segments[0]!, method);
  const def = registry.get(target.kind);
  const obj = def.load(ctx, target.id);
  if (obj === undefined || !def.visible(ctx, obj)) throw errors.unsupportedGet(segments[0]!, method);

  const edgeName = segments[1];
  const edge = edgeName !== undefined ? def.edges[edgeName] : undefined;
  if (edgeName !== undefined && !edge) {
    if (ctx.method === 'GET') throw errors.nonexistingField(edgeName, def.typeName);
    throw errors.unknownPath(ctx.path);
  }

  const isWrite = ctx.method !== 'GET';
  const scopes = isWrite ? (edge?.scopes?.write ?? def.scopes.write) : (edge?.scopes?.read ?? def.scopes.read);
  ctx.sim.tokens.requireScope(ctx.token, scopes);

  // Async report creation is an Insights call even though it is a POST.
  const accountId = def.accountId?.(obj);
  if (accountId) {
    const type = edge?.usage ?? 'ads_management';
    ctx.usage = { accountId, type };
    ctx.sim.limits.admitAccount(ctx.now, accountId, type, isWrite && type !== 'ads_insights');
    if (isWrite && type !== 'ads_insights') assertAccountWritable(ctx, accountId);
  }

  // Only the create and update calls that document validate_only honour it; anything else
  // would really write, so it is refused rather than ignored.
  if (ctx.validateOnly && isWrite) {
    const supported = ctx.method === 'POST' && (edge ? edge.validateOnly === true : def.updateValidateOnly === true);
    if (!supported) throw errors.validateOnlyUnsupported();
  }

  if (!edge) {
    if (ctx.method === 'GET') return registry.serialize(ctx, target.kind, obj, ctx.fields);
    const handler = ctx.method === 'POST' ? def.update : def.remove;
    if (!handler) throw errors.unsupportedGet(segments[0]!, method);
    return handler(ctx, obj);
  }
  const handler = ctx.method === 'GET' ? edge.get : ctx.method === 'POST' ? edge.post : edge.delete;
  if (!handler) throw errors.unsupportedGet(`${segments[0]}/${edgeName}`, method);
  return handler(ctx, obj);
}
