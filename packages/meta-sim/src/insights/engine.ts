import { adEffectiveStatus, adsetEffectiveStatus, campaignEffectiveStatus } from '../delivery/status.ts';
import type { HourCell } from '../delivery/model.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import { minorToMajorString } from '../money.ts';
import { between, rng } from '../random.ts';
import { matches, parseFiltering, type FilterClause } from '../routes/common.ts';
import type { AdAccountRecord, AdRecord } from '../store/state.ts';
import { addDays, daysBetween, localDate } from '../time.ts';
import { combinations, parseBreakdowns, splitInteger, type Breakdown } from './breakdowns.ts';
import { DATE_PRESETS, presetRange, splitRange, validateRange, type DateRange } from './dates.ts';

// The Insights query engine (reference §12): sums the delivery model's ad-hours per ad and
// time bucket, splits breakdowns, aggregates to the requested level and renders rows with
// numbers as strings. Every level is a sum of the same ad cells, so account = Σ campaigns =
// Σ ads for a range, and ratios are recomputed from summed numerators and denominators.

export type InsightsLevel = 'account' | 'campaign' | 'adset' | 'ad';
export type InsightsNode = { kind: 'adaccount'; id: string } | { kind: 'campaign' | 'adset' | 'ad'; id: string };

const LEVELS: readonly InsightsLevel[] = ['account', 'campaign', 'adset', 'ad'];
const NODE_LEVEL: Record<InsightsNode['kind'], InsightsLevel> = { adaccount: 'account', campaign: 'campaign', adset: 'adset', ad: 'ad' };

/** Row fields the simulator computes; anything else is refused like an unknown field. */
export const INSIGHTS_FIELDS = [
  'account_id', 'account_name', 'account_currency', 'campaign_id', 'campaign_name', 'adset_id', 'adset_name', 'ad_id', 'ad_name',
  'date_start', 'date_stop', 'spend', 'impressions', 'reach', 'frequency', 'clicks', 'unique_clicks', 'inline_link_clicks',
  'inline_link_click_ctr', 'cost_per_inline_link_click', 'ctr', 'cpc', 'cpm', 'objective', 'optimization_goal', 'buying_type',
  'attribution_setting', 'actions', 'action_values', 'cost_per_action_type', 'purchase_roas', 'website_purchase_roas', 'outbound_clicks',
] as const;

const DEFAULT_FIELDS = ['date_start', 'date_stop', 'impressions', 'spend'];

/** The pixel purchase, reported under each of its overlapping action types (reference §12). */
export const PURCHASE_ACTION_TYPES = ['purchase', 'omni_purchase', 'offsite_conversion.fb_pixel_purchase'] as const;

type Totals = Omit<HourCell, 'slot'>;
const zero = (): Totals => ({ spend: 0, impressions: 0, clicks: 0, link_clicks: 0, landing_page_views: 0, checkouts: 0, purchases: 0, purchase_value: 0 });
const METRICS = Object.keys(zero()) as Array<keyof Totals>;

export interface InsightsQuery {
  level: InsightsLevel;
  range: DateRange;
  buckets: DateRange[];
  breakdowns: Breakdown[];
  fields: string[];
  filtering: FilterClause[];
  sort?: { field: string; descending: boolean };
}

export function parseQuery(ctx: GraphContext, node: InsightsNode, account: AdAccountRecord, asOf: number): InsightsQuery {
  const p = ctx.params;
  const nodeLevel = NODE_LEVEL[node.kind];
  const level = (p.enumValue('level', LEVELS) ?? nodeLevel) as InsightsLevel;
  if (LEVELS.indexOf(level) < LEVELS.indexOf(nodeLevel)) throw errors.wrongLevel(level, node.kind);

  const timeRange = p.json('time_range');
  const preset = p.enumValue('date_preset', DATE_PRESETS);
  const range = timeRange !== undefined ? validateRange(timeRange) : presetRange(preset ?? 'last_30d', asOf, account.timezone_name);

  const fields = (ctx.fields?.map((f) => f.name) ?? DEFAULT_FIELDS).filter((f, i, all) => all.indexOf(f) === i);
  for (const f of fields) {
    if (!(INSIGHTS_FIELDS as readonly string[]).includes(f)) {
      throw errors.invalidParameter(`${f} is not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values`);
    }
  }
  let sort: InsightsQuery['sort'];
  const sortSpec = p.list('sort')?.[0];
  if (sortSpec) {
    const m = /^(\w+?)_(ascending|descending)$/.exec(sortSpec);
    if (!m || !(INSIGHTS_FIELDS as readonly string[]).includes(m[1]!)) throw errors.invalidParameter(`Invalid sort ${sortSpec}`);
    sort = { field: m[1]!, descending: m[2] === 'descending' };
  }
  return {
    level,
    range,
    buckets: splitRange(range, p.string('time_increment')),
    breakdowns: parseBreakdowns(p.list('breakdowns')),
    fields,
    filtering: parseFiltering(ctx),
    sort,
  };
}

/** Entity fields `filtering` may use, and how to read them from an ad. */
function entityValue(ctx: GraphContext, ad: AdRecord, field: string): unknown {
  const s = ctx.sim.store.state;
  const adset = s.adsets[ad.adset_id];
  const campaign = s.campaigns[ad.campaign_id];
  switch (field) {
    case 'ad.id':
      return ad.id;
    case 'ad.name':
      return ad.name;
    case 'ad.effective_status':
      return adEffectiveStatus(ctx.sim.store, ad, ctx.now);
    case 'adset.id':
      return ad.adset_id;
    case 'adset.name':
      return adset?.name;
    case 'adset.effective_status':
      return adset && adsetEffectiveStatus(ctx.sim.store, adset);
    case 'campaign.id':
      return ad.campaign_id;
    case 'campaign.name':
      return campaign?.name;
    case 'campaign.effective_status':
      return campaign && campaignEffectiveStatus(ctx.sim.store, campaign);
    case 'campaign.objective':
      return campaign?.objective;
    default:
      return undefined;
  }
}

const ENTITY_FIELDS = new Set(['ad.id', 'ad.name', 'ad.effective_status', 'adset.id', 'adset.name', 'adset.effective_status', 'campaign.id', 'campaign.name', 'campaign.effective_status', 'campaign.objective']);

function adsInScope(ctx: GraphContext, node: InsightsNode, account: AdAccountRecord, filtering: FilterClause[]): AdRecord[] {
  const ads = Object.values(ctx.sim.store.state.ads).filter((ad) => {
    if (ad.account_id !== account.id) return false;
    if (node.kind === 'campaign') return ad.campaign_id === node.id;
    if (node.kind === 'adset') return ad.adset_id === node.id;
    if (node.kind === 'ad') return ad.id === node.id;
    return true;
  });
  const entityClauses = filtering.filter((c) => ENTITY_FIELDS.has(c.field));
  return ads.filter((ad) => entityClauses.every((c) => matches(entityValue(ctx, ad, c.field), c)));
}

const fmt = (x: number) => String(Number(x.toFixed(6)));

function levelKey(level: InsightsLevel, ad: AdRecord): string {
  return level === 'account' ? ad.account_id : level === 'campaign' ? ad.campaign_id : level === 'adset' ? ad.adset_id : ad.id;
}

interface Group {
  bucket: DateRange;
  key: string;
  sample: AdRecord;
  breakdown: Record<string, string>;
  totals: Totals;
}

/** Runs an Insights query and returns the rows (not yet paged). */
export function runInsights(ctx: GraphContext, node: InsightsNode, account: AdAccountRecord, q: InsightsQuery, asOf: number): Record<string, unknown>[] {
  const delivery = ctx.sim.delivery;
  const ads = adsInScope(ctx, node, account, q.filtering);
  const scoped = new Set(ads.map((a) => a.id));
  const owners = delivery.owners(account.id).filter((o) => o.ads.some((a) => scoped.has(a.id)));

  // Per ad and time bucket totals.
  const perAd = new Map<string, { bucket: number; ad: AdRecord; totals: Totals }>();
  const today = localDate(asOf, account.timezone_name);
  const firstAd = ads.length > 0 ? localDate(Math.min(...ads.map((a) => a.created_at)), account.timezone_name) : today;
  const since = q.range.since > firstAd ? q.range.since : firstAd;
  const until = q.range.until < today ? q.range.until : today;
  const adById = new Map(ads.map((a) => [a.id, a]));
  let bucket = 0;
  for (let date = since; date <= until; date = addDays(date, 1)) {
    while (q.buckets[bucket] && q.buckets[bucket]!.until < date) bucket++;
    for (const owner of owners) {
      for (const [adId, cells] of delivery.ownerDay(owner, date, asOf)) {
        const ad = adById.get(adId);
        if (!ad) continue;
        const key = `${bucket}|${adId}`;
        let entry = perAd.get(key);
        if (!entry) perAd.set(key, (entry = { bucket, ad, totals: zero() }));
        for (const c of cells) for (const m of METRICS) entry.totals[m] += c[m];
      }
    }
  }

  // Breakdowns split each ad's totals; then rows aggregate to the level.
  const groups = new Map<string, Group>();
  for (const { bucket: b, ad, totals } of perAd.values()) {
    const targeting = ctx.sim.store.state.adsets[ad.adset_id]?.targeting ?? {};
    const combos = combinations(q.breakdowns, targeting, ctx.sim.seed, ad.id);
    const parts = METRICS.map((m) => splitInteger(totals[m], combos.map((c) => c.weight)));
    combos.forEach((combo, i) => {
      const key = `${b}|${levelKey(q.level, ad)}|${JSON.stringify(combo.values)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { bucket: q.buckets[b]!, key: levelKey(q.level, ad), sample: ad, breakdown: combo.values, totals: zero() }));
      METRICS.forEach((m, j) => (g!.totals[m] += parts[j]![i]!));
    });
  }

  // Metric filters and the sort key are rendered too, then dropped if not asked for.
  const metricClauses = q.filtering.filter((c) => !ENTITY_FIELDS.has(c.field));
  for (const c of metricClauses) {
    if (!(INSIGHTS_FIELDS as readonly string[]).includes(c.field)) throw errors.invalidParameter(`Filtering field ${c.field} is invalid`);
  }
  const helperFields = [...metricClauses.map((c) => c.field), ...(q.sort ? [q.sort.field] : [])].filter(
    (f) => !q.fields.includes(f) && f !== 'date_start' && f !== 'date_stop',
  );
  const renderQuery = { ...q, fields: [...q.fields, ...helperFields] };

  const rows: Array<{ group: Group; row: Record<string, unknown> }> = [];
  for (const g of groups.values()) {
    if (g.totals.impressions === 0 && g.totals.spend === 0) continue;
    const row = renderRow(ctx, renderQuery, account, g);
    if (metricClauses.every((c) => matches(row[c.field], c))) rows.push({ group: g, row });
  }
  rows.sort((a, b) => {
    if (q.sort) {
      const va = Number(a.row[q.sort.field] ?? 0);
      const vb = Number(b.row[q.sort.field] ?? 0);
      if (va !== vb) return q.sort.descending ? vb - va : va - vb;
    }
    return (
      a.group.bucket.since.localeCompare(b.group.bucket.since) ||
      a.group.key.localeCompare(b.group.key) ||
      JSON.stringify(a.group.breakdown).localeCompare(JSON.stringify(b.group.breakdown))
    );
  });
  return rows.map(({ row }) => {
    for (const f of helperFields) delete row[f];
    return row;
  });
}

function renderRow(ctx: GraphContext, q: InsightsQuery, account: AdAccountRecord, g: Group): Record<string, unknown> {
  const s = ctx.sim.store.state;
  const t = g.totals;
  const cur = account.currency;
  const spendMajor = Number(minorToMajorString(t.spend, cur));
  const valueMajor = Number(minorToMajorString(t.purchase_value, cur));
  const level = LEVELS.indexOf(q.level);
  const campaign = s.campaigns[g.sample.campaign_id];
  const adset = s.adsets[g.sample.adset_id];
  const days = daysBetween(g.bucket.since, g.bucket.until) + 1;
  // Reach is not additive: derive it per row from impressions and a frequency that grows
  // with the length of the range.
  const freq = 1.05 + 0.15 * Math.log(1 + days) * between(rng(ctx.sim.seed, 'reach', g.key, g.bucket.since, JSON.stringify(g.breakdown)), 0.85, 1.15);
  const reach = t.impressions === 0 ? 0 : Math.max(1, Math.min(t.impressions, Math.round(t.impressions / freq)));
  const ratio = (num: number, den: number, scale = 1) => (den > 0 ? fmt((num / den) * scale) : undefined);
  const list = (entries: Array<[string, number, (n: number) => string]>) => {
    const out = entries.filter(([, n]) => n > 0).map(([action_type, n, f]) => ({ action_type, value: f(n) }));
    return out.length > 0 ? out : undefined;
  };
  const count = (n: number) => String(n);
  const money = (n: number) => minorToMajorString(n, cur);
  const actionCounts: Array<[string, number]> = [
    ['link_click', t.link_clicks],
    ['landing_page_view', t.landing_page_views],
    ['post_engagement', t.clicks],
    ['page_engagement', t.clicks],
    ['offsite_conversion.fb_pixel_initiate_checkout', t.checkouts],
    ...PURCHASE_ACTION_TYPES.map((a): [string, number] => [a, t.purchases]),
  ];

  const value: Record<string, () => unknown> = {
    account_id: () => account.id,
    account_name: () => account.name,
    account_currency: () => cur,
    campaign_id: () => (level >= 1 ? g.sample.campaign_id : undefined),
    campaign_name: () => (level >= 1 ? campaign?.name : undefined),
    adset_id: () => (level >= 2 ? g.sample.adset_id : undefined),
    adset_name: () => (level >= 2 ? adset?.name : undefined),
    ad_id: () => (level >= 3 ? g.sample.id : undefined),
    ad_name: () => (level >= 3 ? g.sample.name : undefined),
    date_start: () => g.bucket.since,
    date_stop: () => g.bucket.until,
    spend: () => money(t.spend),
    impressions: () => count(t.impressions),
    reach: () => count(reach),
    frequency: () => ratio(t.impressions, reach),
    clicks: () => count(t.clicks),
    unique_clicks: () => count(Math.round(t.clicks * 0.92)),
    inline_link_clicks: () => count(t.link_clicks),
    inline_link_click_ctr: () => ratio(t.link_clicks, t.impressions, 100),
    cost_per_inline_link_click: () => ratio(spendMajor, t.link_clicks),
    ctr: () => ratio(t.clicks, t.impressions, 100),
    cpc: () => ratio(spendMajor, t.clicks),
    cpm: () => ratio(spendMajor, t.impressions, 1000),
    objective: () => (level >= 1 ? campaign?.objective : undefined),
    optimization_goal: () => (level >= 2 ? adset?.optimization_goal : undefined),
    buying_type: () => (level >= 1 ? campaign?.buying_type : undefined),
    attribution_setting: () => (level >= 2 ? 'mixed' : undefined),
    actions: () => list(actionCounts.map(([a, n]) => [a, n, count])),
    action_values: () => list(PURCHASE_ACTION_TYPES.map((a) => [a, t.purchase_value, money])),
    cost_per_action_type: () => (t.spend > 0 ? list(actionCounts.map(([a, n]) => [a, n, (c) => fmt(spendMajor / c)])) : undefined),
    purchase_roas: () => (t.spend > 0 ? [{ action_type: 'omni_purchase', value: fmt(valueMajor / spendMajor) }] : undefined),
    website_purchase_roas: () => (t.spend > 0 ? [{ action_type: 'offsite_conversion.fb_pixel_purchase', value: fmt(valueMajor / spendMajor) }] : undefined),
    outbound_clicks: () => list([['outbound_click', t.link_clicks, count]]),
  };

  const row: Record<string, unknown> = {};
  for (const f of q.fields) {
    const v = value[f]!();
    if (v !== undefined) row[f] = v;
  }
  for (const b of q.breakdowns) row[b] = g.breakdown[b];
  // date_start / date_stop are on every row, as on the Graph API.
  row.date_start = g.bucket.since;
  row.date_stop = g.bucket.until;
  return row;
}
