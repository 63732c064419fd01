import { ADMIN, expect, openAs, test } from './fixtures.ts';

// 定时任务 (/admin/sys/cron): the super admin runs a job now and reads its finished run in words.
test('runs a job now and shows the finished run with its summary in plain words', async ({ page, api }) => {
  await openAs(page, api, ADMIN, '/admin/sys/cron');
  const job = page.getByRole('row').filter({ hasText: '清理未完成的上传' });
  // The description is Chinese in the Chinese interface.
  await expect(job).toContainText('删除超过 7 天仍未完成的上传');
  await job.getByRole('button', { name: '立即运行' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '立即运行「清理未完成的上传」？' });
  await confirm.getByRole('button', { name: '立即运行' }).click();
  await expect(page.getByText(/「清理未完成的上传」运行结束/)).toBeVisible();

  await job.getByRole('button', { name: '运行记录' }).click();
  await expect(page).toHaveURL(/tab=runs/);
  const run = page.getByRole('row').filter({ hasText: 'cleanup-material-uploads' }).first();
  await expect(run).toContainText('已跳过');
  // Nothing expired in a fresh database: the summary says so in words, not "removed: 0".
  await expect(run).toContainText('删除未完成的上传 0 个');
  await expect(run).not.toContainText('removed');
});
