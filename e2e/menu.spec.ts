/**
 * SPEC.md §2 "Layout", the menu: only permitted entries, in sort order, Chinese titles;
 * super admins see the admin root's children; hidden routes are never listed and highlight
 * their activeMenu entry instead; the current page's parent group is open.
 */
import { ADMIN, MANAGER, expect, groupEntries, menuGroup, openAs, selectedEntry, sideMenu, test, topLevelTitles } from './fixtures.ts';

const REGULAR_TOP_LEVEL = ['首页', '广告管理', '素材管理', '数据分析', '授权管理', '系统管理', '托管管理'];

test('a manager sees every regular top-level entry, in sort order, with Chinese titles', async ({ page, api }) => {
  await openAs(page, api, MANAGER, '/index');
  await expect(sideMenu(page)).toBeVisible();
  await expect.poll(() => topLevelTitles(page)).toEqual(REGULAR_TOP_LEVEL);
  await expect(selectedEntry(page)).toHaveText('首页');

  // A group opens on click and lists its visible children in order; hidden routes are left out.
  await menuGroup(page, '广告管理').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '广告管理')).toEqual(['帖子管理', '短剧发布', '电商发布', '启动管理', '短剧素材', '电商素材', '广告数据', '系统日志']);
  await menuGroup(page, '数据分析').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '数据分析')).toEqual(['剧集成效', '素材分析', '素材绩效', '剧集测评', '方案分析', '落地页分析']);
  await menuGroup(page, '托管管理').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '托管管理')).toEqual(['个号授权', '广告托管']);
  await expect(sideMenu(page).getByText(/superadmin|订单管理/)).toHaveCount(0);
});

test('a super admin sees only the children of the admin root', async ({ page, api }) => {
  await openAs(page, api, ADMIN, '/');
  await expect(page).toHaveURL(/\/admin\/index$/);
  await expect.poll(() => topLevelTitles(page)).toEqual(['首页', '订单管理', '广告管理', '系统管理']);
  for (const regular of ['素材管理', '数据分析', '授权管理', '托管管理', 'superadmin']) {
    await expect(sideMenu(page).getByText(regular, { exact: true })).toHaveCount(0);
  }
  await menuGroup(page, '订单管理').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '订单管理')).toEqual(['订单列表', '订单分析']);
  await menuGroup(page, '广告管理').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '广告管理')).toEqual(['广告系列', '广告组', '广告', '系列详情']);
  await menuGroup(page, '系统管理').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '系统管理')).toEqual(['定时任务']);

  await sideMenu(page).getByRole('menuitem', { name: '定时任务' }).click();
  await expect(page).toHaveURL(/\/admin\/sys\/cron$/);
  await expect(selectedEntry(page)).toHaveText('定时任务');
});

test('a staff user sees only the entries their role grants', async ({ page, api }) => {
  const staff = await api.createStaff(['/sys/role', '/analyse/performance', '/analyse/landing']);
  await openAs(page, api, staff, '/');
  await expect(page).toHaveURL(/\/analyse\/performance$/);
  await expect.poll(() => topLevelTitles(page)).toEqual(['数据分析', '系统管理']);
  // The current page's group is open.
  await expect(menuGroup(page, '数据分析')).toHaveClass(/ant-menu-submenu-open/);
  await expect.poll(() => groupEntries(page, '数据分析')).toEqual(['素材绩效', '落地页分析']);
  await menuGroup(page, '系统管理').locator('.ant-menu-submenu-title').click();
  await expect.poll(() => groupEntries(page, '系统管理')).toEqual(['角色管理']);

  await sideMenu(page).getByRole('menuitem', { name: '角色管理' }).click();
  await expect(page).toHaveURL(/\/sys\/role$/);
  await expect(selectedEntry(page)).toHaveText('角色管理');
});

test('the current page is highlighted and its parent group open', async ({ page, api }) => {
  await openAs(page, api, MANAGER, '/sys/department');
  await expect(selectedEntry(page)).toHaveText('部门管理');
  await expect(menuGroup(page, '系统管理')).toHaveClass(/ant-menu-submenu-open/);
  await expect(menuGroup(page, '广告管理')).not.toHaveClass(/ant-menu-submenu-open/);
  await expect.poll(() => groupEntries(page, '系统管理')).toEqual(['账号管理', '部门管理', '角色管理']);

  // Choosing an entry in another group navigates there and opens that group too.
  await menuGroup(page, '授权管理').locator('.ant-menu-submenu-title').click();
  await sideMenu(page).getByRole('menuitem', { name: '站点关联' }).click();
  await expect(page).toHaveURL(/\/auth\/site$/);
  await expect(selectedEntry(page)).toHaveText('站点关联');
  await expect(page.getByTestId('content')).toContainText('站点关联');
});

for (const { path, highlighted, group, hiddenTitle } of [
  { path: '/advertising/campaign', highlighted: '广告数据', group: '广告管理', hiddenTitle: '广告系列' },
  { path: '/advertising/close-log', highlighted: '系统日志', group: '广告管理', hiddenTitle: '关闭日志' },
  { path: '/analyse/performance-month', highlighted: '素材绩效', group: '数据分析', hiddenTitle: '素材绩效-月' },
]) {
  test(`hidden route ${path} is not listed and highlights ${highlighted}`, async ({ page, api }) => {
    await openAs(page, api, MANAGER, path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    // The hidden screen itself renders (its title shows in the content area).
    await expect(page.getByTestId('content')).toContainText(hiddenTitle);
    await expect(selectedEntry(page)).toHaveText(highlighted);
    await expect(menuGroup(page, group)).toHaveClass(/ant-menu-submenu-open/);
    await expect.poll(() => groupEntries(page, group)).not.toContain(hiddenTitle);
    await expect(sideMenu(page).getByText(hiddenTitle, { exact: true })).toHaveCount(0);
  });
}
