/**
 * 短剧发布 (issue 8): one drama published to 3 ad accounts of the simulator with 2 videos × 2
 * primary texts: the preview's counts and names, submit, the live progress, one ad refused by the
 * platform and retried, and a start scheduled in the target market's time zone.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MANAGER, connectedSimUser, expect, openAs, test, unique, type Api, type Page } from './fixtures.ts';

const FFMPEG = path.resolve(import.meta.dirname, '../node_modules/@ffmpeg-installer/linux-x64/ffmpeg');

/** A 2 s video of its own bytes (the library keeps one material per content). */
function makeVideo(dir: string, name: string, src: string): string {
  const file = path.join(dir, name);
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `${src}=duration=2:size=320x240:rate=25`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-metadata', `comment=${randomBytes(8).toString('hex')}`, file], { timeout: 30_000 });
  return file;
}

/** A material uploaded by the manager over tus, preset to a drama. */
async function uploadVideo(api: Api, file: string, dramaId: number): Promise<{ id: number; file_name: string }> {
  const token = await api.managerSession();
  const bytes = fs.readFileSync(file);
  const metadata = { filename: path.basename(file), filetype: 'video/mp4', platform: 'dj', drama_id: String(dramaId), language: 'en' };
  const headers = { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' };
  const created = await api.request.post('/api/material/tus', {
    headers: { ...headers, 'Upload-Length': String(bytes.length), 'Upload-Metadata': Object.entries(metadata).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(',') },
  });
  expect(created.status(), await created.text()).toBe(201);
  const location = created.headers().location!;
  const done = await api.request.patch(location, { headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, data: bytes });
  expect(done.status(), await done.text()).toBe(204);
  const result = await api.ok<{ material: { id: number; file_name: string } }>('/materials/upload_result', { upload_id: location.split('/').pop() }, token);
  return result.material;
}

const next = (page: Page) => page.getByRole('button', { name: /下一步|预览与检查/ }).last();
const stepTitle = (page: Page) => page.getByTestId('step-title');

test('publishes one drama to 3 accounts with 2 videos × 2 texts: preview, submit, progress, retry of a refused ad, a scheduled start', async ({ page, api, sim }) => {
  test.setTimeout(240_000);
  const p = unique('发布');
  const domain = `${unique('pub').toLowerCase()}.example.com`;
  const token = await api.managerSession();

  // Three ad accounts reached by a valid token, one page used with them, the pixel shared with them.
  const { simUser } = await connectedSimUser(api, sim, { ad_accounts: [{ name: `${p}-美国1` }, { name: `${p}-美国2` }, { name: `${p}-美国3` }], pages: [{ name: `${p}-主页` }], pixels: 1 });
  const accounts = await api.ok<{ list: { id: number; name: string; platform_id: string }[] }>('/ad-accounts/list', { page: 1, page_size: 10, keyword: p }, token);
  expect(accounts.list).toHaveLength(3);
  const pages = await api.ok<{ list: { id: number }[] }>('/pages/list', { page: 1, page_size: 10, keyword: p }, token);
  await api.ok('/pages/associate', { page_ids: pages.list.map((x) => x.id), ad_account_ids: accounts.list.map((a) => a.id), mode: 'add' }, token);

  // A site with a link template and the drama, and two videos preset to it.
  const site = await api.ok<{ id: number }>('/sites/create', { name: `${p}站`, domain, platform: 'dj', link_template: `https://${domain}/play/{drama_id}?ep={episode}&c={campaign_id}&s={adset_id}&a={ad_id}` }, token);
  const drama = `${p}-霸总`;
  const externalId = unique('D');
  const created = await api.ok<{ id: number }>('/dramas/create', { site_id: site.id, external_id: externalId, name: drama, language: 'en', episode_count: 40 }, token);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ads-e2e-publish-'));
  const videos = [await uploadVideo(api, makeVideo(dir, `${p}-a.mp4`, 'testsrc'), created.id), await uploadVideo(api, makeVideo(dir, `${p}-b.mp4`, 'smptebars'), created.id)];
  fs.rmSync(dir, { recursive: true, force: true });

  await openAs(page, api, MANAGER, '/advertising/publish');
  await expect(page.getByRole('heading', { name: '短剧发布' })).toBeVisible({ timeout: 30_000 });

  // 1 What.
  await page.getByPlaceholder('搜索剧名或剧集 ID').fill(drama);
  await page.getByRole('radio', { name: drama }).check();
  await next(page).click();
  await expect(stepTitle(page)).toHaveText('第 2 步：创意');

  // 2 Creatives: the library opens preset to the drama (its two videos), two primary texts.
  await page.getByRole('button', { name: /选择视频/ }).click();
  const picker = page.getByRole('dialog', { name: '从素材库选择视频' });
  for (const v of videos) await picker.getByRole('checkbox', { name: v.file_name }).check();
  await picker.getByRole('button', { name: '确定（2）' }).click();
  await page.getByRole('textbox', { name: '正文 1' }).fill('Watch the whole drama free tonight');
  await page.getByRole('button', { name: /添加正文/ }).click();
  await page.getByRole('textbox', { name: '正文 2' }).fill('She married the wrong brother');
  await expect(page.getByTestId('ad-count')).toContainText('4');
  await next(page).click();

  // 3 Where: the three accounts; page, pixel and the site's link come preset.
  await expect(stepTitle(page)).toHaveText('第 3 步：投放账户');
  await page.getByPlaceholder('搜索账户名或账户 ID').fill(p);
  for (const a of accounts.list) await page.getByRole('checkbox', { name: a.name }).check();
  await expect(page.getByTestId('accounts-selected')).toHaveText('已选 3 / 50');
  for (const a of accounts.list) await expect(page.getByRole('textbox', { name: `${a.name} 的落地链接` })).toHaveValue(`https://${domain}/play/${externalId}?ep=1`);
  await next(page).click();

  // 4 Settings: a daily budget of USD 20 per campaign; the live count says 3 / 3 / 12.
  await expect(stepTitle(page)).toHaveText('第 4 步：结构与设置');
  await page.getByRole('spinbutton', { name: '单日预算' }).fill('20');
  await expect(page.getByTestId('structure-counts')).toContainText('3 个系列 · 3 个广告组 · 12 条广告');
  await next(page).click();

  // 5 Preview: every object with its name, the totals, the checks (ours and validate-only).
  await expect(page.getByTestId('preview-verdict')).toBeVisible({ timeout: 60_000 });
  const totals = page.getByTestId('preview-totals');
  await expect(totals).toContainText('USD 60.00');
  await expect(totals.locator('.ant-statistic-content-value')).toHaveText(['3', '3', '3', '12', 'USD 60.00']);
  // Names from the default templates; a value's own "-" becomes a space so names parse back.
  const named = (s: string) => s.replace(/-/g, ' ');
  await expect(page.getByTestId('preview-name').filter({ hasText: new RegExp(`^${named(drama)}-manager-\\d{8}-1$`) })).toHaveCount(3);
  const stemA = videos[0]!.file_name.replace(/\.mp4$/, '');
  await expect(page.getByTestId('preview-name').filter({ hasText: `${named(drama)}-${named(stemA)}-` })).toHaveCount(6);
  await next(page).click();

  // 6 Submit: switched on at 20:00 New York time (the market of the US ad sets), after a confirmation.
  await expect(stepTitle(page)).toHaveText('第 6 步：提交');
  await page.getByRole('radio', { name: /^定时开启/ }).check();
  await page.getByLabel('开启时间').fill('2030-01-01 20:00');
  await page.getByLabel('开启时间').press('Enter');
  // The platform refuses the next ad created on the second account, once (set after the preview,
  // whose validate-only calls would take it).
  await sim.control('POST', 'faults', { path: `/${simUser.ad_accounts[1]!.id}/ads`, method: 'POST', count: 1, error: { code: 100, http_status: 400, message: 'Invalid parameter: the creative is not ready' } });
  await page.getByRole('button', { name: /提交方案/ }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '确认提交方案？' });
  await expect(confirm).toContainText('将在 3 个广告账户创建 3 个广告系列、3 个广告组、12 条广告。');
  await expect(confirm).toContainText('2030-01-01 20:00（America/New_York');
  await confirm.getByRole('button', { name: /^提\s*交$/ }).click();

  // The scheme's page: live progress until the refused ad is the only failure, with the platform's reason.
  await expect(page.getByTestId('scheme-name')).toBeVisible();
  await expect(page.getByTestId('scheme-status')).toHaveText('部分失败', { timeout: 120_000 });
  await expect(page.getByTestId('scheme-items')).toContainText('Invalid parameter');
  await expect(page.getByText(/2030-01-02 09:00 开启/)).toBeVisible();

  // Retry the failed item: only it runs again, and the scheme completes.
  await page.getByRole('button', { name: /重试失败项（1）/ }).click();
  await page.getByRole('dialog').filter({ hasText: '重试 1 个失败项？' }).getByRole('button', { name: /^重\s*试$/ }).click();
  await expect(page.getByTestId('scheme-status')).toHaveText('已完成', { timeout: 120_000 });
  // Items: per account 1 campaign, 1 ad set, 4 creatives and 4 ads; what exists is what was planned.
  await expect(page.getByText('已创建 30 / 30 项')).toBeVisible();
  await expect(page.getByText('3 / 3 / 12', { exact: true })).toHaveCount(2);
});
