import { both, derivePaths, PUBLISH_PATH_OF, type Bilingual, type Platform } from '@ads/contracts';
import type { CreateStartBody, ListStartCampaignsBody, ListStartSchemesBody, ListStartTasksBody, StartCampaign, StartJobData, StartResult, StartScheme, StartTask, StartWhen } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { forAssets, seesEverything, visibleAdAccountIds, visibleUserIds } from '../../lib/scope.ts';
import type { Jobs } from '../../jobs/types.ts';
import { scopedIds } from '../ad-data/ad-ops.service.ts';
import { START_JOB } from '../publish/publish.service.ts';
import { escapeLike } from '../../lib/sql.ts';

// Start management (启动管理): start tasks are runs of the wizard's `publish-start` job (job_runs),
// their data saying what to switch and how; their per-object results are the operation log's rows
// of the run (actor kind start_task). Scope: campaigns whose account or owner is in the caller's
// scope, schemes of people in it; tasks of people in it.

export interface StartServiceDeps {
  db: Db;
  clock: Clock;
  jobs: Jobs;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A wall time `YYYY-MM-DDTHH:mm` in `zone` as an instant (the later one when a DST change repeats it). */
export function wallToInstant(local: string, zone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) throw new AppError('VALIDATION', { detail: 'wall_time' }, 'on.local');
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  const offset = (ms: number) => {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
  };
  let t = wall - offset(wall);
  t = wall - offset(t);
  return new Date(t);
}

/** One task to queue: the objects of one zone group. */
interface Group {
  zone: string | null;
  campaignIds: number[];
  schemeIds: number[];
  accountIds: number[] | null;
}

export function createStartService({ db, clock, jobs }: StartServiceDeps) {
  async function assertSchemes(actor: RequestContext['actor'], ids: number[]) {
    if (!ids.length) return [];
    let q = db.selectFrom('publish_schemes').select(['id', 'name', 'status']).where('id', 'in', ids);
    const users = await visibleUserIds(db, actor);
    if (users) q = q.where('created_by', 'in', users.length ? users : [0]);
    const rows = await q.execute();
    if (rows.length !== new Set(ids).size) throw new AppError('SCHEME_NOT_FOUND', {}, 'scheme_ids');
    return rows;
  }

  /**
   * Splits the targets into one group per zone: with `market`, each ad account's own zone (a
   * scheme's accounts are those of its campaign items, whether created yet or not).
   */
  async function groups(campaignIds: number[], schemeIds: number[], when: { zone: string } | null): Promise<Group[]> {
    if (!when || when.zone !== 'market') return [{ zone: when?.zone ?? null, campaignIds, schemeIds, accountIds: null }];
    const byZone = new Map<string, Group>();
    const group = (zone: string) => {
      let g = byZone.get(zone);
      if (!g) byZone.set(zone, (g = { zone, campaignIds: [], schemeIds: [], accountIds: [] }));
      return g;
    };
    if (campaignIds.length) {
      const rows = await db.selectFrom('ad_campaigns as c').innerJoin('ad_accounts as a', 'a.id', 'c.ad_account_id').select(['c.id', 'a.timezone_name']).where('c.id', 'in', campaignIds).execute();
      for (const r of rows) group(r.timezone_name).campaignIds.push(r.id);
    }
    if (schemeIds.length) {
      const rows = await db
        .selectFrom('publish_scheme_items as i')
        .innerJoin('ad_accounts as a', 'a.id', 'i.ad_account_id')
        .select(['i.scheme_id', 'i.ad_account_id', 'a.timezone_name'])
        .where('i.scheme_id', 'in', schemeIds)
        .where('i.level', '=', 'campaign')
        .groupBy(['i.scheme_id', 'i.ad_account_id', 'a.timezone_name'])
        .execute();
      for (const r of rows) {
        const g = group(r.timezone_name);
        if (!g.schemeIds.includes(r.scheme_id)) g.schemeIds.push(r.scheme_id);
        if (!g.accountIds!.includes(r.ad_account_id)) g.accountIds!.push(r.ad_account_id);
      }
    }
    // Campaign tasks need no account filter; a zone group with schemes only runs its accounts.
    return [...byZone.values()].map((g) => (g.schemeIds.length ? g : { ...g, accountIds: null }));
  }

  const startAtOf = (when: StartWhen | { mode: 'at'; local: string; zone: string }, zone: string | null): Date | undefined =>
    when.mode === 'now' ? undefined : wallToInstant(when.local, zone ?? when.zone);

  return {
    async campaigns(ctx: RequestContext, body: ListStartCampaignsBody): Promise<{ list: StartCampaign[]; total: number }> {
      const actor = await forAssets(db, ctx.actor);
      let q = db
        .selectFrom('ad_campaigns as c')
        .innerJoin('ad_accounts as a', 'a.id', 'c.ad_account_id')
        .leftJoin('publish_schemes as s', 's.id', 'c.scheme_id')
        .where('c.deleted_at', 'is', null)
        .where('c.status', 'in', ['ACTIVE', 'PAUSED']);
      if (!seesEverything(actor)) {
        const accounts = await visibleAdAccountIds(db, actor);
        const users = await visibleUserIds(db, actor);
        q = q.where((eb) => eb.or([eb('c.ad_account_id', 'in', accounts?.length ? accounts : [0]), eb('c.owner_user_id', 'in', users?.length ? users : [0])]));
      }
      if (body.keyword) {
        const like = `%${escapeLike(body.keyword)}%`;
        q = q.where((eb) => eb.or([eb('c.name', 'ilike', like), eb('c.platform_id', '=', body.keyword!)]));
      }
      if (body.ad_account_id) q = q.where('c.ad_account_id', '=', body.ad_account_id);
      if (body.status) q = q.where('c.status', '=', body.status);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['c.id', 'c.name', 'c.platform_id', 'c.status', 'c.effective_status', 'a.id as account_id', 'a.name as account_name', 'a.timezone_name', 's.id as scheme_id', 's.name as scheme_name'])
        .orderBy('c.id', 'desc')
        .limit(body.page_size)
        .offset((body.page - 1) * body.page_size)
        .execute();
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          name: r.name,
          platform_id: r.platform_id,
          status: r.status,
          effective_status: r.effective_status,
          ad_account: { id: r.account_id, name: r.account_name, timezone_name: r.timezone_name },
          scheme: r.scheme_id ? { id: r.scheme_id, name: r.scheme_name ?? '' } : null,
        })),
      };
    },

    async schemes(ctx: RequestContext, body: ListStartSchemesBody): Promise<{ list: StartScheme[]; total: number }> {
      let q = db.selectFrom('publish_schemes as s').innerJoin('users as u', 'u.id', 's.created_by');
      const users = await visibleUserIds(db, ctx.actor);
      if (users) q = q.where('s.created_by', 'in', users.length ? users : [0]);
      if (body.keyword) q = q.where('s.name', 'ilike', `%${escapeLike(body.keyword)}%`);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['s.id', 's.name', 's.status', 's.created_at', 'u.id as user_id', 'u.name as user_name'])
        .select(sql<number>`(select count(*) from ad_campaigns c where c.scheme_id = s.id and c.deleted_at is null)::int`.as('campaigns'))
        .orderBy('s.id', 'desc')
        .limit(body.page_size)
        .offset((body.page - 1) * body.page_size)
        .execute();
      return { total, list: rows.map((r) => ({ id: r.id, name: r.name, status: r.status, campaigns: Number(r.campaigns), created_by: { id: r.user_id, name: r.user_name }, created_at: iso(r.created_at)! })) };
    },

    async create(ctx: RequestContext, body: CreateStartBody): Promise<{ task_ids: number[] }> {
      const actor = await forAssets(db, ctx.actor);
      const campaignIds = [...new Set(body.campaign_ids)];
      const schemeIds = [...new Set(body.scheme_ids)];
      if (campaignIds.length) {
        const visible = await scopedIds(db, actor, 'campaign', campaignIds);
        if (visible.size !== campaignIds.length) throw new AppError('FORBIDDEN_SCOPE', {}, 'campaign_ids');
      }
      await assertSchemes(ctx.actor, schemeIds);
      const now = clock.now().getTime();
      // Times are checked per zone group: on not in the past, off after on (a "now" start counts from now).
      const anyMarket = (body.on.mode === 'at' && body.on.zone === 'market') || body.off?.zone === 'market';
      for (const g of await groups(campaignIds, schemeIds, anyMarket ? { zone: 'market' } : null)) {
        const zoneOf = (z: string) => (z === 'market' ? g.zone! : z);
        const on = body.on.mode === 'now' ? now : wallToInstant(body.on.local, zoneOf(body.on.zone)).getTime();
        if (on < now - 60_000) throw new AppError('START_TIME_PAST', {}, 'on.local');
        if (body.off) {
          const off = wallToInstant(body.off.local, zoneOf(body.off.zone)).getTime();
          if (off <= on || off <= now) throw new AppError('START_OFF_BEFORE_ON', {}, 'off.local');
        }
      }
      // Zone groups are read before the transaction (PGlite has one connection: no reads beside it).
      const onGroups = await groups(campaignIds, schemeIds, body.on.mode === 'at' ? body.on : null);
      const offGroups = body.off ? await groups(campaignIds, schemeIds, body.off) : [];
      const taskIds: number[] = [];
      await db.transaction().execute(async (trx) => {
        const queue = async (action: 'activate' | 'pause', when: StartWhen, list: Group[], onTaskId: number | null) => {
          const ids: number[] = [];
          for (const g of list) {
            const data: StartJobData = {
              action,
              by: ctx.actor.id,
              campaign_ids: g.campaignIds,
              scheme_ids: g.schemeIds,
              ...(g.accountIds && { ad_account_ids: g.accountIds }),
              zone: when.mode === 'at' ? (g.zone ?? when.zone) : null,
              local: when.mode === 'at' ? when.local : null,
              on_task_id: onTaskId,
            };
            const startAt = startAtOf(when, g.zone);
            ids.push(await jobs.enqueue(START_JOB, data, { createdBy: ctx.actor.id, ...(startAt && { startAt }), trx }));
          }
          return ids;
        };
        const on = await queue('activate', body.on, onGroups, null);
        taskIds.push(...on);
        if (body.off) taskIds.push(...(await queue('pause', { mode: 'at', ...body.off }, offGroups, on[0] ?? null)));
      });
      return { task_ids: taskIds };
    },

    async list(ctx: RequestContext, body: ListStartTasksBody): Promise<{ list: StartTask[]; total: number }> {
      let q = db.selectFrom('job_runs as r').leftJoin('users as u', 'u.id', 'r.created_by').where('r.job_name', '=', START_JOB);
      const users = await visibleUserIds(db, ctx.actor);
      if (users) q = q.where('r.created_by', 'in', users.length ? users : [0]);
      if (body.status) q = q.where('r.status', '=', body.status);
      if (body.action === 'pause') q = q.where(sql<boolean>`r.data->>'action' = 'pause'`);
      if (body.action === 'activate') q = q.where(sql<boolean>`coalesce(r.data->>'action', 'activate') = 'activate'`);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['r.id', 'r.status', 'r.data', 'r.start_at', 'r.queued_at', 'r.finished_at', 'r.message', 'r.message_en', 'r.error', 'r.error_en', 'r.created_by', 'u.name as user_name'])
        .select(sql<number>`(select count(*) from ad_operations o where o.start_task_id = r.id and o.result = 'ok')::int`.as('ok'))
        .select(sql<number>`(select count(*) from ad_operations o where o.start_task_id = r.id and o.result = 'failed')::int`.as('failed'))
        .orderBy('r.id', 'desc')
        .limit(body.page_size)
        .offset((body.page - 1) * body.page_size)
        .execute();
      const schemeIds = [...new Set(rows.flatMap((r) => schemeIdsOf(r.data as StartJobData)))];
      const names = new Map(schemeIds.length ? (await db.selectFrom('publish_schemes').select(['id', 'name']).where('id', 'in', schemeIds).execute()).map((s) => [s.id, s.name]) : []);
      const en = ctx.lang === 'en';
      return {
        total,
        list: rows.map((r) => {
          const d = (r.data ?? {}) as StartJobData;
          return {
            id: Number(r.id),
            action: d.action ?? 'activate',
            status: r.status,
            start_at: iso(r.start_at),
            zone: d.zone ?? null,
            local: d.local ?? null,
            campaigns: d.campaign_ids?.length ?? 0,
            schemes: schemeIdsOf(d).map((id) => ({ id, name: names.get(id) ?? `#${id}` })),
            created_by: r.created_by ? { id: r.created_by, name: r.user_name ?? '' } : null,
            queued_at: iso(r.queued_at)!,
            finished_at: iso(r.finished_at),
            ok: Number(r.ok),
            failed: Number(r.failed),
            message: en ? (r.message_en ?? r.message) : r.message,
            error: en ? (r.error_en ?? r.error) : r.error,
            on_task_id: d.on_task_id ?? null,
          };
        }),
      };
    },

    async results(ctx: RequestContext, id: number): Promise<{ list: StartResult[] }> {
      await taskInScope(ctx, id);
      const rows = await db
        .selectFrom('ad_operations as o')
        .leftJoin('ad_accounts as a', 'a.id', 'o.ad_account_id')
        .select(['o.id', 'o.object_id', 'o.object_platform_id', 'o.object_name', 'o.result', 'o.error', 'o.error_en', 'o.created_at', 'a.id as account_id', 'a.name as account_name'])
        .where('o.start_task_id', '=', id)
        .orderBy('o.id')
        .execute();
      return {
        list: rows.map((r) => ({
          id: Number(r.id),
          object_id: r.object_id,
          object_platform_id: r.object_platform_id,
          object_name: r.object_name,
          ad_account: r.account_id ? { id: r.account_id, name: r.account_name ?? '' } : null,
          result: r.result,
          error: ctx.lang === 'en' ? (r.error_en ?? r.error) : r.error,
          created_at: iso(r.created_at)!,
        })),
      };
    },

    async cancel(ctx: RequestContext, id: number): Promise<{ cancelled: boolean }> {
      const run = await taskInScope(ctx, id);
      // Only a task that has not started can be called off; one that ran has switched already.
      if (run.status !== 'queued') throw new AppError('START_NOT_PENDING');
      return { cancelled: await jobs.cancel(id) };
    },
  };

  async function taskInScope(ctx: RequestContext, id: number) {
    const run = await db.selectFrom('job_runs').select(['id', 'status', 'created_by']).where('id', '=', id).where('job_name', '=', START_JOB).executeTakeFirst();
    const users = await visibleUserIds(db, ctx.actor);
    if (!run || (users && !users.includes(run.created_by ?? 0))) throw new AppError('START_TASK_NOT_FOUND');
    return run;
  }
}

function schemeIdsOf(d: StartJobData): number[] {
  return [...(d.scheme_ids ?? []), ...(d.scheme_id ? [d.scheme_id] : [])];
}

export type StartService = ReturnType<typeof createStartService>;

// A start task is checked when it is made and again when it runs: by then its creator may have
// been disabled, lost the role that lets them start objects, or lost the ad account. Switching
// on is then refused per object (each refusal is written to the operation log as the task).
// Managers and company-wide roles see every account.

export const START_PATH = '/advertising/start';

/** What the creator may still switch on now: the campaigns in their scope, or one refusal for all. */
export async function startAllowance(
  db: Db,
  userId: number | null,
  campaignIds: readonly number[],
  /** The wizard's own start (launch now / at): the scheme's publish path also allows it. */
  schemePlatform: Platform | null,
): Promise<{ refusal: Bilingual | null; allowed: Set<number> }> {
  const user = userId === null ? undefined : await db.selectFrom('users').select(['id', 'name', 'is_admin', 'is_leader', 'department_id', 'status', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.deleted_at || user.status !== 'enabled') return { refusal: both('START_CREATOR_INACTIVE', { name: user?.name ?? `#${userId ?? '-'}` }), allowed: new Set() };
  const roles = await db.selectFrom('user_roles as ur').innerJoin('roles as r', 'r.id', 'ur.role_id').select('r.paths').where('ur.user_id', '=', user.id).execute();
  const paths = derivePaths(user.is_admin, roles.flatMap((r) => r.paths));
  const may = paths.includes(START_PATH) || (schemePlatform !== null && paths.includes(PUBLISH_PATH_OF[schemePlatform]));
  if (!may) return { refusal: both('START_CREATOR_NO_ACCESS', { name: user.name }), allowed: new Set() };
  const actor = await forAssets(db, { id: user.id, is_admin: user.is_admin, is_leader: user.is_leader, department_id: user.department_id });
  if (!campaignIds.length) return { refusal: null, allowed: new Set() };
  // The campaign's ad account must still be theirs (or their team's): owning a campaign — which
  // the sync infers from being the account's only user, or a scheme records — does not outlast
  // losing the account.
  const accounts = await visibleAdAccountIds(db, actor);
  let q = db.selectFrom('ad_campaigns').select('id').where('id', 'in', [...campaignIds]);
  if (accounts !== null && !seesEverything(actor)) q = q.where('ad_account_id', 'in', accounts.length ? accounts : [0]);
  return { refusal: null, allowed: new Set((await q.execute()).map((r) => r.id)) };
}
