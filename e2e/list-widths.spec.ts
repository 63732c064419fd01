/**
 * Issue 11 ("What a new user tripped on"): at 1440 px the tables of ad accounts, accounts,
 * hosting, products and job runs show their default columns without scrolling sideways, the
 * fixed action column covers nothing, no header label is cut, in Chinese and in English; the
 * header checkbox speaks the language.
 */
import { ADMIN, MANAGER, connectedSimUser, expect, seedSession, test, unique, type Page } from './fixtures.ts';

test.use({ viewport: { width: 1440, height: 900 } });

/** What the table at `path` does with its width. */
async function measure(page: Page, path: string) {
  await page.goto(path);
  // As with a long page: the vertical scrollbar takes its width too.
  await page.addStyleTag({ content: 'html { overflow-y: scroll; }' });
  const table = page.locator('.ant-table').first();
  await expect(table.locator('thead th').first()).toBeVisible();
  return table.evaluate((el) => {
    const body = el.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
    // A header cut short is wider inside than its cell, or than its title box beside a sorter.
    // (A fixed column's shadow widens its own cell: those are judged by their title box only.)
    const cut = [...el.querySelectorAll<HTMLElement>('thead th:not(.ant-table-cell-fix-start):not(.ant-table-cell-fix-end), thead .ant-table-column-title')]
      .filter((c) => c.textContent && c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.textContent);
    return {
      overflow: body.scrollWidth - body.clientWidth,
      // antd shows a fixed column's shadow when rows pass under it.
      pinged: el.querySelector('.ant-table-cell-fix-start-shadow-show, .ant-table-cell-fix-end-shadow-show') !== null,
      cut,
      selectAll: el.querySelector('thead .ant-checkbox-input')?.getAttribute('aria-label') ?? null,
    };
  });
}

test('list tables fit 1440 px in Chinese and English', async ({ page, api, sim }) => {
  // Ten screens, each opened afresh.
  test.setTimeout(180_000);
  const token = await api.managerSession();
  await connectedSimUser(api, sim, { name: 'Width Check', ad_accounts: [{ name: unique('宽度-US-') }, { name: unique('宽度-JP-'), currency: 'JPY', timezone_name: 'Asia/Tokyo' }] });
  const shop = await api.ok<{ id: number }>('/sites/create', { name: unique('Shop '), domain: `${unique('shop')}.example.com`, platform: 'ec', link_template: 'https://shop.example.com/p/{product_id}?c={campaign_id}' }, token);
  await api.ok('/products/create', { site_id: shop.id, external_id: unique('p'), name: 'Linen shirt with a rather long product name', url: 'https://shop.example.com/p/1', price: 39.99, currency: 'USD', tags: ['linen', 'summer'] }, token);
  const admin = await api.login(ADMIN);
  const manager = await api.login(MANAGER);
  await api.ok('/sys-cron/run_now', { name: 'cleanup-sessions' }, admin.token);

  for (const locale of ['zh-cn', 'en'] as const) {
    const screens: [string, typeof manager, string | null][] = [
      // Only this test's ad accounts: other journeys share the database, and their rows are not what is measured here.
      ['/auth/account?keyword=宽度', manager, locale === 'en' ? 'Select all on this page' : '全选本页'],
      ['/sys/accounts', manager, locale === 'en' ? 'Select all on this page' : '全选本页'],
      ['/operation/account?keyword=宽度', manager, locale === 'en' ? 'Select all on this page' : '全选本页'],
      [`/auth/site?site=${shop.id}`, manager, null],
      ['/admin/sys/cron?tab=runs', admin, null],
    ];
    for (const [path, who, selectAll] of screens) {
      await seedSession(page, who);
      await page.evaluate((l) => localStorage.setItem('settings', JSON.stringify({ state: { isDark: false, locale: l }, version: 1 })), locale);
      const m = await measure(page, path);
      expect(m, `${path} in ${locale}`).toEqual({ overflow: 0, pinged: false, cut: [], selectAll });
    }
  }
});
