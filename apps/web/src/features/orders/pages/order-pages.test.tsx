import { ADMIN_PATHS, IS_ADMIN_SUPER, type OrderCohortResult, type OrderDailyRow, type OrderDetail } from '@ads/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findDialog } from '@/testing/dom';
import { MockRefusal, mockApi } from '@/testing/mock-api';
import { buildOrder, ordersBackend } from '@/testing/orders-backend';
import { manager, renderScreen } from '@/testing/render';
import OrderDailyPage from './order-daily-page';
import OrderListPage from './order-list-page';

const superAdmin = { ...manager, id: 2, account: 'admin', name: 'Admin', is_admin: IS_ADMIN_SUPER, paths: [...ADMIN_PATHS] };

const orders = [
  buildOrder({
    id: 1,
    order_no: 'O-1',
    amount: '10.00',
    paid_usd: 10,
    usd_amount: 10,
    attribution_source: 'landing_url',
    campaign_id: '9101',
    adset_id: '9102',
    ad_id: '9103',
    campaign: { id: 5, name: 'US broad' },
    ad: { id: 7, name: 'Hook A' },
    drama_id: 3,
    drama_name: 'Lost Heiress',
    episode: 3,
  }),
  buildOrder({ id: 2, order_no: 'O-2', amount: '30.00', refunded_amount: '12.00', paid_usd: 30, refunded_usd: 12, usd_amount: 18, status: 'partially_refunded', is_new_payer: false, app_user_id: 'u1' }),
  buildOrder({ id: 3, order_no: 'P-1', amount: '50.00', currency: 'EUR', paid_usd: 62.5, usd_amount: 62.5, site_id: 2, site_name: 'Drama Two', country: 'DE', source: 'import' }),
];

const detail: OrderDetail = {
  order: { ...orders[1]!, attribution_source: 'landing_url', campaign_id: '9101', adset_id: '9102', ad_id: '9103' },
  unit_price: null,
  landing_url: null,
  user_registered_at: null,
  attribution: {
    source: 'landing_url',
    landing_url: 'https://drama.example.com/play/D1?c=9101&s=9102&a=9103',
    attributed_paid_at: '2026-11-01T00:00:00.000Z',
    link_template: 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}',
    parsed: { campaign_id: '9101', adset_id: '9102', ad_id: '9103', drama_id: 'D1', episode: null, product_id: null },
    campaign: { id: 5, name: 'US broad', platform_id: '9101' },
    adset: null,
    ad: { id: 7, name: 'Hook A', platform_id: '9103' },
    ad_account: { id: 9, name: 'US Drama 01', platform_id: 'act_111' },
    owner: { id: 4, name: 'Alice' },
  },
  buyer: { app_user_id: 'u1', registered_at: null, country: 'US', first_order: { id: 1, order_no: 'O-1', paid_at: '2026-11-01T00:00:00.000Z' }, acquisition_day: '2026-11-01', orders: 3, paid_usd: 35, usd_amount: 35 },
  refunds: [{ id: 1, amount: '12.00', currency: 'USD', usd: 12, refunded_at: '2026-11-02T05:00:00.000Z', refund_day: '2026-11-02' }],
  events: [
    { id: 11, event: 'order.paid', source: 'webhook', received_at: '2026-11-01T00:00:05.000Z', delivery_id: 3, payload: { event: 'order.paid', order_no: 'O-2', amount: '30.00' } },
    { id: 12, event: 'order.refunded', source: 'webhook', received_at: '2026-11-02T05:00:05.000Z', delivery_id: 4, payload: { event: 'order.refunded', order_no: 'O-2', amount: '12.00' } },
  ],
};

function setupList(url = '/admin/order/list', opts: Parameters<typeof ordersBackend>[0] = { orders, details: { 2: detail } }) {
  const api = mockApi(ordersBackend(opts).handlers);
  return { ...renderScreen(<OrderListPage />, { url, user: superAdmin }), api };
}

const dayMs = 86_400_000;
const daysApart = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / dayMs);

describe('order list', { timeout: 60_000 }, () => {
  it('shows the orders of the last 7 days with totals equal to the rows, in USD and per currency', async () => {
    const { api } = setupList();
    expect(screen.getByRole('heading', { name: 'Order list' })).toBeTruthy();
    await screen.findByText('O-1');
    const body = api.lastBody('/orders/list') as { paid_from: string; paid_to: string };
    expect(daysApart(body.paid_from, body.paid_to)).toBe(6);
    const totals = within(screen.getByTestId('totals-row'));
    expect(totals.getByText('Total: 3 orders')).toBeTruthy();
    // Net USD: 10 + 18 + 62.50.
    expect(totals.getByText('$90.50')).toBeTruthy();
    // Two currencies: the amount column says so, and the strip above lists each.
    expect(totals.getByTestId('mixed-amount').textContent).toBe('Mixed currencies');
    const perCurrency = screen.getByTestId('currency-totals').textContent;
    expect(perCurrency).toContain('USD: USD 40.00 (2 orders, USD 12.00 refunded)');
    expect(perCurrency).toContain('EUR: EUR 50.00 (1 order, EUR 0.00 refunded)');
    // An attributed order shows its campaign and ad; an organic one says so.
    const o1 = within(screen.getByText('O-1').closest('tr')!);
    expect(o1.getByText('US broad')).toBeTruthy();
    expect(o1.getByText('Lost Heiress · Ep. 3')).toBeTruthy();
    expect(within(screen.getByText('P-1').closest('tr')!).getByText('Organic')).toBeTruthy();
  });

  it('filters by status at once, keeps it in the URL, and looks an order number up over every day', async () => {
    const { api, user, router } = setupList();
    await screen.findByText('O-1');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByTitle('Partially refunded'));
    await waitFor(() => expect(api.lastBody('/orders/list')).toMatchObject({ status: 'partially_refunded' }));
    expect(router.state.location.search).toContain('status=partially_refunded');
    await waitFor(() => expect(screen.queryByText('O-1')).toBeNull());
    expect(within(screen.getByTestId('totals-row')).getByText('$18.00')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Order no.' }), 'O-2{Enter}');
    await waitFor(() => expect(api.lastBody('/orders/list')).toMatchObject({ order_no: 'O-2' }));
    expect(api.lastBody('/orders/list')).not.toHaveProperty('paid_from');
    expect(screen.getAllByText('Searching by order number or user id looks at every day').length).toBeGreaterThan(0);
  });

  it('opens an order: attribution read from the landing URL, the buyer, the refund and the raw events; then the first order', async () => {
    const { user, router } = setupList();
    await user.click(await screen.findByRole('button', { name: 'Open order O-2' }));
    const drawer = await findDialog('Order O-2');
    expect(router.state.location.search).toContain('order=2');
    expect(drawer.getByText("The buyer's landing URL read with the site's link template gave the campaign, ad set and ad ids")).toBeTruthy();
    const parsed = within(drawer.getByTestId('parsed-landing'));
    expect(parsed.getByText('Campaign id: 9101')).toBeTruthy();
    expect(parsed.getByText('Drama id: D1')).toBeTruthy();
    expect(drawer.getByText('US broad (9101)')).toBeTruthy();
    // The ad set is not mirrored yet: its id stands in.
    expect(drawer.getByText('Not synced (9102)')).toBeTruthy();
    expect(drawer.getByText('2026-11-01')).toBeTruthy();
    const events = drawer.getAllByTestId('raw-event');
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[1]!.textContent!)).toEqual({ event: 'order.refunded', order_no: 'O-2', amount: '12.00' });
    await user.click(drawer.getByRole('button', { name: 'Open first order O-1' }));
    await waitFor(() => expect(router.state.location.search).toContain('order=1'));
  });

  it('exports the shown columns with the filters of the list', async () => {
    const { api, user } = setupList('/admin/order/list?status=paid&paid_from=2026-11-01&paid_to=2026-11-20');
    await screen.findByText('O-1');
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await waitFor(() =>
      expect(api.lastBody('/orders/export')).toEqual({
        status: 'paid',
        paid_from: '2026-11-01',
        paid_to: '2026-11-20',
        columns: ['order_no', 'paid_at', 'amount', 'usd_amount', 'status', 'buyer', 'country', 'content', 'attribution'],
      }),
    );
  });

  it('says when there are no orders yet', async () => {
    setupList('/admin/order/list', { orders: [] });
    expect(await screen.findByText(/No orders in this period yet/)).toBeTruthy();
  });

  it('says when loading failed and loads again on retry', async () => {
    let fail = true;
    const backend = ordersBackend({ orders });
    mockApi({ ...backend.handlers, '/orders/list': (b) => (fail ? new MockRefusal('boom') : backend.handlers['/orders/list']!(b)) });
    const { user } = renderScreen(<OrderListPage />, { url: '/admin/order/list', user: superAdmin });
    expect(await screen.findByText('Failed to load')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('O-1')).toBeTruthy();
  });
});

const dailyRows: OrderDailyRow[] = [
  { day: '2026-11-03', key: null, orders: 1, paid_usd: 5, refunds_usd: 0, refunds: 0, revenue_usd: 5, payers: 1, new_payers: 0, arppu: 5 },
  { day: '2026-11-02', key: null, orders: 0, paid_usd: 0, refunds_usd: 12, refunds: 1, revenue_usd: -12, payers: 0, new_payers: 0, arppu: null },
  { day: '2026-11-01', key: null, orders: 3, paid_usd: 102.5, refunds_usd: 0, refunds: 0, revenue_usd: 102.5, payers: 3, new_payers: 3, arppu: 34.17 },
];

const N = null;
const cohort: OrderCohortResult = {
  metric: 'revenue',
  today: '2026-11-20',
  rows: [
    { day: '2026-11-18', new_payers: 1, spend_usd: 10, revenue_usd: [7, 7, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N] },
    { day: '2026-11-19', new_payers: 1, spend_usd: 5, revenue_usd: new Array(31).fill(null).map((_, n) => (n === 0 ? 4 : null)) },
  ],
  totals: { new_payers: 2, revenue_usd: [11, 7, ...new Array(29).fill(null)], spend_usd: [15, 10, ...new Array(29).fill(null)] },
  spend_available: true,
  report_timezone: 'Asia/Shanghai',
};

function setupDaily(url: string, opts: Partial<Parameters<typeof ordersBackend>[0]> = {}) {
  const api = mockApi(ordersBackend({ orders, daily: dailyRows, cohort, ...opts }).handlers);
  return { ...renderScreen(<OrderDailyPage />, { url, user: superAdmin }), api };
}

describe('order analysis', { timeout: 60_000 }, () => {
  it('shows each day with a totals row equal to the rows, a refund on its own day, and the chart', async () => {
    const { api } = setupDaily('/admin/order/daily?date_from=2026-11-01&date_to=2026-11-20');
    expect(screen.getByRole('heading', { name: 'Order analysis' })).toBeTruthy();
    await screen.findByText('2026-11-01');
    expect(api.lastBody('/orders/daily')).toMatchObject({ date_from: '2026-11-01', date_to: '2026-11-20', split: 'none' });
    const refundDay = within(screen.getByText('2026-11-02').closest('tr')!);
    expect(refundDay.getByText('-$12.00')).toBeTruthy();
    expect(refundDay.getByText('1 refund')).toBeTruthy();
    const totals = within(screen.getByTestId('totals-row'));
    // 5 − 12 + 102.50; orders 4; ARPPU of the total = revenue ÷ payers (95.50 ÷ 4).
    expect(totals.getByText('$95.50')).toBeTruthy();
    expect(totals.getByText('$23.88')).toBeTruthy();
    // ECharts loads with the chart, which may take a while on a busy machine.
    expect(await screen.findByTestId('daily-chart', {}, { timeout: 15_000 })).toBeTruthy();
  });

  it('splits by site: the body asks for it and a site column appears', async () => {
    const { api, user, router } = setupDaily('/admin/order/daily?date_from=2026-11-01&date_to=2026-11-20');
    await screen.findByText('2026-11-01');
    await user.click(screen.getByText('By site'));
    await waitFor(() => expect(api.lastBody('/orders/daily')).toMatchObject({ split: 'site' }));
    expect(router.state.location.search).toContain('split=site');
    expect(await screen.findByRole('columnheader', { name: /Site/ })).toBeTruthy();
  });

  it('shows the cohort triangle with days not matured said as such, never as numbers, and ROI against spend', async () => {
    const { api, user } = setupDaily('/admin/order/daily?date_from=2026-11-18&date_to=2026-11-20&view=cohort');
    const row = within((await screen.findByText('2026-11-18')).closest('tr')!);
    expect(row.getAllByText('$7.00')).toHaveLength(2);
    // Key days: D0, D1, D3, D7, D14, D30: of 11-18 only D0 and D1 have ended.
    expect(row.getAllByTestId('not-matured')).toHaveLength(4);
    const young = within(screen.getByText('2026-11-19').closest('tr')!);
    expect(young.getByText('$4.00')).toBeTruthy();
    expect(young.getAllByTestId('not-matured')).toHaveLength(5);
    const totals = within(screen.getByTestId('totals-row'));
    expect(totals.getByText('$11.00')).toBeTruthy();
    expect(totals.getAllByTestId('not-matured')).toHaveLength(4);

    await user.click(screen.getByText('ROI'));
    await waitFor(() => expect(api.lastBody('/orders/cohort')).toMatchObject({ metric: 'roi' }));
    // The total of D0: 11 ÷ 15.
    // ROI of a day: its Dn revenue ÷ its spend (D0 and D1 of 11-18: 7 ÷ 10).
    expect(await within(screen.getByText('2026-11-18').closest('tr')!).findAllByText('70.00%')).toHaveLength(2);
    expect(within(screen.getByTestId('totals-row')).getByText('73.33%')).toBeTruthy();

    await user.click(screen.getByText('Every day'));
    await user.click(screen.getByRole('button', { name: /Export/ }));
    await waitFor(() => expect(api.lastBody('/orders/cohort_export')).toMatchObject({ metric: 'roi', date_from: '2026-11-18', ages: Array.from({ length: 31 }, (_, n) => n) }));
  });

  it('says when ROI has no spend to stand beside (a country filter)', async () => {
    setupDaily('/admin/order/daily?date_from=2026-11-18&date_to=2026-11-20&view=cohort&metric=roi&country=US', { cohort: { ...cohort, spend_available: false } });
    expect(await screen.findByText('Spend cannot be matched to buyers by country: no ROI with a country filter.')).toBeTruthy();
  });
});
