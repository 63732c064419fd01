import { type AdOperation, type AdOperationsBody, type Lang, textIn } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { RequestContext } from '../../lib/actor.ts';
import { seesEverything, visibleAdAccountIds, visibleUserIds } from '../../lib/scope.ts';
import { escapeLike } from '../../lib/sql.ts';

// The operation log (系统日志 all acts, copies first; 关闭日志 pauses; 删除日志 deletes): append-only
// rows of ad_operations, filtered by data scope — the caller's ad accounts, or acts of people
// whose data they see.

/** A day (`YYYY-MM-DD`, start of that UTC day) or an instant. */
const instant = (v: string, end: boolean) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(Date.parse(`${v}T00:00:00Z`) + (end ? 86_400_000 : 0)) : new Date(v));

export function createAdLogService({ db }: { db: Db }) {
  async function base(ctx: RequestContext, body: AdOperationsBody) {
    let q = db
      .selectFrom('ad_operations as o')
      .innerJoin('ad_accounts as a', 'a.id', 'o.ad_account_id')
      .leftJoin('users as u', 'u.id', 'o.actor_user_id');
    if (!seesEverything(ctx.actor)) {
      const accounts = (await visibleAdAccountIds(db, ctx.actor)) ?? [];
      const users = (await visibleUserIds(db, ctx.actor)) ?? [];
      q = q.where((eb) => eb.or([eb('o.ad_account_id', 'in', accounts.length ? accounts : [0]), eb('o.actor_user_id', 'in', users.length ? users : [0])]));
    }
    if (body.log === 'close') q = q.where('o.action', '=', 'pause');
    if (body.log === 'remove') q = q.where('o.action', '=', 'delete');
    if (body.time_from) q = q.where('o.created_at', '>=', instant(body.time_from, false));
    if (body.time_to) q = q.where('o.created_at', '<', instant(body.time_to, true));
    if (body.operator_id) q = q.where('o.actor_user_id', '=', body.operator_id);
    if (body.actor_type) q = q.where('o.actor_type', '=', body.actor_type);
    if (body.action) q = q.where('o.action', '=', body.action);
    if (body.ad_account_id) q = q.where('o.ad_account_id', '=', body.ad_account_id);
    if (body.result) q = q.where('o.result', '=', body.result);
    if (body.level) q = q.where('o.level', '=', body.level);
    if (body.batch_id) q = q.where('o.batch_id', '=', body.batch_id);
    if (body.keyword) {
      const like = `%${escapeLike(body.keyword)}%`;
      q = q.where((eb) => eb.or([eb('o.object_name', 'ilike', like), eb('o.object_platform_id', '=', body.keyword!)]));
    }
    if (body.campaign_id) {
      const id = body.campaign_id;
      q = q.where((eb) =>
        eb.or([
          eb.and([eb('o.level', '=', 'campaign'), eb('o.object_id', '=', id)]),
          eb.and([eb('o.level', '=', 'adset'), eb('o.object_id', 'in', eb.selectFrom('ad_sets').select('id').where('campaign_id', '=', id))]),
          eb.and([eb('o.level', '=', 'ad'), eb('o.object_id', 'in', eb.selectFrom('ads').select('id').where('campaign_id', '=', id))]),
        ]),
      );
    }
    return q;
  }

  const columns = [
    'o.id', 'o.batch_id', 'o.actor_type', 'o.actor_user_id', 'o.rule_id', 'o.start_task_id', 'o.action', 'o.level', 'o.object_id', 'o.object_platform_id', 'o.object_name',
    'o.ad_account_id', 'o.before', 'o.after', 'o.result', 'o.error', 'o.error_en', 'o.created_at', 'o.finished_at', 'a.name as account_name', 'a.platform_id as account_platform_id', 'u.name as actor_name', 'u.account as actor_account',
  ] as const;

  async function rows(ctx: RequestContext, body: AdOperationsBody, limit: number, offset: number): Promise<AdOperation[]> {
    let q = (await base(ctx, body)).select(columns);
    const dir = body.sort_order === 'ascend' ? 'asc' : 'desc';
    // 系统日志 lists copies first (the act people look for there), then newest first.
    if (body.log === 'all' && !body.sort_field) q = q.orderBy(sql`case when o.action = 'copy' then 0 else 1 end`);
    q = q.orderBy('o.created_at', dir).orderBy('o.id', dir);
    const found = await q.limit(limit).offset(offset).execute();
    return found.map((r) => ({
      id: Number(r.id),
      batch_id: r.batch_id,
      actor_type: r.actor_type,
      actor: r.actor_user_id ? { id: r.actor_user_id, name: r.actor_name ?? '', account: r.actor_account ?? '' } : null,
      rule_id: r.rule_id,
      start_task_id: r.start_task_id,
      action: r.action,
      level: r.level,
      object_id: r.object_id,
      object_platform_id: r.object_platform_id,
      object_name: r.object_name,
      ad_account: { id: r.ad_account_id, name: r.account_name, platform_id: r.account_platform_id },
      before: r.before,
      after: r.after,
      result: r.result,
      error: r.error === null ? null : textIn({ zh: r.error, en: r.error_en ?? r.error }, ctx.lang as Lang),
      created_at: r.created_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
    }));
  }

  return {
    async list(ctx: RequestContext, body: AdOperationsBody) {
      const count = await (await base(ctx, body)).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { list: await rows(ctx, body, body.page_size, (body.page - 1) * body.page_size), total: Number(count.n) };
    },
    exportRows: (ctx: RequestContext, body: AdOperationsBody, page: { limit: number; offset: number }) => rows(ctx, body, page.limit, page.offset),
  };
}

export type AdLogService = ReturnType<typeof createAdLogService>;
