/**
 * 启动管理 (issue 8): a manager switches a paused campaign on now and finds the result in the task
 * list and the operation log; then schedules another for later and cancels the pending task, which
 * leaves that campaign paused. The campaigns are made on the simulator and mirrored by "sync now".
 */
import { MANAGER, connectedSimUser, expect, openAs, test, unique, type Sim } from './fixtures.ts';

async function graph(sim: Sim, token: string, path: string, params: Record<string, unknown>): Promise<{ id: string }> {
  const form: Record<string, string> = { access_token: token };
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  const res = await sim.request.post(`${sim.url}/v25.0/${path}`, { form });
  expect(res.ok(), `POST ${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as { id: string };
}

test('switch a paused campaign on now, schedule another and cancel it before it runs', async ({ page, api, sim }) => {
  const p = unique('E2E启动');
  const names = { now: `${p}-立即`, later: `${p}-定时` };
  const { simUser } = await connectedSimUser(api, sim, { ad_accounts: [{ name: `${p}-户` }] });
  const act = simUser.ad_accounts[0]!.id;
  const token = simUser.access_token;
  const manager = await api.managerSession();
  for (const name of [names.now, names.later]) {
    await graph(sim, token, `${act}/campaigns`, { name, objective: 'OUTCOME_SALES', status: 'PAUSED', special_ad_categories: [], daily_budget: 3000 });
  }
  const accounts = await api.ok<{ list: { id: number; platform_id: string }[] }>('/ad-accounts/list', { page: 1, page_size: 10, keyword: act }, manager);
  const accountId = accounts.list.find((a) => a.platform_id === act)!.id;
  await api.ok('/ad-reports/sync', { ad_account_ids: [accountId] }, manager);
  await expect
    .poll(async () => (await api.ok<{ list: { name: string }[] }>('/start-tasks/campaigns', { page: 1, page_size: 20, keyword: p }, manager)).list.map((c) => c.name).sort(), {
      timeout: 30_000,
      intervals: [250, 500, 1000],
      message: 'both campaigns mirrored',
    })
    .toEqual([names.later, names.now].sort());

  // Now: pick the campaign, confirm, and the task list shows its result.
  await openAs(page, api, MANAGER, '/advertising/start?tab=create');
  await expect(page.getByRole('heading', { name: '启动管理' })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('名称或 ID', { exact: true }).fill(names.now);
  await page.getByLabel('名称或 ID', { exact: true }).press('Enter');
  await page.getByRole('checkbox', { name: names.now }).check();
  await expect(page.getByText('已选 1 个')).toBeVisible();
  await page.getByRole('button', { name: '创建启动任务' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '确认启动 1 个对象？' });
  await expect(confirm).toContainText('立即开启投放');
  await confirm.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('tab', { name: '任务列表', selected: true })).toBeVisible();
  const nowTask = page.locator('.ant-table-row').filter({ hasText: '立即' }).first();
  await expect(nowTask).toContainText('成功', { timeout: 30_000 });
  await expect(nowTask).toContainText('成功 1 · 失败 0');
  const campaigns = async () => (await api.ok<{ list: { name: string; status: string }[] }>('/start-tasks/campaigns', { page: 1, page_size: 20, keyword: p }, manager)).list;
  await expect.poll(async () => (await campaigns()).find((c) => c.name === names.now)?.status, { timeout: 15_000 }).toBe('ACTIVE');

  // Later: tomorrow at 09:00 in the ad account's zone; the pending task is cancelled.
  await page.getByRole('tab', { name: '新建启动' }).click();
  await page.getByLabel('名称或 ID', { exact: true }).fill(names.later);
  await page.getByLabel('名称或 ID', { exact: true }).press('Enter');
  await page.getByRole('checkbox', { name: names.later }).check();
  await page.getByRole('radio', { name: '定时开启' }).check();
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const picker = page.getByLabel('时间', { exact: true });
  await picker.click();
  await picker.fill(`${tomorrow} 09:00`);
  await page.locator('.ant-picker-dropdown:visible .ant-picker-ok button').click();
  await expect(picker).toHaveValue(`${tomorrow} 09:00`);
  await page.getByRole('button', { name: '创建启动任务' }).click();
  const confirmAt = page.getByRole('dialog').filter({ hasText: '确认启动 1 个对象？' });
  await expect(confirmAt).toContainText(`${tomorrow} 09:00`);
  await confirmAt.getByRole('button', { name: /确\s*定/ }).click();
  const pending = page.locator('.ant-table-row').filter({ hasText: '排队中' }).first();
  await expect(pending).toBeVisible();
  await pending.getByRole('button', { name: /取消/ }).click();
  const cancelDialog = page.getByRole('dialog').filter({ hasText: '任务不会再执行' });
  await cancelDialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-table-row').filter({ hasText: '已取消' }).first()).toBeVisible();
  expect((await campaigns()).find((c) => c.name === names.later)?.status).toBe('PAUSED');

  // The switch is in 系统日志.
  await page.goto('/advertising/copy-log');
  await expect(page.getByRole('heading', { name: '系统日志' })).toBeVisible();
  await page.getByLabel('对象').fill(p);
  await page.getByLabel('对象').press('Enter');
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await expect(page.locator('.ant-table-row').filter({ hasText: names.now })).toContainText('成功');
});
