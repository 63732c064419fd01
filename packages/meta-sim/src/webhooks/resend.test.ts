import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from '../testing/harness.ts';
import { startReceiver, type Receiver } from '../testing/receiver.ts';

// Resends: a sender resends on anything but 2xx and is never blocked by one bad event
// (API.md "Orders"). Failed requests are resent with a backoff and given up on after
// webhook_max_attempts; a batch answered 4xx is split down to the bad event, which is dropped
// after a few tries while the others go through.

let t: TestSim;
let rx: Receiver;
const SITE = 'r1';

beforeAll(async () => {
  t = await startTestSim();
  rx = await startReceiver(() => t.sim.now());
  rx.setSecrets(SITE, ['resend-secret']);
  await t.control('PUT', '/__sim/settings', { webhook_retry_base_ms: 0, webhook_max_attempts: 4 });
  await t.control('PUT', `/__sim/sites/${SITE}`, { webhook_url: rx.url(SITE), secret: 'resend-secret', domain: 'drama.example' });
  await createTree(t, t.user.ad_accounts[0].id, { adsetBudget: 60000 });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const flush = (body: Record<string, boolean> = { until_idle: true }) => t.control('POST', '/__sim/orders/flush', body);
const since = () => {
  const from = rx.requests.length;
  return () => rx.requests.slice(from);
};
const deliveries = async (n: number) => (await t.control('GET', `/__sim/sites/${SITE}/deliveries?limit=${n}`)).data.slice(0, n).reverse();

describe('resending', () => {
  it('resends after 5xx answers and a dropped connection, and stores each event once', async () => {
    await t.advance('1d');
    rx.plan(SITE, [500, 'drop', 503]);
    const seen = since();
    const result = await flush();
    const requests = seen();
    expect(requests.map((r) => r.status)).toEqual([500, 'drop', 503, 200]);
    // The same body each time (fresh signature): the same events.
    expect(new Set(requests.map((r) => r.raw.toString('utf8'))).size).toBe(1);
    expect(result).toMatchObject({ requests: 4, dropped: 0, pending: 0, sent: requests[3]!.events.length, failed: 3 * requests[3]!.events.length });
    expect(rx.stored(SITE).size).toBe(requests[3]!.events.length);
    const log = await deliveries(4);
    expect(log.map((d: any) => [d.status, d.outcome, d.attempt])).toEqual([
      [500, 'retry', 1],
      [null, 'retry', 2],
      [503, 'retry', 3],
      [200, 'delivered', 4],
    ]);
    expect(log[1].error).toBeTruthy();
  });

  it('waits out the backoff unless told to retry now', async () => {
    await t.control('PUT', '/__sim/settings', { webhook_retry_base_ms: 60_000 });
    await t.advance('6h');
    rx.plan(SITE, [502]);
    const seen = since();
    const first = await flush();
    expect(first).toMatchObject({ requests: 1, sent: 0 });
    expect(first.pending).toBeGreaterThan(0);
    // A minute of real time has not passed: nothing goes out.
    expect(await flush()).toMatchObject({ requests: 0, pending: first.pending });
    expect(await flush({ retry_now: true })).toMatchObject({ requests: 1, sent: first.pending, pending: 0 });
    expect(seen().map((r) => r.status)).toEqual([502, 200]);
    await t.control('PUT', '/__sim/settings', { webhook_retry_base_ms: 0 });
  });

  it('gives up on events after webhook_max_attempts failed requests, then carries on', async () => {
    await t.advance('6h');
    rx.plan(SITE, [500, 500, 500, 500]);
    const seen = since();
    const result = await flush();
    const doomed = seen()[0]!.events;
    expect(seen().map((r) => r.status)).toEqual([500, 500, 500, 500]);
    expect(result).toMatchObject({ requests: 4, sent: 0, dropped: doomed.length, pending: 0 });
    const site = await t.control('GET', `/__sim/sites/${SITE}`);
    expect(site.stats.dropped_events).toBe(doomed.length);
    const truth = await t.control('GET', `/__sim/sites/${SITE}/orders?limit=100000`);
    const dropped = truth.data.filter((o: any) => o.delivery.paid === 'dropped').map((o: any) => o.order_no);
    expect(dropped.sort()).toEqual(doomed.filter((e) => e.event === 'order.paid').map((e) => e.order_no).sort());

    // Later events are not held back by the dropped ones.
    await t.advance('6h');
    const next = since();
    expect((await flush()).sent).toBeGreaterThan(0);
    expect(next().every((r) => r.status === 200)).toBe(true);
    expect(next().flatMap((r) => r.events).some((e) => doomed.some((d) => d.order_no === e.order_no && d.event === e.event))).toBe(false);
  });

  it('splits a batch refused with 400 down to the bad event, drops it after 3 tries and delivers the rest', async () => {
    await t.advance('12h');
    let bad: string | undefined;
    rx.rejectWhen((e) => ((bad ??= `${e.event}:${e.order_no}`) === `${e.event}:${e.order_no}` ? 400 : undefined));
    const seen = since();
    const result = await flush();
    rx.rejectWhen(undefined);
    const requests = seen();
    const all = new Set(requests[0]!.events.map((e) => `${e.event}:${e.order_no}`));
    expect(all.size).toBeGreaterThan(4);
    // Every other event of the batch is stored; the bad one is not, and was tried 3 times alone.
    const stored = rx.stored(SITE);
    for (const key of all) expect(stored.has(key)).toBe(key !== bad);
    const alone = requests.filter((r) => r.events.length === 1 && `${r.events[0].event}:${r.events[0].order_no}` === bad);
    expect(alone.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(result).toMatchObject({ dropped: 1, pending: 0, sent: all.size - 1 });
    const log = await deliveries(requests.length);
    expect(log.filter((d: any) => d.outcome === 'split').length).toBeGreaterThan(0);
    expect(log.filter((d: any) => d.keys[0] === bad!.replace(/^order\./, '') && d.events === 1).map((d: any) => d.outcome)).toEqual(['rejected', 'rejected', 'dropped']);
    expect((await t.control('GET', `/__sim/sites/${SITE}`)).stats.dropped_events).toBeGreaterThanOrEqual(1);
  });

  it('resends a lone event refused with 409 up to webhook_max_attempts without holding the others', async () => {
    await t.advance('12h');
    let bad: string | undefined;
    rx.rejectWhen((e) => (e.event !== 'order.paid' ? undefined : (bad ??= e.order_no) === e.order_no ? 409 : undefined));
    const seen = since();
    const result = await flush();
    rx.rejectWhen(undefined);
    const alone = seen().filter((r) => r.events.length === 1 && r.events[0].order_no === bad);
    expect(alone.map((r) => r.status)).toEqual([409, 409, 409, 409]);
    expect(result.dropped).toBe(1);
    expect(result.sent).toBe(new Set(seen()[0]!.events.map((e) => `${e.event}:${e.order_no}`)).size - 1);
  });
});
