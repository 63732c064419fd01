// EXPLAIN (ANALYZE, BUFFERS) of the report list statement exactly as the server builds it
// (reportRows, with each user's scope from reportScope), on a database kept by BENCH_KEEP_DB=1:
//   npx tsx bench/explain-report.ts <database url> <level> <from> <to> [accounts, default staff,leader,manager]
// SHOW_SQL=1 prints the statement too; SORT=<metric> sorts by it (default spend). See README.md "Reports".
import { factColumnsOf, METRIC_KEYS, metrics, type MetricKey } from '@ads/contracts';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { reportRows } from '../apps/server/src/features/ad-data/ad-reports.repository.ts';
import { reportScope } from '../apps/server/src/features/ad-data/ad-reports.service.ts';
import type { DB } from '../apps/server/src/db/schema.ts';

const url = process.argv[2]!;
const level = (process.argv[3] ?? 'campaign') as 'campaign';
const from = process.argv[4]!;
const to = process.argv[5]!;
const sortField = (process.env.SORT ?? 'spend') as MetricKey;
const pool = new pg.Pool({ connectionString: url, max: 2 });
const captured: { sql: string; params: readonly unknown[] }[] = [];
const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: (e: LogEvent) => { if (e.level === 'query') captured.push({ sql: e.query.sql, params: e.query.parameters }); } });
for (const account of (process.argv[6] ?? 'bench_opt_002,bench_opt_001,manager').split(',')) {
  const u = await db.selectFrom('users').select(['id', 'is_admin', 'is_leader', 'department_id']).where('account', '=', account).executeTakeFirstOrThrow();
  let scope = await reportScope(db as never, u);
  if (level === ('optimizer' as string) && scope.userIds !== null) scope = { adAccountIds: [], userIds: scope.userIds };
  captured.length = 0;
  const t = performance.now();
  // SCREEN_COLUMNS=1: only the facts of the screen's default columns, as 广告数据 asks for them.
  const columns = process.env.SCREEN_COLUMNS ? factColumnsOf([...METRIC_KEYS.filter((k) => metrics[k].defaultVisible), sortField]) : undefined;
  await reportRows(db as never, { level, from, to, filters: {}, scope, sort: { field: sortField, order: 'desc' }, limit: 20, offset: 0, today: to, ...(columns && { columns }) });
  console.log(`\n=== ${account} ${level}: ${(performance.now() - t).toFixed(0)} ms; scope accounts ${scope.adAccountIds?.length ?? 'all'} users ${scope.userIds?.length ?? 'all'}`);
  const q = captured[captured.length - 1]!;
  if (process.env.SHOW_SQL) console.log(q.sql, JSON.stringify(q.params));
  const r = await pool.query(`explain (analyze, buffers) ${q.sql}`, q.params as unknown[]);
  console.log(r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n'));
}
await db.destroy();
