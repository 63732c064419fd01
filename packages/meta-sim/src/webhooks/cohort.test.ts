import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from '../testing/harness.ts';
import { startReceiver, type Receiver } from '../testing/receiver.ts';
import { itemFactor } from './cohort.ts';

// The buyers behind the orders: cohorts whose revenue grows from D0 to D7, differently per
// drama and country; organic payers; refunds; and how the pixel's purchases (Insights) relate
// to the first orders. Two dramas, each advertised to JP and IN for three days, then ten days
// of recharges with the ads off (the pixel's late conversions have settled by then).

let t: TestSim;
let rx: Receiver;
let account: string;
let truth: any;
const DAY = 86_400_000;

// The stickiest and the least sticky of a few drama ids (a seeded trait of each drama).
const candidates = Array.from({ length: 8 }, (_, i) => `drama-${i + 1}`).sort((a, b) => itemFactor(1, b) - itemFactor(1, a));
const STICKY = candidates[0]!;
const FICKLE = candidates.at(-1)!;

beforeAll(async () => {
  t = await startTestSim();
  rx = await startReceiver(() => t.sim.now());
  rx.setSecrets('co', ['cohort-secret']);
  await t.control('PUT', '/__sim/sites/co', {
    webhook_url: rx.url('co'),
    secret: 'cohort-secret',
    domain: 'drama.example',
    link_template: 'https://drama.example/play/{drama_id}',
    dramas: [{ external_id: STICKY }, { external_id: FICKLE }],
    refund_rate: 0.1,
    organic_share: 0.2,
  });
  account = t.user.ad_accounts[0].id;
  const trees = [];
  for (const drama of [STICKY, FICKLE]) trees.push(await createTree(t, account, { adsetBudget: 150000, link: `https://drama.example/play/${drama}`, countries: ['JP', 'IN'] }));
  await t.advance('3d');
  for (const tree of trees) await t.graph('POST', `/${tree.campaignId}`, { status: 'PAUSED' });
  await t.advance('10d');
  await t.control('POST', '/__sim/orders/flush', { until_idle: true });
  truth = await t.control('GET', '/__sim/sites/co/orders?limit=100000');
}, 60_000);
afterAll(async () => {
  await t.close();
  await rx.close();
});

/** Revenue of the ad buyers' cohorts by registration day at D0, D1, D3, D7 (paid amounts, minor units). */
function cohortRevenue(filter: (order: any) => boolean): { buyers: number; d: number[] } {
  const buyers = new Map<string, { day0: number; orders: Array<[number, number]> }>();
  for (const o of truth.data) {
    if (o.organic || !filter(o)) continue;
    let b = buyers.get(o.app_user_id);
    if (!b) buyers.set(o.app_user_id, (b = { day0: Math.floor(Date.parse(o.user_registered_at) / DAY) * DAY, orders: [] }));
    b.orders.push([Date.parse(o.paid_at), o.amount_minor]);
  }
  const d = [0, 1, 3, 7].map((n) => {
    let sum = 0;
    for (const b of buyers.values()) for (const [at, minor] of b.orders) if (at < b.day0 + (n + 1) * DAY) sum += minor;
    return sum;
  });
  return { buyers: buyers.size, d };
}

describe('buyers and cohorts', () => {
  it('delivers every order and refund of the truth', () => {
    expect(truth.total).toBeGreaterThan(500);
    const stored = rx.stored('co');
    for (const o of truth.data) {
      expect(o.delivery.paid).toBe('delivered');
      expect(stored.get(`order.paid:${o.order_no}`).amount).toBe(o.amount);
    }
    expect(rx.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('grows a cohort’s revenue from D0 to D1, D3 and D7, more for a sticky drama and a loyal country', () => {
    const all = cohortRevenue(() => true);
    expect(all.buyers).toBeGreaterThan(300);
    const [d0, d1, d3, d7] = all.d as [number, number, number, number];
    expect(d1).toBeGreaterThan(d0 * 1.1);
    expect(d3).toBeGreaterThan(d1 * 1.1);
    expect(d7).toBeGreaterThan(d3 * 1.1);
    // A plausible curve: D7 between 1.5 and 4 times D0.
    expect(d7 / d0).toBeGreaterThan(1.5);
    expect(d7 / d0).toBeLessThan(4);

    const growth = (filter: (o: any) => boolean) => {
      const c = cohortRevenue(filter);
      expect(c.buyers).toBeGreaterThan(80);
      return c.d[3]! / c.d[0]!;
    };
    expect(growth((o) => o.drama_id === STICKY)).toBeGreaterThan(growth((o) => o.drama_id === FICKLE) * 1.1);
    expect(growth((o) => o.country === 'JP')).toBeGreaterThan(growth((o) => o.country === 'IN') * 1.1);
  });

  it('has organic payers at about the site’s organic share, without ad ids', () => {
    const firsts = truth.data.filter((o: any) => o.first_order);
    const organic = firsts.filter((o: any) => o.organic);
    expect(organic.length / firsts.length).toBeGreaterThan(0.14);
    expect(organic.length / firsts.length).toBeLessThan(0.26);
    for (const o of truth.data.filter((x: any) => x.organic)) {
      expect(o.acquired_by).toBeNull();
      expect(o.campaign_id ?? o.adset_id ?? o.ad_id).toBeNull();
      if (o.landing_url !== null) expect(o.landing_url).not.toMatch(/[?&]/);
    }
    // Some organic buyers come back too.
    expect(truth.data.some((o: any) => o.organic && !o.first_order)).toBe(true);
  });

  it('refunds some orders later, fully or partly, never above what was paid', () => {
    const refunded = truth.data.filter((o: any) => o.refunded_minor > 0);
    expect(refunded.length / truth.total).toBeGreaterThan(0.05);
    expect(refunded.length / truth.total).toBeLessThan(0.16);
    expect(refunded.some((o: any) => o.status === 'refunded')).toBe(true);
    expect(refunded.some((o: any) => o.status === 'partially_refunded')).toBe(true);
    const stored = rx.stored('co');
    for (const o of refunded) {
      expect(o.refunded_minor).toBeLessThanOrEqual(o.amount_minor);
      expect(o.status).toBe(o.refunded_minor === o.amount_minor ? 'refunded' : 'partially_refunded');
      expect(Date.parse(o.refunded_at)).toBeGreaterThan(Date.parse(o.paid_at));
      const event = stored.get(`order.refunded:${o.order_no}`);
      expect(event).toMatchObject({ amount: o.refunded_amount, paid_at: o.paid_at, refunded_at: o.refunded_at, app_user_id: o.app_user_id });
      expect(Number(event.amount)).toBeLessThanOrEqual(Number(stored.get(`order.paid:${o.order_no}`).amount));
    }
    const refundEvents = [...stored.values()].filter((e) => e.event === 'order.refunded');
    expect(refundEvents.length).toBe(refunded.length);
  });

  it('counts in Insights 85–95 % of the first orders of ad buyers plus a few phantom purchases', async () => {
    const insights = await t.graph('GET', `/${account}/insights`, { fields: 'actions', date_preset: 'maximum' });
    const pixelPurchases = Number(insights.body.data[0].actions.find((a: any) => a.action_type === 'offsite_conversion.fb_pixel_purchase').value);
    const { pixel } = truth.summary;
    expect(pixel.purchases).toBe(pixelPurchases);
    expect(pixel.matched + pixel.phantoms).toBe(pixelPurchases);
    const adFirsts = truth.data.filter((o: any) => o.first_order && !o.organic);
    expect(adFirsts.length).toBe(pixel.matched + pixel.missed);
    expect(adFirsts.filter((o: any) => o.pixel_seen).length).toBe(pixel.matched);
    expect(pixel.matched / adFirsts.length).toBeGreaterThan(0.84);
    expect(pixel.matched / adFirsts.length).toBeLessThan(0.96);
    expect(pixel.phantoms).toBeGreaterThan(0);
    expect(pixel.phantoms / pixelPurchases).toBeLessThan(0.1);
    // So the pixel undercounts the orders as a whole: recharges and organic orders are not its.
    expect(pixelPurchases).toBeLessThan(truth.total / 2);
  });

  it('computes the same orders for the same seed and history, other orders for another seed', async () => {
    const run = async (seed: number) => {
      const s = await startTestSim({ seed });
      try {
        await s.control('PUT', '/__sim/sites/x', { webhook_url: 'http://127.0.0.1:9/x', secret: 'seeded-secret', domain: 'drama.example' });
        await createTree(s, s.user.ad_accounts[0].id, { adsetBudget: 60000 });
        await s.advance('3d');
        return (await s.control('GET', '/__sim/sites/x/orders')).data.map((o: any) => [o.order_no, o.amount, o.paid_at, o.app_user_id, o.refunded_amount]);
      } finally {
        await s.close();
      }
    };
    const a = await run(7);
    expect(a.length).toBeGreaterThan(10);
    expect(await run(7)).toEqual(a);
    expect(await run(8)).not.toEqual(a);
  });
});
