import { errors } from '../errors.ts';
import type { NodeKind } from '../store/store.ts';
import type { GraphContext, UsageType } from './context.ts';
import { selectionOf, type FieldSelection } from './params.ts';

// How object families describe themselves to the router: fields (for `fields=` reads), the
// edges under them, and what reading or writing them needs.

export type FieldGetter<T> = (obj: T, ctx: GraphContext) => unknown;
export type EdgeHandler<T> = (ctx: GraphContext, obj: T) => unknown;

export interface EdgeDef<T> {
  get?: EdgeHandler<T>;
  post?: EdgeHandler<T>;
  delete?: EdgeHandler<T>;
  /** Metering bucket; ads_management unless it is an Insights edge. */
  usage?: UsageType;
  /** Scopes (any of) needed instead of the node's own read/write scopes. */
  scopes?: { read?: string[]; write?: string[] };
  /** The POST honours `execution_options=["validate_only"]` (elsewhere the option is refused). */
  validateOnly?: boolean;
}

export interface NodeDef<T> {
  kind: NodeKind;
  /** The Graph node type name used in error messages (`AdAccount`, `Campaign`…). */
  typeName: string;
  load(ctx: GraphContext, id: string): T | undefined;
  /** Whether the caller's token may see the object (otherwise it "does not exist"). */
  visible(ctx: GraphContext, obj: T): boolean;
  /** Numeric ad account id the call is metered against, when the object belongs to one. */
  accountId?(obj: T): string | undefined;
  fields: Record<string, FieldGetter<T>>;
  /** Returned when `fields` is omitted (just `id` on ad objects). */
  defaultFields: readonly string[];
  update?: EdgeHandler<T>;
  /** `update` honours `execution_options=["validate_only"]`. */
  updateValidateOnly?: boolean;
  remove?: EdgeHandler<T>;
  edges: Record<string, EdgeDef<T>>;
  scopes: { read: string[]; write: string[] };
}

/** A reference to another node inside a field value, expanded with `field{subfields}`. */
export class NodeRef {
  constructor(
    readonly kind: NodeKind,
    readonly id: string,
  ) {}
}

type AnyNodeDef = NodeDef<unknown>;

/** Every node family, keyed by kind; filled by the route modules. */
export class NodeRegistry {
  private readonly defs = new Map<NodeKind, AnyNodeDef>();

  add<T>(def: NodeDef<T>): void {
    this.defs.set(def.kind, def as AnyNodeDef);
  }

  get(kind: NodeKind): AnyNodeDef {
    const def = this.defs.get(kind);
    if (!def) throw new Error(`no node definition for ${kind}`);
    return def;
  }

  /** Renders one object with a field selection (its defaults when none is given). */
  async serialize(ctx: GraphContext, kind: NodeKind, obj: unknown, selection?: FieldSelection[]): Promise<Record<string, unknown>> {
    const def = this.get(kind);
    const sel = selection ?? selectionOf(def.defaultFields);
    const out: Record<string, unknown> = {};
    for (const s of sel) {
      const getter = def.fields[s.name];
      if (getter) {
        const value = await this.render(ctx, getter(obj, ctx), s.children);
        if (value !== undefined) out[s.name] = value;
        continue;
      }
      const edge = def.edges[s.name];
      if (edge?.get) {
        out[s.name] = await edge.get(this.edgeContext(ctx, obj, def, s), obj);
        continue;
      }
      throw errors.nonexistingField(s.name, def.typeName);
    }
    // The Graph API always returns the id of an object it renders.
    if (out.id === undefined && def.fields.id) out.id = def.fields.id(obj, ctx);
    return out;
  }

  /** Field values: node references expand, plain objects honour `{subfields}`. */
  private async render(ctx: GraphContext, value: unknown, children: FieldSelection[] | undefined): Promise<unknown> {
    if (value instanceof NodeRef) {
      const def = this.get(value.kind);
      const target = def.load(ctx, value.id);
      if (!target) return { id: value.id };
      return this.serialize(ctx, value.kind, target, children ?? selectionOf(['id']));
    }
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.render(ctx, v, children)));
    if (children && value && typeof value === 'object') {
      const src = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const c of children) {
        if (src[c.name] !== undefined) out[c.name] = await this.render(ctx, src[c.name], c.children);
      }
      return out;
    }
    return value;
  }

  /** An edge expanded as a field: its modifiers become its parameters. */
  private edgeContext(ctx: GraphContext, obj: unknown, def: AnyNodeDef, s: FieldSelection): GraphContext {
    const id = String(def.fields.id?.(obj, ctx) ?? '');
    const modifiers = Object.fromEntries(Object.entries(s.modifiers));
    return {
      ...ctx,
      method: 'GET',
      path: `/${id}/${s.name}`,
      params: ctx.params.with({ ...dropListParams(ctx), ...modifiers }),
      fields: s.children,
      usage: ctx.usage,
    };
  }
}

/** Parameters of the outer call that must not leak into an expanded edge. */
function dropListParams(ctx: GraphContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of ['limit', 'after', 'before', 'fields', 'filtering', 'effective_status', 'summary', 'ids']) {
    if (ctx.params.has(name)) out[name] = undefined;
  }
  return out;
}
