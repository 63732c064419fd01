/**
 * The landing pages: staff land on 首页 (/index) with the counts of their own data scope; the
 * super admin lands on the admin overview (/admin/index), never on a page linking home to itself.
 */
import { ADMIN, MANAGER, expect, openAs, pathname, test, type Page } from './fixtures.ts';

interface Overview {
  personal_accounts: { total: number; expiring: number; invalid: number };
  ad_accounts: { total: number; active: number };
  materials: { total: number };
}

const figure = (page: Page, title: string) => page.getByTestId(`figure-${title}`);

test('the home page shows the counts the list screens give, and links to them', async ({ page, api }) => {
  const login = await openAs(page, api, MANAGER, '/');
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
  const o = await api.ok<Overview>('/overview/home', {}, login.token);
  // The same figures as the ad-account list's total.
  const listed = await api.ok<{ total: number }>('/ad-accounts/list', { page: 1, page_size: 1 }, login.token);
  expect(o.ad_accounts.total).toBe(listed.total);
  await expect(figure(page, '广告账户').locator('.ant-statistic-content')).toHaveText(String(o.ad_accounts.total));
  await expect(figure(page, '个号').locator('.ant-statistic-content')).toHaveText(String(o.personal_accounts.total));
  await expect(figure(page, '个号')).toContainText(`即将过期 ${o.personal_accounts.expiring}`);
  await expect(figure(page, '素材').locator('.ant-statistic-content')).toHaveText(String(o.materials.total));
  await expect(page.getByText('首页的投放看板即将上线')).toBeVisible();
  await figure(page, '广告账户').getByRole('link', { name: '广告账户' }).click();
  await expect(page).toHaveURL(/\/auth\/account$/);
});

test('the super admin lands on the admin overview with every scheduled task and its last run', async ({ page, api }) => {
  await openAs(page, api, ADMIN, '/');
  await expect(page).toHaveURL(/\/admin\/index$/);
  await expect(page.getByRole('heading', { name: '系统概览' })).toBeVisible();
  await expect(figure(page, '员工账号').locator('.ant-statistic-content')).not.toHaveText('-');
  const jobs = page.getByRole('row').filter({ hasText: '清理过期会话与记录' });
  await expect(jobs).toBeVisible();
  // Nothing on it sends "back home" to itself.
  await expect(page.getByRole('button', { name: /返回首页/ })).toHaveCount(0);
  await page.getByRole('link', { name: '管理定时任务' }).click();
  expect(pathname(page)).toBe('/admin/sys/cron');
  // A page not built yet offers the way home, which is the overview, not itself.
  await page.goto('/admin/order/list');
  await page.getByRole('button', { name: /返回首页/ }).click();
  await expect(page).toHaveURL(/\/admin\/index$/);
});
