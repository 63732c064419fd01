import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import type { NodeRegistry } from '../graph/node.ts';
import { paginate } from '../graph/paging.ts';
import type { AdAccountRecord, ConfiguredStatus, PageRecord } from '../store/state.ts';
import type { NodeKind } from '../store/store.ts';
import { formatGraphTime } from '../time.ts';

// Helpers shared by the object families: access checks, list edges with the Graph filters,
// and the small conversions every family needs.

export const STATUSES: readonly ConfiguredStatus[] = ['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED'];

export function userCanUseAccount(ctx: GraphContext, account: AdAccountRecord | undefined): account is AdAccountRecord {
  return !!account && ctx.token.type !== 'PAGE' && account.user_ids.includes(ctx.token.user_id);
}

/** A page token sees its page; a user token the pages the user has a role on. */
export function pageVisible(ctx: GraphContext, page: PageRecord): boolean {
  if (ctx.token.type === 'PAGE') return ctx.token.page_id === page.id;
  return page.user_ids.includes(ctx.token.user_id);
}

/** Times of objects under an ad account print in the account's zone. */
export function accountTime(ctx: GraphContext, accountId: string, ms: number | undefined): string | undefined {
  if (ms === undefined) return undefined;
  return formatGraphTime(ms, ctx.sim.store.account(accountId)?.timezone_name ?? 'UTC');
}

/** Budgets, bids and caps come back as strings of minor units. */
export const money = (minor: number | undefined) => (minor === undefined ? undefined : String(minor));

/**
 * Newest first, as Graph edges list objects; numeric ids grow with creation. Rows with other
 * ids (images) keep the order they came in (the sort is stable).
 */
export function newestFirst<T extends { id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => {
    const x = Number(a.id);
    const y = Number(b.id);
    return Number.isNaN(x) || Number.isNaN(y) ? 0 : y - x;
  });
}

const OPERATORS = [
  'EQUAL', 'NOT_EQUAL', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN', 'LESS_THAN_OR_EQUAL',
  'IN_RANGE', 'NOT_IN_RANGE', 'CONTAIN', 'NOT_CONTAIN', 'IN', 'NOT_IN', 'ANY', 'ALL', 'NONE',
] as const;

export interface FilterClause {
  field: string;
  operator: (typeof OPERATORS)[number];
  value: unknown;
}

/** Parses `filtering=[{"field","operator","value"}]`. */
export function parseFiltering(ctx: GraphContext): FilterClause[] {
  const raw = ctx.params.json('filtering');
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw errors.invalidParameter('filtering must be an array of {field, operator, value}');
  return raw.map((c) => {
    const clause = c as Partial<FilterClause>;
    if (!clause || typeof clause.field !== 'string') throw errors.invalidParameter('Each filtering clause needs a field');
    if (!OPERATORS.includes(clause.operator as FilterClause['operator'])) throw errors.invalidEnum('filtering.operator', OPERATORS);
    return clause as FilterClause;
  });
}

/** Evaluates one clause against a value. */
export function matches(actual: unknown, clause: FilterClause): boolean {
  const list = Array.isArray(clause.value) ? clause.value.map(String) : [String(clause.value)];
  const a = Array.isArray(actual) ? actual.map(String) : actual === undefined || actual === null ? [] : [String(actual)];
  const first = a[0];
  const num = Number(first);
  switch (clause.operator) {
    case 'EQUAL':
      return first === String(clause.value);
    case 'NOT_EQUAL':
      return first !== String(clause.value);
    case 'GREATER_THAN':
      return num > Number(clause.value);
    case 'GREATER_THAN_OR_EQUAL':
      return num >= Number(clause.value);
    case 'LESS_THAN':
      return num < Number(clause.value);
    case 'LESS_THAN_OR_EQUAL':
      return num <= Number(clause.value);
    case 'IN_RANGE':
      return num >= Number(list[0]) && num <= Number(list[1]);
    case 'NOT_IN_RANGE':
      return !(num >= Number(list[0]) && num <= Number(list[1]));
    case 'CONTAIN':
      return (first ?? '').toLowerCase().includes(String(clause.value).toLowerCase());
    case 'NOT_CONTAIN':
      return !(first ?? '').toLowerCase().includes(String(clause.value).toLowerCase());
    case 'IN':
    case 'ANY':
      return a.some((v) => list.includes(v));
    case 'NOT_IN':
    case 'NONE':
      return !a.some((v) => list.includes(v));
    case 'ALL':
      return list.every((v) => a.includes(v));
  }
}

/**
 * A list edge of ad objects: `effective_status` filter (default: everything but ARCHIVED and
 * DELETED, reference §1), `filtering` on the objects' fields, newest first, cursor paging,
 * and each row rendered with the caller's `fields`.
 */
export async function listEdge<T extends { id: string }>(ctx: GraphContext, registry: NodeRegistry, kind: NodeKind, rows: T[]): Promise<unknown> {
  const def = registry.get(kind);
  const effective = def.fields.effective_status;
  const wanted = ctx.params.list('effective_status');
  let visible = rows;
  if (effective) {
    visible = visible.filter((row) => {
      const status = String(effective(row, ctx));
      return wanted ? wanted.includes(status) : status !== 'ARCHIVED' && status !== 'DELETED';
    });
  }
  for (const clause of parseFiltering(ctx)) {
    // `campaign.id` reads the `campaign_id` field, as on the Graph API.
    const name = clause.field.replace(/^(campaign|adset|ad|account)\.id$/, '$1_id').replace(/^(ad|adset|campaign)\.(\w+)$/, '$2');
    const getter = def.fields[name];
    if (!getter) throw errors.invalidParameter(`Filtering field ${clause.field} is invalid`);
    // Times filter as epoch seconds (`updated_time GREATER_THAN 1730000000`), as on the Graph API.
    const read = /_time$/.test(name) ? (row: T) => toEpochSeconds(getter(row, ctx)) : (row: T) => getter(row, ctx);
    visible = visible.filter((row) => matches(read(row), clause));
  }
  const page = paginate(ctx, newestFirst([...visible]), (row) => row.id);
  const data = await Promise.all(page.data.map((row) => registry.serialize(ctx, kind, row, ctx.fields)));
  return { ...page, data };
}

/** A Graph time (`2026-05-01T10:00:00+0800`) → epoch seconds; anything else as it is. */
function toEpochSeconds(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? value : Math.floor(ms / 1000);
}

/** Status changes allowed on ad objects; DELETED is final and ARCHIVED only goes to DELETED. */
export function assertStatusTransition(from: ConfiguredStatus, to: ConfiguredStatus): void {
  if (from === to) return;
  if (from === 'DELETED' || (from === 'ARCHIVED' && to !== 'DELETED')) {
    throw errors.invalidParameter(`Cannot change the status of a ${from.toLowerCase()} object to ${to}`, {
      data: { blame_field_specs: [['status']] },
    });
  }
}

/** Only the name and status of archived or deleted objects may be touched. */
export function assertEditable(status: ConfiguredStatus, params: GraphContext['params'], allowed: readonly string[] = ['status', 'name']): void {
  if (status !== 'DELETED' && status !== 'ARCHIVED') return;
  const touched = params.names().filter((n) => !['access_token', 'fields', 'appsecret_proof', ...allowed].includes(n));
  if (touched.length > 0) throw errors.invalidParameter(`Cannot edit a ${status.toLowerCase()} object`, { data: { blame_field_specs: [touched] } });
}

/** Parameter names that are transport, not object fields. */
export const TRANSPORT_PARAMS = new Set(['access_token', 'appsecret_proof', 'fields', 'method', 'format', 'suppress_http_code', 'pretty', 'locale']);
