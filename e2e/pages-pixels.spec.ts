/**
 * 主页关联 (/auth/homepage) and 像素管理 (/auth/pixel): bulk-associating the synced pages with an
 * ad account and an optimizer, and sharing a pixel with one more ad account.
 */
import { MANAGER, connectedSimUser, expect, openAs, pickOption, test, toast, unique, type Page } from './fixtures.ts';

const rows = (page: Page) => page.locator('.ant-table-row');
const row = (page: Page, name: string) => rows(page).filter({ hasText: name });

test('a manager associates two pages with an ad account and an optimizer at once', async ({ page, api, sim }) => {
  const p = unique('E2E页');
  const [pageA, pageB] = [`${p}-主页A`, `${p}-主页B`];
  const account = `${p}-账户1`;
  const optimizer = await api.createStaff(['/auth/homepage'], unique('投手'));
  await connectedSimUser(api, sim, { pages: [{ name: pageA }, { name: pageB }], ad_accounts: [{ name: account }, { name: `${p}-账户2` }] });

  await openAs(page, api, MANAGER, '/auth/homepage');
  await expect(page.getByRole('heading', { name: '主页关联' })).toBeVisible();
  await page.getByLabel('关键字').fill(p);
  await page.getByLabel('关键字').press('Enter');
  await expect(rows(page)).toHaveCount(2);
  for (const name of [pageA, pageB]) {
    await expect(row(page, name).getByText('未关联')).toHaveCount(2);
    await page.getByRole('checkbox', { name }).check();
  }
  await page.getByTestId('selection-bar').getByRole('button', { name: /关\s*联/ }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: '已选 2 个主页' });
  await dialog.getByRole('checkbox', { name: '人员' }).check();
  await expect(dialog.getByTestId('assign-mode-explain')).toContainText('所选广告账户和人员会加到这 2 个主页上');
  await pickOption(page, dialog.getByRole('combobox', { name: '广告账户' }), account, { multiple: true });
  await pickOption(page, dialog.getByRole('combobox', { name: '人员' }), optimizer.account, { multiple: true });
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, /已更新 \d+ 项关联/)).toBeVisible();
  await expect(dialog).toBeHidden();
  for (const name of [pageA, pageB]) {
    await expect(row(page, name)).toContainText(account);
    await expect(row(page, name)).toContainText(optimizer.name);
  }

  // Filtered by that ad account instead of the name: the same two pages.
  await page.getByLabel('关键字').fill('');
  await pickOption(page, page.getByRole('form', { name: 'filters' }).getByRole('combobox', { name: '广告账户' }), account);
  await expect(page).toHaveURL(/ad_account_id=\d+/);
  await expect(rows(page)).toHaveCount(2);
});

test('a manager shares a pixel with an ad account of another business', async ({ page, api, sim }) => {
  const p = unique('E2E像素');
  const [own, other] = [`${p}-本户`, `${p}-他户`];
  // The pixel's business has one ad account; another connected person reaches an account of another business.
  const [{ simUser }] = await Promise.all([
    connectedSimUser(api, sim, { ad_accounts: [{ name: own }], pages: 0, pixels: 1 }),
    connectedSimUser(api, sim, { ad_accounts: [{ name: other }], pages: 0, pixels: 0 }),
  ]);
  const pixel = simUser.pixels[0]!;

  await openAs(page, api, MANAGER, '/auth/pixel');
  await expect(page.getByRole('heading', { name: '像素管理' })).toBeVisible();
  await page.getByLabel('关键字').fill(pixel.id);
  await page.getByLabel('关键字').press('Enter');
  await expect(rows(page)).toHaveCount(1);
  const pixelRow = rows(page).first();
  await expect(pixelRow).toContainText(pixel.id);
  await expect(pixelRow).toContainText(own);
  await expect(pixelRow).not.toContainText(other);

  await pixelRow.getByRole('button', { name: `关联「${pixel.name}」` }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: '像素关联广告账户' });
  await expect(dialog).toContainText('已选 1 个像素');
  await expect(dialog).toContainText('这里只增删在本系统添加的关联');
  await pickOption(page, dialog.getByRole('combobox', { name: '广告账户' }), other, { multiple: true });
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, /已更新 \d+ 项关联/)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(pixelRow).toContainText(other);
  await expect(pixelRow).toContainText(own);
  // The platform's own sharing and the association made here are told apart (grey / blue, with a tooltip).
  await expect(pixelRow.locator('[data-source="platform"]')).toHaveText(own);
  await expect(pixelRow.locator('[data-source="manual"]')).toHaveText(other);
});
