/**
 * 订单列表 and 订单分析 (issue 9 "Screens"): a site sends signed orders to the real webhook (a
 * buyer through an ad paying twice, a partly refunded order, an order of today, an organic order
 * in euros); the super admin finds them in the list with totals equal to the rows, filters them,
 * opens one with its attribution and raw events, exports the list, reads the days and the
 * cohort triangle (days not yet ended shown as not matured).
 */
import { createHmac } from 'node:crypto';
import { ADMIN, expect, openAs, test, unique, type Api } from './fixtures.ts';

const ZONE = 'Asia/Shanghai';
/** A day in the reporting time zone, `days` before today. */
const dayBefore = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() - days * 86_400_000));
/** Noon of that day in Shanghai, as a site sends it. */
const noon = (days: number) => `${dayBefore(days)}T12:00:00+08:00`;

async function sendOrders(api: Api, site: { id: number; secret: string }, events: Record<string, unknown>[]) {
  const raw = JSON.stringify({ events });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', site.secret).update(`${t}.${raw}`).digest('hex');
  const res = await api.request.post(`/api/orders/webhook/${site.id}`, { data: raw, headers: { 'content-type': 'application/json', 'x-signature': `t=${t},v1=${v1}` } });
  expect(res.status(), await res.text()).toBe(200);
}

test('the super admin reads orders a site sent: list, totals, filters, detail with the raw events, export, days and cohorts', async ({ page, api }) => {
  test.setTimeout(240_000);
  const token = await api.managerSession();
  const domain = `${unique('orders').toLowerCase()}.example.com`;
  const created = await api.ok<{ id: number; webhook_secret: string }>(
    '/sites/create',
    { name: unique('订单站'), domain, platform: 'dj', link_template: `https://${domain}/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}` },
    token,
  );
  const site = { id: created.id, secret: created.webhook_secret };
  await api.ok('/dramas/create', { site_id: site.id, external_id: 'D9', name: '总裁的替身新娘', language: 'en', episode_count: 80 }, token);
  const land = `https://${domain}/play/D9?c=7701&s=7702&a=7703`;
  const paid = (order_no: string, app_user_id: string, amount: string, paid_at: string, extra: Record<string, unknown> = {}) => ({ event: 'order.paid', order_no, app_user_id, amount, currency: 'USD', paid_at, country: 'US', ...extra });
  const o2 = paid('E2E-2', 'buyer-b', '20.00', noon(3), { landing_url: land });
  await sendOrders(api, site, [
    paid('E2E-1', 'buyer-a', '10.00', noon(3), { landing_url: land, episode: 4 }),
    o2,
    paid('E2E-3', 'buyer-a', '5.00', noon(2)),
    paid('E2E-4', 'buyer-c', '7.00', new Date(Date.now() - 60_000).toISOString(), { landing_url: land }),
    paid('E2E-5', 'buyer-d', '12.00', noon(1), { currency: 'EUR', country: 'DE' }),
  ]);
  // 8.00 of E2E-2 refunded the next day.
  await sendOrders(api, site, [{ ...o2, event: 'order.refunded', amount: '8.00', refunded_at: noon(2) }]);

  // 订单列表, this site's orders of the last 7 days (other journeys share the database).
  await openAs(page, api, ADMIN, `/admin/order/list?site_id=${site.id}`);
  // A screen's first load can take a while on a busy machine.
  await expect(page.getByRole('heading', { name: '订单列表' })).toBeVisible({ timeout: 60_000 });
  const rows = page.locator('.ant-table-row');
  await expect(rows).toHaveCount(5);
  const totals = page.getByTestId('totals-row');
  await expect(totals).toContainText('合计 5 单');
  await expect(totals).toContainText('多币种');
  await expect(page.getByTestId('currency-totals')).toContainText('USD：USD 42.00（4 单，退款 USD 8.00）');
  await expect(page.getByTestId('currency-totals')).toContainText('EUR：EUR 12.00（1 单，退款 EUR 0.00）');
  // The organic order says so; an attributed one names its ad by platform id (not synced here).
  await expect(rows.filter({ hasText: 'E2E-5' })).toContainText('自然量');
  await expect(rows.filter({ hasText: 'E2E-1' })).toContainText('7701');
  await expect(rows.filter({ hasText: 'E2E-1' })).toContainText('总裁的替身新娘 · 第 4 集');

  // A filter applies at once and stays in the URL.
  await page.getByRole('combobox', { name: '状态' }).click();
  await page.getByTitle('部分退款').click();
  await expect(rows).toHaveCount(1);
  await expect(page).toHaveURL(/status=partially_refunded/);
  await expect(totals).toContainText('合计 1 单');
  await expect(totals).toContainText('$12.00');

  // Its detail: attribution read from the landing URL, the refund, both raw events.
  await page.getByRole('button', { name: '查看订单 E2E-2' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '订单 E2E-2' });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText('按站点的链接模板解析买家的落地页链接');
  await expect(drawer.getByTestId('parsed-landing')).toContainText('广告系列 ID: 7701');
  await expect(drawer.getByTestId('parsed-landing')).toContainText('剧集 ID: D9');
  await expect(drawer.getByTestId('raw-event')).toHaveCount(2);
  await expect(drawer.getByTestId('raw-event').nth(1)).toContainText('"event": "order.refunded"');
  await drawer.getByRole('button', { name: '关闭' }).click();
  await expect(drawer).toBeHidden();

  // The export holds what the list shows.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /导出 Excel/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^订单列表-.*\.xlsx$/);

  // 订单分析: the days of this site, with a refund on its own day.
  await page.goto(`/admin/order/daily?site_id=${site.id}&date_from=${dayBefore(6)}&date_to=${dayBefore(0)}`);
  await expect(page.getByRole('heading', { name: '订单分析' })).toBeVisible({ timeout: 60_000 });
  const refundDay = page.locator('.ant-table-row').filter({ hasText: dayBefore(2) });
  // 5.00 paid, 8.00 refunded.
  await expect(refundDay).toContainText('-$3.00');
  await expect(page.getByTestId('daily-chart')).toBeVisible();

  // The cohort triangle: the buyers of three days ago paid 30.00 on their first day and 27.00 by
  // the end of the next (5.00 more, 8.00 refunded); their D3 is today, not matured.
  await page.getByRole('tab', { name: '同期群' }).click();
  const triangle = page.getByRole('tabpanel', { name: '同期群' });
  const cohort = triangle.locator('tr').filter({ hasText: dayBefore(3) });
  await expect(cohort.locator('td').nth(1)).toHaveText('2');
  await expect(cohort.locator('td').nth(2)).toHaveText('$30.00');
  await expect(cohort.locator('td').nth(3)).toHaveText('$27.00');
  await expect(cohort.locator('td').nth(4)).toHaveText('未成熟');
  await expect(triangle.locator('tr').filter({ hasText: dayBefore(0) }).locator('td').nth(2)).toHaveText('未成熟');
});
