/**
 * SPEC.md §2 "Route guard": where each kind of user lands for each kind of path, and that
 * every redirect replaces the history entry (going back never returns to the guarded URL).
 */
import { ADMIN, MANAGER, expect, loginButton, notFoundPage, openAs, pathname, seedSession, test, type Page } from './fixtures.ts';

/** Opens `path` after a page of the same origin, so that going back shows whether history was replaced. */
async function visitAfterBlankPage(page: Page, path: string) {
  await page.goto('/api/health');
  await page.goto(path);
}

/** Going back from a redirect target lands on the page before, never on the guarded URL. */
async function expectHistoryReplaced(page: Page) {
  await page.goBack();
  await expect(page).toHaveURL(/\/api\/health$/);
}

test('without a token every path redirects to /login, replacing the history entry', async ({ page }) => {
  for (const path of ['/', '/index', '/sys/role', '/admin/index', '/nonexistent', '/404']) {
    await test.step(path, async () => {
      await visitAfterBlankPage(page, path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(loginButton(page)).toBeVisible();
      await expectHistoryReplaced(page);
    });
  }
});

test.describe('with a token', () => {
  test('/login redirects to / and on to the first permitted path', async ({ page, api }) => {
    await seedSession(page, await api.login(MANAGER));
    await page.goto('/login');
    await expect(page).toHaveURL(/\/index$/);
    await expect(page.getByTestId('main-layout')).toBeVisible();
    await expectHistoryReplaced(page);
  });

  test('/ goes to /index for a manager (is_admin 1)', async ({ page, api }) => {
    await seedSession(page, await api.login(MANAGER));
    await page.goto('/');
    await expect(page).toHaveURL(/\/index$/);
    await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
    await expectHistoryReplaced(page);
  });

  test('/ goes to /admin/index for a super admin (is_admin 9)', async ({ page, api }) => {
    await openAs(page, api, ADMIN, '/');
    await expect(page).toHaveURL(/\/admin\/index$/);
    // The admin overview, not a "not available yet" page.
    await expect(page.getByRole('heading', { name: '系统概览' })).toBeVisible();
  });

  test('/ goes to the only screen a staff user is granted', async ({ page, api }) => {
    const staff = await api.createStaff(['/sys/role']);
    await openAs(page, api, staff, '/');
    await expect(page).toHaveURL(/\/sys\/role$/);
    await expect(page.getByTestId('main-layout')).toBeVisible();
  });

  test('/ goes to /404 for a staff user without any permitted path', async ({ page, api }) => {
    const staff = await api.createStaff([]);
    await openAs(page, api, staff, '/');
    await expect(page).toHaveURL(/\/404$/);
    await expect(notFoundPage(page)).toBeVisible();
    await expect(page.getByText('页面不存在，或你的账号没有访问该页面的权限。')).toBeVisible();
  });

  test('a path outside the permitted paths redirects to /404, replacing the history entry', async ({ page, api }) => {
    await seedSession(page, await api.login(MANAGER));
    await page.goto('/admin/index');
    await expect(page).toHaveURL(/\/404$/);
    await expect(notFoundPage(page)).toBeVisible();
    await expectHistoryReplaced(page);

    const staff = await api.createStaff(['/sys/role']);
    await seedSession(page, await api.login(staff));
    for (const path of ['/index', '/sys/accounts', '/advertising/post']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/404$/);
      await expect(notFoundPage(page)).toBeVisible();
    }
  });

  test('a super admin reaches nothing outside /admin', async ({ page, api }) => {
    await openAs(page, api, ADMIN, '/index');
    await expect(page).toHaveURL(/\/404$/);
    await page.goto('/sys/accounts');
    await expect(page).toHaveURL(/\/404$/);
    await page.goto('/admin/order/daily');
    await expect(page).toHaveURL(/\/admin\/order\/daily$/);
  });

  test('an unknown path shows the 404 page, whose button leads home', async ({ page, api }) => {
    await openAs(page, api, MANAGER, '/nonexistent/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(notFoundPage(page)).toBeVisible();
    await expect(page.getByText('404', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: /返回首页/ }).click();
    await expect(page).toHaveURL(/\/index$/);
  });

  test('a menu group path goes to its first permitted child', async ({ page, api }) => {
    await openAs(page, api, MANAGER, '/sys');
    await expect(page).toHaveURL(/\/sys\/accounts$/);
    await page.goto('/advertising');
    await expect(page).toHaveURL(/\/advertising\/post$/);
    await page.goto('/analyse/');
    await expect(page).toHaveURL(/\/analyse\/effect$/);

    const staff = await api.createStaff(['/sys/role', '/analyse/performance']);
    await seedSession(page, await api.login(staff));
    await page.goto('/sys');
    await expect(page).toHaveURL(/\/sys\/role$/);
    await page.goto('/analyse');
    await expect(page).toHaveURL(/\/analyse\/performance$/);
    expect(pathname(page)).toBe('/analyse/performance');

    await seedSession(page, await api.login(ADMIN));
    await page.goto('/admin/order');
    await expect(page).toHaveURL(/\/admin\/order\/list$/);
  });
});
