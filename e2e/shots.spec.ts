/**
 * Screenshots of the 授权管理 / 托管管理 screens with data, for a person to look at (not a test of
 * behaviour): each screen in zh-CN light and dark, and in English light and dark, into
 * SHOTS_DIR (default /tmp/shots) as <screen>-{zh,en}-{light,dark}.png.
 * Skipped unless SHOTS=1: `SHOTS=1 npx playwright test shots.spec.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MANAGER, connectedSimUser, expect, seedSession, test, type Page } from './fixtures.ts';

test.skip(!process.env.SHOTS, 'screenshots only with SHOTS=1');

const dir = process.env.SHOTS_DIR ?? '/tmp/shots';

interface Screen {
  name: string;
  path: string;
  /** What shows once the screen has its data. */
  ready: (page: Page) => ReturnType<Page['locator']>;
}

const tableRow = (page: Page) => page.locator('.ant-table-row').first();

const SCREENS: Screen[] = [
  { name: 'personage', path: '/auth/personage', ready: tableRow },
  { name: 'operation-auth', path: '/operation/auth', ready: tableRow },
  { name: 'account', path: '/auth/account', ready: tableRow },
  { name: 'homepage', path: '/auth/homepage', ready: tableRow },
  { name: 'pixel', path: '/auth/pixel', ready: tableRow },
  { name: 'site', path: '/auth/site', ready: tableRow },
  { name: 'operation-account', path: '/operation/account', ready: tableRow },
];

test('screenshots of the asset screens', async ({ page, api, sim }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(dir, { recursive: true });
  const token = await api.managerSession();
  const optimizer = await api.createStaff(['/auth/account'], '王投手');
  const [{ simUser, account }] = await Promise.all([
    connectedSimUser(api, sim, {
      name: 'Alice Chen',
      business_name: '星河短剧',
      ad_accounts: [{ name: '星河-US-01' }, { name: '星河-US-02' }, { name: '星河-JP-01', currency: 'JPY', timezone_name: 'Asia/Tokyo' }, { name: '星河-EU-01', currency: 'EUR', timezone_name: 'Europe/Berlin' }],
      pages: [{ name: 'Drama Night' }, { name: 'Daily Shorts' }],
      pixels: 1,
    }),
    connectedSimUser(api, sim, { name: 'Bob Li', scopes: ['ads_management', 'ads_read', 'business_management', 'pages_show_list'], token_expires_in: 5 * 24 * 3600, ad_accounts: 1, pages: 1 }),
  ]);
  const accounts = await api.ok<{ list: { id: number; name: string }[] }>('/ad-accounts/list', { page: 1, page_size: 20, personal_account_id: account.id, sort_field: 'name', sort_order: 'ascend' }, token);
  const ids = accounts.list.map((a) => a.id);
  await api.ok('/ad-accounts/assign_users', { ad_account_ids: ids.slice(0, 2), user_ids: [optimizer.id], mode: 'add' }, token);
  await api.ok('/ad-accounts/set_platform', { ad_account_ids: ids.slice(0, 3), platform: 'dj' }, token);
  await api.ok('/ad-accounts/set_hosted', { ad_account_ids: ids.slice(0, 2), hosted: true }, token);
  const pages = await api.ok<{ list: { id: number }[] }>('/pages/list', { page: 1, page_size: 20 }, token);
  await api.ok('/pages/associate', { page_ids: pages.list.slice(0, 2).map((x) => x.id), ad_account_ids: ids.slice(0, 2), user_ids: [optimizer.id], mode: 'add' }, token);
  const pixels = await api.ok<{ list: { id: number }[] }>('/pixels/list', { page: 1, page_size: 20, keyword: simUser.pixels[0]!.id }, token);
  const site = await api.ok<{ id: number }>(
    '/sites/create',
    { name: '甜宠短剧站', domain: 'drama.example.com', platform: 'dj', link_template: 'https://drama.example.com/play?id={drama_id}&ep={episode}&c={campaign_id}&ad={ad_id}', pixel_id: pixels.list[0]?.id ?? null, remark: '主站' },
    token,
  );
  await api.ok('/sites/create', { name: 'Linen Shop', domain: 'shop.example.com', platform: 'ec', link_template: 'https://shop.example.com/p/{product_id}?c={campaign_id}' }, token);
  const dramas: [string, string, string, number, string[], string][] = [
    ['10086', '总裁的替身新娘', 'zh-CN', 80, ['甜宠', '逆袭'], 'testing'],
    ['10087', 'The Billionaire Returns', 'en', 90, ['revenge'], 'passed'],
    ['10088', 'Hidden Heiress', 'es', 75, ['romance'], 'untested'],
    ['10089', '重生之我是首富', 'zh-CN', 60, ['重生'], 'failed'],
  ];
  for (const [external_id, name, language, episode_count, tags, test_status] of dramas)
    await api.ok('/dramas/create', { site_id: site.id, external_id, name, language, episode_count, tags, test_status }, token);

  for (const locale of ['zh', 'en'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      await seedSession(page, await api.login(MANAGER));
      await page.evaluate(
        (settings) => localStorage.setItem('settings', JSON.stringify({ state: settings, version: 1 })),
        { isDark: theme === 'dark', locale: locale === 'zh' ? 'zh-cn' : 'en' },
      );
      for (const screen of SCREENS) {
        await page.goto(screen.path === '/auth/site' ? `/auth/site?site=${site.id}` : screen.path);
        await expect(screen.ready(page)).toBeVisible();
        await expect(page.locator('html')).toHaveClass(new RegExp(`(^|\\s)${theme}(\\s|$)`));
        // Let spinners and entrance animations settle.
        await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
        await page.waitForTimeout(400);
        // The whole page in one viewport, so the (sticky, full-height) sidebar reaches the bottom.
        for (let i = 0; i < 3; i++) {
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          if (height <= (page.viewportSize()?.height ?? 0)) break;
          await page.setViewportSize({ width: 1280, height });
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(dir, `${screen.name}-${locale}-${theme}.png`) });
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    }
  }
});
