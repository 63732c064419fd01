/**
 * SPEC.md §3/§4/§5/§8 session journeys: logging in with the form (MD5 password, "user-store"),
 * starting with a stored token (get_user_info merged, token kept), logging out (storage
 * cleared, token ended on the server) and the reset-password dialog.
 */
import {
  MANAGER,
  chooseUserMenu,
  expect,
  loginAs,
  loginButton,
  md5,
  notification,
  openAs,
  readStore,
  recordFeedback,
  finishedFeedback,
  test,
  userMenuButton,
  type LoginResult,
} from './fixtures.ts';

test('logging in with the form sends the MD5 of the password and stores the token and user info', async ({ page, api }) => {
  await page.goto('/login');
  const loginCall = page.waitForRequest((r) => r.url().endsWith('/api/login') && r.method() === 'POST');
  await loginAs(page, MANAGER.account, MANAGER.password);
  const body = (await loginCall).postDataJSON() as { account: string; pwd: string };
  expect(body).toEqual({ account: 'manager', pwd: md5(MANAGER.password) });
  expect((await loginCall).postData()).not.toContain(MANAGER.password);

  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
  const store = await readStore<{ token: string; userInfo: Record<string, unknown> }>(page, 'user-store');
  expect(store?.token).toMatch(/^\S{16,}$/);
  expect(store?.userInfo).toMatchObject({ account: 'manager', name: '管理员', is_admin: 1, is_leader: 0, platform: 'dj' });
  expect(store?.userInfo.paths).toEqual(expect.arrayContaining(['/index', '/sys', '/sys/role', '/advertising/campaign']));
  expect(store?.userInfo.paths).not.toContain('/admin/index');
  // The stored token is a live session.
  expect((await api.call('/sys-users/get_user_info', undefined, store!.token)).code).toBe(0);
});

test('the login form asks for both fields before calling the server', async ({ page }) => {
  await page.goto('/login');
  let called = false;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/login')) called = true;
  });
  await loginButton(page).click();
  await expect(page.getByText('请输入账号')).toBeVisible();
  await expect(page.getByText('请输入密码')).toBeVisible();
  expect(called).toBe(false);
  await expect(page).toHaveURL(/\/login$/);
});

test('starting with a stored token fetches get_user_info, merges it and keeps the token', async ({ page, api }) => {
  const staff = await api.createStaff(['/index'], '员工甲');
  const login = await openAs(page, api, staff, '/index');
  await expect(userMenuButton(page)).toHaveText(/员工甲/);

  // Changed on the server meanwhile: a new name and one more permitted page.
  const manager = await api.login(MANAGER);
  const role = await api.ok<{ id: number }>('/sys-roles/create', { name: `e2e-more-${staff.id}`, paths: ['/index', '/auth/pixel'] }, manager.token);
  await api.ok('/sys-users/edit_account', { id: staff.id, name: '员工乙', role_ids: [role.id] }, manager.token);

  const infoCall = page.waitForRequest((r) => r.url().endsWith('/api/sys-users/get_user_info'));
  await page.reload();
  const req = await infoCall;
  expect(req.method()).toBe('GET');
  expect(await req.headerValue('authorization')).toBe(`Bearer ${login.token}`);

  await expect(userMenuButton(page)).toHaveText(/员工乙/);
  await expect(page.getByTestId('side-menu').getByText('授权管理')).toBeVisible();
  const store = await readStore<{ token: string; userInfo: LoginResult }>(page, 'user-store');
  expect(store?.token).toBe(login.token);
  expect(store?.userInfo).toMatchObject({ id: staff.id, account: staff.account, name: '员工乙' });
  expect(store?.userInfo.paths).toEqual(['/index', '/auth', '/auth/pixel']);
});

test('logging out clears local storage, lands on /login and ends the token on the server', async ({ page, api }) => {
  const login = await openAs(page, api, MANAGER, '/index');
  await page.getByRole('button', { name: '切换到暗色主题' }).click();
  expect(await page.evaluate(() => Object.keys(localStorage).sort())).toEqual(['settings', 'user-store']);

  const logoutCall = page.waitForRequest((r) => r.url().endsWith('/api/logout') && r.method() === 'POST');
  await chooseUserMenu(page, '退出登录');
  expect(await (await logoutCall).headerValue('authorization')).toBe(`Bearer ${login.token}`);
  await expect(page).toHaveURL(/\/login$/);
  await expect(loginButton(page)).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.length)).toBe(0);
  // The theme setting went with the rest of local storage.
  await expect(page.locator('html')).toHaveClass(/(^|\s)light(\s|$)/);

  const after = await api.call('/sys-users/get_user_info', undefined, login.token);
  expect(after.code).toBe(401);
  await page.goto('/index');
  await expect(page).toHaveURL(/\/login$/);
});

test('the reset-password dialog can be cancelled without resetting anything', async ({ page, api }) => {
  await openAs(page, api, MANAGER, '/index');
  let called = false;
  page.on('request', (r) => {
    if (r.url().includes('/reset_passwd')) called = true;
  });
  await chooseUserMenu(page, '重置密码');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(dialog).toBeHidden();
  expect(called).toBe(false);
  // Still the old password.
  await api.login(MANAGER);
});

test('resetting the password shows the new one for 10 s; it works for a fresh login and the old one does not', async ({ page, api, browser, baseURL }) => {
  await recordFeedback(page);
  const staff = await api.createStaff(['/index'], '重置员工');
  await page.goto('/login');
  await loginAs(page, staff.account, staff.password);
  await expect(page).toHaveURL(/\/index$/);

  await chooseUserMenu(page, '重置密码');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('重置密码', { exact: true })).toBeVisible();
  await expect(dialog).toContainText('确认后将重置当前账号的密码，并生成新的随机密码，请妥善保管。');

  const resetCall = page.waitForRequest((r) => r.url().endsWith('/api/sys-users/reset_passwd'));
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  expect((await resetCall).postDataJSON()).toEqual({ currentUserId: staff.id });
  const shown = notification(page, '重置成功');
  await expect(shown).toBeVisible();
  // The dialog closes on success.
  await expect(dialog).toBeHidden();
  await expect(shown).toContainText(`账号：${staff.account}`);
  await expect(shown).toContainText('新密码：');
  const newPassword = (await shown.locator('code').innerText()).trim();
  expect(newPassword).toMatch(/^\S{8,}$/);
  expect(newPassword).not.toBe(staff.password);
  await expect(shown).toContainText(`新密码：${newPassword}`);

  // A fresh browser: the old password is refused, the new one logs in.
  const other = await browser.newContext({ baseURL });
  const fresh = await other.newPage();
  await fresh.goto('/login');
  await fresh.getByLabel('账号').fill(staff.account);
  await fresh.getByLabel('密码').fill(staff.password);
  await loginButton(fresh).click();
  await expect(notification(fresh, '账号或密码错误')).toBeVisible();
  await expect(fresh).toHaveURL(/\/login$/);
  await loginAs(fresh, staff.account, newPassword);
  await expect(fresh).toHaveURL(/\/index$/);
  await expect(userMenuButton(fresh)).toHaveText(/重置员工/);
  await other.close();

  // SPEC.md §8/§9: the success notification stays 10 s (not the 3 s of errors), then closes.
  const entry = await finishedFeedback(page, '重置成功', 25_000);
  expect(entry.gone - entry.at).toBeGreaterThan(9_800);
  expect(entry.gone - entry.at).toBeLessThan(12_000);
  await expect(shown).toHaveCount(0);
});
