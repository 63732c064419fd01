/**
 * SPEC.md §2 "Layout" and §9: sidebar (logo, title, collapse, automatic collapse under 768 px
 * with a 500 ms resize throttle), minimum width and content padding, the header's buttons and
 * user dropdown, and the refresh spinner.
 */
import { MANAGER, expect, openAs, sidebar, test, userMenuButton } from './fixtures.ts';

test.beforeEach(async ({ page, api }) => {
  await openAs(page, api, MANAGER, '/index');
  await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
});

test('the sidebar shows the logo and the title; the collapse toggle hides the title and brings it back', async ({ page }) => {
  await expect(sidebar(page).getByRole('img', { name: 'logo' })).toBeVisible();
  const title = page.getByTestId('sidebar-title');
  await expect(title).toHaveText('广告投放系统');
  const expandedWidth = (await sidebar(page).boundingBox())!.width;

  await page.getByRole('button', { name: '收起菜单' }).click();
  await expect(title).toBeHidden();
  await expect(sidebar(page)).toHaveClass(/ant-layout-sider-collapsed/);
  await expect(sidebar(page).getByRole('img', { name: 'logo' })).toBeVisible();
  await expect.poll(async () => (await sidebar(page).boundingBox())!.width).toBeLessThan(expandedWidth);

  await page.getByRole('button', { name: '展开菜单' }).click();
  await expect(title).toHaveText('广告投放系统');
  await expect(sidebar(page)).not.toHaveClass(/ant-layout-sider-collapsed/);
});

test('the sidebar collapses by itself under 768 px and expands again when widened', async ({ page }) => {
  const title = page.getByTestId('sidebar-title');
  await expect(title).toBeVisible();

  await page.setViewportSize({ width: 700, height: 800 });
  await expect(sidebar(page)).toHaveClass(/ant-layout-sider-collapsed/);
  await expect(title).toBeHidden();
  await expect(page.getByRole('button', { name: '展开菜单' })).toBeVisible();

  // Widened within the throttle window: the trailing evaluation after 500 ms expands it.
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.waitForTimeout(600);
  await expect(sidebar(page)).not.toHaveClass(/ant-layout-sider-collapsed/);
  await expect(title).toBeVisible();

  // Exactly 768 px is not narrower than 768 px.
  await page.waitForTimeout(600);
  await page.setViewportSize({ width: 768, height: 800 });
  await page.waitForTimeout(600);
  await expect(sidebar(page)).not.toHaveClass(/ant-layout-sider-collapsed/);
  await page.setViewportSize({ width: 767, height: 800 });
  await expect(sidebar(page)).toHaveClass(/ant-layout-sider-collapsed/, { timeout: 2000 });
});

test('a page opened in a narrow window starts with the sidebar collapsed', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
  await expect(sidebar(page)).toHaveClass(/ant-layout-sider-collapsed/);
  await expect(page.getByTestId('sidebar-title')).toBeHidden();
});

test('the layout keeps a minimum width of 768 px and the content a padding of 20 px', async ({ page }) => {
  const layout = page.getByTestId('main-layout');
  await expect(layout).toHaveCSS('min-width', '768px');
  const content = page.getByTestId('content');
  for (const side of ['top', 'right', 'bottom', 'left']) await expect(content).toHaveCSS(`padding-${side}`, '20px');

  // In a window narrower than that the layout stays 768 px wide and the page scrolls.
  await page.setViewportSize({ width: 600, height: 800 });
  await expect.poll(async () => (await layout.boundingBox())!.width).toBeGreaterThanOrEqual(768);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeGreaterThanOrEqual(768);
});

test('every icon button of the header has an accessible name', async ({ page }) => {
  for (const name of ['收起菜单', '全屏', '刷新', '切换到暗色主题', '切换语言', '用户菜单']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
});

test('the fullscreen toggle enters and leaves full screen', async ({ page }) => {
  await page.getByRole('button', { name: '全屏', exact: true }).click();
  await expect.poll(() => page.evaluate(() => Boolean(document.fullscreenElement))).toBe(true);
  await expect(page.getByRole('button', { name: '退出全屏', exact: true })).toBeVisible();
  await page.getByRole('button', { name: '退出全屏', exact: true }).click();
  await expect.poll(() => page.evaluate(() => Boolean(document.fullscreenElement))).toBe(false);
  await expect(page.getByRole('button', { name: '全屏', exact: true })).toBeVisible();
});

test("the user dropdown shows the user's name with 重置密码 and 退出登录", async ({ page }) => {
  await expect(userMenuButton(page)).toHaveText(/管理员/);
  await userMenuButton(page).click();
  await expect(page.getByRole('menuitem', { name: '重置密码' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
});

test('refresh shows the spinner, then the content again', async ({ page }) => {
  const heading = page.getByRole('heading', { name: '你好，管理员' });
  const spinner = page.getByTestId('page-spinner');
  await expect(spinner).toHaveCount(0);
  // The spinner shows for a moment only; a busy runner may not poll inside it, so the page itself
  // records, from before the click, whether the large spinner entered the content.
  await page.evaluate(() => {
    const w = window as unknown as { spinnerSeen?: boolean };
    w.spinnerSeen = false;
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="content"] [data-testid="page-spinner"] .ant-spin-lg')) {
        w.spinnerSeen = true;
        observer.disconnect();
      }
    }).observe(document.body, { subtree: true, childList: true });
  });
  await page.getByRole('button', { name: '刷新', exact: true }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { spinnerSeen?: boolean }).spinnerSeen)).toBe(true);
  await expect(heading).toBeVisible();
  await expect(spinner).toHaveCount(0);
});
