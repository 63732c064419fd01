import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from '../testing/harness.ts';
import { startReceiver, type Receiver } from '../testing/receiver.ts';

// DEMO=1 back-dates its ad accounts 30 days with resend_orders: the sites then send the
// orders of that month (first payments, the later recharges of those buyers, refunds), in
// bounded time, matching the delivery Insights reports for those days.

let t: TestSim;
let rx: Receiver;
let account: string;
let elapsedMs = 0;
let flushed: any;

beforeAll(async () => {
  // Mid-morning in Los Angeles (the ad account's zone).
  t = await startTestSim({ startTime: '2026-06-10T17:00:00Z' });
  rx = await startReceiver(() => t.sim.now());
  rx.setSecrets('demo', ['demo-secret']);
  await t.control('PUT', '/__sim/sites/demo', { webhook_url: rx.url('demo'), secret: 'demo-secret', domain: 'drama.example', refund_rate: 0.05 });
  account = t.user.ad_accounts[0].id;
  await createTree(t, account, { adsetBudget: 30000, name: 'Drama A' });
  await createTree(t, account, { adsetBudget: 30000, name: 'Drama B', countries: ['GB'] });
  await t.control('POST', '/__sim/backdate', { account_id: account, days: 30, resend_orders: true });
  const started = Date.now();
  flushed = await t.control('POST', '/__sim/orders/flush', { until_idle: true });
  elapsedMs = Date.now() - started;
}, 120_000);
afterAll(async () => {
  await t.close();
  await rx.close();
});

const day = (iso: string) => new Date(Date.parse(iso)).toISOString().slice(0, 10);

describe('back-dated orders', () => {
  it('sends a month of first payments, recharges and refunds, in bounded time and volume', async () => {
    const events = [...rx.stored('demo').values()];
    const paid = events.filter((e) => e.event === 'order.paid');
    expect(flushed).toMatchObject({ failed: 0, dropped: 0, pending: 0 });
    expect(flushed.sent).toBe(events.length);
    // Bounded: a few thousand events here, sent in batches, in seconds.
    expect(events.length).toBeGreaterThan(500);
    expect(events.length).toBeLessThan(50_000);
    expect(elapsedMs).toBeLessThan(60_000);
    expect(rx.requests.every((r) => r.status === 200 && r.events.length <= 100)).toBe(true);

    const truth = await t.control('GET', '/__sim/sites/demo/orders?limit=100000');
    expect(truth.total).toBe(paid.length);
    const firsts = truth.data.filter((o: any) => o.first_order && !o.organic);
    const recharges = truth.data.filter((o: any) => !o.first_order);
    expect(new Set(firsts.map((o: any) => day(o.paid_at))).size).toBeGreaterThanOrEqual(29);
    expect(new Set(recharges.map((o: any) => day(o.paid_at))).size).toBeGreaterThanOrEqual(27);
    expect(day(truth.data[0].paid_at) <= '2026-05-12').toBe(true);
    // Buyers of the first week still recharge weeks later.
    expect(recharges.some((o: any) => o.user_registered_at < '2026-05-18' && o.paid_at > '2026-06-01')).toBe(true);
    expect(events.filter((e) => e.event === 'order.refunded').length).toBe(truth.summary.refunded_orders);
    expect(truth.summary.refunded_orders).toBeGreaterThan(0);
    expect(truth.data.every((o: any) => o.delivery.paid === 'delivered')).toBe(true);

    // Nothing more to send until the clock moves.
    expect((await t.control('POST', '/__sim/orders/flush', { until_idle: true })).requests).toBe(0);
  });

  it('matches the delivery of each back-dated day: the pixel purchases of the day are its orders’ view', async () => {
    const rows = (await t.graph('GET', `/${account}/insights`, { fields: 'actions', time_range: { since: '2026-05-12', until: '2026-05-31' }, time_increment: 1, limit: 100 })).body.data;
    expect(rows).toHaveLength(20);
    for (const date of ['2026-05-12', '2026-05-20', '2026-05-31']) {
      const row = rows.find((r: any) => r.date_start === date);
      const purchases = Number(row.actions.find((a: any) => a.action_type === 'offsite_conversion.fb_pixel_purchase')?.value ?? 0);
      // The account's day in Los Angeles (UTC−7 in May).
      const since = `${date}T07:00:00Z`;
      const next = new Date(Date.parse(since) + 86_400_000).toISOString();
      const truth = await t.control('GET', `/__sim/sites/demo/orders?since=${since}&until=${next}&limit=1`);
      expect(truth.summary.pixel.purchases).toBe(purchases);
      expect(purchases).toBeGreaterThan(0);
      expect(truth.summary.first_orders).toBeGreaterThan(0);
    }
  });
});
