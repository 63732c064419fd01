import { orderRowSchema, type OrderCohortResult, type OrderDailyRow, type OrderDetail, type OrderRow } from '@ads/contracts';
import type { Handlers, RequestOf, ResponseOf } from './mock-api';

/** A full order row (contract-valid) from a few fields. */
export function buildOrder(o: Partial<OrderRow> & { id: number; order_no: string }): OrderRow {
  return orderRowSchema.parse({
    site_id: 1,
    site_name: 'Drama One',
    status: 'paid',
    amount: '10.00',
    refunded_amount: '0.00',
    currency: 'USD',
    paid_usd: 10,
    refunded_usd: 0,
    usd_amount: 10,
    paid_at: '2026-11-20T01:00:00.000Z',
    paid_day: '2026-11-20',
    refunded_at: null,
    app_user_id: `u${o.id}`,
    is_new_payer: true,
    country: 'US',
    campaign_id: null,
    adset_id: null,
    ad_id: null,
    campaign: null,
    ad: null,
    attribution_source: null,
    drama_id: null,
    drama_external_id: null,
    drama_name: null,
    episode: null,
    product_id: null,
    product_external_id: null,
    product_name: null,
    quantity: null,
    source: 'webhook',
    ...o,
  });
}

const cents = (v: number) => Math.round(v * 100);
const major = (c: number) => (c / 100).toFixed(2);

interface Options {
  orders: OrderRow[];
  details?: Record<number, OrderDetail>;
  daily?: OrderDailyRow[];
  cohort?: OrderCohortResult;
}

/**
 * A small in-memory order server for screen tests: the list filters its orders by a few fields
 * and answers totals computed from every matching order (so they equal the rows), per currency;
 * the analysis answers the given day rows with their sums, and the given cohort triangle.
 */
export function ordersBackend({ orders, details = {}, daily = [], cohort }: Options) {
  const list = (b: RequestOf<'/orders/list'>): ResponseOf<'/orders/list'> => {
    let rows = orders;
    if (b.status) rows = rows.filter((o) => o.status === b.status);
    if (b.site_id !== undefined) rows = rows.filter((o) => o.site_id === b.site_id);
    if (b.country) rows = rows.filter((o) => o.country === b.country);
    if (b.order_no) rows = rows.filter((o) => o.order_no === b.order_no);
    if (b.attributed !== undefined) rows = rows.filter((o) => (o.attribution_source !== null) === b.attributed);
    if (b.new_payer !== undefined) rows = rows.filter((o) => o.is_new_payer === b.new_payer);
    const byCurrency = new Map<string, { orders: number; amount: number; refunded: number }>();
    for (const o of rows) {
      const c = byCurrency.get(o.currency) ?? { orders: 0, amount: 0, refunded: 0 };
      c.orders += 1;
      c.amount += cents(Number(o.amount));
      c.refunded += cents(Number(o.refunded_amount));
      byCurrency.set(o.currency, c);
    }
    const sum = (f: (o: OrderRow) => number | null) => rows.reduce((s, o) => s + cents(f(o) ?? 0), 0) / 100;
    return {
      list: rows.slice((b.page - 1) * b.page_size, b.page * b.page_size),
      total: rows.length,
      summary: {
        orders: rows.length,
        new_payers: rows.filter((o) => o.is_new_payer).length,
        paid_usd: sum((o) => o.paid_usd),
        refunded_usd: sum((o) => o.refunded_usd),
        usd_amount: sum((o) => o.usd_amount),
        without_rate: rows.filter((o) => o.paid_usd === null).length,
        currencies: [...byCurrency].map(([currency, c]) => ({ currency, orders: c.orders, amount: major(c.amount), refunded_amount: major(c.refunded), net_amount: major(c.amount - c.refunded) })),
      },
      report_timezone: 'Asia/Shanghai',
    };
  };

  const dailyAnswer = (b: RequestOf<'/orders/daily'>): ResponseOf<'/orders/daily'> => {
    const add = (k: 'orders' | 'paid_usd' | 'refunds_usd' | 'refunds' | 'revenue_usd' | 'payers' | 'new_payers') => daily.reduce((s, d) => s + cents(d[k]), 0) / 100;
    const totals = { orders: add('orders'), paid_usd: add('paid_usd'), refunds_usd: add('refunds_usd'), refunds: add('refunds'), revenue_usd: add('revenue_usd'), payers: add('payers'), new_payers: add('new_payers'), arppu: null as number | null };
    totals.arppu = totals.payers ? totals.revenue_usd / totals.payers : null;
    const days = [...new Set(daily.map((d) => d.day))].sort();
    return {
      list: daily.slice((b.page - 1) * b.page_size, b.page * b.page_size),
      total: daily.length,
      totals,
      chart: days.map((day) => {
        const of = daily.filter((d) => d.day === day);
        const s = (k: 'orders' | 'paid_usd' | 'refunds_usd' | 'refunds' | 'revenue_usd' | 'payers' | 'new_payers') => of.reduce((a, d) => a + d[k], 0);
        return { day, orders: s('orders'), paid_usd: s('paid_usd'), refunds_usd: s('refunds_usd'), refunds: s('refunds'), revenue_usd: s('revenue_usd'), payers: s('payers'), new_payers: s('new_payers'), arppu: null };
      }),
      split_series: [],
      report_timezone: 'Asia/Shanghai',
    };
  };

  const handlers: Handlers = {
    '/orders/list': list,
    '/orders/export': () => 'xlsx',
    '/orders/detail': (b) => details[b.id] ?? { ...(Object.values(details)[0] as OrderDetail), order: orders.find((o) => o.id === b.id) ?? orders[0]! },
    '/orders/options': (b) =>
      b.kind === 'site'
        ? [
            { value: '1', label: 'Drama One', hint: 'drama.example.com' },
            { value: '2', label: 'Drama Two', hint: 'two.example.com' },
          ]
        : b.kind === 'country'
          ? [{ value: 'US', label: 'US', hint: null }]
          : [],
    '/orders/daily': dailyAnswer,
    '/orders/daily_export': () => 'xlsx',
    '/orders/cohort': (b) => (cohort ? { ...cohort, metric: b.metric ?? 'revenue' } : { metric: 'revenue', today: '2026-11-20', rows: [], totals: { new_payers: 0, revenue_usd: [], spend_usd: [] }, spend_available: false, report_timezone: 'Asia/Shanghai' }),
    '/orders/cohort_export': () => 'xlsx',
  };
  return { handlers };
}
