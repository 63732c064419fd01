import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { currencyOffset } from '../platform/currency.ts';

/**
 * US dollar figures from the daily exchange-rate table (fx_rates, migration 0010; managers edit
 * it): units of a currency per dollar, a day without a rate using the last known earlier one.
 * Reports store USD per ad-day when they sync (features/ad-data); lists of assets (ad account
 * spend and balance) convert at the latest known rate.
 */

const OFFSET_ONE = ['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND'];

/** Latest known units per USD of each currency (on or before `day` when given). */
export async function latestRates(db: Db, currencies: readonly string[], day?: string): Promise<Map<string, number>> {
  const wanted = [...new Set(currencies.map((c) => c.toUpperCase()))];
  if (!wanted.length) return new Map();
  let q = db.selectFrom('fx_rates').select(['currency', 'day', 'units_per_usd']).where('currency', 'in', wanted);
  if (day) q = q.where('day', '<=', day);
  const rows = await q.orderBy('day').execute();
  return new Map(rows.map((r) => [r.currency, Number(r.units_per_usd)]));
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Minor units of a currency → US dollars (2 decimals); null for a currency without a rate. */
export function minorToUsd(minor: number, currency: string, rates: ReadonlyMap<string, number>): number | null {
  const rate = rates.get(currency.toUpperCase());
  if (!rate) return null;
  return round2(minor / currencyOffset(currency) / rate);
}

/** The same conversion in SQL at the latest known rate, for sorting a list by value across currencies (null without a rate). */
export function minorToUsdSql(minorColumn: string, currencyColumn: string): RawBuilder<number | null> {
  const offset = sql`(case when upper(${sql.ref(currencyColumn)}) in (${sql.join(OFFSET_ONE)}) then 1 else 100 end)`;
  const rate = sql`(select r.units_per_usd from fx_rates r where r.currency = upper(${sql.ref(currencyColumn)}) order by r.day desc limit 1)`;
  return sql<number | null>`(${sql.ref(minorColumn)}::float8 / ${offset} / ${rate}::float8)`;
}
