/**
 * One journey in English (SPEC.md §1/§4): the language is switched on the login page, and the
 * form, the server's messages, the menu, the header, the dialogs and the 404 page all follow.
 */
import { MANAGER, chooseUserMenu, expect, openAs, loginButton, notification, readStore, selectedEntry, sideMenu, test, topLevelTitles, userMenuButton } from './fixtures.ts';

test('a manager works through the app in English', async ({ page, api }) => {
  const staff = await api.createStaff(['/index', '/advertising/user', '/advertising/campaign'], 'Alice');

  await page.goto('/login');
  await expect(loginButton(page)).toHaveText(/登\s*录/);
  await page.getByRole('radiogroup', { name: 'language' }).getByText('EN').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: 'Ad Delivery System' })).toBeVisible();
  await expect(loginButton(page)).toHaveText('Log in');
  expect(await readStore(page, 'settings')).toMatchObject({ locale: 'en' });

  // Form validation and the server's answer are in English.
  await loginButton(page).click();
  await expect(page.getByText('Enter your account')).toBeVisible();
  await expect(page.getByText('Enter your password')).toBeVisible();
  await page.getByLabel('Account').fill(staff.account);
  await page.getByLabel('Password').fill('wrong-password');
  await loginButton(page).click();
  const refused = notification(page, 'Error: /login');
  await expect(refused).toContainText('Wrong account or password.');

  await page.getByLabel('Password').fill(staff.password);
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByRole('heading', { name: 'Hello, Alice' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Delivery dashboard/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh the dashboard' })).toBeVisible();
  await expect(page.getByTestId('sidebar-title')).toHaveText('Ad Delivery System');

  // Menu and header.
  await expect.poll(() => topLevelTitles(page)).toEqual(['Home', 'Advertising']);
  for (const name of ['Collapse menu', 'Full screen', 'Refresh', 'Switch to dark theme', 'Change language', 'User menu']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(userMenuButton(page)).toHaveText(/Alice/);
  await userMenuButton(page).click();
  await expect(page.getByRole('menuitem', { name: 'Reset password' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A hidden route highlights its menu entry and speaks English.
  await page.goto('/advertising/campaign');
  await expect(page.getByTestId('content')).toContainText('Compare with previous period');
  await expect(selectedEntry(page)).toHaveText('Ad data');
  await expect(sideMenu(page).getByText('Campaigns', { exact: true })).toHaveCount(0);

  // Unknown and unpermitted paths end on the English 404 page.
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('This page does not exist, or your account may not open it.')).toBeVisible();
  await page.goto('/sys/accounts');
  await expect(page).toHaveURL(/\/404$/);
  await page.getByRole('button', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/index$/);

  // The reset dialog, with antd's own labels in English too.
  await chooseUserMenu(page, 'Reset password');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText("Confirming resets the current account's password and generates a new random one. Keep it safe.");
  await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  const reset = notification(page, 'Password reset');
  await expect(reset).toContainText(`Account: ${staff.account}`);
  const newPassword = (await reset.locator('code').innerText()).trim();
  await expect(reset).toContainText(`New password: ${newPassword}`);
  await expect(dialog).toBeHidden();
  // Dismissed by hand (the close button carries antd's English label).
  await reset.getByRole('button', { name: 'Close' }).click();
  await expect(reset).toBeHidden();

  // Logging out clears every setting: the login page is Chinese again.
  await chooseUserMenu(page, 'Log out');
  await expect(page).toHaveURL(/\/login$/);
  await expect(loginButton(page)).toHaveText(/登\s*录/);
  expect((await api.login({ account: staff.account, password: newPassword })).account).toBe(staff.account);
});

test('in English the sidebar names the product in English and no menu title is cut off', async ({ page, api }) => {
  await page.addInitScript(() => localStorage.setItem('settings', JSON.stringify({ state: { locale: 'en', isDark: false }, version: 1 })));
  await openAs(page, api, MANAGER, '/index');
  await expect(page.getByTestId('sidebar-title')).toHaveText('Ad Delivery System');
  // Open every group, then compare each title's text width with the room it has.
  const groups = sideMenu(page).locator(':scope > li.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  while ((await groups.count()) > 0) await groups.first().click();
  await expect(sideMenu(page).getByText('E-commerce materials', { exact: true })).toBeVisible();
  const cut = await sideMenu(page)
    .locator('.ant-menu-title-content')
    .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
  expect(cut).toEqual([]);
  const title = page.getByTestId('sidebar-title');
  expect(await title.evaluate((el) => el.scrollWidth <= (el.parentElement?.clientWidth ?? 0))).toBe(true);
});
