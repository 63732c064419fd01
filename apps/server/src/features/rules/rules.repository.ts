import { COHORT_DAYS, FACT_COLUMNS, lastMaturedDay, type FactColumn, type FactSums, type RuleFilters, type RuleLevel, type RuleScope } from '@ads/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { RuleEvaluationStatus, RuleTrigger } from '../../db/schema.ts';
import { departmentSubtree } from '../../lib/scope.ts';
import { escapeLike } from '../../lib/sql.ts';

// SQL of the hosting rules (issue 10): rules, the objects a rule watches and their figures over
// windows (one query per window over ad_stats_daily + ad_order_daily, or ad_insights_hourly),
// cooldowns, stop-loss records, evaluations and firings, and the history lists.

const TABLE = { campaign: 'ad_campaigns', adset: 'ad_sets', ad: 'ads' } as const;
const FACT_KEY = { campaign: 'campaign_id', adset: 'adset_id', ad: 'ad_id' } as const;
const ADS_KEY = { campaign: 'campaign_id', adset: 'adset_id', ad: 'id' } as const;

/** A list of integer ids as one array parameter (a list of 100,000 ads stays one parameter). */
const idArray = (ids: readonly number[]) => sql`${sql.val(`{${ids.join(',')}}`)}::int[]`;

// ---------------------------------------------------------------------------------------------
// Rules

export async function insertRule(db: Db, values: Parameters<ReturnType<Db['insertInto']>['values']>[0] & object) {
  const row = await db.insertInto('hosting_rules').values(values as never).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findRule(db: Db, id: number) {
  return db.selectFrom('hosting_rules').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}
export type RuleRow = NonNullable<Awaited<ReturnType<typeof findRule>>>;

export interface RuleListFilters {
  ownerIds: number[] | null;
  keyword?: string;
  status?: 'on' | 'off' | 'failing';
  ownerUserId?: number;
  action?: string;
  ruleIds?: number[];
}

function ruleQuery(db: Db, f: RuleListFilters) {
  let q = db.selectFrom('hosting_rules as r').innerJoin('users as u', 'u.id', 'r.owner_user_id').where('r.deleted_at', 'is', null);
  if (f.ownerIds) q = q.where('r.owner_user_id', 'in', f.ownerIds.length ? f.ownerIds : [0]);
  if (f.keyword) q = q.where('r.name', 'ilike', `%${escapeLike(f.keyword)}%`);
  if (f.status === 'on') q = q.where('r.enabled', '=', true);
  if (f.status === 'off') q = q.where('r.enabled', '=', false).where('r.paused_reason', 'is', null);
  if (f.status === 'failing') q = q.where('r.enabled', '=', false).where('r.paused_reason', 'is not', null);
  if (f.ownerUserId) q = q.where('r.owner_user_id', '=', f.ownerUserId);
  if (f.action) q = q.where('r.action_type', '=', f.action);
  if (f.ruleIds) q = q.where('r.id', 'in', f.ruleIds.length ? f.ruleIds : [0]);
  return q;
}

export async function listRules(db: Db, f: RuleListFilters, limit: number, offset: number) {
  const rows = await ruleQuery(db, f)
    .selectAll('r')
    .select(['u.name as owner_name'])
    .select((eb) =>
      eb
        .selectFrom('rule_evaluations as e')
        .select(sql<unknown>`json_build_object('status', e.status, 'checked', e.objects_checked, 'acted', e.acted + e.revived, 'failed', e.failed)`.as('x'))
        .whereRef('e.rule_id', '=', 'r.id')
        .where('e.trigger', '!=', 'revive')
        .orderBy('e.id', 'desc')
        .limit(1)
        .as('last_result'),
    )
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows;
}
export type RuleListRow = Awaited<ReturnType<typeof listRules>>[number];

export async function countRules(db: Db, f: RuleListFilters) {
  const row = await ruleQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function enabledRules(db: Db) {
  return db.selectFrom('hosting_rules').selectAll().where('enabled', '=', true).where('deleted_at', 'is', null).orderBy('id').execute();
}

/** Rules that send to a channel (the channel list shows the count). */
export async function rulesPerChannel(db: Db): Promise<Map<number, number>> {
  const rows = await sql<{ channel_id: number; n: number }>`
    select (c.value)::int as channel_id, count(*)::int as n
    from hosting_rules r, jsonb_array_elements_text(r.notify->'channel_ids') c
    where r.deleted_at is null group by 1`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.channel_id), Number(r.n)]));
}

// ---------------------------------------------------------------------------------------------
// The owner and the accounts a rule covers

/** The owner as scope decisions read them, with their roles' paths. */
export async function loadOwner(db: Db, userId: number) {
  const user = await db.selectFrom('users').select(['id', 'name', 'account', 'is_admin', 'is_leader', 'department_id', 'status', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
  if (!user) return undefined;
  const roles = await db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id').select(['r.paths']).where('ur.user_id', '=', userId).execute();
  return { ...user, role_paths: roles.flatMap((r) => r.paths) };
}

export interface AccountRef {
  id: number;
  name: string;
  platform_id: string;
  currency: string;
  timezone_name: string;
  platform: 'dj' | 'ec' | null;
}

/** Hosted ad accounts within `visible` (null: all) matching a rule's scope. */
export async function hostedAccounts(db: Db, visible: number[] | null, scope: RuleScope): Promise<AccountRef[]> {
  let q = db.selectFrom('ad_accounts as a').select(['a.id', 'a.name', 'a.platform_id', 'a.currency', 'a.timezone_name', 'a.platform']).where('a.hosted', '=', true);
  if (visible) q = q.where('a.id', 'in', visible.length ? visible : [0]);
  if (scope.type === 'platform' && scope.platform) q = q.where('a.platform', '=', scope.platform);
  if (scope.type === 'accounts') q = q.where('a.id', 'in', scope.ad_account_ids?.length ? scope.ad_account_ids : [0]);
  let users: number[] | null = null;
  if (scope.type === 'users') users = scope.user_ids ?? [];
  if (scope.type === 'departments') {
    const departments = new Set<number>();
    for (const d of scope.department_ids ?? []) for (const id of await departmentSubtree(db, d)) departments.add(id);
    const members = departments.size ? await db.selectFrom('users').select('id').where('department_id', 'in', [...departments]).where('deleted_at', 'is', null).execute() : [];
    users = members.map((m) => m.id);
  }
  if (users) {
    const list = users.length ? users : [0];
    q = q.where(({ exists, selectFrom }) => exists(selectFrom('user_ad_accounts as ua').select('ua.ad_account_id').whereRef('ua.ad_account_id', '=', 'a.id').where('ua.user_id', 'in', list)));
  }
  return q.orderBy('a.id').execute();
}

/**
 * A rule's final operation-log rows of these objects since an instant (what a grouped act that
 * failed as a whole did before it failed): by object, the newest.
 */
export async function finishedOps(db: Db, ruleId: number, level: RuleLevel, objectIds: readonly number[], since: Date): Promise<Map<number, { id: number; result: 'ok' | 'failed'; error: { zh: string; en: string } | null }>> {
  if (!objectIds.length) return new Map();
  const rows = await db
    .selectFrom('ad_operations')
    .select(['id', 'object_id', 'result', 'error', 'error_en'])
    .where('rule_id', '=', ruleId)
    .where('actor_type', '=', 'rule')
    .where('level', '=', level)
    .where('object_id', 'in', [...objectIds])
    .where('created_at', '>=', since)
    .where('result', '!=', 'pending')
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.object_id!, { id: r.id, result: r.result as 'ok' | 'failed', error: r.error ? { zh: r.error, en: r.error_en ?? r.error } : null }]));
}

/** Whether each account is still hosted (checked again right before acting). */
export async function stillHosted(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('ad_accounts').select('id').where('id', 'in', [...ids]).where('hosted', '=', true).execute();
  return new Set(rows.map((r) => r.id));
}

export async function syncStates(db: Db, accountIds: readonly number[]) {
  if (!accountIds.length) return [];
  return db.selectFrom('ad_account_sync_state').select(['ad_account_id', 'insights_synced_at']).where('ad_account_id', 'in', [...accountIds]).execute();
}

// ---------------------------------------------------------------------------------------------
// Objects and their figures

export interface RuleObject {
  id: number;
  platform_id: string;
  name: string;
  ad_account_id: number;
  status: string;
  effective_status: string;
  created_time: Date | null;
  created_at: Date;
  updated_time: Date | null;
  currency: string;
  daily_budget_minor: number | null;
  lifetime_budget_minor: number | null;
  /** Who holds the budget this object spends: itself, its campaign or its ad set. */
  holder_level: 'campaign' | 'adset';
  holder_id: number;
  holder_daily_minor: number | null;
  /** The object holds its own budget. */
  own_budget: boolean;
}

/** Which objects a rule looks at: delivering ones, or (switch on) paused ones, optionally only those a rule paused. */
export type CandidateMode = 'active' | 'paused' | 'paused_by_rule';

export async function candidates(db: Db, level: RuleLevel, accountIds: readonly number[], filters: RuleFilters, mode: CandidateMode, onlyIds?: readonly number[]): Promise<RuleObject[]> {
  if (!accountIds.length) return [];
  const accounts = idArray(accountIds);
  const where: RawBuilder<unknown>[] = [sql`x.ad_account_id = any(${accounts})`, sql`x.deleted_at is null`];
  if (onlyIds) where.push(sql`x.id = any(${idArray(onlyIds)})`);
  if (mode === 'active') where.push(sql`x.effective_status = 'ACTIVE'`);
  else where.push(sql`x.status = 'PAUSED'`);
  if (mode === 'paused_by_rule') {
    // The last switch of the object (on or off) that took effect was a rule's pause.
    where.push(sql`(select o.actor_type = 'rule' and o.action = 'pause' from ad_operations o
      where o.level = ${level} and o.object_platform_id = x.platform_id and o.result = 'ok' and o.action in ('pause', 'activate')
      order by o.id desc limit 1)`);
  }
  if (filters.name_contains.length) where.push(sql`(${sql.join(filters.name_contains.map((n) => sql`x.name ilike ${`%${escapeLike(n)}%`}`), sql` or `)})`);
  for (const n of filters.name_excludes) where.push(sql`x.name not ilike ${`%${escapeLike(n)}%`}`);
  if (filters.drama_ids.length) where.push(sql`x.drama_id = any(${idArray(filters.drama_ids)})`);
  if (filters.product_ids.length) where.push(sql`x.product_id = any(${idArray(filters.product_ids)})`);
  const cond = sql.join(where, sql` and `);
  let rows;
  if (level === 'campaign') {
    rows = await sql<RuleObject>`
      select x.id, x.platform_id, x.name, x.ad_account_id, x.status, x.effective_status, x.created_time, x.created_at, x.updated_time, x.currency,
        x.daily_budget_minor, x.lifetime_budget_minor, 'campaign' as holder_level, x.id as holder_id, x.daily_budget_minor as holder_daily_minor,
        (x.budget_level = 'campaign') as own_budget
      from ad_campaigns x where ${cond} order by x.id`.execute(db);
  } else if (level === 'adset') {
    rows = await sql<RuleObject>`
      select x.id, x.platform_id, x.name, x.ad_account_id, x.status, x.effective_status, x.created_time, x.created_at, x.updated_time, x.currency,
        x.daily_budget_minor, x.lifetime_budget_minor,
        case when c.budget_level = 'campaign' then 'campaign' else 'adset' end as holder_level,
        case when c.budget_level = 'campaign' then c.id else x.id end as holder_id,
        case when c.budget_level = 'campaign' then c.daily_budget_minor else x.daily_budget_minor end as holder_daily_minor,
        (c.budget_level <> 'campaign') as own_budget
      from ad_sets x join ad_campaigns c on c.id = x.campaign_id where ${cond} order by x.id`.execute(db);
  } else {
    rows = await sql<RuleObject>`
      select x.id, x.platform_id, x.name, x.ad_account_id, x.status, x.effective_status, x.created_time, x.created_at, x.updated_time, acc.currency,
        null::bigint as daily_budget_minor, null::bigint as lifetime_budget_minor,
        case when c.budget_level = 'campaign' then 'campaign' else 'adset' end as holder_level,
        case when c.budget_level = 'campaign' then c.id else s.id end as holder_id,
        case when c.budget_level = 'campaign' then c.daily_budget_minor else s.daily_budget_minor end as holder_daily_minor,
        false as own_budget
      from ads x join ad_sets s on s.id = x.adset_id join ad_campaigns c on c.id = x.campaign_id join ad_accounts acc on acc.id = x.ad_account_id
      where ${cond} order by x.id`.execute(db);
  }
  return rows.rows.map((r) => ({ ...r, holder_id: Number(r.holder_id), own_budget: Boolean(r.own_budget) }));
}

const STORED_ORDER_COLUMNS = ['revenue_usd_cents', 'payers', 'new_payers', ...COHORT_DAYS.map((n) => `cohort_d${n}_usd_cents` as const)] as const;
const INSIGHT_SET = new Set<string>(FACT_COLUMNS);

/**
 * The sums of the fact columns a window needs, per object of `level`, over report days
 * [from, to]: the insights facts of ad_stats_daily and the order facts of ad_order_daily (by ad
 * platform id), added by object — the reports' own arithmetic, so a rule sees what the reports
 * show. Dn cohort figures only count days whose day+N has ended.
 */
export async function windowSums(db: Db, level: RuleLevel, ids: readonly number[], from: string, to: string, today: string, columns: readonly FactColumn[]): Promise<Map<number, FactSums>> {
  const out = new Map<number, FactSums>();
  if (!ids.length || !columns.length) return out;
  const idList = idArray(ids);
  const wantOrders = columns.some((c) => !INSIGHT_SET.has(c));
  const insightCols = FACT_COLUMNS.filter((c) => INSIGHT_SET.has(c));
  const nulls = (cols: readonly string[]) => sql.join(cols.map((c) => sql`null::bigint as ${sql.ref(c)}`));
  const own = (cols: readonly string[]) => sql.join(cols.map((c) => sql`f.${sql.ref(c)}`));
  const key = sql.ref(`f.${FACT_KEY[level]}`);
  const insights = sql`select ${key} as k, f.day, ${own(insightCols)}, ${nulls(STORED_ORDER_COLUMNS)} from ad_stats_daily f where ${key} = any(${idList}) and f.day >= ${from} and f.day <= ${to}`;
  const orders = sql`select o.${sql.ref(ADS_KEY[level])} as k, d.day, ${nulls(insightCols)}, ${sql.join(STORED_ORDER_COLUMNS.map((c) => sql`d.${sql.ref(c)}`))}
    from ad_order_daily d join ads o on o.platform_id = d.ad_platform_id where o.${sql.ref(ADS_KEY[level])} = any(${idList}) and d.day >= ${from} and d.day <= ${to}`;
  const sumOf = (c: FactColumn): RawBuilder<unknown> => {
    const m = /^(cohort_d|matured_spend_d|matured_d0_at_d)(\d+)_usd_cents$/.exec(c);
    if (!m) return sql`sum(u.${sql.ref(c)})::bigint`;
    const matured = lastMaturedDay(Number(m[2]) as never, today);
    if (m[1] === 'cohort_d') return sql`sum(u.${sql.ref(c)}) filter (where u.day <= ${matured})::bigint`;
    if (m[1] === 'matured_spend_d') return sql`sum(u.spend_usd_cents) filter (where u.day <= ${matured})::bigint`;
    return sql`sum(u.cohort_d0_usd_cents) filter (where u.day <= ${matured})::bigint`;
  };
  const needed = new Set<FactColumn>(columns);
  // Matured spend reads spend; a growth multiple reads D0 revenue.
  const selects = [...needed].map((c) => sql`${sumOf(c)} as ${sql.ref(c)}`);
  const source = wantOrders ? sql`(${insights} union all ${orders})` : sql`(${insights})`;
  const rows = await sql<Record<string, number | null> & { k: number }>`select u.k, ${sql.join(selects)} from ${source} u group by u.k`.execute(db);
  for (const r of rows.rows) {
    const sums: FactSums = {};
    for (const c of needed) sums[c] = Number(r[c] ?? 0);
    out.set(Number(r.k), sums);
  }
  return out;
}

export interface WindowAsk {
  key: string;
  from: string;
  to: string;
  columns: readonly FactColumn[];
}

/**
 * `windowSums` of several windows at once, for every object of `level` in the given ad accounts:
 * one pass over the facts of those accounts with a conditional sum per window and column, instead
 * of one aggregation per window over a list of object ids (a 100,000-id array costs ~100 ms of
 * planning a query, and the 7-day and lifetime windows each read the same rows again). The
 * session's work_mem is raised for this one statement so the grouping stays in memory.
 */
export async function multiWindowSums(db: Db, level: RuleLevel, accountIds: readonly number[], windows: readonly WindowAsk[], today: string): Promise<Map<string, Map<number, FactSums>>> {
  const out = new Map<string, Map<number, FactSums>>(windows.map((w) => [w.key, new Map()]));
  const asks = windows.filter((w) => w.columns.length);
  if (!accountIds.length || !asks.length) return out;
  const accounts = idArray(accountIds);
  const from = asks.map((w) => w.from).sort()[0]!;
  const to = asks.map((w) => w.to).sort().at(-1)!;
  const wantOrders = asks.some((w) => w.columns.some((c) => !INSIGHT_SET.has(c)));
  const insightCols = FACT_COLUMNS.filter((c) => INSIGHT_SET.has(c));
  const nulls = (cols: readonly string[]) => sql.join(cols.map((c) => sql`null::bigint as ${sql.ref(c)}`));
  const own = (cols: readonly string[]) => sql.join(cols.map((c) => sql`f.${sql.ref(c)}`));
  const key = sql.ref(`f.${FACT_KEY[level]}`);
  const insights = sql`select ${key} as k, f.day, ${own(insightCols)}, ${nulls(STORED_ORDER_COLUMNS)} from ad_stats_daily f where f.ad_account_id = any(${accounts}) and f.day >= ${from} and f.day <= ${to}`;
  const orders = sql`select o.${sql.ref(ADS_KEY[level])} as k, d.day, ${nulls(insightCols)}, ${sql.join(STORED_ORDER_COLUMNS.map((c) => sql`d.${sql.ref(c)}`))}
    from ad_order_daily d join ads o on o.platform_id = d.ad_platform_id where o.ad_account_id = any(${accounts}) and d.day >= ${from} and d.day <= ${to}`;
  const selects: RawBuilder<unknown>[] = [];
  const aliases: { window: string; column: FactColumn; alias: string }[] = [];
  asks.forEach((w, i) => {
    for (const c of new Set(w.columns)) {
      const alias = `w${i}_${c}`;
      aliases.push({ window: w.key, column: c, alias });
      const inWindow = sql`u.day >= ${w.from} and u.day <= ${w.to}`;
      const m = /^(cohort_d|matured_spend_d|matured_d0_at_d)(\d+)_usd_cents$/.exec(c);
      let expr: RawBuilder<unknown>;
      if (!m) expr = sql`sum(u.${sql.ref(c)}) filter (where ${inWindow})::bigint`;
      else {
        // Dn cohort figures only count days whose day+N has ended (as in windowSums).
        const matured = lastMaturedDay(Number(m[2]) as never, today);
        const source = m[1] === 'cohort_d' ? c : m[1] === 'matured_spend_d' ? 'spend_usd_cents' : 'cohort_d0_usd_cents';
        expr = sql`sum(u.${sql.ref(source)}) filter (where ${inWindow} and u.day <= ${matured})::bigint`;
      }
      selects.push(sql`${expr} as ${sql.ref(alias)}`);
    }
  });
  const source = wantOrders ? sql`(${insights} union all ${orders})` : sql`(${insights})`;
  const rows = await db.transaction().execute(async (trx) => {
    await sql`set local work_mem = '64MB'`.execute(trx);
    return (await sql<Record<string, number | null> & { k: number }>`select u.k, ${sql.join(selects)} from ${source} u group by u.k`.execute(trx)).rows;
  });
  for (const r of rows) {
    const k = Number(r.k);
    for (const a of aliases) {
      const byObject = out.get(a.window)!;
      let sums = byObject.get(k);
      if (!sums) byObject.set(k, (sums = {}));
      sums[a.column] = Number(r[a.alias] ?? 0);
    }
  }
  return out;
}

/** `hourSums` for every object of `level` in the given ad accounts (no list of object ids). */
export async function hourSumsByAccounts(db: Db, level: RuleLevel, accountIds: readonly number[], since: Date) {
  if (!accountIds.length) return [];
  const rows = await sql<{ k: number; currency: string; spend_minor: number; impressions: number; clicks: number }>`
    select a.${sql.ref(ADS_KEY[level])} as k, acc.currency, sum(h.spend_minor)::bigint as spend_minor, sum(h.impressions)::bigint as impressions, sum(h.clicks)::bigint as clicks
    from ad_insights_hourly h join ads a on a.id = h.ad_id join ad_accounts acc on acc.id = a.ad_account_id
    where a.ad_account_id = any(${idArray(accountIds)}) and h.hour >= ${since}
    group by 1, 2`.execute(db);
  return rows.rows.map((r) => ({ k: Number(r.k), currency: r.currency, spend_minor: Number(r.spend_minor), impressions: Number(r.impressions), clicks: Number(r.clicks) }));
}

/** Spend (minor units of the account currency), impressions and clicks per object since an hour, from the hourly facts. */
export async function hourSums(db: Db, level: RuleLevel, ids: readonly number[], since: Date) {
  if (!ids.length) return [];
  const rows = await sql<{ k: number; currency: string; spend_minor: number; impressions: number; clicks: number }>`
    select a.${sql.ref(ADS_KEY[level])} as k, acc.currency, sum(h.spend_minor)::bigint as spend_minor, sum(h.impressions)::bigint as impressions, sum(h.clicks)::bigint as clicks
    from ad_insights_hourly h join ads a on a.id = h.ad_id join ad_accounts acc on acc.id = a.ad_account_id
    where a.${sql.ref(ADS_KEY[level])} = any(${idArray(ids)}) and h.hour >= ${since}
    group by 1, 2`.execute(db);
  return rows.rows.map((r) => ({ k: Number(r.k), currency: r.currency, spend_minor: Number(r.spend_minor), impressions: Number(r.impressions), clicks: Number(r.clicks) }));
}

/** Spend (minor units) of the ads under each budget holder in the given ad accounts since an instant (the start of the account's day). */
export async function holderSpendSince(db: Db, holderLevel: 'campaign' | 'adset', accountIds: readonly number[], since: Date): Promise<Map<number, number>> {
  if (!accountIds.length) return new Map();
  const col = holderLevel === 'campaign' ? 'campaign_id' : 'adset_id';
  const rows = await sql<{ k: number; spend: number }>`
    select a.${sql.ref(col)} as k, sum(h.spend_minor)::bigint as spend from ad_insights_hourly h join ads a on a.id = h.ad_id
    where a.ad_account_id = any(${idArray(accountIds)}) and h.hour >= ${since} group by 1`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.k), Number(r.spend)]));
}

/** Objects this rule acted on (or notified about) since an instant: their cooldown still runs. */
export async function recentlyActed(db: Db, ruleId: number, level: RuleLevel, ids: readonly number[], since: Date): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('rule_firings')
    .select('object_id')
    .distinct()
    .where('rule_id', '=', ruleId)
    .where('level', '=', level)
    .where('object_id', '=', sql<number>`any(${idArray(ids)})`)
    .where('outcome', 'in', ['acted', 'notified', 'revived'])
    .where('created_at', '>', since)
    .execute();
  return new Set(rows.map((r) => r.object_id));
}

/** Objects this rule's stop-loss paused on a report day (once a day per object). */
export async function stoppedOn(db: Db, ruleId: number, level: RuleLevel, ids: readonly number[], day: string): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('rule_stops').select('object_id').where('rule_id', '=', ruleId).where('level', '=', level).where('report_day', '=', day).where('object_id', '=', sql<number>`any(${idArray(ids)})`).execute();
  return new Set(rows.map((r) => r.object_id));
}

/** Ok budget changes per ad set (platform id) since an instant, from the operation log (the platform allows 4 an hour). */
export async function budgetChangesSince(db: Db, adsetPlatformIds: readonly string[], since: Date): Promise<Map<string, number>> {
  if (!adsetPlatformIds.length) return new Map();
  const rows = await db
    .selectFrom('ad_operations')
    .select(['object_platform_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('level', '=', 'adset')
    .where('action', '=', 'budget')
    .where('result', '=', 'ok')
    .where('object_platform_id', 'in', [...adsetPlatformIds])
    .where('finished_at', '>', since)
    .groupBy('object_platform_id')
    .execute();
  return new Map(rows.map((r) => [r.object_platform_id, Number(r.n)]));
}

/** The last switch (on, off, delete) of an object that took effect, to tell whether someone touched it after a stop-loss. */
export function lastSwitch(db: Db, level: RuleLevel, platformId: string) {
  return db
    .selectFrom('ad_operations')
    .select(['id', 'actor_type', 'rule_id', 'action'])
    .where('level', '=', level)
    .where('object_platform_id', '=', platformId)
    .where('result', '=', 'ok')
    .where('action', 'in', ['pause', 'activate', 'delete'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function objectState(db: Db, level: RuleLevel, id: number) {
  return db.selectFrom(TABLE[level]).select(['id', 'platform_id', 'name', 'status', 'effective_status', 'deleted_at', 'ad_account_id']).where('id', '=', id).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Evaluations, firings, stops

/**
 * Claims the evaluation of (rule, trigger, slot): a new row, or the row a run left `running`
 * (a crash; the job never runs twice at once). A finished row means the tick was done: null.
 */
export async function claimEvaluation(db: Db, v: { rule_id: number; trigger: RuleTrigger; tick_at: Date; started_at: Date }): Promise<{ id: number; resumed: boolean } | null> {
  const inserted = await db
    .insertInto('rule_evaluations')
    .values(v)
    .onConflict((oc) => oc.columns(['rule_id', 'trigger', 'tick_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, resumed: false };
  const existing = await db.selectFrom('rule_evaluations').select(['id', 'status']).where('rule_id', '=', v.rule_id).where('trigger', '=', v.trigger).where('tick_at', '=', v.tick_at).executeTakeFirstOrThrow();
  return existing.status === 'running' ? { id: existing.id, resumed: true } : null;
}

export interface EvaluationCounts {
  status: RuleEvaluationStatus;
  accounts: number;
  objects_checked: number;
  matched: number;
  acted: number;
  failed: number;
  skipped: number;
  revived: number;
  error?: { zh: string; en: string } | null;
  data_as_of: Date | null;
}

export async function finishEvaluation(db: Db, id: number, c: EvaluationCounts, at: Date) {
  await db
    .updateTable('rule_evaluations')
    .set({ status: c.status, accounts: c.accounts, objects_checked: c.objects_checked, matched: c.matched, acted: c.acted, failed: c.failed, skipped: c.skipped, revived: c.revived, error: c.error?.zh ?? null, error_en: c.error?.en ?? null, data_as_of: c.data_as_of, finished_at: at })
    .where('id', '=', id)
    .execute();
}

/** Objects an evaluation has a firing for already (a resumed run skips them). */
export async function firedObjects(db: Db, evaluationId: number): Promise<Set<string>> {
  const rows = await db.selectFrom('rule_firings').select(['level', 'object_id']).where('evaluation_id', '=', evaluationId).execute();
  return new Set(rows.map((r) => `${r.level}:${r.object_id}`));
}

export interface FiringValues {
  evaluation_id: number;
  rule_id: number;
  level: RuleLevel;
  object_id: number;
  object_platform_id: string;
  object_name: string;
  ad_account_id: number;
  action: string;
  outcome: string;
  values: unknown;
  before: unknown;
  after: unknown;
  error?: { zh: string; en: string } | null;
  operation_id?: number | null;
  created_at: Date;
}

const firingRow = (f: FiringValues) => ({
  ...f,
  values: JSON.stringify(f.values),
  before: JSON.stringify(f.before),
  after: JSON.stringify(f.after),
  error: f.error?.zh ?? null,
  error_en: f.error?.en ?? null,
  operation_id: f.operation_id ?? null,
});

/** Writes a firing unless the evaluation has one for the object; answers its id, or null. */
export async function insertFiring(db: Db, f: FiringValues): Promise<number | null> {
  const row = await db
    .insertInto('rule_firings')
    .values(firingRow(f))
    .onConflict((oc) => oc.columns(['evaluation_id', 'level', 'object_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertFirings(db: Db, list: FiringValues[]) {
  for (let i = 0; i < list.length; i += 500) {
    await db
      .insertInto('rule_firings')
      .values(list.slice(i, i + 500).map(firingRow))
      .onConflict((oc) => oc.columns(['evaluation_id', 'level', 'object_id']).doNothing())
      .execute();
  }
}

/**
 * Writes the firings of many objects in one statement unless the evaluation has them already;
 * answers the new ids by `level:object_id` (written before the acts, so a resumed run skips them).
 */
export async function insertFiringsReturning(db: Db, list: FiringValues[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < list.length; i += 500) {
    const rows = await db
      .insertInto('rule_firings')
      .values(list.slice(i, i + 500).map(firingRow))
      .onConflict((oc) => oc.columns(['evaluation_id', 'level', 'object_id']).doNothing())
      .returning(['id', 'level', 'object_id'])
      .execute();
    for (const r of rows) out.set(`${r.level}:${r.object_id}`, r.id);
  }
  return out;
}

export type StopValues = Parameters<typeof insertStop>[1];

/** The outcomes of one account's acts and the stop-loss records they leave, in one transaction. */
export async function completeFirings(db: Db, done: { id: number; outcome: string; error: { zh: string; en: string } | null; operation_id: number | null }[], stops: StopValues[]) {
  if (!done.length && !stops.length) return;
  // One statement for all outcomes and one for all stops (per row, 500 acts were 1,000 round trips).
  await db.transaction().execute(async (trx) => {
    if (done.length) {
      const rows = sql.join(done.map((d) => sql`(${d.id}::bigint, ${d.outcome}::text, ${d.error?.zh ?? null}::text, ${d.error?.en ?? null}::text, ${d.operation_id}::bigint)`));
      await sql`update rule_firings f set outcome = v.outcome, error = v.error, error_en = v.error_en, operation_id = v.operation_id
        from (values ${rows}) as v(id, outcome, error, error_en, operation_id) where f.id = v.id`.execute(trx);
    }
    if (stops.length) {
      await trx
        .insertInto('rule_stops')
        .values(stops)
        .onConflict((oc) => oc.columns(['rule_id', 'level', 'object_id', 'report_day']).doNothing())
        .execute();
    }
  });
}

export async function completeFiring(db: Db, id: number, v: { outcome: string; after?: unknown; error?: { zh: string; en: string } | null; operation_id?: number | null }) {
  await db
    .updateTable('rule_firings')
    .set({ outcome: v.outcome, ...(v.after !== undefined && { after: JSON.stringify(v.after) }), error: v.error?.zh ?? null, error_en: v.error?.en ?? null, operation_id: v.operation_id ?? null })
    .where('id', '=', id)
    .execute();
}

export async function insertStop(db: Db, v: { rule_id: number; level: RuleLevel; object_id: number; ad_account_id: number; firing_id: number | null; operation_id: number | null; report_day: string; paused_at: Date; revive_at: Date | null }) {
  await db
    .insertInto('rule_stops')
    .values(v)
    .onConflict((oc) => oc.columns(['rule_id', 'level', 'object_id', 'report_day']).doNothing())
    .execute();
}

/** Stop-loss pauses whose revive time has come, of rules that still exist. */
export function dueStops(db: Db, now: Date) {
  return db
    .selectFrom('rule_stops as s')
    .innerJoin('hosting_rules as r', 'r.id', 's.rule_id')
    .selectAll('s')
    .where('s.status', '=', 'paused')
    .where('s.revive_at', '<=', now)
    .where('r.deleted_at', 'is', null)
    .orderBy('s.rule_id')
    .orderBy('s.id')
    .execute();
}
export type StopRow = Awaited<ReturnType<typeof dueStops>>[number];

export async function settleStop(db: Db, id: number, status: 'revived' | 'kept_off' | 'cancelled', at: Date) {
  await db.updateTable('rule_stops').set({ status, settled_at: at }).where('id', '=', id).where('status', '=', 'paused').execute();
}

export async function markRuleEvaluated(db: Db, id: number, v: { last_slot_at?: Date; last_evaluated_at: Date }) {
  await db.updateTable('hosting_rules').set(v).where('id', '=', id).execute();
}

/** Counts a failed evaluation; answers the new count. */
export async function addFailure(db: Db, id: number): Promise<number> {
  const row = await db.updateTable('hosting_rules').set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) })).where('id', '=', id).returning('consecutive_failures').executeTakeFirst();
  return row?.consecutive_failures ?? 0;
}

export async function clearFailures(db: Db, id: number) {
  await db.updateTable('hosting_rules').set({ consecutive_failures: 0 }).where('id', '=', id).where('consecutive_failures', '>', 0).execute();
}

export async function switchOffFailing(db: Db, id: number, reason: { zh: string; en: string }, at: Date) {
  await db.updateTable('hosting_rules').set({ enabled: false, paused_reason: reason.zh, paused_reason_en: reason.en, updated_at: at }).where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------
// History

const instant = (v: string, end: boolean) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(Date.parse(`${v}T00:00:00Z`) + (end ? 86_400_000 : 0)) : new Date(v));

export interface EvaluationFilters {
  ownerIds: number[] | null;
  ruleId?: number;
  status?: RuleEvaluationStatus;
  trigger?: RuleTrigger;
  withFirings?: boolean;
  timeFrom?: string;
  timeTo?: string;
}

function evaluationQuery(db: Db, f: EvaluationFilters) {
  let q = db.selectFrom('rule_evaluations as e').innerJoin('hosting_rules as r', 'r.id', 'e.rule_id');
  if (f.ownerIds) q = q.where('r.owner_user_id', 'in', f.ownerIds.length ? f.ownerIds : [0]);
  if (f.ruleId) q = q.where('e.rule_id', '=', f.ruleId);
  if (f.status) q = q.where('e.status', '=', f.status);
  if (f.trigger) q = q.where('e.trigger', '=', f.trigger);
  if (f.withFirings) q = q.where((eb) => eb.or([eb('e.acted', '>', 0), eb('e.failed', '>', 0), eb('e.revived', '>', 0)]));
  if (f.timeFrom) q = q.where('e.started_at', '>=', instant(f.timeFrom, false));
  if (f.timeTo) q = q.where('e.started_at', '<', instant(f.timeTo, true));
  return q;
}

export async function listEvaluations(db: Db, f: EvaluationFilters, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    evaluationQuery(db, f).selectAll('e').select('r.name as rule_name').orderBy('e.started_at', 'desc').orderBy('e.id', 'desc').limit(limit).offset(offset).execute(),
    evaluationQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export interface FiringFilters {
  ownerIds: number[] | null;
  ruleId?: number;
  evaluationId?: number;
  outcome?: string;
  level?: RuleLevel;
  adAccountId?: number;
  keyword?: string;
  timeFrom?: string;
  timeTo?: string;
}

function firingQuery(db: Db, f: FiringFilters) {
  let q = db.selectFrom('rule_firings as f').innerJoin('hosting_rules as r', 'r.id', 'f.rule_id').innerJoin('ad_accounts as a', 'a.id', 'f.ad_account_id');
  if (f.ownerIds) q = q.where('r.owner_user_id', 'in', f.ownerIds.length ? f.ownerIds : [0]);
  if (f.ruleId) q = q.where('f.rule_id', '=', f.ruleId);
  if (f.evaluationId) q = q.where('f.evaluation_id', '=', f.evaluationId);
  if (f.outcome) q = q.where('f.outcome', '=', f.outcome);
  if (f.level) q = q.where('f.level', '=', f.level);
  if (f.adAccountId) q = q.where('f.ad_account_id', '=', f.adAccountId);
  if (f.keyword) {
    const like = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb) => eb.or([eb('f.object_name', 'ilike', like), eb('f.object_platform_id', '=', f.keyword!)]));
  }
  if (f.timeFrom) q = q.where('f.created_at', '>=', instant(f.timeFrom, false));
  if (f.timeTo) q = q.where('f.created_at', '<', instant(f.timeTo, true));
  return q;
}

export async function listFirings(db: Db, f: FiringFilters, limit: number, offset: number, withTotal = true) {
  const rows = await firingQuery(db, f)
    .selectAll('f')
    .select(['r.name as rule_name', 'a.name as account_name', 'a.platform_id as account_platform_id', 'a.timezone_name as account_timezone'])
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = withTotal ? Number((await firingQuery(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n) : 0;
  return { rows, total };
}
export type FiringListRow = Awaited<ReturnType<typeof listFirings>>['rows'][number];
