// A company's ad data generated in SQL (generate_series), straight into the schema the app's
// migrations create: departments, optimizers and their role, ad accounts assigned to them,
// campaign / ad set / ad mirrors, the report fact ad_stats_daily (one row per ad per day) and its
// campaign rollup built as the sync builds it (refreshCampaignStats), and the sync state the
// screens read as "data as of". Runs on PostgreSQL and PGlite alike. See README.md "Reports".
import { AD_REPORT_PATHS } from '@ads/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../apps/server/src/db/database.ts';
import { hashPassword, md5Hex } from '../apps/server/src/lib/passwords.ts';
import { addDays, dayIn } from '../apps/server/src/lib/tz.ts';

/** Shape of the generated company: every ad set has 5 ads, every campaign 2 ad sets, every ad account 10 campaigns. */
export const ADS_PER_ADSET = 5;
export const ADSETS_PER_CAMPAIGN = 2;
export const CAMPAIGNS_PER_ACCOUNT = 10;
export const ADS_PER_ACCOUNT = ADS_PER_ADSET * ADSETS_PER_CAMPAIGN * CAMPAIGNS_PER_ACCOUNT;
/** Optimizers (at most; one per ad account when there are fewer accounts), 10 to a department, the first of each its leader. */
const MAX_PEOPLE = 50;
const PEOPLE_PER_DEPARTMENT = 10;
/** Generated ids start above what migrations and the first users took. */
const USER_ID_BASE = 1000;

export interface CompanyLayout {
  ads: number;
  adsets: number;
  campaigns: number;
  adAccounts: number;
  people: number;
  departments: number;
  days: number;
  /** Report days covered, inclusive (the last is today in REPORT_TIMEZONE). */
  firstDay: string;
  lastDay: string;
  /** The password of every generated person (and of the manager when the generator seeds it). */
  password: string;
}

export interface Person {
  id: number;
  account: string;
  role: 'staff' | 'leader' | 'manager';
}

export function companyLayout(ads: number, days: number, today: string, password: string): CompanyLayout {
  const adsets = Math.ceil(ads / ADS_PER_ADSET);
  const campaigns = Math.ceil(adsets / ADSETS_PER_CAMPAIGN);
  const adAccounts = Math.ceil(campaigns / CAMPAIGNS_PER_ACCOUNT);
  const people = Math.min(MAX_PEOPLE, adAccounts);
  const departments = Math.max(1, Math.ceil(people / PEOPLE_PER_DEPARTMENT));
  return { ads, adsets, campaigns, adAccounts, people, departments, days, firstDay: addDays(today, -(days - 1)), lastDay: today, password };
}

/** The generated people (the manager is the seeded `manager`). */
export function peopleOf(layout: CompanyLayout): Person[] {
  return Array.from({ length: layout.people }, (_, j) => ({
    id: USER_ID_BASE + j + 1,
    account: `bench_opt_${String(j + 1).padStart(3, '0')}`,
    role: j % PEOPLE_PER_DEPARTMENT === 0 ? 'leader' : 'staff',
  }));
}

/** Today in the report zone, as the server computes it. */
export const reportToday = (tz: string) => dayIn(Date.now(), tz);

type Exec = (q: RawBuilder<unknown>) => Promise<void>;
const execOn = (db: Db): Exec => async (q) => void (await q.execute(db));

/** Puts a table's serial sequence past the ids inserted by hand. */
const syncSequence = (table: string) => sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select coalesce(max(id), 1) from ${sql.table(table)}))`;

/**
 * Runs `load` with the tables' secondary indexes and unreferenced primary keys dropped and foreign
 * key triggers off (session_replication_role = replica; every generated row is consistent by
 * construction), then rebuilds exactly the indexes and keys the migrations made. Bulk loading
 * into a table with its indexes in place costs several times as much.
 */
export async function withoutIndexes(db: Db, tables: string[], load: () => Promise<void>, log: (line: string) => void = () => {}): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; def: string }>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = 'public' and i.tablename in (${sql.join(tables)})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.conrelid = (quote_ident(i.tablename))::regclass)`.execute(db);
  // Primary keys nothing references (the fact tables'); referenced ones stay (serial ids append cheaply).
  const { rows: keys } = await sql<{ table: string; name: string; def: string }>`
    select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as def from pg_constraint c
    where c.contype = 'p' and c.conrelid::regclass::text in (${sql.join(tables)})
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.conrelid)`.execute(db);
  for (const i of indexes) await sql`drop index ${sql.id(i.name)}`.execute(db);
  for (const k of keys) await sql`alter table ${sql.table(k.table)} drop constraint ${sql.id(k.name)}`.execute(db);
  await sql`set session_replication_role = replica`.execute(db);
  try {
    await load();
  } finally {
    await sql`set session_replication_role = default`.execute(db);
  }
  const started = performance.now();
  for (const k of keys) await sql`alter table ${sql.table(k.table)} add constraint ${sql.id(k.name)} ${sql.raw(k.def)}`.execute(db);
  for (const i of indexes) await sql.raw(i.def).execute(db);
  log(`    ${keys.length} primary keys and ${indexes.length} indexes rebuilt in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** Pseudo-random 0…(n−1) from an integer SQL expression (hashint8 spreads it evenly). */
const spread = (expr: RawBuilder<unknown>, n: number) => sql`(abs(hashint8(${expr})::bigint) % ${sql.lit(n)})`;

/**
 * Everything but the facts: people and departments (each person's role has the ad report paths),
 * ad accounts assigned one per person in turn, campaigns owned by their account's person (as the
 * sync's "account" owner rule sets them), ad sets and ads.
 */
export async function generateStructure(db: Db, layout: CompanyLayout): Promise<void> {
  const run = execOn(db);
  const pwdHash = await hashPassword(md5Hex(layout.password));
  const P = layout.people;
  const per = PEOPLE_PER_DEPARTMENT;
  await run(sql`insert into departments (id, name, sort) select d, '投放' || d || '组', d from generate_series(1, ${layout.departments}) d`);
  await run(syncSequence('departments'));
  await run(sql`
    insert into users (id, account, name, pwd_hash, is_admin, is_leader, department_id, remark)
    select ${USER_ID_BASE} + j + 1, 'bench_opt_' || lpad((j + 1)::text, 3, '0'), '投手' || lpad((j + 1)::text, 3, '0'), ${pwdHash}, 0,
           case when j % ${per} = 0 then 1 else 0 end, j / ${per} + 1, 'bench'
    from generate_series(0, ${P - 1}) j`);
  await run(syncSequence('users'));
  await run(sql`update departments d set leader_id = ${USER_ID_BASE} + (d.id - 1) * ${per} + 1`);
  const paths = ['/advertising', ...AD_REPORT_PATHS];
  await run(sql`insert into roles (name, paths) values ('投手 (bench)', ${sql`array[${sql.join(paths)}]::text[]`})`);
  await run(sql`insert into user_roles (user_id, role_id) select u.id, r.id from users u, roles r where u.remark = 'bench' and r.name = '投手 (bench)'`);

  // Ad account a (1-based) belongs to person (a − 1) mod P; one in five is an e-commerce account.
  const owner = (a: RawBuilder<unknown>) => sql`(${USER_ID_BASE} + ((${a}) - 1) % ${P} + 1)`;
  await run(sql`
    insert into ad_accounts (id, platform_id, account_id, name, currency, timezone_name, account_status, platform, business_id, business_name)
    select a, 'act_' || (100000000 + a), (100000000 + a)::text, 'Bench account ' || a, 'USD', 'Asia/Shanghai', 1,
           case when a % 5 = 0 then 'ec' else 'dj' end, '900000001', 'Bench business'
    from generate_series(1, ${layout.adAccounts}) a`);
  await run(syncSequence('ad_accounts'));
  await run(sql`insert into user_ad_accounts (user_id, ad_account_id) select ${owner(sql`a`)}, a from generate_series(1, ${layout.adAccounts}) a`);
  const synced = sql`now() - interval '10 minutes'`;
  await run(sql`
    insert into ad_campaigns (id, platform_id, ad_account_id, name, status, effective_status, objective, budget_level, daily_budget_minor, currency,
                              owner_user_id, owner_source, platform, synced_at, created_time, updated_time)
    select c, (120200000000000 + c)::text, (c - 1) / ${CAMPAIGNS_PER_ACCOUNT} + 1, 'Campaign ' || c,
           case when c % 7 = 0 then 'PAUSED' else 'ACTIVE' end, case when c % 7 = 0 then 'PAUSED' else 'ACTIVE' end, 'OUTCOME_SALES',
           case when c % 2 = 0 then 'campaign' else 'adset' end, case when c % 2 = 0 then 10000 else null end, 'USD',
           ${owner(sql`(c - 1) / ${CAMPAIGNS_PER_ACCOUNT} + 1`)}, 'account', case when ((c - 1) / ${CAMPAIGNS_PER_ACCOUNT} + 1) % 5 = 0 then 'ec' else 'dj' end,
           ${synced}, now() - interval '500 days', now() - interval '1 day'
    from generate_series(1, ${layout.campaigns}) c`);
  await run(syncSequence('ad_campaigns'));
  await run(sql`
    insert into ad_sets (id, platform_id, ad_account_id, campaign_id, name, status, effective_status, daily_budget_minor, currency, optimization_goal,
                         billing_event, countries, owner_user_id, owner_source, synced_at)
    select s.id, (120210000000000 + s.id)::text, c.ad_account_id, c.id, 'Ad set ' || s.id, 'ACTIVE', c.effective_status,
           case when c.budget_level = 'adset' then 5000 else null end, 'USD', 'OFFSITE_CONVERSIONS', 'IMPRESSIONS', array['US'], c.owner_user_id, 'account', ${synced}
    from generate_series(1, ${layout.adsets}) s(id) join ad_campaigns c on c.id = (s.id - 1) / ${ADSETS_PER_CAMPAIGN} + 1`);
  await run(syncSequence('ad_sets'));
  await run(sql`
    insert into ads (id, platform_id, ad_account_id, campaign_id, adset_id, name, status, effective_status, owner_user_id, owner_source, synced_at)
    select x.id, (120220000000000 + x.id)::text, s.ad_account_id, s.campaign_id, s.id, 'Ad ' || x.id, 'ACTIVE', s.effective_status, s.owner_user_id, 'account', ${synced}
    from generate_series(1, ${layout.ads}) x(id) join ad_sets s on s.id = (x.id - 1) / ${ADS_PER_ADSET} + 1`);
  await run(syncSequence('ads'));
  // Every account synced ten minutes ago: "data as of" has a value.
  await run(sql`insert into ad_account_sync_state (ad_account_id, structure_synced_at, insights_synced_at, last_active_date, status) select id, ${synced}, ${synced}, current_date, 'idle' from ad_accounts`);
}

/** The fact columns the generator fills (the video ones keep their default 0: these are not video ads). */
const FILLED = ['spend_minor', 'spend_usd_cents', 'impressions', 'clicks', 'link_clicks', 'landing_page_views', 'purchases', 'purchase_value_minor', 'purchase_value_usd_cents', 'add_to_cart', 'initiate_checkout'];
const ALL_FACTS = [...FILLED, 'video_plays', 'video_p25', 'video_p50', 'video_p75', 'video_p95', 'video_p100', 'thruplays', 'video_watch_ms'];

/**
 * ad_stats_daily for every ad on every day of the layout (one row per ad-day), in day order as the
 * sync writes them, `daysPerStatement` days per statement, each with the campaign_stats_daily rows
 * refreshCampaignStats would build from them. Spend is $0–$200 per ad-day, the rest follows from it.
 */
export async function generateFacts(db: Db, layout: CompanyLayout, log: (line: string) => void, daysPerStatement = 20): Promise<void> {
  const run = execOn(db);
  await withoutIndexes(
    db,
    ['ad_stats_daily', 'campaign_stats_daily'],
    async () => {
      const started = performance.now();
      const cols = sql.join(ALL_FACTS.map((f) => sql.ref(f)));
      const sums = sql.join(ALL_FACTS.map((f) => sql`sum(s.${sql.ref(f)})`));
      for (let first = layout.firstDay; first <= layout.lastDay; first = addDays(first, daysPerStatement)) {
        const last = [addDays(first, daysPerStatement - 1), layout.lastDay].sort()[0]!;
        const n = sql`(d.day - date '2000-01-01')`;
        // The ad-day rows, and their campaign rollup summed from exactly the rows inserted
        // (refreshCampaignStats of ad-sync.service.ts, for every account and day of the statement).
        await run(sql`
          with s as (
            insert into ad_stats_daily (ad_id, day, ad_account_id, campaign_id, adset_id, owner_user_id, platform, drama_id, product_id, material_id, country, currency, ${sql.join(FILLED.map((c) => sql.ref(c)))})
            select x.ad_id, x.day, x.ad_account_id, x.campaign_id, x.adset_id, x.owner_user_id, x.platform, null, null, null, 'US', 'USD',
                   x.spend, x.spend, x.imp, x.clicks, x.clicks * 8 / 10, x.clicks * 6 / 10, x.purchases, x.purchases * 1999, x.purchases * 1999, x.clicks / 10, x.clicks / 20
            from (
              select a.id as ad_id, d.day, a.ad_account_id, a.campaign_id, a.adset_id, a.owner_user_id, c.platform, sp.spend,
                     sp.spend * (60 + ${spread(sql`a.id * 7 + ${n}`, 80)}) / 100 as imp,
                     sp.spend * (60 + ${spread(sql`a.id * 7 + ${n}`, 80)}) / 100 * (5 + ${spread(sql`a.id * 13 + ${n}`, 25)}) / 1000 as clicks,
                     sp.spend / (1500 + ${spread(sql`a.id * 17 + ${n}`, 3000)}) as purchases
              from (select day::date as day from generate_series(${first}::date, ${last}::date, interval '1 day') day) d
              cross join ads a join ad_campaigns c on c.id = a.campaign_id
              cross join lateral (select ${spread(sql`a.id::bigint * 65536 + ${n}`, 20000)} as spend) sp
            ) x
            order by x.day, x.ad_id
            returning *
          )
          insert into campaign_stats_daily (campaign_id, day, ad_account_id, owner_user_id, platform, drama_id, product_id, currency, ${cols})
          select s.campaign_id, s.day, min(s.ad_account_id), c.owner_user_id, c.platform, c.drama_id, c.product_id, min(s.currency), ${sums}
          from s join ad_campaigns c on c.id = s.campaign_id
          group by s.day, s.campaign_id, c.owner_user_id, c.platform, c.drama_id, c.product_id
          order by s.day, s.campaign_id`);
        const done = Math.round((Date.parse(last) - Date.parse(layout.firstDay)) / 86_400_000) + 1;
        if (done === layout.days || done % (daysPerStatement * 5) === 0) log(`    ad_stats_daily and campaign_stats_daily: ${done}/${layout.days} days (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    },
    log,
  );
}

/** Statistics and the visibility map, as autovacuum would leave them. */
export async function analyze(db: Db, tables: string[]): Promise<void> {
  for (const t of tables) await sql`vacuum analyze ${sql.table(t)}`.execute(db);
}

/** Rows per table (estimates are not enough: the printout says what was measured). */
export async function countOf(db: Db, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::bigint as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]!.n);
}
