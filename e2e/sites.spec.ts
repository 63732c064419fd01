/**
 * 站点关联 (/auth/site): a landing site with a link template and the live preview of the link it
 * expands to; its drama catalog: one drama added by hand, more imported from a CSV file.
 */
import { MANAGER, expect, openAs, test, toast, unique, type Page } from './fixtures.ts';

const dramaRows = (page: Page) => page.locator('.ant-table-row');

test('a manager creates a drama site with a link template, adds a drama and imports more from a CSV file', async ({ page, api }) => {
  const name = unique('E2E站点');
  const domain = `${unique('d').toLowerCase()}.example.com`;
  await openAs(page, api, MANAGER, '/auth/site');
  await expect(page.getByRole('heading', { name: '站点关联' })).toBeVisible();

  await page.getByRole('button', { name: /新建站点/ }).first().click();
  const drawer = page.getByRole('dialog').filter({ hasText: '落地链接模板' });
  await expect(drawer).toBeVisible();
  await drawer.getByLabel('站点名称').fill(name);
  await drawer.getByLabel('域名').fill(domain);
  const template = drawer.getByLabel('落地链接模板');
  const preview = drawer.getByTestId('link-preview');
  await expect(preview).toHaveText('输入模板后在这里预览展开后的链接');
  // Typed text and a placeholder inserted from its chip, expanded with sample values as it is typed.
  await template.fill(`https://${domain}/play?id=`);
  await drawer.getByText('{drama_id}', { exact: true }).click();
  await expect(template).toHaveValue(`https://${domain}/play?id={drama_id}`);
  await template.press('End');
  await template.pressSequentially('&c={campaign_id}&x={dramaid}');
  await expect(preview).toHaveText(`https://${domain}/play?id=10086&c=120211000000000001&x={dramaid}`);
  // An unknown placeholder is flagged in the preview and refused by the form.
  await expect(preview.locator('[data-unknown="{dramaid}"]')).toBeVisible();
  await expect(drawer.getByText('未知占位符 {dramaid}')).toBeVisible();
  await template.fill(`https://${domain}/play?id={drama_id}&c={campaign_id}&ad={ad_id}`);
  await expect(preview).toHaveText(`https://${domain}/play?id=10086&c=120211000000000001&ad=120211000000000003`);
  await drawer.getByRole('button', { name: /保\s*存/ }).click();

  // The order-webhook secret, shown once.
  const secret = page.getByRole('dialog').filter({ hasText: `站点「${name}」已创建` });
  await expect(secret.getByTestId('shown-secret')).toHaveText(/^whsec_\S+$/);
  await expect(secret).toContainText('/api/orders/webhook/');
  await secret.getByRole('button', { name: '我已保存' }).click();
  await expect(secret).toBeHidden();

  // The new site is chosen: its settings with the expanded link.
  await expect(page.getByRole('option', { name: new RegExp(name) })).toHaveAttribute('aria-selected', 'true');
  const details = page.locator('.ant-card').filter({ hasText: '订单回传地址' });
  await expect(details).toContainText(domain);
  await expect(details.getByTestId('link-preview')).toHaveText(`https://${domain}/play?id=10086&c=120211000000000001&ad=120211000000000003`);
  await expect(details.getByTestId('webhook-url')).toHaveText(/\/api\/orders\/webhook\/\d+$/);

  // Add a drama by hand.
  await expect(page.getByText('这个站点还没有剧集')).toBeVisible();
  await page.getByRole('button', { name: /新建剧集/ }).first().click();
  const form = page.getByRole('dialog').filter({ hasText: '新建剧集' });
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form.getByText('请输入站内 ID')).toBeVisible();
  await form.getByLabel('站内 ID').fill('D-1001');
  await form.getByLabel('剧名').fill('总裁的替身新娘');
  await form.getByLabel('语言').fill('en');
  await form.getByLabel('集数').fill('80');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(toast(page, '已添加剧集「总裁的替身新娘」')).toBeVisible();
  await expect(dramaRows(page)).toHaveCount(1);
  await expect(dramaRows(page).first()).toContainText('ID D-1001');
  await expect(dramaRows(page).first()).toContainText('未测试');

  // Import: a file with a bad row is refused as a whole, with the row and why.
  await page.getByRole('button', { name: /导\s*入/ }).first().click();
  const importer = page.getByRole('dialog').filter({ hasText: `导入剧集到「${name}」` });
  const fileInput = importer.locator('input[type="file"]');
  await fileInput.setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('external_id,name,language,episode_count\nD-2001,好剧,en,abc\n'),
  });
  await expect(importer.getByText('1 处问题需要修改')).toBeVisible();
  await expect(importer.getByTestId('import-errors')).toContainText('episode_count');
  await expect(importer.getByRole('button', { name: /确认导入/ })).toBeDisabled();

  // A good file (Chinese headers, UTF-8 with BOM): two new dramas and an update of the one above.
  const csv = '\uFEFF剧集ID,剧名,语言,集数,标签,测试状态\nD-1001,总裁的替身新娘,en,90,逆袭;甜宠,测试中\nD-2001,重生之我是首富,en,60,重生,未测试\nD-2002,Hidden Heiress,es,75,,已通过\n';
  await fileInput.setInputFiles({ name: 'dramas.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await expect(importer.getByTestId('import-ready')).toContainText('将新增 2 条，更新 1 条');
  await importer.getByRole('button', { name: /确认导入/ }).click();
  await expect(toast(page, '导入完成：新增 2 条，更新 1 条')).toBeVisible();
  await expect(importer).toBeHidden();
  await expect(dramaRows(page)).toHaveCount(3);
  await expect(page.getByText('剧集（3）')).toBeVisible();
  const updated = dramaRows(page).filter({ hasText: 'ID D-1001' });
  await expect(updated).toContainText('90');
  await expect(updated).toContainText('测试中');
  await expect(updated).toContainText('甜宠');
  await expect(dramaRows(page).filter({ hasText: 'Hidden Heiress' })).toContainText('已通过');
  // The site list counts them too.
  await expect(page.getByRole('option', { name: new RegExp(name) })).toContainText('3 部剧');
});
