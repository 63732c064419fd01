/**
 * 广告托管 (/operation/account): putting a synced ad account under hosting, after a confirmation
 * that says what hosting does today, and finding it on the hosted side.
 */
import { MANAGER, connectedSimUser, expect, openAs, test, toast, unique, type Page } from './fixtures.ts';

const rows = (page: Page) => page.locator('.ant-table-row');
const row = (page: Page, name: string) => rows(page).filter({ hasText: name });

test('a manager puts an ad account under hosting and finds it listed as hosted', async ({ page, api, sim }) => {
  const p = unique('E2E托管');
  const [A, B] = [`${p}-甲`, `${p}-乙`];
  await connectedSimUser(api, sim, { ad_accounts: [{ name: A }, { name: B }], pages: 0 });

  await openAs(page, api, MANAGER, '/operation/account');
  await expect(page.getByRole('heading', { name: '广告托管' })).toBeVisible();
  await page.getByLabel('关键字').fill(p);
  await page.getByLabel('关键字').press('Enter');
  // Neither is hosted yet.
  await expect(page.getByRole('tab', { name: /托管中 \(0\)/ })).toBeVisible();
  await page.getByRole('tab', { name: /未托管 \(2\)/ }).click();
  await expect(rows(page)).toHaveCount(2);

  await row(page, A).getByRole('button', { name: `加入托管 ${A}` }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '将 1 个广告账户加入托管？' });
  await expect(confirm).toContainText(A);
  await expect(confirm).toContainText('Facebook 上的广告不会有任何变化');
  await confirm.getByRole('button', { name: /加入托管/ }).click();
  await expect(toast(page, '已将 1 个账户加入托管')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, A)).toHaveCount(0);

  await page.getByRole('tab', { name: /托管中 \(1\)/ }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, A)).toBeVisible();
  await expect(row(page, A).getByRole('button', { name: `移出托管 ${A}` })).toBeVisible();
});
