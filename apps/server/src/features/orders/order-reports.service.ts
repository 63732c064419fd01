import {
  COHORT_MAX_AGE,
  IS_ADMIN_SUPER,
  metricValue,
  type ListOrdersBody,
  type OrderCohortBody,
  type OrderCohortResult,
  type OrderDailyBody,
  type OrderDailyFigures,
  type OrderDailyResult,
  type OrderDailyRow,
  type OrderDetail,
  type OrderListResult,
  type OrderOption,
  type OrderOptionKind,
  type OrderRow,
  type OrderSplit,
} from '@ads/contracts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ScopeActor } from '../../lib/scope.ts';
import { addDays, dayIn, daysBetween } from '../../lib/tz.ts';
import { readLanding } from './ingest.ts';
import { formatAmount } from './order-event.ts';
import {
  cohortFacts,
  dailyFacts,
  findOrder,
  listOrders,
  orderContext,
  orderOptions,
  spendByDay,
  type DailyFigures,
  type DailyRowRaw,
  type OrderFilters,
  type OrderRowRaw,
  type OrderSortField,
} from './order-reports.repository.ts';

// The order screens (issue 9 "Screens"): 订单列表 with its totals, export and an order's detail,
// and 订单分析 (figures per day, split, chart, cohort triangle). Orders are company data of the
// /admin area (PRODUCT.md "Data scope"): only the super admin sees them, checked on every call
// here as well as by the permission paths.

export interface OrderReportDeps {
  db: Db;
  clock: Clock;
  reportTimezone: string;
}

/** Longest range of the list and the daily figures, and of the cohort triangle (days). */
const MAX_RANGE_DAYS = 400;
const MAX_COHORT_DAYS = 181;
/** Keys of a split drawn as their own series in the chart; the rest are added up as one. */
const CHART_KEYS = 6;

const dayCount = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
const usd = (cents: number) => cents / 100;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Orders are the super admin's (the /admin area); nobody else, whatever paths a role may carry. */
function assertOrderScope(actor: ScopeActor) {
  if (actor.is_admin !== IS_ADMIN_SUPER) throw new AppError('FORBIDDEN_SCOPE');
}

function checkRange(from: string | undefined, to: string | undefined, max: number, field: string) {
  if (!from || !to) return;
  if (from > to) throw new AppError('ORDER_RANGE_REVERSED', {}, field);
  if (dayCount(from, to) > max) throw new AppError('ORDER_RANGE_TOO_LONG', { days: max }, field);
}

export function toOrderRow(r: OrderRowRaw): OrderRow {
  return {
    id: r.id,
    site_id: r.site_id,
    site_name: r.site_name,
    order_no: r.order_no,
    status: r.status,
    amount: formatAmount(r.amount_minor, r.currency),
    refunded_amount: formatAmount(r.refunded_minor, r.currency),
    currency: r.currency,
    paid_usd: r.amount_usd_cents === null ? null : usd(r.amount_usd_cents),
    refunded_usd: usd(r.refunded_usd_cents),
    usd_amount: r.amount_usd_cents === null ? null : usd(r.amount_usd_cents - r.refunded_usd_cents),
    paid_at: iso(r.paid_at)!,
    paid_day: r.paid_day,
    refunded_at: iso(r.refunded_at),
    app_user_id: r.app_user_id,
    is_new_payer: r.is_new_payer,
    country: r.country,
    campaign_id: r.campaign_platform_id,
    adset_id: r.adset_platform_id,
    ad_id: r.ad_platform_id,
    campaign: r.campaign_ref_id === null ? null : { id: r.campaign_ref_id, name: r.campaign_name ?? '' },
    ad: r.ad_ref_id === null ? null : { id: r.ad_ref_id, name: r.ad_name ?? '' },
    attribution_source: r.attribution_source,
    drama_id: r.drama_id,
    drama_external_id: r.drama_external_id,
    drama_name: r.drama_name,
    episode: r.episode,
    product_id: r.product_id,
    product_external_id: r.product_external_id,
    product_name: r.product_name,
    quantity: r.quantity,
    source: r.source,
  };
}

function filtersOf(body: ListOrdersBody): OrderFilters {
  return {
    from: body.paid_from,
    to: body.paid_to,
    siteId: body.site_id,
    dramaId: body.drama_id,
    productId: body.product_id,
    country: body.country,
    attributed: body.attributed,
    orderNo: body.order_no,
    appUserId: body.app_user_id,
    status: body.status,
    newPayer: body.new_payer,
    campaignId: body.campaign_id,
    adId: body.ad_id,
    minCents: body.amount_min === undefined ? undefined : Math.round(body.amount_min * 100),
    maxCents: body.amount_max === undefined ? undefined : Math.round(body.amount_max * 100),
  };
}

/** A day's (or a total's) figures; revenue and ARPPU as the metric registry defines them. */
export function figures(f: DailyFigures): OrderDailyFigures {
  const sums = { revenue_usd_cents: f.paid_cents - f.refunds_cents, payers: f.payers };
  return {
    orders: f.orders,
    paid_usd: usd(f.paid_cents),
    refunds_usd: usd(f.refunds_cents),
    refunds: f.refunds,
    revenue_usd: metricValue('revenue', sums)!,
    payers: f.payers,
    new_payers: f.new_payers,
    arppu: metricValue('arppu', sums),
  };
}

function splitKey(split: OrderSplit, key: string | null, name: string | null) {
  if (split === 'none') return null;
  if (split === 'country') return { id: null, code: key, name: key ?? '' };
  return { id: key === null ? null : Number(key), code: null, name: name ?? (key === null ? '' : `#${key}`) };
}

const dailyRow = (split: OrderSplit, r: DailyRowRaw): OrderDailyRow => ({ day: r.day, key: splitKey(split, r.key, r.name), ...figures(r) });

type DailySortField = 'day' | 'key' | 'orders' | 'paid_usd' | 'refunds_usd' | 'revenue_usd' | 'payers' | 'new_payers' | 'arppu';

const ZERO: DailyFigures = { orders: 0, paid_cents: 0, refunds_cents: 0, refunds: 0, payers: 0, new_payers: 0 };

function addUp(rows: readonly DailyFigures[]): DailyFigures {
  const t = { ...ZERO };
  for (const r of rows) {
    t.orders += r.orders;
    t.paid_cents += r.paid_cents;
    t.refunds_cents += r.refunds_cents;
    t.refunds += r.refunds;
    t.payers += r.payers;
    t.new_payers += r.new_payers;
  }
  return t;
}

/** The value a day row sorts by (null last whichever the direction). */
function sortValue(r: DailyRowRaw, field: DailySortField): number | string | null {
  switch (field) {
    case 'day':
      return r.day;
    case 'key':
      return r.name ?? r.key;
    case 'paid_usd':
      return r.paid_cents;
    case 'refunds_usd':
      return r.refunds_cents;
    case 'revenue_usd':
      return r.paid_cents - r.refunds_cents;
    case 'arppu':
      return r.payers ? (r.paid_cents - r.refunds_cents) / r.payers : null;
    default:
      return r[field];
  }
}

/** Sorted by the field; ties by day (newest first), then the key's name, so pages never overlap. */
function sortDaily(rows: DailyRowRaw[], field: DailySortField, order: 'asc' | 'desc'): DailyRowRaw[] {
  const dir = order === 'asc' ? 1 : -1;
  const cmp = (a: number | string | null, b: number | string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -dir : dir);
  const text = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
  return [...rows].sort((a, b) => cmp(sortValue(a, field), sortValue(b, field)) || (field === 'day' ? 0 : b.day.localeCompare(a.day)) || text(a.name ?? a.key, b.name ?? b.key));
}

export function createOrderReportService({ db, clock, reportTimezone }: OrderReportDeps) {
  const today = () => dayIn(clock.now().getTime(), reportTimezone);

  function listQuery(ctx: RequestContext, body: ListOrdersBody) {
    assertOrderScope(ctx.actor);
    checkRange(body.paid_from, body.paid_to, MAX_RANGE_DAYS, 'paid_to');
    const sort = (body.sort_field ?? 'paid_at') as OrderSortField;
    const order: 'asc' | 'desc' = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : sort === 'order_no' || sort === 'country' ? 'asc' : 'desc';
    return { filters: filtersOf(body), sort, order };
  }

  function dailyQuery(ctx: RequestContext, body: OrderDailyBody) {
    assertOrderScope(ctx.actor);
    checkRange(body.date_from, body.date_to, MAX_RANGE_DAYS, 'date_to');
    const split = body.split ?? 'none';
    const sort = (body.sort_field ?? 'day') as DailySortField;
    const order: 'asc' | 'desc' = body.sort_order === 'ascend' ? 'asc' : body.sort_order === 'descend' ? 'desc' : sort === 'key' ? 'asc' : 'desc';
    const filters: OrderFilters = { siteId: body.site_id, dramaId: body.drama_id, productId: body.product_id, country: body.country, attributed: body.attributed };
    return { from: body.date_from, to: body.date_to, split, filters, sort, order };
  }

  return {
    async list(ctx: RequestContext, body: ListOrdersBody): Promise<OrderListResult> {
      const q = listQuery(ctx, body);
      const { rows, total, totals } = await listOrders(db, q.filters, { limit: body.page_size, offset: (body.page - 1) * body.page_size, sort: q.sort, order: q.order });
      return {
        list: rows.map(toOrderRow),
        total,
        summary: {
          orders: totals.orders,
          new_payers: totals.new_payers,
          paid_usd: usd(totals.paid_cents),
          refunded_usd: usd(totals.refunded_cents),
          usd_amount: usd(totals.net_cents),
          without_rate: totals.without_rate,
          currencies: totals.currencies.map((c) => ({
            currency: c.currency,
            orders: c.orders,
            amount: formatAmount(c.amount_minor, c.currency),
            refunded_amount: formatAmount(c.refunded_minor, c.currency),
            net_amount: formatAmount(c.amount_minor - c.refunded_minor, c.currency),
          })),
        },
        report_timezone: reportTimezone,
      };
    },

    /** A slice of the matching orders, in the list's order (the export). */
    async exportRows(ctx: RequestContext, body: ListOrdersBody, page: { limit: number; offset: number }): Promise<OrderRow[]> {
      const q = listQuery(ctx, body);
      const { rows } = await listOrders(db, q.filters, { ...page, sort: q.sort, order: q.order });
      return rows.map(toOrderRow);
    },

    async detail(ctx: RequestContext, id: number): Promise<OrderDetail> {
      assertOrderScope(ctx.actor);
      const o = await findOrder(db, id);
      if (!o) throw new AppError('ORDER_NOT_FOUND', {}, 'id');
      const c = await orderContext(db, o);
      const b = c.buyer;
      const landing = b.landing_url ? readLanding(c.linkTemplate, b.landing_url) : null;
      const parsed = landing
        ? {
            campaign_id: landing.attribution?.campaign_platform_id ?? null,
            adset_id: landing.attribution?.adset_platform_id ?? null,
            ad_id: landing.attribution?.ad_platform_id ?? null,
            drama_id: landing.drama_id,
            episode: landing.episode,
            product_id: landing.product_id,
          }
        : null;
      const ref = (x: { id: number; name: string; platform_id: string } | undefined) => (x ? { id: x.id, name: x.name, platform_id: x.platform_id } : null);
      return {
        order: toOrderRow(o),
        unit_price: o.unit_price_minor === null ? null : formatAmount(o.unit_price_minor, o.currency),
        landing_url: o.landing_url,
        user_registered_at: iso(o.user_registered_at),
        attribution: {
          source: b.attribution_source,
          landing_url: b.landing_url,
          attributed_paid_at: iso(b.attributed_paid_at),
          link_template: c.linkTemplate,
          parsed: parsed && Object.values(parsed).some((v) => v !== null) ? parsed : null,
          campaign: ref(c.campaign),
          adset: ref(c.adset),
          ad: ref(c.ad),
          ad_account: ref(c.account),
          owner: c.owner ? { id: c.owner.id, name: c.owner.name } : null,
        },
        buyer: {
          app_user_id: b.app_user_id,
          registered_at: iso(b.registered_at),
          country: b.country,
          first_order: { id: c.firstOrderId, order_no: b.first_order_no, paid_at: iso(b.first_paid_at)! },
          acquisition_day: String(b.acquisition_day),
          orders: c.buyerOrders,
          paid_usd: usd(c.buyerPaidCents),
          usd_amount: usd(c.buyerNetCents),
        },
        refunds: c.refunds.map((r) => ({
          id: r.id,
          amount: formatAmount(r.amount_minor, r.currency),
          currency: r.currency,
          usd: r.amount_usd_cents === null ? null : usd(r.amount_usd_cents),
          refunded_at: iso(r.refunded_at)!,
          refund_day: r.refund_day,
        })),
        events: c.events.map((e) => ({ id: e.id, event: e.event, source: e.source, received_at: iso(e.received_at)!, delivery_id: e.delivery_id, payload: e.payload })),
      };
    },

    async daily(ctx: RequestContext, body: OrderDailyBody): Promise<OrderDailyResult> {
      const q = dailyQuery(ctx, body);
      const all = sortDaily(await dailyFacts(db, q.from, q.to, q.split, q.filters), q.sort, q.order);
      const offset = (body.page - 1) * body.page_size;
      // The chart: every day of the range (all keys added up), days without figures as zeros.
      const days = daysBetween(q.from, q.to);
      const index = new Map(days.map((d, i) => [d, i]));
      const perDay = days.map(() => [] as DailyRowRaw[]);
      for (const r of all) perDay[index.get(r.day)!]!.push(r);
      const chart = days.map((day, i) => ({ day, ...figures(addUp(perDay[i]!)) }));
      // Split series: revenue of the keys with the most over the range, the rest as one series.
      const byKey = new Map<string, { key: string | null; name: string | null; cents: number[]; total: number }>();
      if (q.split !== 'none') {
        for (const r of all) {
          const id = r.key ?? '';
          const k = byKey.get(id) ?? { key: r.key, name: r.name, cents: days.map(() => 0), total: 0 };
          k.cents[index.get(r.day)!]! += r.paid_cents - r.refunds_cents;
          k.total += r.paid_cents - r.refunds_cents;
          byKey.set(id, k);
        }
      }
      const ranked = [...byKey.values()].sort((a, b) => b.total - a.total);
      const rest = days.map(() => 0);
      for (const k of ranked.slice(CHART_KEYS)) k.cents.forEach((c, i) => (rest[i]! += c));
      return {
        list: all.slice(offset, offset + body.page_size).map((row) => dailyRow(q.split, row)),
        total: all.length,
        totals: figures(addUp(all)),
        chart,
        split_series: [
          ...ranked.slice(0, CHART_KEYS).map((k) => ({ key: splitKey(q.split, k.key, k.name), revenue_usd: k.cents.map(usd) })),
          ...(ranked.length > CHART_KEYS ? [{ key: null, revenue_usd: rest.map(usd) }] : []),
        ],
        report_timezone: reportTimezone,
      };
    },

    /** A slice of the daily rows (the export) and the totals of all of them. */
    async dailyExportRows(ctx: RequestContext, body: OrderDailyBody, page: { limit: number; offset: number }) {
      const q = dailyQuery(ctx, body);
      const all = sortDaily(await dailyFacts(db, q.from, q.to, q.split, q.filters), q.sort, q.order);
      return { rows: all.slice(page.offset, page.offset + page.limit).map((row) => dailyRow(q.split, row)), totals: figures(addUp(all)), total: all.length };
    },

    async cohort(ctx: RequestContext, body: OrderCohortBody): Promise<OrderCohortResult> {
      assertOrderScope(ctx.actor);
      checkRange(body.date_from, body.date_to, MAX_COHORT_DAYS, 'date_to');
      const now = today();
      const roi = body.metric === 'roi';
      // Days after today have no buyers yet.
      const to = body.date_to > now ? now : body.date_to;
      const from = body.date_from;
      const ages = COHORT_MAX_AGE + 1;
      // ROI: the buyers acquired through an ad, beside the spend of the ads of the same site / drama / product.
      // A buyer's country cannot be matched to spend (ads target several countries), so ROI by country has no spend.
      const spendAvailable = roi && !body.country;
      const facts = from <= to ? await cohortFacts(db, from, to, { siteId: body.site_id, dramaId: body.drama_id, productId: body.product_id, country: body.country, attributed: roi ? true : body.attributed }, COHORT_MAX_AGE) : { sizes: new Map<string, number>(), money: [] };
      const spend = spendAvailable && from <= to ? await spendByDay(db, from, to, { siteId: body.site_id, dramaId: body.drama_id, productId: body.product_id }) : null;
      const perDay = new Map<string, number[]>();
      for (const m of facts.money) {
        const list = perDay.get(m.day) ?? new Array<number>(ages).fill(0);
        list[m.age]! += m.cents;
        perDay.set(m.day, list);
      }
      const totalCents = new Array<number>(ages).fill(0);
      const totalSpend = new Array<number>(ages).fill(0);
      const matured = new Array<boolean>(ages).fill(false);
      let newPayers = 0;
      const rows = (from <= to ? daysBetween(from, to) : []).map((day) => {
        const byAge = perDay.get(day) ?? new Array<number>(ages).fill(0);
        const spendCents = spend ? (spend.get(day) ?? 0) : null;
        let cum = 0;
        const cells = byAge.map((cents, n) => {
          cum += cents;
          // Dn has matured once day+n has ended (before today).
          if (addDays(day, n) >= now) return null;
          totalCents[n]! += cum;
          totalSpend[n]! += spendCents ?? 0;
          matured[n] = true;
          return usd(cum);
        });
        const size = facts.sizes.get(day) ?? 0;
        newPayers += size;
        return { day, new_payers: size, spend_usd: spendCents === null ? null : usd(spendCents), revenue_usd: cells };
      });
      return {
        metric: roi ? 'roi' : 'revenue',
        today: now,
        rows,
        totals: {
          new_payers: newPayers,
          revenue_usd: totalCents.map((c, n) => (matured[n] ? usd(c) : null)),
          spend_usd: totalSpend.map((c, n) => (matured[n] && spend ? usd(c) : null)),
        },
        spend_available: spendAvailable,
        report_timezone: reportTimezone,
      };
    },

    async options(ctx: RequestContext, body: { kind: OrderOptionKind; keyword?: string }): Promise<OrderOption[]> {
      assertOrderScope(ctx.actor);
      return orderOptions(db, body.kind, body.keyword || undefined);
    },
  };
}

export type OrderReportService = ReturnType<typeof createOrderReportService>;
