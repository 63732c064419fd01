import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../../test/build-test-app.ts';
import type { Database } from '../database.ts';
import * as m0005 from './0005_bilingual_messages.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

it('moves the runner texts that were English only to the English column, with Chinese where Chinese is read', async () => {
  const db = database.db;
  // Back to the schema before 0005, with rows as the runner wrote them then.
  await m0005.down(db as never);
  await sql`
    insert into job_runs (job_name, trigger, status, error, message) values
      ('a', 'manual', 'failed', 'Interrupted: the server shut down', null),
      ('b', 'manual', 'failed', 'Timed out after 900 s', null),
      ('c', 'manual', 'failed', 'failed', null),
      ('d', 'manual', 'queued', 'boom', 'Attempt 2 failed; it will be retried'),
      ('e', 'manual', 'success', null, '已同步 1 个个号')`.execute(db);
  await m0005.up(db as never);

  const rows = await sql<{ job_name: string; error: string | null; error_en: string | null; message: string | null; message_en: string | null }>`
    select job_name, error, error_en, message, message_en from job_runs order by job_name`.execute(db);
  expect(rows.rows).toEqual([
    { job_name: 'a', error: '运行中断：服务器已关闭', error_en: 'Interrupted: the server shut down', message: null, message_en: null },
    { job_name: 'b', error: '运行超时（900 秒）', error_en: 'Timed out after 900 s', message: null, message_en: null },
    { job_name: 'c', error: '运行失败', error_en: 'The run failed', message: null, message_en: null },
    // A job's own error text is left as it was (it is the same in both languages).
    { job_name: 'd', error: 'boom', error_en: null, message: '第 2 次运行失败，将重试', message_en: 'Attempt 2 failed; it will be retried' },
    { job_name: 'e', error: null, error_en: null, message: '已同步 1 个个号', message_en: null },
  ]);
});
