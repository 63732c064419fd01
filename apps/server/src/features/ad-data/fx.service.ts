import type { SaveFxRateBody } from '@ads/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { isManager, type RequestContext } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { currencyOffset } from '../../platform/currency.ts';
import { writeAudit } from '../audit/audit.service.ts';
import { repriceOrders } from '../orders/order-fx.service.ts';

// Daily exchange rates (design §2): units of a currency per US dollar; a day without a rate uses
// the last known earlier one. Managers edit them; the USD columns of the report facts, and the
// orders and refunds paid on those days with their cohort facts (orders' order-fx.service), are
// recomputed at once for the days the rate governs, so reports never join rates.

export function createFxService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async list(body: { page: number; page_size: number; currency?: string }) {
      let q = db.selectFrom('fx_rates as r').leftJoin('users as u', 'u.id', 'r.updated_by');
      if (body.currency) q = q.where('r.currency', '=', body.currency);
      const [rows, count] = await Promise.all([
        q.select(['r.currency', 'r.day', 'r.units_per_usd', 'r.updated_by', 'r.updated_at', 'u.name as user_name']).orderBy('r.currency').orderBy('r.day', 'desc').limit(body.page_size).offset((body.page - 1) * body.page_size).execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        list: rows.map((r) => ({ currency: r.currency, day: r.day, units_per_usd: Number(r.units_per_usd), updated_by: r.updated_by ? { id: r.updated_by, name: r.user_name ?? '' } : null, updated_at: r.updated_at.toISOString() })),
        total: Number(count.n),
      };
    },

    /** Sets a currency's rate from a day on, and recomputes USD of the report facts it governs (until the next rate). */
    async save(ctx: RequestContext, body: SaveFxRateBody): Promise<{ updated_rows: number }> {
      if (!isManager(ctx.actor)) throw new AppError('FORBIDDEN');
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('fx_rates').select('units_per_usd').where('currency', '=', body.currency).where('day', '=', body.day).executeTakeFirst();
        await trx
          .insertInto('fx_rates')
          .values({ currency: body.currency, day: body.day, units_per_usd: body.units_per_usd, updated_by: ctx.actor.id, updated_at: now })
          .onConflict((oc) => oc.columns(['currency', 'day']).doUpdateSet({ units_per_usd: body.units_per_usd, updated_by: ctx.actor.id, updated_at: now }))
          .execute();
        const next = await trx.selectFrom('fx_rates').select('day').where('currency', '=', body.currency).where('day', '>', body.day).orderBy('day').limit(1).executeTakeFirst();
        const factor = 100 / currencyOffset(body.currency) / body.units_per_usd;
        const until = next ? sql`and day < ${next.day}` : sql``;
        const res = await sql`
          update ad_stats_daily set spend_usd_cents = round(spend_minor * ${factor}::float8), purchase_value_usd_cents = round(purchase_value_minor * ${factor}::float8)
          where currency = ${body.currency} and day >= ${body.day} ${until}`.execute(trx);
        await sql`
          update campaign_stats_daily c set spend_usd_cents = x.spend, purchase_value_usd_cents = x.value
          from (select campaign_id, day, sum(spend_usd_cents) as spend, sum(purchase_value_usd_cents) as value from ad_stats_daily
                where currency = ${body.currency} and day >= ${body.day} ${until} group by campaign_id, day) x
          where c.campaign_id = x.campaign_id and c.day = x.day`.execute(trx);
        const orders = await repriceOrders(trx, body.currency, body.day);
        await writeAudit(trx, { actor: ctx.actor, ip: ctx.ip, requestId: ctx.requestId }, { action: 'fx_rate.save', entity_type: 'fx_rate', entity_id: `${body.currency}:${body.day}`, before: before ? { units_per_usd: Number(before.units_per_usd) } : null, after: { units_per_usd: body.units_per_usd } });
        return { updated_rows: Number(res.numAffectedRows ?? 0) + orders.orders + orders.refunds };
      });
    },
  };
}

export type FxService = ReturnType<typeof createFxService>;
