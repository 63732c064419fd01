/**
 * 个号管理 (/auth/personage) and 个号授权 (/operation/auth): connecting a Facebook user of the
 * simulator by pasting its token and through the OAuth dialog, the token's health and scopes,
 * syncing now, checking a token the platform has revoked, and disconnecting.
 */
import { MANAGER, chooseMenuItem, expect, openAs, test, toast, unique, type Page } from './fixtures.ts';

const ALL_BUT_PAGES_MANAGE_ADS = ['ads_management', 'ads_read', 'business_management', 'pages_show_list', 'pages_read_engagement'];

const accountRow = (page: Page, name: string) => page.locator('.ant-table-row').filter({ hasText: name });

test('a manager connects a personal account by pasting its token, sees its health, syncs it, sees it revoked and disconnects it', async ({ page, api, sim }) => {
  // A token that lasts 3 more days and lacks one scope the product needs.
  const fbUser = await sim.createUser({ name: unique('E2E粘贴'), scopes: ALL_BUT_PAGES_MANAGE_ADS, token_expires_in: 3 * 24 * 3600 });
  const name = fbUser.user.name;
  await openAs(page, api, MANAGER, '/auth/personage');
  await expect(page.getByRole('heading', { name: '个号管理' })).toBeVisible();

  // Paste the token (the connect panel or the header offers it, depending on whether any account exists yet).
  await page.getByRole('button', { name: /粘贴令牌/ }).first().click();
  const dialog = page.getByRole('dialog').filter({ hasText: '粘贴访问令牌连接' });
  // Checked before anything is sent.
  await dialog.getByLabel('访问令牌').fill('too short');
  await dialog.getByRole('button', { name: /校验并连接/ }).click();
  await expect(dialog.getByText('令牌中不能有空格或换行')).toBeVisible();
  // The platform refuses a token it does not know: the field says so and nothing is kept.
  await dialog.getByLabel('访问令牌').fill(`EAAB${'x'.repeat(40)}`);
  await dialog.getByRole('button', { name: /校验并连接/ }).click();
  await expect(dialog.locator('#connect-token_access_token_help').getByText(/令牌无效，未保存/)).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('访问令牌').fill(fbUser.access_token);
  await dialog.getByRole('button', { name: /校验并连接/ }).click();
  await expect(toast(page, `已连接「${name}」`)).toBeVisible();
  await expect(dialog).toBeHidden();

  // The sync the connection queued runs in the background; the new row follows it without a reload.
  const row = accountRow(page, name);
  await expect(row.getByRole('link', { name: '3', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('成功');

  // Filter the list down to it.
  await page.getByLabel('关键字').fill(name);
  await page.getByLabel('关键字').press('Enter');
  await expect(page).toHaveURL(/keyword=/);
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await expect(row).toContainText(`ID ${fbUser.user.id}`);
  // Token health: expiring in 3 days; scopes: one required scope missing, shown by name.
  await expect(row).toContainText('即将过期');
  // 3 days from the simulator's clock, which other specs may have moved a few minutes ahead.
  await expect(row.getByTestId('token-expiry')).toHaveText(/^[34] 天后过期$/);
  await expect(row).toContainText(`已授予 ${ALL_BUT_PAGES_MANAGE_ADS.length} 项权限`);
  await expect(row.getByTestId('missing-scopes')).toHaveText('pages_manage_ads');

  // Sync now: progress, then the counts of what it reaches (3 ad accounts, 2 pages, 1 pixel).
  await row.getByRole('button', { name: /同\s*步$/ }).click();
  await expect(page.locator('[data-testid^="task-"]').first()).toBeVisible();
  await expect(toast(page, '同步完成，列表已刷新')).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('成功');
  await expect(row.getByRole('link', { name: '3', exact: true })).toHaveAttribute('href', /\/auth\/account\?personal_account_id=\d+/);
  await expect(row.getByRole('link', { name: '2', exact: true })).toBeVisible();

  // The person revokes the app on Facebook: checking the token now says so, and offers to reconnect.
  await sim.revokeToken(fbUser.access_token, 'logged_out');
  await row.getByRole('button', { name: /检\s*查$/ }).click();
  await expect(toast(page, `「${name}」的令牌已失效`)).toBeVisible();
  await expect(row).toContainText('已失效');
  await expect(row.getByRole('button', { name: '重新授权' })).toBeVisible();
  await expect(row.getByRole('button', { name: /同\s*步$/ })).toBeDisabled();

  // Disconnect, after a confirmation that says what happens to its ad accounts.
  const confirm = page.getByRole('dialog').filter({ hasText: `断开个号「${name}」？` });
  await chooseMenuItem(page, page.getByRole('button', { name: `更多 ${name}` }), '断开连接', confirm);
  await expect(confirm).toContainText('3 个广告账户');
  await confirm.getByRole('button', { name: /断\s*开/ }).click();
  await expect(toast(page, `已断开「${name}」`)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('a manager connects a personal account through the OAuth dialog from 个号授权', async ({ page, api, sim }) => {
  // A Facebook user the simulator's dialog offers to continue as.
  const fbUser = await sim.createUser({ name: unique('E2E授权'), ad_accounts: 2, pages: 1 });
  const name = fbUser.user.name;
  await openAs(page, api, MANAGER, '/operation/auth');
  await expect(page.getByRole('heading', { name: '个号授权' })).toBeVisible();
  // The connect panel leads, with the scopes to grant.
  const panel = page.getByTestId('connect-panel');
  await expect(panel.getByTestId('required-scopes')).toContainText('business_management');

  await panel.getByRole('button', { name: /授权新个号/ }).click();
  // The (simulated) Facebook login dialog, on the simulator's origin.
  await expect(page.getByRole('heading', { name: /wants to access your account/ })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(new URL(sim.url).origin);
  await page.getByLabel('Continue as').selectOption({ label: `${name} (${fbUser.user.id})` });
  await page.getByRole('button', { name: 'Continue' }).click();

  // Back in the app: said once, the parameter taken out of the address, the account listed.
  await expect(page).toHaveURL(/\/operation\/auth$/);
  await expect(toast(page, '个号已连接')).toBeVisible();
  await page.getByLabel('关键字').fill(fbUser.user.id);
  await page.getByLabel('关键字').press('Enter');
  const row = accountRow(page, name);
  await expect(row).toContainText('有效');
  await expect(row).toContainText('所需权限齐全');
  // The code was exchanged for a long-lived (~60 day) token. The simulator's clock is shared with
  // specs that move it forward, so a day either way is allowed.
  await expect(row.getByTestId('token-expiry')).toHaveText(/^(5[89]|6[01]) 天后过期$/);
  // The sync queued by the connection reaches its 2 ad accounts.
  await expect(row.getByRole('link', { name: '2', exact: true })).toBeVisible({ timeout: 30_000 });
});
