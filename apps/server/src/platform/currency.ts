// Money on the ad platform (reference §0): budgets, bids, balances and spend caps are integers in
// the currency's minor unit ("offset"); Insights spend is a decimal string in major units. Every
// conversion between the two goes through here.

/**
 * Currencies Meta treats as having no minor unit (offset 1): a budget of 1000 is ¥1000, not ¥10.
 * Source: developers.facebook.com/docs/marketing-api/currencies. All others use offset 100.
 */
const OFFSET_ONE = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);

/** Minor units per major unit on the platform: 100 for USD (1000 = 10.00), 1 for JPY. */
export function currencyOffset(currency: string): 1 | 100 {
  return OFFSET_ONE.has(currency.toUpperCase()) ? 1 : 100;
}

/**
 * Major units (a number, or a decimal string such as Insights' "5339.5") → integer minor units,
 * rounded half away from zero. The product is first cut to 15 significant digits, which drops
 * binary floating-point noise (0.285 × 100 = 28.499999999999996 → 28.5 → 29).
 */
export function toMinor(major: number | string, currency: string): number {
  const value = typeof major === 'string' ? Number(major.trim()) : major;
  if (!Number.isFinite(value) || (typeof major === 'string' && major.trim() === '')) {
    throw new RangeError(`not an amount: ${String(major)}`);
  }
  const scaled = Number((value * currencyOffset(currency)).toPrecision(15));
  return Math.sign(scaled) * Math.round(Math.abs(scaled)) || 0;
}

/** Integer minor units → major units (1999 USD → 19.99, 1999 JPY → 1999). */
export function toMajor(minor: number, currency: string): number {
  if (!Number.isInteger(minor)) throw new RangeError(`minor units must be an integer: ${minor}`);
  return minor / currencyOffset(currency);
}
