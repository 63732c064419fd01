/**
 * 托管规则 (issue 10): a manager creates a rule from the stop-loss template for a hosted ad
 * account, dry-runs it (nothing changes), switches it on and runs it; the ad it paused is in the
 * rule's history with the figures behind it, and in 关闭日志. The ad is made on the simulator over
 * its Graph API and back-dated so it has spent.
 */
import { MANAGER, chooseMenuItem, connectedSimUser, expect, openAs, pickOption, test, unique, type Page, type Sim } from './fixtures.ts';

async function graph(sim: Sim, token: string, path: string, params: Record<string, unknown>): Promise<{ id: string }> {
  const form: Record<string, string> = { access_token: token };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  const res = await sim.request.post(`${sim.url}/v25.0/${path}`, { form });
  expect(res.ok(), `POST ${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as { id: string };
}

const dayIn = (zone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
const row = (scope: Page | ReturnType<Page['locator']>, name: string) => scope.locator('.ant-table-row').filter({ hasText: name });

test('create a stop-loss rule from its template, dry-run it, switch it on, and find its firing in the history and in 关闭日志', async ({ page, api, sim }) => {
  test.setTimeout(120_000);
  const p = unique('E2E规则');
  const names = { account: `${p}-户`, campaign: `${p}-系列`, adset: `${p}-组`, ad: `${p}-广告`, rule: `${p}-止损` };
  const { simUser } = await connectedSimUser(api, sim, { ad_accounts: [{ name: names.account }], pixels: 0 });
  const act = simUser.ad_accounts[0]!.id;
  const token = simUser.access_token;
  const manager = await api.managerSession();
  const accounts = await api.ok<{ list: { id: number; platform_id: string }[] }>('/ad-accounts/list', { page: 1, page_size: 10, keyword: act }, manager);
  const accountId = accounts.list.find((a) => a.platform_id === act)!.id;
  await api.ok('/ad-accounts/set_hosted', { ad_account_ids: [accountId], hosted: true }, manager);

  // A traffic ad without a pixel: it spends and reports no purchase.
  const campaign = await graph(sim, token, `${act}/campaigns`, { name: names.campaign, objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE', special_ad_categories: [], is_adset_budget_sharing_enabled: false });
  const adset = await graph(sim, token, `${act}/adsets`, {
    name: names.adset,
    campaign_id: campaign.id,
    status: 'ACTIVE',
    daily_budget: 10000,
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'LINK_CLICKS',
    targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
  });
  const creative = await graph(sim, token, `${act}/adcreatives`, { name: 'Creative', object_story_spec: { page_id: simUser.pages[0]!.id, link_data: { link: 'https://drama.example/ep1', message: 'Watch now' } } });
  await graph(sim, token, `${act}/ads`, { name: names.ad, adset_id: adset.id, status: 'ACTIVE', creative: { creative_id: creative.id } });
  await sim.control('POST', 'backdate', { account_id: act, days: 3 });
  await api.ok('/ad-reports/sync', { ad_account_ids: [accountId] }, manager);
  const now = Date.now();
  await expect
    .poll(
      async () => {
        const r = await api.ok<{ list: { name: string; metrics: { spend: number | null } }[] }>('/ad-reports/list', { level: 'ad', date_from: dayIn('Asia/Shanghai', now - 86_400_000), date_to: dayIn('Asia/Shanghai', now), ad_account_ids: [accountId], status: 'all', page: 1, page_size: 10 }, manager);
        return r.list.find((x) => x.name === names.ad)?.metrics.spend ?? 0;
      },
      { timeout: 60_000, intervals: [500, 1000, 2000], message: 'the synced spend of the ad' },
    )
    .toBeGreaterThan(1);

  // 规则 → 新建规则 → 止损: only this account, spend over the last 2 days ≥ $1 with no purchase.
  await openAs(page, api, MANAGER, '/operation/account');
  await page.getByRole('tab', { name: '规则' }).click();
  const editor = page.locator('.ant-drawer').filter({ hasText: '新建规则' });
  await chooseMenuItem(page, page.getByRole('button', { name: /新建规则/ }), /^止损/, editor);
  await expect(editor.getByLabel('规则名称')).toHaveValue('止损：今日花费 ≥ $30 且无购买');
  await editor.getByLabel('规则名称').fill(names.rule);
  await editor.getByText('指定账户', { exact: true }).click();
  await pickOption(page, editor.getByRole('combobox', { name: '广告账户' }), p, { option: names.account, multiple: true });
  const spend = editor.getByTestId('condition-0-0');
  await spend.getByRole('combobox', { name: '时间窗口' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '最近 N 天' }).click();
  await spend.getByRole('spinbutton', { name: 'N' }).fill('2');
  await spend.getByRole('spinbutton', { name: '数值' }).fill('1');
  // Without the template's "no purchase today": the simulator's delivery converts some clicks of any
  // ad, pixel or not, so whether a purchase has come in yet today depends on the hour the journey
  // runs (the dry run found nothing at 12:35 and 13:46 in Shanghai, in CI).
  const purchases = editor.getByTestId('condition-0-1');
  await expect(purchases).toContainText('购买（像素）');
  await purchases.getByRole('button', { name: '删除条件' }).click();
  await expect(editor.getByTestId('condition-0-2')).toHaveCount(0);

  // Dry run: the ad would be paused, with its figures; nothing is acted on.
  await editor.getByRole('button', { name: /试运行/ }).click();
  const dry = page.getByRole('dialog').filter({ hasText: `试运行：${names.rule}` });
  await expect(dry).toContainText('不会对任何对象执行操作');
  await expect(row(dry, names.ad)).toContainText('将执行');
  await expect(row(dry, names.ad)).toContainText('ACTIVE → PAUSED');
  await expect(row(dry, names.ad)).toContainText(/花费（最近 2 天）[\d.]+ ≥ 1/);
  await dry.locator('.ant-modal-close').click();
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await expect(editor).toBeHidden();

  const ruleRow = row(page, names.rule);
  await expect(ruleRow).toContainText('已停用');
  await expect(ruleRow).toContainText('1 个账户');
  // The dry run left the ad on.
  const ads = await api.ok<{ list: { name: string; status: string }[] }>('/ad-reports/list', { level: 'ad', date_from: dayIn('Asia/Shanghai', now), date_to: dayIn('Asia/Shanghai', now), ad_account_ids: [accountId], status: 'all', page: 1, page_size: 10 }, manager);
  expect(ads.list.find((a) => a.name === names.ad)?.status).toBe('ACTIVE');

  // Switch it on, then run it now.
  await ruleRow.getByRole('switch', { name: `开关 ${names.rule}` }).click();
  await page.getByRole('dialog').filter({ hasText: `开启规则「${names.rule}」？` }).getByRole('button', { name: /确\s*定/ }).click();
  await expect(ruleRow).toContainText('运行中');
  await ruleRow.getByRole('button', { name: `立即运行 ${names.rule}` }).click();
  await page.getByRole('dialog').filter({ hasText: `立即运行规则「${names.rule}」？` }).getByRole('button', { name: /立即运行/ }).click();
  const run = page.getByRole('dialog').filter({ hasText: `运行规则：${names.rule}` });
  await expect(run.locator('.ant-alert-success')).toBeVisible({ timeout: 60_000 });
  await run.getByRole('button', { name: /历\s*史/ }).click();

  // 历史: the firing with the figures that triggered it.
  await expect(page).toHaveURL(/view=history/);
  const firing = row(page, names.ad);
  await expect(firing).toContainText('已执行', { timeout: 20_000 });
  await expect(firing).toContainText(names.rule);
  await expect(firing).toContainText(/花费（最近 2 天）[\d.]+ ≥ 1/);
  await expect(firing).toContainText('ACTIVE → PAUSED');

  // 关闭日志: the pause, done by the rule.
  await page.goto('/advertising/close-log');
  await expect(row(page, names.ad)).toContainText('关闭');

  // Screenshots for a look at the screens (RULES_SHOTS=<dir>): rules, the editor and the history, light and dark.
  const shots = process.env.RULES_SHOTS;
  if (shots) {
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') await page.getByTestId('toggle-theme').click();
      await page.goto('/operation/account?view=history');
      await expect(row(page, names.ad)).toBeVisible();
      await page.screenshot({ path: `${shots}/history-${theme}.png`, fullPage: true });
      await page.goto('/operation/account?view=rules');
      await row(page, names.rule).getByRole('button', { name: `编辑 ${names.rule}` }).click();
      await expect(page.locator('.ant-drawer').filter({ hasText: '编辑规则' })).toBeVisible();
      await page.screenshot({ path: `${shots}/editor-${theme}.png` });
      await page.keyboard.press('Escape');
      await expect(page.locator('.ant-drawer').filter({ hasText: '编辑规则' })).toBeHidden();
    }
  }
});
