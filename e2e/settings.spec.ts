/**
 * SPEC.md §3/§4: theme (light by default, a class on <html>, antd turns dark, persisted under
 * "settings") and language (zh-CN by default; English changes the interface, antd's locale and
 * the server's messages; persisted; switching back works).
 */
import { MANAGER, chooseUserMenu, expect, openAs, readStore, sideMenu, switchLocale, test, topLevelTitles, type Page } from './fixtures.ts';

const headerBackground = (page: Page) =>
  page.locator('.ant-layout-header').evaluate((el) => getComputedStyle(el).backgroundColor);

test('the theme is light by default; toggling makes it dark, persists across reload, and toggles back', async ({ page, api }) => {
  await openAs(page, api, MANAGER, '/index');
  const html = page.locator('html');
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
  const lightHeader = await headerBackground(page);
  const lightLayout = await page.getByTestId('main-layout').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(lightHeader).toBe('rgb(255, 255, 255)');

  await page.getByRole('button', { name: '切换到暗色主题' }).click();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(html).not.toHaveClass(/(^|\s)light(\s|$)/);
  // antd components follow: the header and the layout background are dark now.
  await expect.poll(() => headerBackground(page)).not.toBe(lightHeader);
  const darkHeader = await headerBackground(page);
  const [r, g, b] = darkHeader.match(/\d+/g)!.map(Number);
  expect(r! + g! + b!).toBeLessThan(3 * 64);
  await expect(page.getByTestId('main-layout')).not.toHaveCSS('background-color', lightLayout);
  expect(await readStore(page, 'settings')).toMatchObject({ isDark: true });

  await page.reload();
  await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
  await expect(html).toHaveClass(/(^|\s)dark(\s|$)/);
  await expect(html).not.toHaveClass(/(^|\s)light(\s|$)/);
  await expect.poll(() => headerBackground(page)).toBe(darkHeader);

  await page.getByRole('button', { name: '切换到亮色主题' }).click();
  await expect(html).toHaveClass(/(^|\s)light(\s|$)/);
  await expect(html).not.toHaveClass(/(^|\s)dark(\s|$)/);
  await expect.poll(() => headerBackground(page)).toBe(lightHeader);
  expect(await readStore(page, 'settings')).toMatchObject({ isDark: false });
});

test('the language is zh-CN by default; English changes menu, header and antd texts, persists, and switching back works', async ({ page, api }) => {
  await openAs(page, api, MANAGER, '/analyse/effect');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect.poll(() => topLevelTitles(page)).toEqual(['首页', '广告管理', '素材管理', '数据分析', '授权管理', '系统管理', '托管管理']);

  await switchLocale(page, 'English');
  await expect(sideMenu(page).getByText('System', { exact: true })).toBeVisible();
  await expect(sideMenu(page).getByText('系统管理', { exact: true })).toHaveCount(0);
  await expect.poll(() => topLevelTitles(page)).toEqual(['Home', 'Advertising', 'Materials', 'Analysis', 'Authorization', 'System', 'Hosting']);
  await expect(sideMenu(page).getByRole('menuitem', { name: 'Drama results' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  for (const name of ['Collapse menu', 'Full screen', 'Refresh', 'Switch to dark theme', 'Change language', 'User menu']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  // The screen's own text follows too.
  await expect(page.getByTestId('content')).toContainText('"Drama results" is not available yet');
  expect(await readStore(page, 'settings')).toMatchObject({ locale: 'en' });

  await page.reload();
  await expect(sideMenu(page).getByText('System', { exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await readStore(page, 'settings')).toMatchObject({ locale: 'en' });

  // antd's own locale follows: the dialog's close button is labelled by antd ("Close" / "关闭").
  await chooseUserMenu(page, 'Reset password');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  await switchLocale(page, '简体中文');
  await expect(sideMenu(page).getByText('系统管理', { exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: '刷新', exact: true })).toBeVisible();
  expect(await readStore(page, 'settings')).toMatchObject({ locale: 'zh-cn' });
  await chooseUserMenu(page, '重置密码');
  await expect(page.getByRole('dialog').getByRole('button', { name: '关闭', exact: true })).toBeVisible();
});
