import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTree, startTestSim, type TestSim } from '../testing/harness.ts';
import { sign } from './orders.ts';

let t: TestSim;
const received: Array<{ body: string; signature: string | undefined }> = [];
const receiver = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ body, signature: req.headers['x-sim-signature'] as string | undefined });
    res.end('ok');
  });
});

beforeAll(async () => {
  t = await startTestSim();
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  await t.close();
  receiver.close();
});

describe('recharge order webhooks', () => {
  it('refuses non-loopback URLs', async () => {
    await expect(t.control('POST', '/__sim/sites', { webhook_url: 'http://example.com/hook', secret: 'secret-123' })).rejects.toThrow(/loopback/);
  });

  it('posts signed orders matching the purchases of finished hours', async () => {
    const port = (receiver.address() as AddressInfo).port;
    await t.control('POST', '/__sim/sites', { name: 'drama', webhook_url: `http://127.0.0.1:${port}/orders`, secret: 'secret-123', domain: 'drama.example' });
    const account = t.user.ad_accounts[0].id;
    const tree = await createTree(t, account, { adsetBudget: 20000 });
    await t.advance('3d');
    const result = await t.control('POST', '/__sim/orders/flush');
    expect(result.failed).toBe(0);
    expect(result.sent).toBe(received.length);
    expect(received.length).toBeGreaterThan(0);

    const orders = received.map((r) => {
      expect(r.signature).toBe(sign('secret-123', r.body));
      return JSON.parse(r.body);
    });
    expect(orders[0]).toMatchObject({ event: 'order.paid', currency: 'USD', landing: { campaign_id: tree.campaignId, adset_id: tree.adsetId } });
    expect(orders[0].landing.url).toContain(`c=${tree.campaignId}`);
    expect(new Set(orders.map((o) => o.order_no)).size).toBe(orders.length);

    // The same purchases as Insights reports for the finished hours (the clock is frozen on the hour).
    const insights = await t.graph('GET', `/${account}/insights`, { fields: 'actions,action_values', date_preset: 'maximum' });
    const purchases = Number(insights.body.data[0].actions.find((a: any) => a.action_type === 'offsite_conversion.fb_pixel_purchase').value);
    expect(orders.length).toBe(purchases);
    const value = Number(insights.body.data[0].action_values.find((a: any) => a.action_type === 'offsite_conversion.fb_pixel_purchase').value);
    expect(orders.reduce((s, o) => s + Math.round(Number(o.amount) * 100), 0)).toBe(Math.round(value * 100));

    // Nothing is sent twice.
    expect((await t.control('POST', '/__sim/orders/flush')).sent).toBe(0);
  });
});
