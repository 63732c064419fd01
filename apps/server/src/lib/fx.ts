import { sql, type RawBuilder } from 'kysely';
import { currencyOffset } from '../platform/currency.ts';

/**
 * Reference exchange rates (units of the currency per US dollar) for the USD figures of asset
 * lists (ad account spend and balance totals). Reports convert at a configurable daily rate
 * (PRODUCT.md "Metrics"); these fixed rates only give lists a comparable order of magnitude and
 * are replaced by that rate table once it exists.
 */
const UNITS_PER_USD: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.92, GBP: 0.79, CNY: 7.2, HKD: 7.8, TWD: 32, JPY: 150, KRW: 1350, SGD: 1.35,
  AUD: 1.5, CAD: 1.36, NZD: 1.65, CHF: 0.88, BRL: 5, MXN: 17, INR: 83, IDR: 15600, THB: 36,
  VND: 24500, PHP: 56, MYR: 4.7, CLP: 900, COP: 3900, CRC: 520, HUF: 360, ISK: 138, PYG: 7300,
  TRY: 32, AED: 3.67, SAR: 3.75, ZAR: 18.5, PLN: 4, SEK: 10.5, NOK: 10.6, DKK: 6.9,
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Minor units of a currency → US dollars (2 decimals); null for a currency without a rate. */
export function minorToUsd(minor: number, currency: string): number | null {
  const rate = UNITS_PER_USD[currency.toUpperCase()];
  if (!rate) return null;
  return round2(minor / currencyOffset(currency) / rate);
}

/** The same conversion in SQL, for sorting a list by value across currencies (null without a rate). */
export function minorToUsdSql(minorColumn: string, currencyColumn: string): RawBuilder<number | null> {
  const cases = Object.entries(UNITS_PER_USD).map(([code, rate]) => sql`when ${code} then ${1 / currencyOffset(code) / rate}::float8`);
  return sql<number | null>`(${sql.ref(minorColumn)} * (case ${sql.ref(currencyColumn)} ${sql.join(cases, sql` `)} else null end))`;
}
