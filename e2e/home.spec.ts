/**
 * The landing pages: staff land on 首页 (/index) with the delivery dashboard and the counts of their
 * own data scope; the super admin lands on the admin overview (/admin/index) with the company's
 * dashboard, never on a page linking home to itself. An optimizer's dashboard shows the figures of
 * 广告数据 for the same day, with an order sent to the real webhook counted at once.
 */
import { createHmac } from 'node:crypto';
import { ADMIN, MANAGER, connectedSimUser, expect, openAs, pathname, test, unique, type Page, type Sim } from './fixtures.ts';

interface Overview {
  personal_accounts: { total: number; expiring: number; invalid: number };
  ad_accounts: { total: number; active: number };
  materials: { total: number };
}
interface Day {
  day: string;
  spend: number;
  revenue: number;
  orders: number;
}
interface Dashboard {
  days: { today: Day; yesterday: Day };
  top_campaigns: { id: number; name: string }[];
}
interface Report {
  totals: { spend: number | null; revenue: number | null };
}

const figure = (page: Page, title: string) => page.getByTestId(`figure-${title}`);
const usd = (v: number) => `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A Graph API call to the simulator with a user's token (form-encoded, objects as JSON text). */
async function graph(sim: Sim, token: string, path: string, params: Record<string, unknown>): Promise<{ id: string }> {
  const form: Record<string, string> = { access_token: token };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  const res = await sim.request.post(`${sim.url}/v25.0/${path}`, { form });
  expect(res.ok(), `POST ${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as { id: string };
}

test('the home page shows the counts the list screens give, and links to them', async ({ page, api }) => {
  const login = await openAs(page, api, MANAGER, '/');
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByRole('heading', { name: '你好，管理员' })).toBeVisible();
  // Journeys running beside this one add ad accounts and materials: the page and the calls are
  // compared as of the same moment, reloading the page when something was added in between.
  await expect(async () => {
    const o = await api.ok<Overview>('/overview/home', {}, login.token);
    // The same figures as the ad-account list's total.
    const listed = await api.ok<{ total: number }>('/ad-accounts/list', { page: 1, page_size: 1 }, login.token);
    expect(o.ad_accounts.total).toBe(listed.total);
    await page.reload();
    await expect(figure(page, '广告账户').locator('.ant-statistic-content')).toHaveText(String(o.ad_accounts.total), { timeout: 5_000 });
    await expect(figure(page, '个号').locator('.ant-statistic-content')).toHaveText(String(o.personal_accounts.total), { timeout: 5_000 });
    await expect(figure(page, '个号')).toContainText(`即将过期 ${o.personal_accounts.expiring}`, { timeout: 5_000 });
    await expect(figure(page, '素材').locator('.ant-statistic-content')).toHaveText(String(o.materials.total), { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  // A manager sees the company: organic orders show apart.
  await expect(page.getByRole('heading', { name: /全公司投放看板/ })).toBeVisible();
  await expect(page.getByTestId('organic-line')).toContainText('自然流量');
  await figure(page, '广告账户').getByRole('link', { name: '广告账户' }).click();
  await expect(page).toHaveURL(/\/auth\/account$/);
});

test('an optimizer\'s dashboard equals 广告数据 for today, counts a new order at once, and opens a top campaign', async ({ page, api, sim }) => {
  test.setTimeout(180_000);
  const p = unique('E2E首页');
  const optimizer = await api.createStaff(['/index', '/advertising/user', '/advertising/account', '/advertising/campaign', '/advertising/group'], unique('投手'));
  const { simUser } = await connectedSimUser(api, sim, { ad_accounts: [{ name: `${p}-户` }] });
  const act = simUser.ad_accounts[0]!.id;
  const manager = await api.managerSession();
  const accounts = await api.ok<{ list: { id: number; platform_id: string }[] }>('/ad-accounts/list', { page: 1, page_size: 10, keyword: act }, manager);
  const accountId = accounts.list.find((a) => a.platform_id === act)!.id;
  await api.ok('/ad-accounts/assign_users', { ad_account_ids: [accountId], user_ids: [optimizer.id], mode: 'add' }, manager);

  const token = simUser.access_token;
  const campaign = await graph(sim, token, `${act}/campaigns`, { name: `${p}-系列`, objective: 'OUTCOME_SALES', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
  const adset = await graph(sim, token, `${act}/adsets`, {
    name: `${p}-组`,
    campaign_id: campaign.id,
    status: 'ACTIVE',
    daily_budget: 5000,
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { pixel_id: simUser.pixels[0]!.id, custom_event_type: 'PURCHASE' },
    targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
  });
  const creative = await graph(sim, token, `${act}/adcreatives`, { name: 'Creative', object_story_spec: { page_id: simUser.pages[0]!.id, link_data: { link: 'https://drama.example/ep1', message: 'Watch now' } } });
  const ad = await graph(sim, token, `${act}/ads`, { name: `${p}-广告`, adset_id: adset.id, status: 'ACTIVE', creative: { creative_id: creative.id } });
  await sim.control('POST', 'backdate', { account_id: act, days: 2 });
  await api.ok('/ad-reports/sync', { ad_account_ids: [accountId] }, manager);

  const me = await api.login(optimizer);
  const dashboard = () => api.ok<Dashboard>('/overview/dashboard', { top_range: 'last7', top_by: 'spend' }, me.token);
  await expect.poll(async () => (await dashboard()).days.today.spend, { timeout: 60_000, intervals: [500, 1000, 2000], message: 'the synced spend on the dashboard' }).toBeGreaterThan(0);

  // An order of the ad, signed as the site signs it, counts on the next read.
  const domain = `${p.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.com`;
  const site = await api.ok<{ id: number; webhook_secret: string }>('/sites/create', { name: `${p}-站`, domain, platform: 'dj', link_template: `https://${domain}/play/{drama_id}?c={campaign_id}&s={adset_id}&a={ad_id}` }, manager);
  const before = (await dashboard()).days.today;
  const body = JSON.stringify({ event: 'order.paid', order_no: `${p}-1`, amount: '12.34', currency: 'USD', paid_at: new Date().toISOString(), app_user_id: `${p}-u`, landing_url: `https://${domain}/play/D1?c=${campaign.id}&s=${adset.id}&a=${ad.id}` });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac('sha256', site.webhook_secret).update(`${t}.${body}`).digest('hex')}`;
  const sent = await api.request.post(`/api/orders/webhook/${site.id}`, { headers: { 'content-type': 'application/json', 'x-signature': signature }, data: body });
  expect(sent.status(), await sent.text()).toBe(200);
  const d = await dashboard();
  expect(d.days.today.revenue).toBeCloseTo(before.revenue + 12.34, 6);
  expect(d.days.today.orders).toBe(before.orders + 1);

  // The same figures as 广告数据 of today, for the same person.
  const report = await api.ok<Report>('/ad-reports/list', { level: 'campaign', date_from: d.days.today.day, date_to: d.days.today.day, page: 1, page_size: 1, status: 'all' }, me.token);
  expect(d.days.today.spend).toBeCloseTo(report.totals.spend ?? 0, 6);
  expect(d.days.today.revenue).toBeCloseTo(report.totals.revenue ?? 0, 6);

  // The page shows its own answer (a sync landing meanwhile would move both alike).
  const shown = page.waitForResponse((r) => r.url().endsWith('/api/overview/dashboard'));
  await openAs(page, api, optimizer, '/');
  const answer = ((await (await shown).json()) as { data: Dashboard }).data;
  expect(answer.days.today.spend).toBeGreaterThan(0);
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByRole('heading', { name: /投放看板/ })).toBeVisible();
  await expect(page.getByTestId('kpi-spend').locator('.ant-statistic-content')).toHaveText(usd(answer.days.today.spend));
  await expect(page.getByTestId('kpi-revenue').locator('.ant-statistic-content')).toHaveText(usd(answer.days.today.revenue));
  await expect(page.getByTestId('kpi-d0_roi').locator('.ant-statistic-content')).toHaveText('未成熟');
  await expect(page.getByTestId('kpi-orders').locator('.ant-statistic-content')).toHaveText(String(answer.days.today.orders));
  // Staff see no organic orders (they belong to no one's ads).
  await expect(page.getByTestId('organic-line')).toHaveCount(0);
  await page.getByTestId('top-campaigns').getByRole('link', { name: `${p}-系列` }).click();
  await expect(page).toHaveURL(/\/advertising\/group\?.*campaign_id=/);
  await expect(page.getByTestId('report-breadcrumbs')).toContainText(`${p}-系列`);
});

test('the super admin lands on the admin overview with the company dashboard and every scheduled task', async ({ page, api }) => {
  await openAs(page, api, ADMIN, '/');
  await expect(page).toHaveURL(/\/admin\/index$/);
  await expect(page.getByRole('heading', { name: '系统概览' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /全公司投放看板/ })).toBeVisible();
  await expect(page.getByTestId('kpi-spend').locator('.ant-statistic-content')).toHaveText(/^\$[\d,]+\.\d\d$/);
  await expect(figure(page, '员工账号').locator('.ant-statistic-content')).not.toHaveText('-');
  const jobs = page.getByRole('row').filter({ hasText: '清理过期会话与记录' });
  await expect(jobs).toBeVisible();
  // Nothing on it sends "back home" to itself.
  await expect(page.getByRole('button', { name: /返回首页/ })).toHaveCount(0);
  await page.getByRole('link', { name: '管理定时任务' }).click();
  expect(pathname(page)).toBe('/admin/sys/cron');
  // A page that does not exist offers the way home, which is the overview, not itself.
  await page.goto('/admin/no-such-page');
  await page.getByRole('button', { name: /返回首页/ }).click();
  await expect(page).toHaveURL(/\/admin\/index$/);
});
