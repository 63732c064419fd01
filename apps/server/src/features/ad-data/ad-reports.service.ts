import { factColumnsOf, METRIC_KEYS, metricChange, metricValue, notMaturedMetrics, textIn, type AdHourlyResult, type AdReportBody, type AdReportResult, type AdReportRow, type FactSums, type Lang, type MetricKey } from '@ads/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { adHourlyBodySchema } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Jobs } from '../../jobs/types.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { adAccountsOfUsers, assertWithin, seesEverything, visibleAdAccountIds, visibleUserIds, type ScopeActor } from '../../lib/scope.ts';
import { addDays, dayIn, startOfDay } from '../../lib/tz.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { AD_ACCOUNT_SYNC_JOB, type AdAccountSyncData } from './ad-data.jobs.ts';
import { insightsSyncedAsOf, previousSums, reportRows, usesCampaignRollup, type ReportRowRaw, type ReportFilters, type ReportQuery, type ReportScope } from './ad-reports.repository.ts';
import { rateLookup } from './ad-sync.service.ts';
import { refreshRollups } from './dim-rollups.ts';
import { drainCohortRange } from '../orders/orders.service.ts';

// Reports of ad data (issue 7 screens): rows by optimizer, ad account, campaign, ad set or ad for
// a range of report days, every registry metric computed from the rows' sums, totals over every
// matching row, the previous period, the hourly chart, "data as of", and "sync now". Data scope
// (design §5) is applied to facts and objects before anything else.

export interface AdReportDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
  reportTimezone: string;
}

type HourlyBody = z.infer<typeof adHourlyBodySchema>;

const MAX_RANGE_DAYS = 400;
/**
 * Logged (day, ad account) pairs a campaign-rollup view rebuilds before reading (as the dimension
 * reports do): what arrived since the job's last run is shown at once; a larger backlog is left to
 * the job (every 2 minutes). When nothing is logged in the range this is one indexed lookup.
 */
const READ_REFRESH_PAIRS = 300;
const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/** Every metric's value from the sums; those outside `shown` (not summed) are null. */
function valuesOf(sums: FactSums, shown: ReadonlySet<MetricKey> | null): Record<MetricKey, number | null> {
  return Object.fromEntries(METRIC_KEYS.map((k) => [k, shown && !shown.has(k) ? null : metricValue(k, sums)])) as Record<MetricKey, number | null>;
}

/** What the caller may see of ad data: their ad accounts or their people's objects (null = all). */
export async function reportScope(db: Db, actor: ScopeActor): Promise<ReportScope> {
  if (seesEverything(actor)) return { adAccountIds: null, userIds: null };
  const userIds = (await visibleUserIds(db, actor)) ?? [];
  return { adAccountIds: await adAccountsOfUsers(db, userIds), userIds };
}

/** One answer row from its raw sums; `prevValues` (the previous period's metrics) adds the change in %. */
function reportRow(r: ReportRowRaw, prevValues: Record<MetricKey, number | null> | null, shown: ReadonlySet<MetricKey> | null): AdReportRow {
  const metricsNow = valuesOf(r.sums, shown);
  return {
    id: r.key,
    name: r.name,
    platform_id: r.platform_id,
    ad_account: r.ad_account_id === null ? null : { id: r.ad_account_id, name: r.account_name ?? '', currency: r.account_currency ?? '', timezone_name: r.account_timezone ?? '' },
    owner: r.owner_id === null ? null : { id: r.owner_id, name: r.owner_name ?? '' },
    status: r.status,
    effective_status: r.effective_status,
    deleted: r.deleted,
    budget_level: r.budget_level,
    daily_budget_minor: r.daily_budget_minor,
    lifetime_budget_minor: r.lifetime_budget_minor,
    bid_amount_minor: r.bid_amount_minor,
    currency: r.currency,
    drama_id: r.drama_id,
    product_id: r.product_id,
    metrics: metricsNow,
    previous: prevValues,
    change: prevValues ? (Object.fromEntries(METRIC_KEYS.map((k) => [k, metricChange(metricsNow[k], prevValues[k])])) as Record<MetricKey, number | null>) : null,
  };
}

export function createAdReportService({ db, clock, jobs, reportTimezone }: AdReportDeps) {
  /**
   * The metrics a call computes: the columns it shows (`columns`) and its sort; null = all of them.
   * Only their fact columns are summed, which is most of a report's cost.
   */
  function shownOf(body: AdReportBody, fallback?: readonly MetricKey[]): ReadonlySet<MetricKey> | null {
    const keys = body.columns?.length ? body.columns : fallback;
    if (!keys) return null;
    const sortField = body.sort_field ?? 'spend';
    return new Set<MetricKey>(sortField === 'name' ? keys : [...keys, sortField]);
  }

  async function queryOf(actor: ScopeActor, body: AdReportBody, shown: ReadonlySet<MetricKey> | null): Promise<ReportQuery> {
    if (body.date_from > body.date_to) throw new AppError('VALIDATION', { detail: 'date_from > date_to' }, 'date_from');
    if (dayCount(body.date_from, body.date_to) > MAX_RANGE_DAYS) throw new AppError('VALIDATION', { detail: `≤ ${MAX_RANGE_DAYS} days` }, 'date_to');
    let scope = await reportScope(db, actor);
    // The optimizer view shows people: staff themselves, leaders their department, managers everyone.
    if (body.level === 'optimizer' && scope.userIds !== null) scope = { adAccountIds: [], userIds: scope.userIds };
    const filters: ReportFilters = {
      platform: body.platform,
      adAccountIds: body.ad_account_ids,
      ownerUserId: body.owner_user_id,
      campaignId: body.campaign_id,
      adsetId: body.adset_id,
      status: body.status,
      keyword: body.keyword,
      dramaId: body.drama_id,
      productId: body.product_id,
    };
    const sortField = body.sort_field ?? 'spend';
    return {
      level: body.level,
      from: body.date_from,
      to: body.date_to,
      filters,
      scope,
      sort: { field: sortField, order: body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : sortField === 'name' ? 'asc' : 'desc' },
      limit: body.page_size,
      offset: (body.page - 1) * body.page_size,
      today: dayIn(clock.now().getTime(), reportTimezone),
      ...(shown && { columns: factColumnsOf([...shown]) }),
    };
  }

  async function asOf(scope: ReportScope): Promise<string | null> {
    const at = await insightsSyncedAsOf(db, scope);
    return at ? new Date(at).toISOString() : null;
  }

  /**
   * What arrived and is only logged yet, brought in before reading: the order facts of the range
   * and of the period before it (the comparison's; intakes only log what they change,
   * orders/cohorts.ts), then the campaign rollups of the optimizer, account and campaign views
   * from `from`. Asked of both logs in one statement: with nothing logged (the usual case) that is
   * the whole cost.
   */
  async function freshen(q: ReportQuery, from: string) {
    const cohortsFrom = addDays(q.from, -dayCount(q.from, q.to));
    const rollups = usesCampaignRollup(q.level);
    const { rows } = await sql<{ cohorts: boolean; rollups: boolean }>`select
      exists (select 1 from ad_order_dirty where day >= ${cohortsFrom} and day <= ${q.to}) as cohorts,
      ${rollups ? sql`exists (select 1 from ad_dim_dirty where day >= ${from} and day <= ${q.to})` : sql`false`} as rollups`.execute(db);
    const pending = rows[0];
    if (pending?.cohorts) await drainCohortRange(db, cohortsFrom, q.to);
    // A drain logs the rollup pairs it changes.
    if (rollups && (pending?.cohorts || pending?.rollups)) await refreshRollups(db, { maxPairs: READ_REFRESH_PAIRS, from, to: q.to });
  }

  async function list(actor: ScopeActor, body: AdReportBody): Promise<AdReportResult> {
    const shown = shownOf(body);
    const q = await queryOf(actor, body, shown);
    const n = dayCount(q.from, q.to);
    await freshen(q, body.compare ? addDays(q.from, -n) : q.from);
    const { rows, total, totals } = await reportRows(db, q);
    let previous: Awaited<ReturnType<typeof previousSums>> | null = null;
    let previousRange: { date_from: string; date_to: string } | null = null;
    if (body.compare) {
      previousRange = { date_from: addDays(q.from, -n), date_to: addDays(q.from, -1) };
      previous = await previousSums(db, q, previousRange.date_from, previousRange.date_to, rows.map((r) => r.key));
    }
    const list = rows.map((r) => {
      const prevSums = previous ? (previous.byKey.get(r.key) ?? {}) : null;
      return reportRow(r, prevSums ? valuesOf(prevSums, shown) : null, shown);
    });
    return {
      list,
      total,
      totals: valuesOf(totals, shown),
      previous_totals: previous ? valuesOf(previous.totals, shown) : null,
      previous_range: previousRange,
      not_matured: notMaturedMetrics(q.from, q.today),
      previous_not_matured: previousRange ? notMaturedMetrics(previousRange.date_from, q.today) : [],
      as_of: await asOf(q.scope),
      report_timezone: reportTimezone,
    };
  }

  return {
    list: (ctx: RequestContext, body: AdReportBody) => list(ctx.actor, body),

    /** The rows of an export: the same query, a slice of the matching rows. */
    async exportRows(ctx: RequestContext, body: AdReportBody, page: { limit: number; offset: number }, keys: readonly MetricKey[]): Promise<AdReportRow[]> {
      const shown = shownOf(body, keys);
      const q = await queryOf(ctx.actor, body, shown);
      // Brought up to date once, before the first page: the later pages read the same figures.
      if (page.offset === 0) await freshen(q, q.from);
      const { rows } = await reportRows(db, { ...q, limit: page.limit, offset: page.offset });
      return rows.map((r) => reportRow(r, null, shown));
    },

    /** Spend (USD), impressions and clicks per report-zone hour of a day and of the day before, for one row (or everything in scope). */
    async hourly(ctx: RequestContext, body: HourlyBody): Promise<AdHourlyResult> {
      const scope = await reportScope(db, ctx.actor);
      const previousDay = addDays(body.day, -1);
      const from = startOfDay(previousDay, reportTimezone);
      const mid = startOfDay(body.day, reportTimezone);
      const to = startOfDay(addDays(body.day, 1), reportTimezone);
      let q = db
        .selectFrom('ad_insights_hourly as h')
        .innerJoin('ads as a', 'a.id', 'h.ad_id')
        .innerJoin('ad_accounts as acc', 'acc.id', 'a.ad_account_id')
        .select(['h.hour', 'acc.currency', (eb) => eb.fn.sum<number>('h.spend_minor').as('spend'), (eb) => eb.fn.sum<number>('h.impressions').as('impressions'), (eb) => eb.fn.sum<number>('h.clicks').as('clicks')])
        .where('h.hour', '>=', new Date(from))
        .where('h.hour', '<', new Date(to))
        .groupBy(['h.hour', 'acc.currency']);
      if (scope.adAccountIds !== null || scope.userIds !== null) {
        const accounts = scope.adAccountIds?.length ? scope.adAccountIds : [0];
        const users = scope.userIds?.length ? scope.userIds : [0];
        q = q.where((eb) => eb.or([eb('a.ad_account_id', 'in', accounts), eb('a.owner_user_id', 'in', users)]));
      }
      if (body.id !== undefined) {
        const column = { optimizer: 'a.owner_user_id', account: 'a.ad_account_id', campaign: 'a.campaign_id', adset: 'a.adset_id', ad: 'a.id' } as const;
        q = body.level === 'optimizer' && body.id === 0 ? q.where('a.owner_user_id', 'is', null) : q.where(column[body.level], '=', body.id);
      }
      const rows = await q.execute();
      const rates = new Map<string, (day: string) => number | null>();
      for (const c of new Set(rows.map((r) => r.currency))) rates.set(c, await rateLookup(db, c, body.day));
      const series = Array.from({ length: 24 }, (_, hour) => ({ hour, spend: 0, impressions: 0, clicks: 0, previous_spend: 0, previous_impressions: 0, previous_clicks: 0 }));
      for (const r of rows) {
        const t = new Date(r.hour).getTime();
        const isToday = t >= mid;
        const hour = Math.min(23, Math.floor((t - (isToday ? mid : from)) / 3_600_000));
        const day = isToday ? body.day : previousDay;
        const rate = rates.get(r.currency)?.(day) ?? null;
        const usd = rate ? Number(r.spend) / currencyOffset(r.currency) / rate : 0;
        const point = series[hour]!;
        if (isToday) {
          point.spend += usd;
          point.impressions += Number(r.impressions);
          point.clicks += Number(r.clicks);
        } else {
          point.previous_spend += usd;
          point.previous_impressions += Number(r.impressions);
          point.previous_clicks += Number(r.clicks);
        }
      }
      for (const p of series) {
        p.spend = Math.round(p.spend * 100) / 100;
        p.previous_spend = Math.round(p.previous_spend * 100) / 100;
      }
      return { day: body.day, previous_day: previousDay, series };
    },

    /** Queues a sync of today and yesterday for the ad accounts in view (or the given ones); each is a task of the caller. */
    async syncNow(ctx: RequestContext, body: { ad_account_ids?: number[] }): Promise<{ task_ids: number[]; ad_accounts: number }> {
      const visible = await visibleAdAccountIds(db, ctx.actor);
      let ids = body.ad_account_ids;
      if (ids) assertWithin(visible, ids);
      else {
        let q = db.selectFrom('ad_accounts').select('id').orderBy('id').limit(500);
        if (visible !== null) q = q.where('id', 'in', visible.length ? visible : [0]);
        ids = (await q.execute()).map((r) => r.id);
      }
      const taskIds: number[] = [];
      for (const id of ids) {
        taskIds.push(await jobs.enqueue(AD_ACCOUNT_SYNC_JOB, { ad_account_id: id, mode: 'recent' } satisfies AdAccountSyncData, { key: `ad_account:${id}`, singletonKey: `ad-sync:recent:${id}`, createdBy: ctx.actor.id }));
      }
      return { task_ids: taskIds, ad_accounts: ids.length };
    },
  };
}

export type AdReportService = ReturnType<typeof createAdReportService>;

/** A bilingual reason in the reader's language. */
export const inLang = (text: { zh: string; en: string } | null, lang: Lang) => (text ? textIn(text, lang) : null);
