import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { startSimulator } from '@ads/meta-sim';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { seedInitialUsers } from '../apps/server/src/db/seed.ts';
import { createRuleEvaluator, specOf } from '../apps/server/src/features/rules/rules.evaluator.ts';
import * as repo from '../apps/server/src/features/rules/rules.repository.ts';
import { visibleAdAccountIds } from '../apps/server/src/lib/scope.ts';
import { dayIn } from '../apps/server/src/lib/tz.ts';
import { createLive, generate, insertRules, layoutOf } from './rules.ts';
import { createBenchDatabase } from './postgres.ts';
import { cleanupAll } from './cleanup.ts';
import { sql } from 'kysely';

const ads = Number(process.env.ADS ?? 20000);
const layout = layoutOf(ads, ads / 50);
const sim = await startSimulator({ port: 0, host: '127.0.0.1', speed: 0, orderIntervalMs: 0, logLevel: 'silent', settings: { review_delay_seconds: 0 } });
const bench = await createBenchDatabase();
if ('unavailable' in bench) throw new Error(bench.unavailable);
const database = await openDatabase({ databaseUrl: bench.url });
const db = database.db;
try {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir(), META_GRAPH_URL: sim.url, META_APP_ID: sim.appId, META_APP_SECRET: sim.appSecret, TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  const today = dayIn(Date.now(), config.reportTimezone);
  const live = await createLive(sim, layout, 2, config.reportTimezone);
  await migrateToLatest(db);
  await seedInitialUsers(db, { managerPassword: 'x-123456789', adminPassword: 'y-123456789' });
  const owner = await generate(db, layout, live, config, today, console.log);
  const ids = await insertRules(db, owner);
  const ev = createRuleEvaluator({ db, clock: { now: () => new Date() }, reportTimezone: config.reportTimezone, notify: async () => {} });
  const T = async (label: string, f: () => Promise<unknown>) => { const t = performance.now(); const r = await f(); console.log(label, (performance.now() - t).toFixed(0), 'ms'); return r as any; };
  const actor = await T('ownerActor', () => ev.ownerActor(owner));
  const vis = await T('visibleAdAccountIds', () => visibleAdAccountIds(db, actor));
  const accounts = await T('hostedAccounts', () => repo.hostedAccounts(db, vis, { type: 'all' } as never));
  const objs = await T('candidates ad', () => repo.candidates(db, 'ad', accounts.map((a: any) => a.id), { name_contains: [], name_excludes: [], drama_ids: [], product_ids: [] }, 'active'));
  await T('candidates ad again', () => repo.candidates(db, 'ad', accounts.map((a: any) => a.id), { name_contains: [], name_excludes: [], drama_ids: [], product_ids: [] }, 'active'));
  const oids = objs.map((o: any) => o.id);
  const accs = `{${accounts.map((a: any) => a.id).join(',')}}`;
  const ex = async (label: string, q: any) => { const { rows } = await sql`explain (analyze, buffers) ${q}`.execute(db); console.log('--', label); for (const r of rows as any[]) console.log(r['QUERY PLAN']); };
  await ex('candidates', sql`select x.id, x.platform_id, x.name, x.ad_account_id, x.status, x.effective_status, x.created_time, x.created_at, x.updated_time, acc.currency,
        case when c.budget_level = 'campaign' then c.id else s.id end as holder_id
      from ads x join ad_sets s on s.id = x.adset_id join ad_campaigns c on c.id = x.campaign_id join ad_accounts acc on acc.id = x.ad_account_id
      where x.ad_account_id = any(${accs}::int[]) and x.deleted_at is null and x.effective_status = 'ACTIVE' order by x.id`);
  await ex('windowSums today', sql`select u.k, sum(u.spend_usd_cents)::bigint from (select f.ad_id as k, f.day, f.spend_usd_cents from ad_stats_daily f where f.ad_id = any(${`{${oids.join(',')}}`}::int[]) and f.day >= ${today} and f.day <= ${today}) u group by u.k`);
  await ex('hourSums', sql`select a.id as k, acc.currency, sum(h.spend_minor)::bigint from ad_insights_hourly h join ads a on a.id = h.ad_id join ad_accounts acc on acc.id = a.ad_account_id where a.id = any(${`{${oids.join(',')}}`}::int[]) and h.hour >= ${new Date(Date.now() - 6 * 3600_000)} group by 1, 2`);
  await T('candidates raw count', () => sql`select count(*) from ads x join ad_sets s on s.id = x.adset_id join ad_campaigns c on c.id = x.campaign_id join ad_accounts acc on acc.id = x.ad_account_id where x.ad_account_id = any(${accs}::int[]) and x.deleted_at is null and x.effective_status = 'ACTIVE'`.execute(db));
  await T('windowSums today', () => repo.windowSums(db, 'ad', oids, today, today, today, ['spend_usd_cents', 'purchases'] as never));
  await T('windowSums lifetime', () => repo.windowSums(db, 'ad', oids, '2000-01-01', today, today, ['spend_usd_cents', 'purchases', 'purchase_value_usd_cents'] as never));
  await T('windowSums with orders', () => repo.windowSums(db, 'ad', oids, today, today, today, ['spend_usd_cents', 'revenue_usd_cents'] as never));
  await T('hourSums', () => repo.hourSums(db, 'ad', oids, new Date(Date.now() - 6 * 3600_000)));
  await T('syncStates', () => repo.syncStates(db, accounts.map((a: any) => a.id)));
  for (const id of ids.slice(0, 2)) {
    const rule = (await repo.findRule(db, id))!;
    await T(`dryRun ${rule.name}`, () => ev.dryRun(specOf(rule), owner, rule.id));
  }
} finally {
  await database.close();
  await sim.close();
  await cleanupAll();
}
