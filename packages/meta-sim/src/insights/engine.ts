import { adEffectiveStatus, adsetEffectiveStatus, campaignEffectiveStatus } from '../delivery/status.ts';
import type { HourCell } from '../delivery/model.ts';
import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import { minorToMajorString } from '../money.ts';
import { between, rng } from '../random.ts';
import { matches, parseFiltering, type FilterClause } from '../routes/common.ts';
import type { AdAccountRecord, AdRecord } from '../store/state.ts';
import { addDays, DAY_MS, daysBetween, HOUR_MS, localDate, localHour, offsetMinutes, startOfLocalDay } from '../time.ts';
import { audienceZone, combinations, HOURLY_AUDIENCE, hourLabel, isHourly, parseBreakdowns, splitInteger, type Breakdown, type HourlyBreakdown } from './breakdowns.ts';
import { DATE_PRESETS, presetRange, splitRange, validateRange, type DateRange } from './dates.ts';

// The Insights query engine (reference §12): sums the delivery model's ad-hours per ad and
// time bucket (and hour, for the hourly breakdowns), splits breakdowns, aggregates to the
// requested level and renders rows with numbers as strings. Every level is a sum of the same
// ad cells, so account = Σ campaigns = Σ ads for a range, a day = Σ its hours, and ratios are
// recomputed from summed numerators and denominators. Purchases are those the pixel has
// reported by the time of the query (late conversions, DeliveryModel.reported).

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
  'video_play_actions', 'video_p25_watched_actions', 'video_p50_watched_actions', 'video_p75_watched_actions', 'video_p95_watched_actions',
  'video_p100_watched_actions', 'video_thruplay_watched_actions', 'video_avg_time_watched_actions',
] as const;

/**
 * Fields not reported with an hourly breakdown [U]: unique counts (reach, frequency, unique
 * clicks) are per-range deduplications, not sums of hours.
 */
const NOT_HOURLY = new Set(['reach', 'frequency', 'unique_clicks']);

/** Off-Meta (pixel) actions: never in hourly rows, as on Meta since 2021 (reference §12). */
const OFF_META_ACTIONS = new Set(['landing_page_view', 'offsite_conversion.fb_pixel_initiate_checkout', 'purchase', 'omni_purchase', 'offsite_conversion.fb_pixel_purchase']);

/** Statuses Insights leaves out as rows unless the query filters on an effective status. */
const HIDDEN_STATUSES = new Set(['DELETED', 'ARCHIVED']);

const DEFAULT_FIELDS = ['date_start', 'date_stop', 'impressions', 'spend'];

/** The pixel purchase, reported under each of its overlapping action types (reference §12). */
export const PURCHASE_ACTION_TYPES = ['purchase', 'omni_purchase', 'offsite_conversion.fb_pixel_purchase'] as const;

interface Totals {
  spend: number;
  impressions: number;
  clicks: number;
  link_clicks: number;
  landing_page_views: number;
  checkouts: number;
  purchases: number;
  purchase_value: number;
  video_plays: number;
  video_views_3s: number;
  video_p25: number;
  video_p50: number;
  video_p75: number;
  video_p95: number;
  video_p100: number;
  video_thruplays: number;
  video_watch_ms: number;
}
const zero = (): Totals => ({
  spend: 0, impressions: 0, clicks: 0, link_clicks: 0, landing_page_views: 0, checkouts: 0, purchases: 0, purchase_value: 0, video_plays: 0,
  video_views_3s: 0, video_p25: 0, video_p50: 0, video_p75: 0, video_p95: 0, video_p100: 0, video_thruplays: 0, video_watch_ms: 0,
});
const METRICS = Object.keys(zero()) as Array<keyof Totals>;

/** Adds one ad-hour to a running total, with the purchases reported so far. */
function addCell(t: Totals, c: HourCell, reported: { purchases: number; purchase_value: number }): void {
  t.spend += c.spend;
  t.impressions += c.impressions;
  t.clicks += c.clicks;
  t.link_clicks += c.link_clicks;
  t.landing_page_views += c.landing_page_views;
  t.checkouts += c.checkouts;
  t.purchases += reported.purchases;
  t.purchase_value += reported.purchase_value;
  const v = c.video;
  if (v) {
    t.video_plays += v.plays;
    t.video_views_3s += v.views_3s;
    t.video_p25 += v.p25;
    t.video_p50 += v.p50;
    t.video_p75 += v.p75;
    t.video_p95 += v.p95;
    t.video_p100 += v.p100;
    t.video_thruplays += v.thruplays;
    t.video_watch_ms += v.watch_ms;
  }
}

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
  // The delivery model's index holds every ad of the account (by budget owner).
  const ads = ctx.sim.delivery.owners(account.id).flatMap((o) => o.ads).filter((ad) => {
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
  /** The breakdown values as text, for grouping and ordering rows. */
  breakdownKey: string;
  totals: Totals;
}

/** Code-unit order: dates, numeric ids of one length and labels sort right, and fast. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether the query picks statuses itself; otherwise deleted and archived rows are left out. */
const filtersOnStatus = (q: InsightsQuery) => q.filtering.some((c) => /(^|\.)effective_status$/.test(c.field));

/** The effective status of the object a row at this level stands for. */
function rowStatus(ctx: GraphContext, level: InsightsLevel, ad: AdRecord): string | undefined {
  const s = ctx.sim.store.state;
  if (level === 'ad') return adEffectiveStatus(ctx.sim.store, ad, ctx.now);
  if (level === 'adset') {
    const adset = s.adsets[ad.adset_id];
    return adset && adsetEffectiveStatus(ctx.sim.store, adset);
  }
  if (level === 'campaign') {
    const campaign = s.campaigns[ad.campaign_id];
    return campaign && campaignEffectiveStatus(ctx.sim.store, campaign);
  }
  return undefined;
}

/** A local day of the account, for filing ad-hours under hours. */
interface HourDay {
  start: number;
  /** 24 hours long (no DST change): the k-th slot is hour k. */
  plain: boolean;
  /** UTC offsets (minutes) of audience zones on this day. */
  offsets: Map<string, number>;
}

/**
 * How an ad-hour is filed under an hourly breakdown: the hour of the slot on the account's
 * clock, or on the audience's (the zone's offset of that day; hours keep their length).
 */
function hourOf(hourly: HourlyBreakdown, slot: number, day: HourDay, tz: string, zone: string): number {
  if (hourly === HOURLY_AUDIENCE && zone !== tz) {
    let offset = day.offsets.get(zone);
    if (offset === undefined) day.offsets.set(zone, (offset = offsetMinutes(day.start, zone)));
    const local = slot + HOUR_MS / 2 + offset * 60_000;
    return Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS);
  }
  return day.plain ? Math.floor((slot - day.start) / HOUR_MS) : localHour(slot, tz);
}

type PerAd = Map<string, { bucket: number; ad: AdRecord; hour: number; totals: Totals }>;

/** The running totals of an ad in a time bucket (and hour, -1 without an hourly breakdown). */
function totalsOf(perAd: PerAd, bucket: number, ad: AdRecord, hour: number): Totals {
  const key = `${bucket}|${ad.id}|${hour}`;
  let entry = perAd.get(key);
  if (!entry) perAd.set(key, (entry = { bucket, ad, hour, totals: zero() }));
  return entry.totals;
}

/** Runs an Insights query and returns the rows (not yet paged). */
export function runInsights(ctx: GraphContext, node: InsightsNode, account: AdAccountRecord, q: InsightsQuery, asOf: number): Record<string, unknown>[] {
  const delivery = ctx.sim.delivery;
  const ads = adsInScope(ctx, node, account, q.filtering);
  const scoped = new Set(ads.map((a) => a.id));
  const owners = delivery.owners(account.id).filter((o) => o.ads.some((a) => scoped.has(a.id)));
  const tz = account.timezone_name;
  const hourly = q.breakdowns.find(isHourly);
  const zones = new Map<string, string>();
  if (hourly === HOURLY_AUDIENCE) {
    for (const ad of ads) zones.set(ad.id, audienceZone(ctx.sim.store.state.adsets[ad.adset_id]?.targeting ?? {}, tz));
  }

  // Per ad, time bucket and (with an hourly breakdown) hour.
  const perAd: PerAd = new Map();
  const today = localDate(asOf, tz);
  const firstAd = ads.length > 0 ? localDate(Math.min(...ads.map((a) => a.created_at)), tz) : today;
  const since = q.range.since > firstAd ? q.range.since : firstAd;
  const until = q.range.until < today ? q.range.until : today;
  const adById = new Map(ads.map((a) => [a.id, a]));
  let bucket = 0;
  for (let date = since; date <= until; date = addDays(date, 1)) {
    while (q.buckets[bucket] && q.buckets[bucket]!.until < date) bucket++;
    let day: HourDay | undefined;
    if (hourly) {
      const start = startOfLocalDay(date, tz);
      day = { start, plain: startOfLocalDay(addDays(date, 1), tz) - start === DAY_MS, offsets: new Map() };
    }
    for (const owner of owners) {
      for (const [adId, cells] of delivery.ownerDay(owner, date, asOf)) {
        const ad = adById.get(adId);
        if (!ad) continue;
        if (hourly) {
          // Hourly rows carry no pixel actions, so late reporting does not matter here.
          const zone = zones.get(adId) ?? tz;
          for (const c of cells) addCell(totalsOf(perAd, bucket, ad, hourOf(hourly, c.slot, day!, tz, zone)), c, c);
        } else {
          const totals = totalsOf(perAd, bucket, ad, -1);
          for (const c of cells) addCell(totals, c, delivery.reported(adId, c, asOf, account.currency));
        }
      }
    }
  }

  // Breakdowns split each ad's totals; then rows aggregate to the level.
  const groups = new Map<string, Group>();
  for (const { bucket: b, ad, hour, totals } of perAd.values()) {
    const targeting = ctx.sim.store.state.adsets[ad.adset_id]?.targeting ?? {};
    const combos = hourly ? [{ values: { [hourly]: hourLabel(hour) }, weight: 1 }] : combinations(q.breakdowns, targeting, ctx.sim.seed, ad.id);
    // One combination (no split) takes the totals as they are.
    const parts = combos.length === 1 ? undefined : METRICS.map((m) => splitInteger(totals[m], combos.map((c) => c.weight)));
    for (let i = 0; i < combos.length; i++) {
      const combo = combos[i]!;
      const breakdownKey = JSON.stringify(combo.values);
      const key = `${b}|${levelKey(q.level, ad)}|${breakdownKey}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { bucket: q.buckets[b]!, key: levelKey(q.level, ad), sample: ad, breakdown: combo.values, breakdownKey, totals: zero() }));
      for (let j = 0; j < METRICS.length; j++) g.totals[METRICS[j]!] += parts ? parts[j]![i]! : totals[METRICS[j]!];
    }
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

  // Deleted and archived objects still count in their parents' rows, but get no rows of their
  // own unless asked for through an effective_status filter (or queried by their own id).
  const hideRemoved = q.level !== 'account' && !filtersOnStatus(q);
  const rows: Array<{ group: Group; row: Record<string, unknown> }> = [];
  for (const g of groups.values()) {
    if (g.totals.impressions === 0 && g.totals.spend === 0) continue;
    if (hideRemoved && g.key !== node.id && HIDDEN_STATUSES.has(rowStatus(ctx, q.level, g.sample) ?? '')) continue;
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
      compareText(a.group.bucket.since, b.group.bucket.since) ||
      a.group.key.length - b.group.key.length ||
      compareText(a.group.key, b.group.key) ||
      compareText(a.group.breakdownKey, b.group.breakdownKey)
    );
  });
  return rows.map(({ row }) => {
    for (const f of helperFields) delete row[f];
    return row;
  });
}

/** Rendering inputs that are the same for every row of a query. */
interface RowContext {
  ctx: GraphContext;
  q: InsightsQuery;
  account: AdAccountRecord;
  level: number;
  hourly: boolean;
}

/** Entries with a positive count as Graph action stats, or undefined when there are none. */
function actionList(entries: Array<[string, number]>, value: (n: number) => string): Array<{ action_type: string; value: string }> | undefined {
  const out: Array<{ action_type: string; value: string }> = [];
  for (const [action_type, n] of entries) if (n > 0) out.push({ action_type, value: value(n) });
  return out.length > 0 ? out : undefined;
}

/** Video metrics are lists with the one action type video_view, as on the Graph API. */
const videoList = (n: number) => (n > 0 ? [{ action_type: 'video_view', value: String(n) }] : undefined);

function actionCounts(t: Totals, hourly: boolean): Array<[string, number]> {
  const all: Array<[string, number]> = [
    ['link_click', t.link_clicks],
    ['landing_page_view', t.landing_page_views],
    ['post_engagement', t.clicks],
    ['page_engagement', t.clicks],
    ['video_view', t.video_views_3s],
    ['offsite_conversion.fb_pixel_initiate_checkout', t.checkouts],
    ...PURCHASE_ACTION_TYPES.map((a): [string, number] => [a, t.purchases]),
  ];
  return hourly ? all.filter(([a]) => !OFF_META_ACTIONS.has(a)) : all;
}

/** Reach is not additive: derived per row from impressions and a frequency that grows with the range. */
function reachOf(r: RowContext, g: Group): number {
  const t = g.totals;
  if (t.impressions === 0) return 0;
  const days = daysBetween(g.bucket.since, g.bucket.until) + 1;
  const freq = 1.05 + 0.15 * Math.log(1 + days) * between(rng(r.ctx.sim.seed, 'reach', g.key, g.bucket.since, JSON.stringify(g.breakdown)), 0.85, 1.15);
  return Math.max(1, Math.min(t.impressions, Math.round(t.impressions / freq)));
}

function ratio(num: number, den: number, scale = 1): string | undefined {
  return den > 0 ? fmt((num / den) * scale) : undefined;
}

function spendMajor(t: Totals, currency: string): number {
  return Number(minorToMajorString(t.spend, currency));
}

function roas(r: RowContext, t: Totals, actionType: string): Array<{ action_type: string; value: string }> | undefined {
  if (r.hourly || t.spend <= 0) return undefined;
  const cur = r.account.currency;
  return [{ action_type: actionType, value: fmt(Number(minorToMajorString(t.purchase_value, cur)) / spendMajor(t, cur)) }];
}

// Row rendering is the hot path of large reports: a switch, and no closures made per row or
// field (tsx's keepNames makes each closure costly).

/** One field of a row (undefined: left out, as the Graph API leaves out empty metrics). */
function fieldValue(r: RowContext, g: Group, field: string): unknown {
  const t = g.totals;
  const cur = r.account.currency;
  const s = r.ctx.sim.store.state;
  switch (field) {
    case 'account_id':
      return r.account.id;
    case 'account_name':
      return r.account.name;
    case 'account_currency':
      return cur;
    case 'campaign_id':
      return r.level >= 1 ? g.sample.campaign_id : undefined;
    case 'campaign_name':
      return r.level >= 1 ? s.campaigns[g.sample.campaign_id]?.name : undefined;
    case 'adset_id':
      return r.level >= 2 ? g.sample.adset_id : undefined;
    case 'adset_name':
      return r.level >= 2 ? s.adsets[g.sample.adset_id]?.name : undefined;
    case 'ad_id':
      return r.level >= 3 ? g.sample.id : undefined;
    case 'ad_name':
      return r.level >= 3 ? g.sample.name : undefined;
    case 'date_start':
      return g.bucket.since;
    case 'date_stop':
      return g.bucket.until;
    case 'spend':
      return minorToMajorString(t.spend, cur);
    case 'impressions':
      return String(t.impressions);
    case 'reach':
      return String(reachOf(r, g));
    case 'frequency':
      return ratio(t.impressions, reachOf(r, g));
    case 'clicks':
      return String(t.clicks);
    case 'unique_clicks':
      return String(Math.round(t.clicks * 0.92));
    case 'inline_link_clicks':
      return String(t.link_clicks);
    case 'inline_link_click_ctr':
      return ratio(t.link_clicks, t.impressions, 100);
    case 'cost_per_inline_link_click':
      return ratio(spendMajor(t, cur), t.link_clicks);
    case 'ctr':
      return ratio(t.clicks, t.impressions, 100);
    case 'cpc':
      return ratio(spendMajor(t, cur), t.clicks);
    case 'cpm':
      return ratio(spendMajor(t, cur), t.impressions, 1000);
    case 'objective':
      return r.level >= 1 ? s.campaigns[g.sample.campaign_id]?.objective : undefined;
    case 'optimization_goal':
      return r.level >= 2 ? s.adsets[g.sample.adset_id]?.optimization_goal : undefined;
    case 'buying_type':
      return r.level >= 1 ? s.campaigns[g.sample.campaign_id]?.buying_type : undefined;
    case 'attribution_setting':
      return r.level >= 2 ? 'mixed' : undefined;
    case 'actions':
      return actionList(actionCounts(t, r.hourly), String);
    case 'action_values':
      return r.hourly ? undefined : actionList(PURCHASE_ACTION_TYPES.map((a): [string, number] => [a, t.purchase_value]), (n) => minorToMajorString(n, cur));
    case 'cost_per_action_type':
      if (t.spend <= 0) return undefined;
      return actionList(actionCounts(t, r.hourly), (n) => fmt(spendMajor(t, cur) / n));
    case 'purchase_roas':
      return roas(r, t, 'omni_purchase');
    case 'website_purchase_roas':
      return roas(r, t, 'offsite_conversion.fb_pixel_purchase');
    case 'outbound_clicks':
      return actionList([['outbound_click', t.link_clicks]], String);
    case 'video_play_actions':
      return videoList(t.video_plays);
    case 'video_p25_watched_actions':
      return videoList(t.video_p25);
    case 'video_p50_watched_actions':
      return videoList(t.video_p50);
    case 'video_p75_watched_actions':
      return videoList(t.video_p75);
    case 'video_p95_watched_actions':
      return videoList(t.video_p95);
    case 'video_p100_watched_actions':
      return videoList(t.video_p100);
    case 'video_thruplay_watched_actions':
      return videoList(t.video_thruplays);
    case 'video_avg_time_watched_actions':
      // Average seconds watched per play, in whole seconds [U].
      return t.video_plays > 0 ? [{ action_type: 'video_view', value: String(Math.round(t.video_watch_ms / t.video_plays / 1000)) }] : undefined;
    default:
      return undefined;
  }
}

function renderRow(ctx: GraphContext, q: InsightsQuery, account: AdAccountRecord, g: Group): Record<string, unknown> {
  const r: RowContext = { ctx, q, account, level: LEVELS.indexOf(q.level), hourly: q.breakdowns.some(isHourly) };
  const row: Record<string, unknown> = {};
  for (const f of q.fields) {
    if (r.hourly && NOT_HOURLY.has(f)) continue;
    const v = fieldValue(r, g, f);
    if (v !== undefined) row[f] = v;
  }
  for (const b of q.breakdowns) row[b] = g.breakdown[b];
  // date_start / date_stop are on every row, as on the Graph API.
  row.date_start = g.bucket.since;
  row.date_stop = g.bucket.until;
  return row;
}
