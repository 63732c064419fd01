import {
  BUDGET_TO_BID_MULTIPLE, EU_COUNTRIES, EU_COUNTRY_GROUPS, FULL_MINIMUM_CURRENCIES, MIN_BUDGET_CLASS_BY_BILLING_EVENT, MIN_DAILY_BUDGET_USD,
  ROAS_FLOOR_RANGE,
} from './domain.ts';
import { errors } from './errors.ts';
import { currencyOffset, unitsPerUsd } from './money.ts';
import type { AdAccountRecord, AdSetRecord, CampaignRecord } from './store/state.ts';
import { DAY_MS } from './time.ts';

// Publishing rules Meta enforces on ad sets and campaigns beyond field syntax (README
// "Publishing rules" lists them with their codes and sources): minimum budgets, bid caps,
// minimum-ROAS bidding and the EU's beneficiary and payer.

/** The smallest daily budget (minor units) for an ad set charged for `billingEvent` in `currency`. */
export function minimumDailyBudget(currency: string, billingEvent: string | undefined): number {
  const cls = MIN_BUDGET_CLASS_BY_BILLING_EVENT[billingEvent ?? 'IMPRESSIONS'] ?? 'impressions';
  const usd = MIN_DAILY_BUDGET_USD[cls] * (FULL_MINIMUM_CURRENCIES.has(currency) ? 1 : 0.5);
  // Rounded up to a whole minor unit: a budget just under the USD figure is too low.
  return Math.ceil(usd * unitsPerUsd(currency) * currencyOffset(currency) - 1e-9);
}

/** Whole days a lifetime budget runs for (at least one). */
function scheduleDays(start: number, end: number): number {
  return Math.max(1, Math.ceil((end - start) / DAY_MS));
}

interface BudgetOwner {
  daily_budget?: number;
  lifetime_budget?: number;
}

/**
 * A budget against Meta's minimums: the daily minimum for the billing event (a lifetime budget:
 * that many times the days it runs), and with a bid or cost cap at least 5× the bid per day.
 */
export function assertBudgetMinimums(
  owner: BudgetOwner,
  currency: string,
  opts: { billingEvent?: string; bidAmount?: number; capped: boolean; start: number; end?: number; prefix?: string[] },
): void {
  const prefix = opts.prefix ?? [];
  const days = owner.lifetime_budget !== undefined && opts.end !== undefined ? scheduleDays(opts.start, opts.end) : 1;
  const field = owner.daily_budget !== undefined ? 'daily_budget' : 'lifetime_budget';
  const budget = owner.daily_budget ?? owner.lifetime_budget;
  if (budget === undefined) return;
  const minimum = minimumDailyBudget(currency, opts.billingEvent) * days;
  if (budget < minimum) throw errors.budgetTooLow(minimum, currency, [...prefix, field].join('.'));
  if (opts.capped && opts.bidAmount !== undefined) {
    const byBid = opts.bidAmount * BUDGET_TO_BID_MULTIPLE * days;
    if (budget < byBid) throw errors.budgetBelowBid(byBid, currency, [...prefix, field].join('.'));
  }
}

/** The ad set's bid strategy: its own, or its campaign's (CBO campaigns set it there). */
export function effectiveBidStrategy(s: Pick<AdSetRecord, 'bid_strategy'>, campaign: Pick<CampaignRecord, 'bid_strategy'>): string {
  return s.bid_strategy ?? campaign.bid_strategy ?? 'LOWEST_COST_WITHOUT_CAP';
}

/**
 * Bid strategies' own needs: a cap needs bid_amount; minimum ROAS needs
 * bid_constraints.roas_average_floor, value optimisation, and no bid_amount.
 */
export function assertBidStrategy(s: AdSetRecord, strategy: string): void {
  if (strategy === 'LOWEST_COST_WITH_BID_CAP' || strategy === 'COST_CAP') {
    if (s.bid_amount === undefined) throw errors.bidConstraintsRequired(strategy, ['bid_amount']);
    return;
  }
  if (strategy !== 'LOWEST_COST_WITH_MIN_ROAS') return;
  const floor = Number(s.bid_constraints?.roas_average_floor);
  if (s.bid_constraints?.roas_average_floor === undefined || !Number.isFinite(floor)) {
    throw errors.bidConstraintsRequired(strategy, ['bid_constraints', 'roas_average_floor']);
  }
  if (!Number.isInteger(floor) || floor < ROAS_FLOOR_RANGE.min || floor > ROAS_FLOOR_RANGE.max) {
    throw errors.invalidParameter(
      `bid_constraints[roas_average_floor] must be an integer from ${ROAS_FLOOR_RANGE.min} to ${ROAS_FLOOR_RANGE.max} (the minimum ROAS × 10000)`,
      { data: { blame_field_specs: [['bid_constraints', 'roas_average_floor']] } },
    );
  }
  if (s.optimization_goal !== 'VALUE') {
    throw errors.invalidParameter('Invalid parameter', {
      userTitle: 'Minimum ROAS needs value optimization',
      userMsg: `The bid strategy LOWEST_COST_WITH_MIN_ROAS optimizes for purchase value: set optimization_goal to VALUE (not ${s.optimization_goal}).`,
      data: { blame_field_specs: [['optimization_goal']] },
    });
  }
  if (s.bid_amount !== undefined) {
    throw errors.invalidParameter('Invalid parameter', {
      userTitle: 'Bid amount not used with minimum ROAS',
      userMsg: 'The bid strategy LOWEST_COST_WITH_MIN_ROAS takes bid_constraints.roas_average_floor, not bid_amount.',
      data: { blame_field_specs: [['bid_amount']] },
    });
  }
}

/** Whether targeting can reach the EU: an EU country, or a country group containing it, not excluded. */
export function targetsEu(targeting: Record<string, unknown>): boolean {
  const geo = (targeting.geo_locations ?? {}) as { countries?: unknown; country_groups?: unknown; regions?: unknown; cities?: unknown };
  const excludedGeo = (targeting.excluded_geo_locations ?? {}) as { countries?: unknown };
  const list = (v: unknown) => (Array.isArray(v) ? v.map((x) => String(x).toUpperCase()) : []);
  const excluded = new Set(list(excludedGeo.countries));
  const countries = list(geo.countries);
  if (countries.some((c) => EU_COUNTRIES.has(c) && !excluded.has(c))) return true;
  const groups = list(geo.country_groups).map((g) => g.toLowerCase());
  if (groups.some((g) => EU_COUNTRY_GROUPS.has(g))) return [...EU_COUNTRIES].some((c) => !excluded.has(c));
  // Regions and cities name their country in `country` when Meta returns them expanded.
  const places = [...(Array.isArray(geo.regions) ? geo.regions : []), ...(Array.isArray(geo.cities) ? geo.cities : [])] as Array<{ country?: unknown }>;
  return places.some((p) => typeof p?.country === 'string' && EU_COUNTRIES.has(p.country.toUpperCase()) && !excluded.has(p.country.toUpperCase()));
}

/** An EU-targeted ad set names its beneficiary and payer (its own, or the account's defaults). */
export function assertDsa(s: AdSetRecord, account: AdAccountRecord): void {
  if (!targetsEu(s.targeting)) return;
  if (!(s.dsa_beneficiary ?? account.default_dsa_beneficiary)?.trim()) throw errors.dsaBeneficiaryMissing();
  if (!(s.dsa_payor ?? account.default_dsa_payor)?.trim()) throw errors.dsaPayorMissing();
}
