// Currencies: Graph budgets and bids are integers in the currency's minor unit ("offset"),
// Insights spend is a decimal string in major units (reference §0).

/** Currencies whose offset is 1 (no minor unit in the API); everything else has offset 100. */
const OFFSET_ONE = new Set(['JPY', 'KRW', 'TWD', 'CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'PYG', 'VND']);

/**
 * Rough units per US dollar, only to keep simulated prices plausible in every currency
 * (a CPM of ¥1800 rather than ¥15). Not a rate anyone should convert money with.
 */
const UNITS_PER_USD: Record<string, number> = {
  USD: 1, EUR: 0.92, GBP: 0.79, CNY: 7.2, HKD: 7.8, TWD: 32, JPY: 150, KRW: 1350, SGD: 1.35,
  AUD: 1.5, CAD: 1.36, NZD: 1.65, CHF: 0.88, BRL: 5, MXN: 17, INR: 83, IDR: 15600, THB: 36,
  VND: 24500, PHP: 56, MYR: 4.7, CLP: 900, COP: 3900, CRC: 520, HUF: 360, ISK: 138, PYG: 7300,
  TRY: 32, AED: 3.67, SAR: 3.75, ZAR: 18.5, PLN: 4, SEK: 10.5, NOK: 10.6, DKK: 6.9, ILS: 3.7,
};

export function isSupportedCurrency(currency: string): boolean {
  return currency in UNITS_PER_USD;
}

export function supportedCurrencies(): string[] {
  return Object.keys(UNITS_PER_USD);
}

/** Minor units per major unit: 100 for USD (1000 = 10.00), 1 for JPY. */
export function currencyOffset(currency: string): number {
  return OFFSET_ONE.has(currency) ? 1 : 100;
}

/** Converts a USD amount to minor units of the currency (rounded). */
export function usdToMinor(usd: number, currency: string): number {
  return Math.round(usd * (UNITS_PER_USD[currency] ?? 1) * currencyOffset(currency));
}

/** Minor units → the Insights style decimal string in major units ("5339.5", "1200"). */
export function minorToMajorString(minor: number, currency: string): string {
  const offset = currencyOffset(currency);
  if (offset === 1) return String(minor);
  return String(Math.round(minor) / 100);
}

/** Rough units of the currency per US dollar (1 for unknown codes). */
export function unitsPerUsd(currency: string): number {
  return UNITS_PER_USD[currency] ?? 1;
}

/** Digits after the decimal point in the currency's major unit (0 for JPY, 2 for USD). */
export function currencyDecimals(currency: string): number {
  return currencyOffset(currency) === 1 ? 0 : 2;
}

/**
 * A shop price in major units ("4.99", "1500") → minor units, or undefined when it is not a
 * positive decimal with at most the currency's decimals.
 */
export function parseMajor(text: string, currency: string): number | undefined {
  const decimals = currencyDecimals(currency);
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!m || (m[2] !== undefined && m[2].length > decimals)) return undefined;
  const minor = Number(m[1]) * currencyOffset(currency) + (m[2] ? Number(m[2].padEnd(decimals, '0')) : 0);
  return minor > 0 && Number.isSafeInteger(minor) ? minor : undefined;
}

/** Minor units → major units with exactly the currency's decimals ("10.00", "1500"). */
export function formatMajor(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return String(minor);
  const whole = Math.floor(minor / 100);
  return `${whole}.${String(minor % 100).padStart(2, '0')}`;
}

/**
 * A USD price point as a local shop would print it, in minor units: 9.99 USD → 9.99 EUR-ish
 * prices end in .99 (EUR 9.99, GBP 7.99), zero-decimal currencies get two significant digits
 * (JPY 1500, KRW 13000).
 */
export function localPrice(usd: number, currency: string): number {
  const local = usd * unitsPerUsd(currency);
  if (currencyOffset(currency) === 1) {
    const step = 10 ** Math.max(0, Math.floor(Math.log10(local)) - 1);
    return Math.max(1, Math.round(local / step) * step);
  }
  if (currency === 'USD') return Math.round(usd * 100);
  return Math.max(99, Math.ceil(local) * 100 - 1);
}
