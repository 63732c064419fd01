import { errors } from '../errors.ts';
import type { GraphContext } from './context.ts';

// Cursor paging (reference §13): opaque cursors, `limit`, `after` / `before`, and `next` only
// when more rows remain. Cursors name the row they point at (its id, or its position for rows
// without one), so rows created while a client pages do not shift the pages.

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 5000;

export interface Page<T> {
  data: T[];
  paging?: {
    cursors: { before: string; after: string };
    previous?: string;
    next?: string;
  };
  summary?: { total_count: number };
}

const encode = (key: string) => Buffer.from(key, 'utf8').toString('base64url');

function decode(cursor: string): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!key || encode(key) !== cursor.replace(/=+$/, '')) throw errors.invalidParameter('Invalid cursor');
  return key;
}

function link(ctx: GraphContext, extra: Record<string, string>, drop: string): string {
  const query = new URLSearchParams();
  for (const name of ctx.params.names()) {
    if (name === drop || name === 'after' || name === 'before' || name === 'access_token') continue;
    const v = ctx.params.value(name);
    query.set(name, typeof v === 'string' ? v : JSON.stringify(v));
  }
  query.set('access_token', ctx.accessToken);
  for (const [k, v] of Object.entries(extra)) query.set(k, v);
  return `${ctx.sim.baseUrl()}/${ctx.version}${ctx.path}?${query.toString()}`;
}

/**
 * Pages an already ordered list. `keyOf` gives each row a stable unique key (its id); without
 * it the position is the key.
 */
export function paginate<T>(ctx: GraphContext, rows: T[], keyOf?: (row: T) => string): Page<T> {
  const limit = Math.min(ctx.params.uint('limit') ?? DEFAULT_LIMIT, MAX_LIMIT) || DEFAULT_LIMIT;
  const keys = rows.map((row, i) => (keyOf ? `k:${keyOf(row)}` : `i:${i}`));
  const after = ctx.params.string('after');
  const before = ctx.params.string('before');

  let start = 0;
  let end = Math.min(rows.length, limit);
  if (after) {
    const idx = keys.indexOf(decode(after));
    start = idx >= 0 ? idx + 1 : fallbackIndex(decode(after), keys);
    end = Math.min(rows.length, start + limit);
  } else if (before) {
    const idx = keys.indexOf(decode(before));
    end = idx >= 0 ? idx : fallbackIndex(decode(before), keys);
    start = Math.max(0, end - limit);
  }

  const data = rows.slice(start, end);
  const page: Page<T> = { data };
  if (data.length > 0) {
    const first = encode(keys[start]!);
    const last = encode(keys[end - 1]!);
    page.paging = { cursors: { before: first, after: last } };
    if (start > 0) page.paging.previous = link(ctx, { before: first }, 'after');
    if (end < rows.length) page.paging.next = link(ctx, { after: last }, 'before');
  }
  if (ctx.params.bool('summary')) page.summary = { total_count: rows.length };
  return page;
}

/**
 * A cursor whose row is gone (deleted between pages): for id keys, continue after the first
 * row whose numeric id is smaller, as lists are ordered newest (largest id) first.
 */
function fallbackIndex(key: string, keys: string[]): number {
  if (!key.startsWith('k:') || !/^k:\d+$/.test(key)) {
    const pos = /^i:(\d+)$/.exec(key);
    if (pos) return Math.min(Number(pos[1]) + 1, keys.length);
    throw errors.invalidParameter('Invalid cursor');
  }
  const id = Number(key.slice(2));
  const idx = keys.findIndex((k) => /^k:\d+$/.test(k) && Number(k.slice(2)) < id);
  return idx < 0 ? keys.length : idx;
}
