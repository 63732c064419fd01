import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { createSite, createUser } from '../../test/factories.ts';
import { signatureHeader } from './signature.ts';

// Order import (issue 9): .csv / .xlsx with the webhook's field names as headers, a dry run,
// row errors (nothing stored), idempotent by order number, the same checks as the webhook.

let t: TestApp;
let admin: string;
let manager: string;
let siteId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await createUser(t.db, { is_admin: 9 });
  const m = await createUser(t.db, { is_admin: 1 });
  admin = await t.login(a.account, a.password);
  manager = await t.login(m.account, m.password);
  siteId = (await createSite(t.db)).id;
  await t.db.updateTable('sites').set({ link_template: 'https://shop.example.com/p/{product_id}?c={campaign_id}&s={adset_id}&a={ad_id}', platform: 'ec' }).where('id', '=', siteId).execute();
});
afterAll(() => t.close());

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');
const HEADER = 'event,order_no,amount,currency,paid_at,refunded_at,app_user_id,country,landing_url,product_id,quantity';
const ROWS = [
  'order.paid,S-1,25.98,USD,2026-10-30T10:00:00+08:00,,buyer-1,US,https://shop.example.com/p/SKU-1?c=1&s=2&a=3,SKU-1,2',
  ',S-2,12.99,USD,2026-10-31 09:00:00,,buyer-1,US,,SKU-1,1',
  'order.refunded,S-1,12.99,USD,2026-10-30T10:00:00+08:00,2026-10-31T10:00:00+08:00,buyer-1,US,https://shop.example.com/p/SKU-1?c=1&s=2&a=3,SKU-1,2',
  'order.paid,S-3,1500,JPY,2026-10-31T10:00:00Z,,buyer-2,JP,,,',
];
const csv = (rows: string[]) => [HEADER, ...rows].join('\n');
const importFile = (filename: string, content: string | Buffer, extra: Record<string, unknown> = {}, token = admin) =>
  t.call('/api/orders/import', { site_id: siteId, filename, content_base64: b64(content), ...extra }, { token, lang: 'en' });
const counts = async () => ({
  orders: (await t.db.selectFrom('orders').select('id').execute()).length,
  events: (await t.db.selectFrom('order_events').select('id').execute()).length,
  refunds: (await t.db.selectFrom('order_refunds').select('id').execute()).length,
});

describe('order import', () => {
  it('is for /admin/order/list holders only', async () => {
    expect((await importFile('o.csv', csv(ROWS), {}, manager)).code).toBe(403);
  });

  it('checks every row and stores nothing when one is wrong, naming row and field', async () => {
    const bad = csv([...ROWS, 'order.paid,S-9,-1,usd,yesterday,,,US,,,0', 'order.refunded,S-404,1.00,USD,2026-10-31T10:00:00Z,2026-10-31T11:00:00Z,b,US,,,']);
    const r = await importFile('orders.csv', bad);
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ accepted: 0, duplicates: 0 });
    expect(r.data.errors).toEqual([
      { row: 6, field: 'currency', message: expect.any(String) },
      { row: 6, field: 'amount', message: expect.any(String) },
      { row: 6, field: 'paid_at', message: expect.any(String) },
      { row: 6, field: 'app_user_id', message: 'Required' },
      { row: 6, field: 'quantity', message: expect.any(String) },
      { row: 7, field: 'order_no', message: expect.stringMatching(/S-404 has no order\.paid/) },
    ]);
    expect(await counts()).toEqual({ orders: 0, events: 0, refunds: 0 });
  });

  it('refuses a file without the required columns', async () => {
    const r = await importFile('orders.csv', 'order_no,amount\nA,1.00');
    expect(r.code).toBe(-2);
    expect(r.message).toMatch(/currency, paid_at, app_user_id/);
  });

  it('dry-runs, then imports, then takes the same file again as duplicates', async () => {
    const dry = await importFile('orders.csv', csv(ROWS), { dry_run: true });
    expect(dry.data).toEqual({ accepted: 4, paid: 3, refunded: 1, duplicates: 0, errors: [] });
    expect(await counts()).toEqual({ orders: 0, events: 0, refunds: 0 });

    const real = await importFile('orders.csv', csv(ROWS));
    expect(real.data).toEqual({ accepted: 4, paid: 3, refunded: 1, duplicates: 0, errors: [] });
    expect(await counts()).toEqual({ orders: 3, events: 4, refunds: 1 });
    const rows = await t.db.selectFrom('orders').selectAll().orderBy('order_no').execute();
    expect(rows.map((o) => [o.order_no, o.status, o.amount_minor, o.refunded_minor, o.currency, o.is_new_payer, o.ad_platform_id, o.product_external_id, o.quantity, o.unit_price_minor, o.source])).toEqual([
      ['S-1', 'partially_refunded', 2598, 1299, 'USD', true, '3', 'SKU-1', 2, 1299, 'import'],
      ['S-2', 'paid', 1299, 0, 'USD', false, '3', 'SKU-1', 1, 1299, 'import'],
      ['S-3', 'paid', 1500, 0, 'JPY', true, null, null, null, null, 'import'],
    ]);
    // A time without an offset is read in REPORT_TIMEZONE (Asia/Shanghai).
    expect(rows[1]!.paid_at.toISOString()).toBe('2026-10-31T01:00:00.000Z');

    const again = await importFile('orders.csv', csv(ROWS));
    expect(again.data).toEqual({ accepted: 0, paid: 0, refunded: 0, duplicates: 4, errors: [] });
    expect(await counts()).toEqual({ orders: 3, events: 4, refunds: 1 });
    const audit = await t.db.selectFrom('audit_logs').select('action').where('action', '=', 'order.import').execute();
    expect(audit).toHaveLength(2);
  });

  it('reports an order whose stored content differs, and keeps what was stored', async () => {
    const r = await importFile('orders.csv', csv(['order.paid,S-1,99.00,USD,2026-10-30T10:00:00+08:00,,buyer-1,US,,SKU-1,2']));
    expect(r.data.errors).toEqual([{ row: 2, field: 'order_no', message: expect.stringMatching(/different content/) }]);
    expect((await t.db.selectFrom('orders').select('amount_minor').where('order_no', '=', 'S-1').executeTakeFirstOrThrow()).amount_minor).toBe(2598);
  });

  it('reads .xlsx with the same headers, and an order already received by the webhook is a duplicate', async () => {
    const secret = 'whsec_test_import';
    const { createSecretBox } = await import('../../lib/crypto.ts');
    const box = createSecretBox({ db: t.db, configuredKey: undefined });
    await t.db.updateTable('sites').set({ webhook_secret_enc: await box.encrypt(secret) }).where('id', '=', siteId).execute();
    const event = { event: 'order.paid', order_no: 'W-1', amount: '7.50', currency: 'EUR', paid_at: '2026-10-31T12:00:00+01:00', app_user_id: 'buyer-3' };
    const raw = Buffer.from(JSON.stringify(event));
    const res = await t.app.inject({ method: 'POST', url: `/api/orders/webhook/${siteId}`, headers: { 'content-type': 'application/json', 'x-signature': signatureHeader(secret, Math.floor(t.clock.now().getTime() / 1000), raw) }, payload: raw });
    expect(res.statusCode, res.body).toBe(200);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Orders');
    ws.addRow(['order_no', 'amount', 'currency', 'paid_at', 'app_user_id', 'Notes']);
    ws.addRow(['W-1', '7.50', 'EUR', '2026-10-31T12:00:00+01:00', 'buyer-3', 'from the webhook']);
    ws.addRow(['X-1', '3.00', 'EUR', '2026-10-31T13:00:00+01:00', 'buyer-3', '']);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await importFile('orders.xlsx', file);
    expect(r.data).toEqual({ accepted: 1, paid: 1, refunded: 0, duplicates: 1, errors: [] });
    const x = await t.db.selectFrom('orders').select(['is_new_payer', 'currency', 'amount_minor']).where('order_no', '=', 'X-1').executeTakeFirstOrThrow();
    expect(x).toEqual({ is_new_payer: false, currency: 'EUR', amount_minor: 300 });
  });
});
