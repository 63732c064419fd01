import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import i18n from './i18n';

dayjs.extend(relativeTime);

/** An ISO instant as local date and time to the minute; '' for none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : '';
}

/** An ISO instant relative to now ("3 hours ago", "in 5 days") in the interface language; '' for none. */
export function formatRelative(iso: string | null | undefined, now: dayjs.ConfigType = undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.from(dayjs(now)) : '';
}

/**
 * Days from now until an instant, a started day counting as one (2.5 days → 3, so "within 7
 * days" and "≤ 7" agree); 0 or less once past; null for none.
 */
export function daysUntil(iso: string | null | undefined, now: dayjs.ConfigType = undefined): number | null {
  if (!iso) return null;
  const d = dayjs(iso);
  return d.isValid() ? Math.ceil(d.diff(dayjs(now), 'hour', true) / 24) : null;
}

/** Milliseconds since an instant (negative if it is ahead); null for none. */
export function msSince(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const d = dayjs(iso);
  return d.isValid() ? dayjs().diff(d) : null;
}

/**
 * Currencies without a minor unit on the ad platform (reference §0, the server's
 * platform/currency.ts): amounts in them are whole numbers, shown without decimals.
 */
const ZERO_DECIMAL_CURRENCIES = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);

export const currencyDecimals = (currency: string) => (ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2);

const numberLocale = () => (i18n.language === 'en' ? 'en-US' : 'zh-CN');

/**
 * A major-unit amount in its currency: grouped, 2 decimals (0 for JPY and the other
 * zero-decimal currencies), with the ISO code ("USD 1,234.50", "JPY 98,000").
 */
export function formatMoney(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '';
  const digits = currencyDecimals(currency);
  const n = new Intl.NumberFormat(numberLocale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
  return `${currency.toUpperCase()} ${n}`;
}

/** A count with grouping ("12,345"). */
export function formatCount(n: number): string {
  return new Intl.NumberFormat(numberLocale()).format(n);
}
