/**
 * 广告账户 (/auth/account): the ad accounts a personal account's sync found, filtered; assigned to
 * an optimizer in bulk and given a business line. Data scope (PRODUCT.md): the optimizer, who has
 * the page but no assignment, sees none of them, and after the assignment exactly the assigned ones.
 */
import { MANAGER, connectedSimUser, expect, openAs, pickOption, test, toast, unique, type Page } from './fixtures.ts';

const rows = (page: Page) => page.locator('.ant-table-row');
const row = (page: Page, name: string) => rows(page).filter({ hasText: name });


test('a manager finds the synced ad accounts, assigns two to an optimizer and sets a business line; the optimizer then sees only those two', async ({ page, api, sim, browser }) => {
  const p = unique('E2E户');
  const [A, B, C] = [`${p}-甲`, `${p}-乙`, `${p}-丙`];
  const optimizer = await api.createStaff(['/auth/account'], unique('投手'));
  const { simUser } = await connectedSimUser(api, sim, { ad_accounts: [{ name: A }, { name: B }, { name: C, currency: 'JPY', timezone_name: 'Asia/Tokyo' }] });

  // The optimizer has the page but no account assigned: nothing to see, and the screen says the company has some.
  const theirContext = await browser.newContext();
  const theirs = await theirContext.newPage();
  await openAs(theirs, api, optimizer, '/auth/account');
  await expect(theirs.getByText(/你的数据范围内没有广告账户；公司另有 \d+ 个，如需查看请联系管理员/)).toBeVisible();
  await expect(rows(theirs)).toHaveCount(0);

  // From the personal account, its ad accounts: the list opens filtered to it.
  await openAs(page, api, MANAGER, '/auth/personage');
  await page.getByLabel('关键字').fill(simUser.user.id);
  await page.getByLabel('关键字').press('Enter');
  await row(page, simUser.user.name).getByRole('link', { name: '3', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/account\?personal_account_id=\d+/);
  await expect(page.getByRole('heading', { name: '广告账户' })).toBeVisible();
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByText('共 3 条')).toBeVisible();
  for (const name of [A, B, C]) await expect(row(page, name)).toContainText('未分配');
  // The JPY account's money is in whole yen; the personal account reaching each is shown.
  await expect(row(page, C)).toContainText('JPY 0');
  await expect(row(page, C)).not.toContainText('JPY 0.');
  await expect(row(page, A)).toContainText('USD 0.00');
  await expect(row(page, A)).toContainText(simUser.user.name);

  // Bulk-assign two of them to the optimizer.
  await page.getByRole('checkbox', { name: A }).check();
  await page.getByRole('checkbox', { name: B }).check();
  await expect(page.getByTestId('selection-bar')).toContainText('已选 2 项');
  await page.getByTestId('selection-bar').getByRole('button', { name: /分配人员/ }).click();
  const assign = page.getByRole('dialog').filter({ hasText: '已选 2 个广告账户' });
  await expect(assign).toContainText(A);
  await expect(assign.getByTestId('assign-mode-explain')).toContainText('原有的人员保持不变');
  // Nothing chosen: said before sending.
  await assign.getByRole('button', { name: /保\s*存/ }).click();
  await expect(assign.getByText('请选择人员')).toBeVisible();
  await pickOption(page, assign.getByRole('combobox', { name: '人员' }), optimizer.account, { multiple: true });
  await assign.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '已更新 2 个账户的分配')).toBeVisible();
  await expect(assign).toBeHidden();
  await expect(row(page, A)).toContainText(optimizer.name);
  await expect(row(page, B)).toContainText(optimizer.name);
  await expect(row(page, C)).toContainText('未分配');
  await expect(page.getByTestId('selection-bar')).toHaveCount(0);

  // Set the business line of the third to e-commerce, then filter by it (within the personal account's accounts).
  await page.getByRole('checkbox', { name: C }).check();
  await page.getByTestId('selection-bar').getByRole('button', { name: /设置业务/ }).click();
  const platform = page.getByRole('dialog').filter({ hasText: '将为以下 1 个广告账户设置业务' });
  await platform.getByText('电商', { exact: true }).click();
  await platform.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '已更新 1 个账户的业务')).toBeVisible();
  await expect(row(page, C).locator('.ant-tag').filter({ hasText: /^电商$/ })).toBeVisible();
  // A click on an option can be lost while antd animates the dropdown under load: retried until the URL says so.
  await expect(async () => {
    if ((await page.locator('.ant-select-dropdown:visible').count()) === 0) await page.getByRole('form', { name: 'filters' }).getByRole('combobox', { name: '业务' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^电商$/ }).click({ timeout: 5_000 });
    await expect(page).toHaveURL(/personal_account_id=\d+.*platform=ec|platform=ec.*personal_account_id=\d+/, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, C)).toBeVisible();

  // The optimizer now sees exactly the two assigned accounts.
  await theirs.reload();
  await expect(rows(theirs)).toHaveCount(2);
  await expect(row(theirs, A)).toBeVisible();
  await expect(row(theirs, B)).toBeVisible();
  await expect(theirs.getByText('共 2 条')).toBeVisible();
  await expect(row(theirs, C)).toHaveCount(0);
  await theirContext.close();
});
