import { errors } from '../errors.ts';
import type { GraphContext } from '../graph/context.ts';
import { NodeRef, type NodeDef, type NodeRegistry } from '../graph/node.ts';
import { currencyOffset } from '../money.ts';
import { minimumDailyBudget } from '../rules.ts';
import type { AdAccountRecord } from '../store/state.ts';
import { DAY_MS, formatGraphTime, localDate, offsetMinutes, startOfLocalDay } from '../time.ts';
import { ADS_READ, ADS_WRITE } from '../domain.ts';
import { userCanUseAccount } from './common.ts';
import { renderList, userPages } from './users.ts';

// Ad accounts (reference §2). The object families add their edges (`campaigns`, `adsets`…)
// through `accountEdges`, so this module does not need to know them.

/**
 * Simulator numbering of `timezone_id` [U]: Meta has its own enumeration, which the reference
 * does not list. Zones not in the table answer 0.
 */
const TIMEZONE_IDS: Record<string, number> = {
  'America/Los_Angeles': 1, 'America/Denver': 2, 'America/Chicago': 3, 'America/New_York': 4, 'Europe/London': 5,
  'Europe/Paris': 6, 'Europe/Berlin': 7, 'Asia/Shanghai': 8, 'Asia/Hong_Kong': 9, 'Asia/Taipei': 10, 'Asia/Tokyo': 11,
  'Asia/Seoul': 12, 'Asia/Singapore': 13, 'Asia/Bangkok': 14, 'Asia/Jakarta': 15, 'Asia/Manila': 16, 'Asia/Kolkata': 17,
  'Asia/Dubai': 18, 'Australia/Sydney': 19, 'America/Sao_Paulo': 20, 'America/Mexico_City': 21, UTC: 22,
};

/** Spending-limit changes allowed per rolling day (reference §2). */
const SPEND_CAP_CHANGES_PER_DAY = 10;

export function accountNode(registry: NodeRegistry, accountEdges: NodeDef<AdAccountRecord>['edges']): NodeDef<AdAccountRecord> {
  const spentSince = (ctx: GraphContext, a: AdAccountRecord, from: number) => ctx.sim.delivery.accountSpend(a.id, from, ctx.now);

  return {
    kind: 'adaccount',
    typeName: 'AdAccount',
    load: (ctx, id) => ctx.sim.store.account(id),
    visible: (ctx, a) => userCanUseAccount(ctx, a),
    accountId: (a) => a.id,
    fields: {
      id: (a) => `act_${a.id}`,
      account_id: (a) => a.id,
      name: (a) => a.name,
      account_status: (a) => a.account_status,
      disable_reason: (a) => a.disable_reason,
      currency: (a) => a.currency,
      timezone_name: (a) => a.timezone_name,
      timezone_id: (a) => TIMEZONE_IDS[a.timezone_name] ?? 0,
      timezone_offset_hours_utc: (a, ctx) => offsetMinutes(ctx.now, a.timezone_name) / 60,
      // Minor units, like budgets [U in the reference]; lifetime spend.
      amount_spent: (a, ctx) => String(spentSince(ctx, a, 0)),
      spend_cap: (a) => String(a.spend_cap),
      spend_cap_action: (a) => a.spend_cap_action,
      // Unbilled spend of the current month (the simulator bills on the 1st).
      balance: (a, ctx) => String(spentSince(ctx, a, startOfLocalDay(`${localDate(ctx.now, a.timezone_name).slice(0, 7)}-01`, a.timezone_name))),
      min_daily_budget: (a) => minimumDailyBudget(a.currency, 'IMPRESSIONS'),
      default_dsa_beneficiary: (a) => a.default_dsa_beneficiary,
      default_dsa_payor: (a) => a.default_dsa_payor,
      business: (a) => new NodeRef('business', a.business_id),
      owner: (a) => a.business_id,
      created_time: (a) => formatGraphTime(a.created_at, a.timezone_name),
      age: (a, ctx) => Math.round(((ctx.now - a.created_at) / DAY_MS) * 100) / 100,
      funding_source_details: (a) => ({ id: `${a.id}0`, display_string: 'Visa *4242', type: 1 }),
      is_prepay_account: () => false,
      user_tasks: () => ['DRAFT', 'ANALYZE', 'ADVERTISE', 'MANAGE'],
    },
    defaultFields: ['account_id', 'id'],
    scopes: { read: ADS_READ, write: ADS_WRITE },
    update: (ctx, a) => {
      const name = ctx.params.string('name');
      if (name !== undefined) a.name = name;
      const cap = ctx.params.number('spend_cap');
      if (cap !== undefined) {
        if (cap < 0) throw errors.invalidParameter('spend_cap must not be negative', { data: { blame_field_specs: [['spend_cap']] } });
        a.spend_cap_changes = a.spend_cap_changes.filter((t) => t > ctx.now - DAY_MS);
        if (a.spend_cap_changes.length >= SPEND_CAP_CHANGES_PER_DAY) throw errors.spendCapChangeLimit();
        a.spend_cap_changes.push(ctx.now);
        // Written in major units (a float), read back in minor units [U, reference §19].
        a.spend_cap = Math.round(cap * currencyOffset(a.currency));
      }
      const action = ctx.params.string('spend_cap_action');
      if (action !== undefined) a.spend_cap_action = action;
      // The EU's beneficiary and payer for ad sets that name none ('' clears them).
      for (const key of ['default_dsa_beneficiary', 'default_dsa_payor'] as const) {
        const value = ctx.params.string(key);
        if (value !== undefined) a[key] = value.trim() === '' ? undefined : value;
      }
      ctx.sim.store.changed();
      return { success: true };
    },
    edges: {
      ...accountEdges,
      promote_pages: {
        get: (ctx) => renderList(ctx, registry, 'page', userPages(ctx), ['id', 'name']),
      },
    },
  };
}
