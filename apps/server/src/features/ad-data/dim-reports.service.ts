import { METRIC_KEYS, metricValue, notMaturedMetrics, ORGANIC_DIMENSIONS, type DimReportBody, type DimReportResult, type DimReportRow, type FactSums, type MetricKey, type OrganicFigures } from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ScopeActor } from '../../lib/scope.ts';
import { dayIn } from '../../lib/tz.ts';
import { insightsSyncedAsOf } from './ad-reports.repository.ts';
import { reportScope } from './ad-reports.service.ts';
import { dimRows, type OrganicSums } from './dim-reports.repository.ts';
import { drainCohortRange } from '../orders/orders.service.ts';
import { refreshRollups } from './dim-rollups.ts';

// The ad-data report by dimension (docs/orders-design.md "Rollups by dimension"): rows per day,
// drama, product, material, editor, scheme, site or country with every registry metric, read
// from the rollups after bringing the range's pending changes in (bounded; the job does the rest).

const MAX_RANGE_DAYS = 400;
/** Pairs a request rebuilds before reading: enough for the minutes since the last job run, bounded for a backlog. */
const READ_REFRESH_PAIRS = 300;
const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

function valuesOf(sums: FactSums): Record<MetricKey, number | null> {
  return Object.fromEntries(METRIC_KEYS.map((k) => [k, metricValue(k, sums)])) as Record<MetricKey, number | null>;
}

/** Organic sums as shown: revenue in dollars (cents ÷ 100, as the registry's revenue). */
const organicView = (o: OrganicSums): OrganicFigures => ({ revenue: metricValue('revenue', { revenue_usd_cents: o.revenue_usd_cents }) ?? 0, orders: o.orders, payers: o.payers, new_payers: o.new_payers });

export function createDimReportService({ db, clock, reportTimezone }: { db: Db; clock: Clock; reportTimezone: string }) {
  async function report(actor: ScopeActor, body: DimReportBody): Promise<DimReportResult> {
    if (body.date_from > body.date_to) throw new AppError('VALIDATION', { detail: 'date_from > date_to' }, 'date_from');
    if (dayCount(body.date_from, body.date_to) > MAX_RANGE_DAYS) throw new AppError('VALIDATION', { detail: `≤ ${MAX_RANGE_DAYS} days` }, 'date_to');
    const scope = await reportScope(db, actor);
    const today = dayIn(clock.now().getTime(), reportTimezone);
    // Cohort facts of the range first: their changes mark the rollup pairs refreshed next.
    await drainCohortRange(db, body.date_from, body.date_to);
    const refreshed = await refreshRollups(db, { maxPairs: READ_REFRESH_PAIRS, from: body.date_from, to: body.date_to });
    // Organic orders belong to no ad account and no optimizer: only a company-wide view shows them.
    const organic = scope.adAccountIds === null && scope.userIds === null && ORGANIC_DIMENSIONS.includes(body.dimension) && !body.ad_account_ids?.length && body.owner_user_id === undefined;
    const field = body.sort_field ?? (body.dimension === 'day' ? 'name' : 'spend');
    const order = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : field === 'name' ? 'asc' : 'desc';
    const r = await dimRows(db, {
      dimension: body.dimension,
      from: body.date_from,
      to: body.date_to,
      today,
      scope,
      filters: { platform: body.platform, adAccountIds: body.ad_account_ids, ownerUserId: body.owner_user_id, dramaId: body.drama_id, productId: body.product_id },
      keyword: body.keyword,
      sort: { field, order },
      limit: body.page_size,
      offset: (body.page - 1) * body.page_size,
      organic,
    });
    const at = await insightsSyncedAsOf(db, scope);
    return {
      list: r.rows.map(
        (row): DimReportRow => ({ key: row.key, id: row.id, name: row.name, detail: row.detail, metrics: valuesOf(row.sums), orders: row.orders, organic: row.organic ? organicView(row.organic) : null }),
      ),
      total: r.total,
      totals: valuesOf(r.totals),
      totals_orders: r.totalOrders,
      organic_totals: r.organic ? organicView(r.organic) : null,
      not_matured: notMaturedMetrics(body.date_from, today),
      as_of: at ? new Date(at).toISOString() : null,
      pending: refreshed.more,
      report_timezone: reportTimezone,
    };
  }

  return {
    report: (ctx: RequestContext, body: DimReportBody) => report(ctx.actor, body),
  };
}

export type DimReportService = ReturnType<typeof createDimReportService>;
