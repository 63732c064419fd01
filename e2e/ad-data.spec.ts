/**
 * 广告数据 (issue 7): a manager drills from an optimizer down to an ad, pauses the ad, edits its ad
 * set's budget, copies the ad set with another pixel and into another (JPY) ad account; every act
 * is then in the logs. The campaigns are made on the simulator over its Graph API and back-dated
 * so they delivered. Two journeys on data of their own, so they run side by side: nothing in them
 * waits on a slow job (the cross-account copy has no video to process), only on many screens.
 */
import { MANAGER, chooseMenuItem, connectedSimUser, expect, openAs, pickOption, switchLocale, test, unique, type Api, type Page, type Sim } from './fixtures.ts';

/** A Graph API call to the simulator with a user's token (form-encoded, objects as JSON text). */
async function graph(sim: Sim, token: string, path: string, params: Record<string, unknown>): Promise<{ id: string }> {
  const form: Record<string, string> = { access_token: token };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  const res = await sim.request.post(`${sim.url}/v25.0/${path}`, { form });
  expect(res.ok(), `POST ${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as { id: string };
}

const dayIn = (zone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
const rows = (page: Page) => page.locator('.ant-table-row');
const row = (scope: Page | ReturnType<Page['locator']>, name: string) => scope.locator('.ant-table-row').filter({ hasText: name });


/**
 * An optimizer's ad account with a delivering campaign → ad set ($50/day, the first pixel) → two
 * ads, and a JPY account with an empty campaign, both synced ("sync now") and mirrored.
 */
async function seed(api: Api, sim: Sim) {
  const p = unique('E2E广告');
  const names = { account: `${p}-户`, campaign: `${p}-系列`, adset: `${p}-组`, ad: `${p}-广告1`, jpAccount: `${p}-日本户`, jpCampaign: `${p}-日本系列` };
  const optimizer = await api.createStaff(['/advertising/user'], unique('投手'));
  const { simUser } = await connectedSimUser(api, sim, { ad_accounts: [{ name: names.account }, { name: names.jpAccount, currency: 'JPY', timezone_name: 'Asia/Tokyo' }], pixels: 2 });
  const act = simUser.ad_accounts[0]!.id;
  const actJ = simUser.ad_accounts[1]!.id;
  const token = simUser.access_token;
  const manager = await api.managerSession();

  // The account is the optimizer's: the campaigns under it are theirs.
  const accounts = await api.ok<{ list: { id: number; platform_id: string }[] }>('/ad-accounts/list', { page: 1, page_size: 10, keyword: act }, manager);
  const accountId = accounts.list.find((a) => a.platform_id === act)!.id;
  const jpAccounts = await api.ok<{ list: { id: number; platform_id: string }[] }>('/ad-accounts/list', { page: 1, page_size: 10, keyword: actJ }, manager);
  const jpAccountId = jpAccounts.list.find((a) => a.platform_id === actJ)!.id;
  await api.ok('/ad-accounts/assign_users', { ad_account_ids: [accountId], user_ids: [optimizer.id], mode: 'add' }, manager);

  const campaign = await graph(sim, token, `${act}/campaigns`, { name: names.campaign, objective: 'OUTCOME_SALES', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
  const adset = await graph(sim, token, `${act}/adsets`, {
    name: names.adset,
    campaign_id: campaign.id,
    status: 'ACTIVE',
    daily_budget: 5000,
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'OFFSITE_CONVERSIONS',
    promoted_object: { pixel_id: simUser.pixels[0]!.id, custom_event_type: 'PURCHASE' },
    targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
  });
  const creative = await graph(sim, token, `${act}/adcreatives`, { name: 'Creative', object_story_spec: { page_id: simUser.pages[0]!.id, link_data: { link: 'https://drama.example/ep1', message: 'Watch now' } } });
  await graph(sim, token, `${act}/ads`, { name: names.ad, adset_id: adset.id, status: 'ACTIVE', creative: { creative_id: creative.id } });
  await graph(sim, token, `${act}/ads`, { name: `${p}-广告2`, adset_id: adset.id, status: 'ACTIVE', creative: { creative_id: creative.id } });
  await sim.control('POST', 'backdate', { account_id: act, days: 3 });
  // A campaign of the JPY account to copy the ad set into (its ad sets hold the budget).
  await graph(sim, token, `${actJ}/campaigns`, { name: names.jpCampaign, objective: 'OUTCOME_SALES', status: 'PAUSED', special_ad_categories: [], is_adset_budget_sharing_enabled: false });

  // "Sync now" for the accounts, then wait until the optimizer's row has figures and both campaigns are mirrored.
  await api.ok('/ad-reports/sync', { ad_account_ids: [accountId, jpAccountId] }, manager);
  const now = Date.now();
  const from = dayIn('Asia/Shanghai', now - 86_400_000);
  const to = dayIn('Asia/Shanghai', now);
  const campaignsOf = async (adAccountId: number) =>
    (await api.ok<{ list: { id: number; name: string }[] }>('/ad-reports/list', { level: 'campaign', date_from: from, date_to: to, ad_account_ids: [adAccountId], status: 'all', page: 1, page_size: 10 }, manager)).list;
  await expect.poll(async () => (await campaignsOf(jpAccountId)).map((x) => x.name), { timeout: 30_000, intervals: [250, 500, 1000], message: 'the mirrored campaign of the JPY account' }).toContain(names.jpCampaign);
  await expect
    .poll(
      async () => {
        const r = await api.ok<{ list: { name: string; metrics: { spend: number | null } }[] }>('/ad-reports/list', { level: 'optimizer', date_from: from, date_to: to, page: 1, page_size: 100 }, manager);
        return r.list.find((x) => x.name === optimizer.name)?.metrics.spend ?? 0;
      },
      { timeout: 30_000, intervals: [250, 500, 1000], message: 'the synced spend of the optimizer' },
    )
    .toBeGreaterThan(0);
  const campaignId = (await campaignsOf(accountId)).find((c) => c.name === names.campaign)!.id;
  return { p, names, optimizer, simUser, act, actJ, from, to, campaignId };
}

test('drill from optimizer to ad, pause the ad, edit the budget, and find both acts in the logs', async ({ page, api, sim }) => {
  // Each half takes about 50 s on a 2-core runner shared with other work (nothing waits on a job): above the 60 s default only there.
  test.setTimeout(90_000);
  const { p, names, optimizer, from, to } = await seed(api, sim);

  // 广告数据 → the optimizer → their ad account → the campaign → the ad set → its ads.
  await openAs(page, api, MANAGER, `/advertising/user?date_from=${from}&date_to=${to}`);
  // The first screen parses the app's chunks: on a busy 2-core runner that alone can pass 15 s.
  await expect(page.getByRole('heading', { name: '广告数据' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('totals-row')).toBeVisible();
  await page.getByRole('link', { name: optimizer.name, exact: true }).click();
  await expect(page).toHaveURL(/\/advertising\/account\?.*owner_user_id=/);
  await expect(page.getByTestId('report-breadcrumbs')).toContainText(optimizer.name);
  await page.getByRole('link', { name: names.account, exact: true }).click();
  await expect(page).toHaveURL(/\/advertising\/campaign\?.*ad_account_ids=/);
  await page.getByRole('link', { name: names.campaign, exact: true }).click();
  await expect(page).toHaveURL(/\/advertising\/group\?.*campaign_id=/);
  await expect(page.getByTestId('report-breadcrumbs')).toContainText(names.campaign);
  expect(new URL(page.url()).searchParams.get('date_from')).toBe(from);
  const groupPage = page.url();
  await expect(row(page, names.adset)).toContainText('USD 50.00');
  await page.getByLabel(`查看「${names.adset}」的广告`).click();
  const drawer = page.locator('.ant-drawer').filter({ hasText: `广告组「${names.adset}」的广告` });
  await expect(row(drawer, names.ad)).toBeVisible();

  // Pause the ad: the confirmation lists the change, then the result.
  await row(drawer, names.ad).getByRole('switch', { name: `开启或关闭「${names.ad}」` }).click();
  const pause = page.getByRole('dialog').filter({ hasText: '关闭 1 个广告' });
  await expect(pause.getByTestId('op-preview')).toContainText('状态: 投放中 → 已暂停');
  await pause.getByRole('button', { name: /确认执行/ }).click();
  await expect(pause).toContainText('成功 1 项，失败 0 项');
  await pause.getByRole('button', { name: /完\s*成/ }).click();
  await expect(row(drawer, names.ad).getByRole('switch')).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // Edit the ad set's budget: major units in, the change said before sending.
  const budget = page.getByRole('dialog').filter({ hasText: '修改 1 个广告组的预算' });
  await chooseMenuItem(page, row(page, names.adset).getByRole('button', { name: `「${names.adset}」的更多操作` }), '修改预算', budget);
  await expect(budget).toContainText('USD 50.00');
  await budget.getByLabel('新预算（USD）').fill('60');
  await budget.getByRole('button', { name: /下一步/ }).click();
  await expect(budget.getByTestId('op-preview')).toContainText('日预算: USD 50.00 → USD 60.00');
  await budget.getByRole('button', { name: /确认执行/ }).click();
  await expect(budget).toContainText('成功 1 项，失败 0 项');
  await budget.getByRole('button', { name: /完\s*成/ }).click();
  await expect(row(page, names.adset)).toContainText('USD 60.00');

  // Both acts are in 系统日志; the pause also in 关闭日志.
  await page.goto('/advertising/copy-log');
  await expect(page.getByRole('heading', { name: '系统日志' })).toBeVisible();
  await page.getByLabel('对象').fill(p);
  await page.getByLabel('对象').press('Enter');
  await expect(rows(page)).toHaveCount(2);
  await expect(row(page, names.ad).filter({ hasText: '关闭' })).toContainText('成功');
  await expect(row(page, names.adset).filter({ hasText: '修改预算' })).toContainText('USD 50.00 → USD 60.00');
  await page.getByText('关闭日志', { exact: true }).click();
  await expect(page).toHaveURL(/\/advertising\/close-log/);
  await expect(row(page, names.ad)).toContainText('关闭');

  // Screenshots for a look at the screens (AD_SHOTS=<dir>): the report, a drill-down level and a log, in both languages.
  const shots = process.env.AD_SHOTS;
  if (shots) {
    test.setTimeout(240_000);
    const reportUrl = `/advertising/user?date_from=${from}&date_to=${to}&compare=true`;
    const groupUrl = new URL(groupPage).pathname + new URL(groupPage).search;
    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') await switchLocale(page, 'English');
      await page.goto(reportUrl);
      await expect(page.getByTestId('totals-row')).toBeVisible();
      await page.screenshot({ path: `${shots}/report-${lang}.png`, fullPage: true });
      await page.goto(groupUrl);
      await expect(row(page, names.adset).first()).toBeVisible();
      await page.screenshot({ path: `${shots}/group-${lang}.png`, fullPage: true });
      await page.goto('/advertising/copy-log');
      await expect(rows(page).first()).toBeVisible();
      await page.screenshot({ path: `${shots}/log-${lang}.png`, fullPage: true });
    }
    // The dark theme (header toggle), with the hourly chart of the ad set open.
    await page.getByTestId('toggle-theme').click();
    await page.goto(groupUrl);
    await row(page, names.adset).first().getByRole('button', { name: `Today by hour of "${names.adset}"` }).click();
    await expect(page.getByTestId('hourly-totals')).toBeVisible();
    await page.screenshot({ path: `${shots}/group-dark-en.png`, fullPage: true });
  }
});

test('copy the ad set with another pixel and into a JPY ad account, each object in the log', async ({ page, api, sim }) => {
  test.setTimeout(90_000);
  const { p, names, simUser, act, actJ, from, to, campaignId } = await seed(api, sim);
  await openAs(page, api, MANAGER, `/advertising/group?${new URLSearchParams({ campaign_id: String(campaignId), campaign_name: names.campaign, date_from: from, date_to: to })}`);
  // The first screen parses the app's chunks: on a busy 2-core runner that alone can pass 15 s.
  await expect(row(page, names.adset)).toContainText('USD 50.00', { timeout: 30_000 });

  // Copy the ad set with the other pixel (re-created, since a published ad set's pixel cannot change).
  const otherPixel = simUser.pixels[1]!;
  const copy = page.getByRole('dialog').filter({ hasText: '复制 1 个广告组' });
  await chooseMenuItem(page, row(page, names.adset).getByRole('button', { name: `「${names.adset}」的更多操作` }), '复制', copy);
  await pickOption(page, copy.getByRole('combobox', { name: '像素' }), otherPixel.name, { option: otherPixel.id });
  await copy.getByRole('button', { name: /下一步/ }).click();
  await expect(copy.getByTestId('copy-preview')).toContainText(`像素: ${simUser.pixels[0]!.id} → ${otherPixel.id}`);
  await copy.getByRole('button', { name: /确认复制/ }).click();
  // The ad set and its two ads, each its own row.
  await expect(copy).toContainText('成功 3 项，失败 0 项');
  await copy.getByRole('button', { name: /完\s*成/ }).click();
  await expect(copy).toBeHidden();

  // Copy the ad set into the JPY account: read and created anew there, its budget converted to yen, as a task.
  const cross = page.getByRole('dialog').filter({ hasText: '复制 1 个广告组' });
  await chooseMenuItem(page, page.getByRole('button', { name: `「${names.adset}」的更多操作` }), '复制', cross);
  await pickOption(page, cross.getByRole('combobox', { name: '复制到广告账户' }), names.jpAccount, { option: `${names.jpAccount} (${actJ}) · JPY` });
  await expect(cross).toContainText('预算按当日汇率换算为该账户币种');
  await expect(cross.getByLabel('日预算（JPY）')).toBeVisible();
  await pickOption(page, cross.getByRole('combobox', { name: '复制到广告系列' }), names.jpCampaign);
  await cross.getByRole('button', { name: /下一步/ }).click();
  const crossPreview = cross.getByTestId('copy-preview');
  await expect(crossPreview).toContainText('将创建 3 个对象');
  await expect(crossPreview).toContainText('日预算: USD 50.00 → JPY 7,500');
  await expect(crossPreview).toContainText(`广告账户: ${act} → ${actJ}`);
  await expect(cross.getByTestId('copy-notes')).toContainText('预算从 USD 换算为 JPY');
  await cross.getByRole('button', { name: /确认复制/ }).click();
  const task = cross.getByTestId('copy-task');
  await expect(task.getByTestId('op-results').locator('.ant-tag-success')).toHaveCount(3, { timeout: 30_000 });
  await expect(task.getByTestId('op-results')).toContainText(names.ad);
  await cross.getByRole('button', { name: /完\s*成/ }).click();

  // A copy is one row per object: the ad set and its two ads, twice.
  await page.goto('/advertising/copy-log');
  await expect(page.getByRole('heading', { name: '系统日志' })).toBeVisible();
  await page.getByLabel('对象').fill(p);
  await page.getByLabel('对象').press('Enter');
  await expect(rows(page)).toHaveCount(6);
  await expect(row(page, names.adset).filter({ hasText: `→ ${simUser.pixels[1]!.id}` })).toContainText('复制');
  await expect(row(page, names.adset).filter({ hasText: names.jpAccount })).toContainText('USD 50.00 → JPY 7,500');
});
