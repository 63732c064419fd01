import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createWebhookSite, postOrders, type WebhookSite } from '../../test/delivery.ts';
import { createUser } from '../../test/factories.ts';
import { drainAllCohorts, refreshCohorts, type AdDay } from './cohorts.ts';
import { ingestEvents } from './ingest.ts';
import { parseOrderEvent } from './order-event.ts';

// Concurrent deliveries of overlapping batches (issue 9 "Benchmark": the intake no longer holds
// its whole site): the same batch resent at once, one buyer's orders in two batches, a refund
// racing its payment, a refund beside a batch that moves its buyer to another ad. Each answer is
// the contract's (API.md "Orders"), the stored rows are exactly right, and the cohort facts after
// the drain equal a recompute from scratch. On PostgreSQL the requests really run side by side
// (a pool of connections); on PGlite they take turns, which must give the same result.

let t: TestApp;
let site: WebhookSite;
const TEMPLATE = 'https://drama.example.com/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}';
const A1 = '1103';
const A2 = '1203';
const land = (ad: string) => `https://drama.example.com/play/D1?c=${ad.slice(0, 2)}01&s=${ad.slice(0, 2)}02&a=${ad}`;

beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set('2026-11-20T04:00:00Z');
  const m = await createUser(t.db, { is_admin: 1 });
  const manager = await t.login(m.account, m.password);
  site = await createWebhookSite(t, manager, { name: 'Drama', domain: 'drama.example.com', platform: 'dj', link_template: TEMPLATE });
});
afterAll(() => t.close());

async function send(events: Record<string, unknown>[]) {
  const res = await postOrders(t, site, events);
  expect(res.status, res.body).toBeLessThan(500);
  return res;
}

const at = (day: string, hourUtc = 1) => `${day}T${String(hourUtc).padStart(2, '0')}:00:00Z`;
const paid = (order_no: string, app_user_id: string, day: string, amount: string, ad: string | null, hour = 1) => ({
  event: 'order.paid',
  order_no,
  amount,
  currency: 'USD',
  paid_at: at(day, hour),
  app_user_id,
  ...(ad && { landing_url: land(ad) }),
});
const refund = (order: Record<string, unknown>, amount: string, day: string) => ({ ...order, event: 'order.refunded', amount, refunded_at: at(day, 5) });

/** ad_order_daily as stored, and as a recompute of every pair from the order tables gives it (rolled back). */
async function cohortsNowAndTruth() {
  const read = (db: typeof t.db) =>
    sql<Record<string, unknown>>`select ad_platform_id, day::text as day, revenue_usd_cents::bigint::text as revenue, payers, new_payers,
      cohort_d0_usd_cents::text as d0, cohort_d1_usd_cents::text as d1, cohort_d3_usd_cents::text as d3, cohort_d7_usd_cents::text as d7,
      cohort_d14_usd_cents::text as d14, cohort_d30_usd_cents::text as d30
      from ad_order_daily where revenue_usd_cents <> 0 or payers <> 0 or new_payers <> 0 or cohort_d30_usd_cents <> 0 order by 1, 2`
      .execute(db)
      .then((r) => r.rows);
  const now = await read(t.db);
  let truth: Record<string, unknown>[] = [];
  await t.db
    .transaction()
    .execute(async (trx) => {
      const pairs = await sql<{ ad: string; day: string }>`
        select ad_platform_id as ad, day::text as day from ad_order_daily
        union select ad_platform_id, acquisition_day::text from order_buyers where ad_platform_id is not null
        union select ad_platform_id, paid_day::text from orders where ad_platform_id is not null
        union select o.ad_platform_id, r.refund_day::text from order_refunds r join orders o on o.id = r.order_id where o.ad_platform_id is not null`.execute(trx);
      await refreshCohorts(
        trx,
        pairs.rows.map((p): AdDay => ({ ad: p.ad, day: String(p.day).slice(0, 10) })),
      );
      truth = await read(trx);
      throw new Error('rollback');
    })
    .catch((err: Error) => {
      if (err.message !== 'rollback') throw err;
    });
  return { now, truth };
}

const row = (rows: Record<string, unknown>[], ad: string, day: string) => rows.find((r) => r.ad_platform_id === ad && r.day === day);

describe('concurrent deliveries of overlapping batches', () => {
  it('stores a batch resent four times at once exactly once: one answer accepts it, the others count duplicates', async () => {
    const batch = Array.from({ length: 20 }, (_, i) => paid(`S-${i}`, `s-${i % 7}`, '2026-11-02', '1.00', i % 2 ? A1 : A2, i % 24));
    const answers = await Promise.all([0, 1, 2, 3].map(() => send(batch)));
    expect(answers.every((a) => a.status === 200 && a.code === 0)).toBe(true);
    expect(answers.map((a) => a.data.accepted).sort()).toEqual([0, 0, 0, 20]);
    expect(answers.map((a) => a.data.duplicates).sort()).toEqual([0, 20, 20, 20]);
    const orders = await t.db.selectFrom('orders').select(['order_no', 'is_new_payer']).where('order_no', 'like', 'S-%').execute();
    expect(orders).toHaveLength(20);
    expect(orders.filter((o) => o.is_new_payer)).toHaveLength(7);
    expect(await t.db.selectFrom('order_events').select('id').where('order_no', 'like', 'S-%').execute()).toHaveLength(20);
    expect(await t.db.selectFrom('order_buyers').select('id').where('app_user_id', 'like', 's-%').execute()).toHaveLength(7);
  });

  it('keeps one order when two deliveries of it differ: one stored, the other a 409 conflict', async () => {
    const [a, b] = await Promise.all([send([paid('C-1', 'c-1', '2026-11-02', '3.00', A1)]), send([paid('C-1', 'c-1', '2026-11-02', '4.00', A1)])]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const order = await t.db.selectFrom('orders').select('amount_minor').where('order_no', '=', 'C-1').execute();
    expect(order).toHaveLength(1);
    expect(Number(order[0]!.amount_minor)).toBe((a.status === 200 ? 300 : 400));
  });

  it('moves a buyer whose earlier order arrives in a batch delivered beside a later one', async () => {
    for (let round = 0; round < 3; round++) {
      const user = `m-${round}`;
      // The later order came through A2, the earlier (the one that acquired the buyer) through A1.
      const later = [paid(`M-${round}-b`, user, '2026-11-06', '6.00', A2), paid(`M-${round}-x`, `mx-${round}`, '2026-11-06', '1.00', A2)];
      const earlier = [paid(`M-${round}-a`, user, '2026-11-04', '4.00', A1), paid(`M-${round}-y`, `my-${round}`, '2026-11-04', '1.00', A1)];
      const answers = await Promise.all(round % 2 ? [send(later), send(earlier)] : [send(earlier), send(later)]);
      expect(answers.map((a) => [a.status, a.data.accepted])).toEqual([
        [200, 2],
        [200, 2],
      ]);
      const buyer = await t.db.selectFrom('order_buyers').selectAll().where('site_id', '=', site.id).where('app_user_id', '=', user).executeTakeFirstOrThrow();
      expect(buyer).toMatchObject({ acquisition_day: '2026-11-04', ad_platform_id: A1, first_order_no: `M-${round}-a` });
      const orders = await t.db.selectFrom('orders').select(['order_no', 'ad_platform_id', 'is_new_payer']).where('app_user_id', '=', user).orderBy('order_no').execute();
      expect(orders).toEqual([
        { order_no: `M-${round}-a`, ad_platform_id: A1, is_new_payer: true },
        { order_no: `M-${round}-b`, ad_platform_id: A1, is_new_payer: false },
      ]);
    }
  });

  it('answers a refund racing its payment as the contract says, and stores it exactly once', async () => {
    for (let round = 0; round < 4; round++) {
      const order = paid(`R-${round}`, `r-${round}`, '2026-11-08', '10.00', A1);
      const back = refund(order, '4.00', '2026-11-09');
      // Sent in both orders across rounds (the refund first on even rounds).
      const [p, r] = round % 2 ? await Promise.all([send([order]), send([back])]) : await Promise.all([send([back]), send([order])]).then(([x, y]) => [y, x] as const);
      expect([p.status, p.data?.accepted]).toEqual([200, 1]);
      // Before its payment a refund is a conflict (nothing stored, the site resends); after it, stored.
      if (r.status === 409) {
        expect(r.data.errors[0].field).toBe('events.0');
        const again = await send([back]);
        expect([again.status, again.data.accepted]).toEqual([200, 1]);
      } else expect([r.status, r.data.accepted]).toEqual([200, 1]);
      const stored = await t.db.selectFrom('orders').select(['status', 'refunded_minor', 'refunded_usd_cents']).where('order_no', '=', `R-${round}`).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ status: 'partially_refunded' });
      expect([Number(stored.refunded_minor), Number(stored.refunded_usd_cents)]).toEqual([400, 400]);
      expect(await t.db.selectFrom('order_refunds').select('id').where('order_id', 'in', t.db.selectFrom('orders').select('id').where('order_no', '=', `R-${round}`)).execute()).toHaveLength(1);
    }
  });

  it('stores a refund naming another buyer than its payment, which commits while the refund waits for it', async () => {
    // The payment is held open in a transaction of its own; the refund (another app_user_id) waits
    // on the order's stripe, then finds the order's buyer unlocked and runs again with it locked
    // (on PostgreSQL; on PGlite the two take turns and the refund sees the order from the start).
    const order = paid('X-1', 'x-payer', '2026-10-20', '9.00', A1);
    const items = [order].map((raw, i) => {
      const r = parseOrderEvent(raw, { lang: 'en' });
      return { event: r.event!, raw: r.raw, field: `events.${i}` };
    });
    let refunded: Promise<Awaited<ReturnType<typeof send>>> | undefined;
    await t.db.transaction().execute(async (trx) => {
      const r = await ingestEvents(trx, { site: { id: site.id, link_template: TEMPLATE }, reportTimezone: 'Asia/Shanghai', now: t.clock.now(), source: 'webhook', lang: 'en' }, items);
      expect(r.accepted).toBe(1);
      refunded = send([refund({ ...order, app_user_id: 'x-other' }, '2.00', '2026-10-21')]);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const answer = await refunded!;
    expect([answer.status, answer.data.accepted]).toEqual([200, 1]);
    const stored = await t.db.selectFrom('orders').select(['app_user_id', 'refunded_minor', 'status']).where('order_no', '=', 'X-1').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ app_user_id: 'x-payer', status: 'partially_refunded' });
    expect(Number(stored.refunded_minor)).toBe(200);
  });

  it('counts a refund delivered beside the batch that moves its buyer to another ad under the new ad', async () => {
    for (let round = 0; round < 3; round++) {
      const user = `f-${round}`;
      const first = paid(`F-${round}-b`, user, '2026-11-12', '8.00', A2);
      expect((await send([first])).status).toBe(200);
      const move = [paid(`F-${round}-a`, user, '2026-11-11', '2.00', A1)];
      const back = [refund(first, '3.00', '2026-11-13')];
      const answers = await Promise.all(round % 2 ? [send(move), send(back)] : [send(back), send(move)]);
      expect(answers.map((a) => [a.status, a.data.accepted])).toEqual([
        [200, 1],
        [200, 1],
      ]);
    }
    await drainAllCohorts(t.db);
    const { now } = await cohortsNowAndTruth();
    // Three buyers acquired on 11-11 through A1: 2.00 + 8.00 − 3.00 each by day 2; nothing left under A2.
    expect(row(now, A1, '2026-11-11')).toMatchObject({ new_payers: 3, d0: '600', d1: '3000', d3: '2100', revenue: '600' });
    expect(row(now, A1, '2026-11-12')).toMatchObject({ revenue: '2400', payers: 3, new_payers: 0 });
    expect(row(now, A1, '2026-11-13')).toMatchObject({ revenue: '-900', payers: 0 });
    expect(now.filter((r) => r.ad_platform_id === A2 && String(r.day) >= '2026-11-11')).toEqual([]);
  });

  it('ends, once drained, with the cohort facts a recompute from scratch gives, and the log empty', async () => {
    // Many small overlapping deliveries at once: shared buyers across batches, resends, refunds of earlier orders.
    const batches: Record<string, unknown>[][] = [];
    for (let b = 0; b < 12; b++) {
      const events: Record<string, unknown>[] = [];
      for (let i = 0; i < 10; i++) {
        const n = b * 10 + i;
        events.push(paid(`Z-${n}`, `z-${n % 9}`, `2026-11-${String(14 + (n % 4)).padStart(2, '0')}`, '1.50', n % 3 ? A1 : A2, n % 20));
      }
      batches.push(events);
    }
    const first = await Promise.all(batches.map((events) => send(events)));
    expect(first.every((a) => a.status === 200 && a.data.accepted === 10)).toBe(true);
    const second = await Promise.all([
      ...batches.slice(0, 4).map((events) => send(events)),
      ...batches.slice(4, 8).map((events) => send(events.slice(0, 3).map((e) => refund(e, '0.50', '2026-11-18')))),
    ]);
    expect(second.slice(0, 4).every((a) => a.status === 200 && a.data.duplicates === 10)).toBe(true);
    expect(second.slice(4).every((a) => a.status === 200 && a.data.accepted === 3)).toBe(true);

    await drainAllCohorts(t.db);
    expect(await t.db.selectFrom('ad_order_dirty').select('id').execute()).toEqual([]);
    const { now, truth } = await cohortsNowAndTruth();
    expect(truth.length).toBeGreaterThan(10);
    expect(now).toEqual(truth);
    // Nine buyers, each acquired once, whatever the order the batches were stored in.
    const buyers = await t.db.selectFrom('order_buyers').select(['app_user_id', 'first_order_no', 'acquisition_day']).where('app_user_id', 'like', 'z-%').orderBy('app_user_id').execute();
    expect(buyers).toHaveLength(9);
    const newPayers = await t.db.selectFrom('orders').select('order_no').where('order_no', 'like', 'Z-%').where('is_new_payer', '=', true).execute();
    expect(newPayers.map((o) => o.order_no).sort()).toEqual(buyers.map((b) => b.first_order_no).sort());
  });

  it('drains by itself a few seconds after an intake (the service’s debounced drain)', async () => {
    // Nothing here drains: only the service's timer can empty the log of this order's pairs.
    expect((await send([paid('D-1', 'd-1', '2026-11-19', '5.00', A1)])).status).toBe(200);
    for (let i = 0; i < 100 && (await t.db.selectFrom('ad_order_dirty').select('id').execute()).length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await t.db.selectFrom('ad_order_dirty').select('id').execute()).toEqual([]);
    const { now } = await cohortsNowAndTruth();
    expect(row(now, A1, '2026-11-19')).toMatchObject({ new_payers: 1, d0: '500', revenue: '500' });
  });
});
