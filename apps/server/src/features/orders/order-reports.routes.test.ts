import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createAdAccount, createDrama, createUser } from '../../test/factories.ts';
import { signatureHeader } from './signature.ts';

// The order screens' calls (issue 9 "Screens") on a real database, orders brought in through the
// signed webhook and the import: list filters, totals equal to the rows, the detail with its
// attribution and raw events, the daily figures, the cohort triangle against values computed by
// hand (a refund, a buyer paying on days 0, 2 and 9, a currency other than USD, days not matured),
// exports, and scope (orders are the super admin's). REPORT_TIMEZONE is Asia/Shanghai (UTC+8);
// "today" is 2026-11-20 there.

let t: TestApp;
let admin: string;
let manager: string;
let s1: { id: number; secret: string };
let s2: { id: number; secret: string };
let dramaId = 0;
let campaignRef = 0;
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';
const LAND = 'https://drama.example.com/play/D1?c=9101&s=9102&a=9103';
/** 08:00 in Shanghai on a day (00:00 UTC), or another UTC hour of it. */
const at = (day: string, hourUtc = 0) => `${day}T${String(hourUtc).padStart(2, '0')}:00:00Z`;

async function send(site: { id: number; secret: string }, events: Record<string, unknown>[]) {
  const raw = Buffer.from(JSON.stringify({ events }));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/webhook/${site.id}`,
    headers: { 'content-type': 'application/json', 'x-signature': signatureHeader(site.secret, Math.floor(t.clock.now().getTime() / 1000), raw) },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBe(200);
}

const paid = (order_no: string, app_user_id: string, amount: string, paid_at: string, extra: Record<string, unknown> = {}) => ({ event: 'order.paid', order_no, app_user_id, amount, currency: 'USD', paid_at, ...extra });

const list = (body: Record<string, unknown> = {}, token = admin) => t.call('/api/orders/list', { page_size: 100, ...body }, { token, lang: 'en' });
const daily = (body: Record<string, unknown> = {}) => t.call('/api/orders/daily', { date_from: '2026-11-01', date_to: '2026-11-20', page_size: 100, ...body }, { token: admin, lang: 'en' });
const cohort = (body: Record<string, unknown> = {}) => t.call('/api/orders/cohort', { date_from: '2026-11-01', date_to: '2026-11-20', ...body }, { token: admin, lang: 'en' });

async function readXlsx(body: Buffer): Promise<(string | number | null)[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  const rows: (string | number | null)[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as (string | number | null)[]).slice(1)));
  return rows;
}
const download = async (path: string, body: Record<string, unknown>) => {
  const res = await t.raw(path, { token: admin, payload: body, headers: { 'accept-language': 'en' } });
  expect(res.headers['content-type']).toContain('spreadsheetml');
  return readXlsx(res.rawPayload);
};

const cents = (v: number) => Math.round(v * 100);
const sum = (values: number[]) => values.reduce((a, b) => a + cents(b), 0) / 100;

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set('2026-11-20T04:00:00Z'); // 12:00 on 2026-11-20 in Shanghai
  const a = await createUser(t.db, { is_admin: 9 });
  const m = await createUser(t.db, { is_admin: 1 });
  admin = await t.login(a.account, a.password);
  manager = await t.login(m.account, m.password);
  const mk = async (name: string, domain: string) => {
    const r = await t.call('/api/sites/create', { name, domain, platform: 'dj', link_template: TEMPLATE.replace('drama.example.com', domain) }, { token: manager });
    expect(r.code, r.message).toBe(0);
    return { id: r.data.id as number, secret: r.data.webhook_secret as string };
  };
  s1 = await mk('Drama One', 'drama.example.com');
  s2 = await mk('Drama Two', 'two.example.com');
  dramaId = (await createDrama(t.db, { site_id: s1.id, external_id: 'D1', name: 'Lost Heiress' })).id;
  // 0.8 EUR per USD: 50.00 EUR = 62.50 USD.
  await t.db.insertInto('fx_rates').values({ currency: 'EUR', day: '2026-10-01', units_per_usd: 0.8 }).execute();

  // The ad the landing URL names, mirrored, with spend on 11-01 and 11-18 (for cohort ROI).
  const acc = (await createAdAccount(t.db, { currency: 'USD' })).id;
  const now = new Date();
  const c = await sql<{ id: number }>`insert into ad_campaigns (platform_id, ad_account_id, name, status, effective_status, currency, synced_at, platform, drama_id)
    values ('9101', ${acc}, 'US broad', 'ACTIVE', 'ACTIVE', 'USD', ${now}, 'dj', ${dramaId}) returning id`.execute(t.db);
  campaignRef = c.rows[0]!.id;
  const s = await sql<{ id: number }>`insert into ad_sets (platform_id, ad_account_id, campaign_id, name, status, effective_status, currency, synced_at)
    values ('9102', ${acc}, ${campaignRef}, 'US 18+', 'ACTIVE', 'ACTIVE', 'USD', ${now}) returning id`.execute(t.db);
  await sql`insert into ads (platform_id, ad_account_id, campaign_id, adset_id, name, status, effective_status, synced_at)
    values ('9103', ${acc}, ${campaignRef}, ${s.rows[0]!.id}, 'Hook A', 'ACTIVE', 'ACTIVE', ${now})`.execute(t.db);
  for (const [day, spend] of [['2026-11-01', 10_000], ['2026-11-18', 1_000]] as const) {
    await sql`insert into campaign_stats_daily (campaign_id, day, ad_account_id, platform, currency, spend_usd_cents, impressions, drama_id)
      values (${campaignRef}, ${day}, ${acc}, 'dj', 'USD', ${spend}, 1000, ${dramaId})`.execute(t.db);
  }

  // Site one, through the webhook. u1 (through the ad) pays on days 0, 2 and 9 of the 11-01 cohort.
  await send(s1, [
    paid('O-1', 'u1', '10.00', at('2026-11-01'), { landing_url: LAND, episode: 3, country: 'US' }),
    paid('O-4', 'u2', '30.00', at('2026-11-01', 3), { landing_url: LAND, country: 'GB' }),
  ]);
  await send(s1, [paid('O-2', 'u1', '5.00', at('2026-11-03'), { country: 'US' }), paid('O-3', 'u1', '20.00', at('2026-11-10'), { country: 'US' })]);
  // u2: 12.00 of 30.00 refunded on 11-02 (day 1).
  await send(s1, [{ ...paid('O-4', 'u2', '12.00', at('2026-11-01', 3)), event: 'order.refunded', refunded_at: at('2026-11-02', 5) }]);
  // u4 acquired 11-18, u6 on 11-19, u7 today (nothing of it matured); u7 sends no country.
  await send(s1, [
    paid('O-5', 'u4', '7.00', at('2026-11-18'), { landing_url: LAND, country: 'US' }),
    paid('O-6', 'u6', '4.00', at('2026-11-19'), { landing_url: LAND, country: 'US' }),
    paid('O-7', 'u7', '6.00', at('2026-11-20', 1), { landing_url: LAND }),
  ]);
  // Site two, through the import: an organic EUR order, 10.00 EUR of it refunded on 11-05 (day 4).
  const csv = [
    'event,order_no,amount,currency,paid_at,refunded_at,app_user_id,country',
    `order.paid,P-1,50.00,EUR,${at('2026-11-01')},,u5,DE`,
    `order.refunded,P-1,10.00,EUR,${at('2026-11-01')},${at('2026-11-05')},u5,DE`,
  ].join('\n');
  const imported = await t.call('/api/orders/import', { site_id: s2.id, filename: 'orders.csv', content_base64: Buffer.from(csv).toString('base64') }, { token: admin, lang: 'en' });
  expect(imported.data).toMatchObject({ accepted: 2, errors: [] });
});
afterAll(() => t.close());

describe('order list', () => {
  it('answers every order with totals in USD and per currency that equal the sum of the rows, over every page', async () => {
    const all = await list();
    expect(all.code, all.message).toBe(0);
    expect(all.data.total).toBe(8);
    expect(all.data.summary).toMatchObject({ orders: 8, new_payers: 6, paid_usd: 144.5, refunded_usd: 24.5, usd_amount: 120, without_rate: 0 });
    expect(all.data.summary.currencies).toEqual([
      { currency: 'USD', orders: 7, amount: '82.00', refunded_amount: '12.00', net_amount: '70.00' },
      { currency: 'EUR', orders: 1, amount: '50.00', refunded_amount: '10.00', net_amount: '40.00' },
    ]);
    // Paged by 3: the rows of all pages add up to the totals.
    const rows = [];
    for (let page = 1; page <= 3; page++) {
      const r = await list({ page, page_size: 3 });
      expect(r.data.summary).toEqual(all.data.summary);
      rows.push(...r.data.list);
    }
    // Newest payment first; two orders paid at the same instant, the later stored first.
    expect(rows.map((r) => r.order_no)).toEqual(['O-7', 'O-6', 'O-5', 'O-3', 'O-2', 'O-4', 'P-1', 'O-1']);
    expect(new Set(rows.map((r) => r.id)).size).toBe(8);
    expect(sum(rows.map((r) => r.paid_usd))).toBe(all.data.summary.paid_usd);
    expect(sum(rows.map((r) => r.refunded_usd))).toBe(all.data.summary.refunded_usd);
    expect(sum(rows.map((r) => r.usd_amount))).toBe(all.data.summary.usd_amount);
    for (const c of all.data.summary.currencies) {
      const mine = rows.filter((r) => r.currency === c.currency);
      expect(mine.length).toBe(c.orders);
      expect(sum(mine.map((r) => Number(r.amount)))).toBe(Number(c.amount));
      expect(sum(mine.map((r) => Number(r.refunded_amount)))).toBe(Number(c.refunded_amount));
    }
    // The EUR order in both currencies.
    const p1 = rows.find((r) => r.order_no === 'P-1');
    expect(p1).toMatchObject({ amount: '50.00', refunded_amount: '10.00', currency: 'EUR', paid_usd: 62.5, refunded_usd: 12.5, usd_amount: 50, status: 'partially_refunded', attribution_source: null, source: 'import', site_name: 'Drama Two' });
    const o1 = rows.find((r) => r.order_no === 'O-1');
    expect(o1).toMatchObject({ campaign_id: '9101', adset_id: '9102', ad_id: '9103', campaign: { id: campaignRef, name: 'US broad' }, ad: { name: 'Hook A' }, drama_id: dramaId, drama_name: 'Lost Heiress', episode: 3, is_new_payer: true, paid_day: '2026-11-01' });
    // A returning buyer's later order carries the acquiring ad.
    expect(rows.find((r) => r.order_no === 'O-3')).toMatchObject({ is_new_payer: false, ad_id: '9103', paid_day: '2026-11-10' });
  });

  it.each([
    ['status', { status: 'partially_refunded' }, ['O-4', 'P-1']],
    ['organic', { attributed: false }, ['P-1']],
    ['attributed', { attributed: true }, ['O-1', 'O-2', 'O-3', 'O-4', 'O-5', 'O-6', 'O-7']],
    ['new payers', { new_payer: true }, ['O-1', 'O-4', 'O-5', 'O-6', 'O-7', 'P-1']],
    ['returning', { new_payer: false }, ['O-2', 'O-3']],
    ['site', { site_id: 'S2' }, ['P-1']],
    ['drama', { drama_id: 'D' }, ['O-1', 'O-4', 'O-5', 'O-6', 'O-7']],
    ['campaign', { campaign_id: '9101' }, ['O-1', 'O-2', 'O-3', 'O-4', 'O-5', 'O-6', 'O-7']],
    ['ad', { ad_id: '9103' }, ['O-1', 'O-2', 'O-3', 'O-4', 'O-5', 'O-6', 'O-7']],
    ['unknown ad', { ad_id: '1' }, []],
    ['country', { country: 'gb' }, ['O-4']],
    ['amount range (USD, inclusive)', { amount_min: 6, amount_max: 30 }, ['O-1', 'O-3', 'O-4', 'O-5', 'O-7']],
    ['payment days', { paid_from: '2026-11-18', paid_to: '2026-11-19' }, ['O-5', 'O-6']],
    ['order number', { order_no: 'O-4' }, ['O-4']],
    ['app user', { app_user_id: 'u1' }, ['O-1', 'O-2', 'O-3']],
  ])('filters by %s, with totals of the matching orders only', async (_name, filter, expected) => {
    const body: Record<string, unknown> = { ...filter };
    if (body.site_id === 'S2') body.site_id = s2.id;
    if (body.drama_id === 'D') body.drama_id = dramaId;
    const r = await list(body);
    expect(r.code, r.message).toBe(0);
    expect(r.data.list.map((o: { order_no: string }) => o.order_no).sort()).toEqual(expected);
    expect(r.data.summary.orders).toBe(expected.length);
    expect(r.data.summary.usd_amount).toBe(sum(r.data.list.map((o: { usd_amount: number }) => o.usd_amount)));
  });

  it('sorts by a column both ways', async () => {
    const up = await list({ sort_field: 'paid_usd', sort_order: 'ascend' });
    expect(up.data.list.map((o: { order_no: string }) => o.order_no).slice(0, 3)).toEqual(['O-6', 'O-2', 'O-7']);
    const down = await list({ sort_field: 'usd_amount', sort_order: 'descend' });
    expect(down.data.list[0].order_no).toBe('P-1');
  });

  it('refuses a reversed or too long range and bad filters, naming the field', async () => {
    const reversed = await list({ paid_from: '2026-11-20', paid_to: '2026-11-01' });
    expect(reversed.code).toBe(-2);
    expect(reversed.data.errors[0].field).toBe('paid_to');
    expect((await list({ paid_from: '2025-01-01', paid_to: '2026-11-01' })).code).toBe(-2);
    const bad = await list({ campaign_id: 'abc', status: 'lost' });
    expect(bad.code).toBe(-2);
    expect(bad.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['campaign_id', 'status']);
  });

  it('exports the matching orders with the shown columns', async () => {
    const rows = await download('/api/orders/export', { status: 'partially_refunded', columns: ['order_no', 'paid_usd', 'status'] });
    expect(rows[0]).toEqual(['Order no.', 'Amount (USD)', 'Status']);
    expect(rows.slice(1).sort()).toEqual([
      ['O-4', 30, 'Partially refunded'],
      ['P-1', 62.5, 'Partially refunded'],
    ]);
    const full = await download('/api/orders/export', {});
    expect(full).toHaveLength(9);
    expect(full[0]).toContain('Campaign id');
  });
});

describe('order detail', () => {
  it('shows a returning order with the attribution of the buyer, the first order and the raw event', async () => {
    const id = (await list({ order_no: 'O-2' })).data.list[0].id;
    const first = (await list({ order_no: 'O-1' })).data.list[0].id;
    const r = await t.call('/api/orders/detail', { id }, { token: admin, lang: 'en' });
    expect(r.code, r.message).toBe(0);
    expect(r.data.order).toMatchObject({ order_no: 'O-2', is_new_payer: false });
    expect(r.data.attribution).toMatchObject({
      source: 'landing_url',
      landing_url: LAND,
      attributed_paid_at: '2026-11-01T00:00:00.000Z',
      link_template: TEMPLATE,
      parsed: { campaign_id: '9101', adset_id: '9102', ad_id: '9103', drama_id: 'D1', episode: null, product_id: null },
      campaign: { id: campaignRef, name: 'US broad', platform_id: '9101' },
      adset: { name: 'US 18+', platform_id: '9102' },
      ad: { name: 'Hook A', platform_id: '9103' },
      ad_account: { name: expect.any(String) },
    });
    expect(r.data.buyer).toMatchObject({ app_user_id: 'u1', first_order: { id: first, order_no: 'O-1', paid_at: '2026-11-01T00:00:00.000Z' }, acquisition_day: '2026-11-01', orders: 3, paid_usd: 35, usd_amount: 35, country: 'US' });
    expect(r.data.events).toEqual([{ id: expect.any(Number), event: 'order.paid', source: 'webhook', received_at: expect.any(String), delivery_id: expect.any(Number), payload: expect.objectContaining({ order_no: 'O-2', amount: '5.00', app_user_id: 'u1' }) }]);
  });

  it('shows a refund and every event received, and an organic imported order without attribution', async () => {
    const o4 = (await list({ order_no: 'O-4' })).data.list[0].id;
    const r = await t.call('/api/orders/detail', { id: o4 }, { token: admin, lang: 'en' });
    expect(r.data.refunds).toEqual([{ id: expect.any(Number), amount: '12.00', currency: 'USD', usd: 12, refunded_at: '2026-11-02T05:00:00.000Z', refund_day: '2026-11-02' }]);
    expect(r.data.events.map((e: { event: string }) => e.event)).toEqual(['order.paid', 'order.refunded']);
    expect(r.data.buyer).toMatchObject({ orders: 1, paid_usd: 30, usd_amount: 18 });

    const p1 = (await list({ order_no: 'P-1' })).data.list[0].id;
    const organic = await t.call('/api/orders/detail', { id: p1 }, { token: admin, lang: 'en' });
    expect(organic.data.attribution).toMatchObject({ source: null, landing_url: null, parsed: null, campaign: null, ad: null });
    expect(organic.data.events.map((e: { source: string; delivery_id: number | null }) => [e.source, e.delivery_id])).toEqual([
      ['import', null],
      ['import', null],
    ]);
  });

  it('says when an order does not exist', async () => {
    const r = await t.call('/api/orders/detail', { id: 999_999 }, { token: admin, lang: 'en' });
    expect(r.code).toBe(-2);
    expect(r.message).toBe('The order does not exist.');
  });
});

describe('daily figures', () => {
  it('answers each day with a refund on its own day, and totals equal to the sum of the rows', async () => {
    const r = await daily();
    expect(r.code, r.message).toBe(0);
    const byDay = Object.fromEntries(r.data.list.map((d: { day: string }) => [d.day, d]));
    expect(Object.keys(byDay).sort()).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-05', '2026-11-10', '2026-11-18', '2026-11-19', '2026-11-20']);
    expect(byDay['2026-11-01']).toMatchObject({ orders: 3, paid_usd: 102.5, refunds_usd: 0, revenue_usd: 102.5, payers: 3, new_payers: 3, arppu: 102.5 / 3 });
    expect(byDay['2026-11-02']).toMatchObject({ orders: 0, refunds_usd: 12, refunds: 1, revenue_usd: -12, payers: 0, arppu: null });
    expect(byDay['2026-11-05']).toMatchObject({ refunds_usd: 12.5, revenue_usd: -12.5 });
    expect(r.data.totals).toEqual({ orders: 8, paid_usd: 144.5, refunds_usd: 24.5, refunds: 2, revenue_usd: 120, payers: 8, new_payers: 6, arppu: 15 });
    for (const k of ['orders', 'refunds', 'payers', 'new_payers'] as const) expect(r.data.list.reduce((a: number, d: Record<string, number>) => a + d[k]!, 0)).toBe(r.data.totals[k]);
    for (const k of ['paid_usd', 'refunds_usd', 'revenue_usd'] as const) expect(sum(r.data.list.map((d: Record<string, number>) => d[k]))).toBe(r.data.totals[k]);
    // The chart has every day of the range, and adds up to the same totals.
    expect(r.data.chart).toHaveLength(20);
    expect(sum(r.data.chart.map((d: { revenue_usd: number }) => d.revenue_usd))).toBe(120);
    expect(r.data.split_series).toEqual([]);
  });

  it('splits by site and by country, each split adding up to the same totals', async () => {
    const bySite = await daily({ split: 'site', sort_field: 'revenue_usd', sort_order: 'descend' });
    expect(bySite.data.list[0]).toMatchObject({ day: '2026-11-01', key: { id: s2.id, code: null, name: 'Drama Two' }, paid_usd: 62.5, orders: 1 });
    expect(bySite.data.list.find((d: { day: string; key: { id: number } }) => d.day === '2026-11-01' && d.key.id === s1.id)).toMatchObject({ orders: 2, paid_usd: 40, payers: 2 });
    expect(bySite.data.totals).toMatchObject({ orders: 8, revenue_usd: 120 });
    expect(bySite.data.split_series.map((s: { key: { name: string } }) => s.key.name)).toEqual(['Drama One', 'Drama Two']);
    expect(sum(bySite.data.split_series.flatMap((s: { revenue_usd: number[] }) => s.revenue_usd))).toBe(120);

    const byCountry = await daily({ split: 'country' });
    const codes = new Set(byCountry.data.list.map((d: { key: { code: string | null } }) => d.key.code));
    expect(codes).toEqual(new Set(['US', 'GB', 'DE', null]));
    expect(byCountry.data.totals.revenue_usd).toBe(120);
    expect(byCountry.data.list.find((d: { key: { code: string | null } }) => d.key.code === null)).toMatchObject({ day: '2026-11-20', orders: 1, paid_usd: 6 });
  });

  it('filters the days like the list (site, organic), pages them, and exports them with a totals row', async () => {
    const organic = await daily({ attributed: false });
    expect(organic.data.totals).toMatchObject({ orders: 1, paid_usd: 62.5, refunds_usd: 12.5, revenue_usd: 50 });
    const paged = await daily({ page: 2, page_size: 3 });
    expect(paged.data.total).toBe(8);
    expect(paged.data.list.map((d: { day: string }) => d.day)).toEqual(['2026-11-10', '2026-11-05', '2026-11-03']);
    const file = await download('/api/orders/daily_export', { date_from: '2026-11-01', date_to: '2026-11-20', split: 'site' });
    expect(file[0]).toEqual(['Day', 'Site', 'Orders', 'Paid (USD)', 'Refunds (USD)', 'Revenue (USD)', 'Payers', 'New payers', 'ARPPU (USD)', 'Refunds']);
    const last = file.at(-1)!;
    expect([last[0], ...last.slice(2, 6)]).toEqual(['Total', 8, 144.5, 24.5, 120]);
    expect(file).toHaveLength(1 + 9 + 1);
  });
});

describe('cohort triangle', () => {
  it('holds each acquisition day at D0…D30 as computed by hand, with days not matured as null', async () => {
    const r = await cohort();
    expect(r.code, r.message).toBe(0);
    expect(r.data.today).toBe('2026-11-20');
    const row = (day: string) => r.data.rows.find((x: { day: string }) => x.day === day);
    expect(r.data.rows).toHaveLength(20);
    // 11-01: u1 10 + u2 30 + u5 62.50 on day 0; u2's refund of 12 on day 1; u1 5 on day 2; u5's refund of 12.50 on day 4; u1 20 on day 9.
    const d1 = row('2026-11-01');
    expect(d1.new_payers).toBe(3);
    expect(d1.spend_usd).toBeNull();
    expect(d1.revenue_usd.slice(0, 10)).toEqual([102.5, 90.5, 95.5, 95.5, 83, 83, 83, 83, 83, 103]);
    expect(d1.revenue_usd[18]).toBe(103);
    // 11-01 + 19 is today: not ended, not matured.
    expect(d1.revenue_usd.slice(19)).toEqual(new Array(12).fill(null));
    expect(row('2026-11-18').revenue_usd.slice(0, 3)).toEqual([7, 7, null]);
    expect(row('2026-11-19').revenue_usd.slice(0, 2)).toEqual([4, null]);
    expect(row('2026-11-20')).toMatchObject({ new_payers: 1 });
    expect(row('2026-11-20').revenue_usd.every((v: number | null) => v === null)).toBe(true);
    expect(row('2026-11-10')).toMatchObject({ new_payers: 0 });
    expect(row('2026-11-10').revenue_usd.slice(0, 10)).toEqual(new Array(10).fill(0));
    // Totals: each age over the days matured at it, equal to the column's numbers.
    expect(r.data.totals.new_payers).toBe(6);
    expect(r.data.totals.revenue_usd.slice(0, 3)).toEqual([113.5, 97.5, 95.5]);
    expect(r.data.totals.revenue_usd[18]).toBe(103);
    expect(r.data.totals.revenue_usd[19]).toBeNull();
    for (let n = 0; n <= 18; n++) {
      const column = r.data.rows.map((x: { revenue_usd: (number | null)[] }) => x.revenue_usd[n]).filter((v: number | null) => v !== null);
      expect(sum(column), `D${n}`).toBe(r.data.totals.revenue_usd[n]);
    }
  });

  it('filters the cohort by site and organic buyers', async () => {
    const r = await cohort({ site_id: s2.id });
    expect(r.data.totals.new_payers).toBe(1);
    expect(r.data.rows[0].revenue_usd.slice(0, 5)).toEqual([62.5, 62.5, 62.5, 62.5, 50]);
    const organic = await cohort({ attributed: false });
    expect(organic.data.totals.revenue_usd[4]).toBe(50);
  });

  it('gives ROI mode the buyers acquired through an ad and the spend of the same days', async () => {
    const r = await cohort({ metric: 'roi', drama_id: dramaId });
    expect(r.data).toMatchObject({ metric: 'roi', spend_available: true });
    const d1 = r.data.rows.find((x: { day: string }) => x.day === '2026-11-01');
    // u5 (organic) is left out: 10 + 30, −12 on day 1, +5 on day 2, +20 on day 9.
    expect(d1).toMatchObject({ new_payers: 2, spend_usd: 100 });
    expect(d1.revenue_usd.slice(0, 10)).toEqual([40, 28, 33, 33, 33, 33, 33, 33, 33, 53]);
    expect(r.data.rows.find((x: { day: string }) => x.day === '2026-11-18')).toMatchObject({ spend_usd: 10 });
    // D0 over every day matured at D0 (up to 11-19): revenue 40 + 7 + 4 beside spend 100 + 10.
    expect(r.data.totals.revenue_usd[0]).toBe(51);
    expect(r.data.totals.spend_usd[0]).toBe(110);
    // D2: only days up to 11-17 are matured: the 11-18 spend is not beside it.
    expect(r.data.totals.spend_usd[2]).toBe(100);
    // By country a buyer cannot be matched to spend.
    const byCountry = await cohort({ metric: 'roi', country: 'US' });
    expect(byCountry.data.spend_available).toBe(false);
    expect(byCountry.data.rows[0].spend_usd).toBeNull();
  });

  it('exports the triangle with not matured cells said as such', async () => {
    const file = await download('/api/orders/cohort_export', { date_from: '2026-11-18', date_to: '2026-11-20', ages: [0, 1, 2] });
    expect(file).toEqual([
      ['Acquisition day', 'New payers', 'D0 (USD)', 'D1 (USD)', 'D2 (USD)'],
      ['2026-11-18', 1, 7, 7, 'Not matured'],
      ['2026-11-19', 1, 4, 'Not matured', 'Not matured'],
      ['2026-11-20', 1, 'Not matured', 'Not matured', 'Not matured'],
      ['Total', 3, 11, 7, 'Not matured'],
    ]);
  });
});

describe('filter choices', () => {
  it('offers sites, dramas, campaigns, ads and the countries buyers came from', async () => {
    const opt = (kind: string, keyword?: string) => t.call('/api/orders/options', { kind, ...(keyword && { keyword }) }, { token: admin }).then((r) => r.data);
    expect((await opt('site')).map((o: { label: string }) => o.label)).toEqual(['Drama One', 'Drama Two']);
    expect(await opt('drama', 'heir')).toEqual([{ value: String(dramaId), label: 'Lost Heiress', hint: 'Drama One' }]);
    expect(await opt('campaign', 'broad')).toEqual([{ value: '9101', label: 'US broad', hint: '9101' }]);
    expect(await opt('ad', '9103')).toEqual([{ value: '9103', label: 'Hook A', hint: '9103' }]);
    expect((await opt('country')).map((o: { value: string }) => o.value)).toEqual(['DE', 'GB', 'US']);
  });
});

describe('scope', () => {
  it('keeps orders to the super admin: a manager is refused every call', async () => {
    const body = { date_from: '2026-11-01', date_to: '2026-11-20' };
    for (const [path, b] of [
      ['/api/orders/list', {}],
      ['/api/orders/detail', { id: 1 }],
      ['/api/orders/daily', body],
      ['/api/orders/cohort', body],
      ['/api/orders/options', { kind: 'site' }],
    ] as const) {
      const r = await t.call(path, b, { token: manager });
      expect(r.code, path).toBe(403);
    }
    const file = await t.raw('/api/orders/export', { token: manager, payload: {} });
    expect(file.json().code).toBe(403);
    const staff = await createUser(t.db, { paths: ['/index', '/advertising/user'] });
    expect((await list({}, await t.login(staff.account, staff.password))).code).toBe(403);
  });
});
